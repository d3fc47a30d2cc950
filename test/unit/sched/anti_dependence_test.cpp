// Tests for anti-dependences in global code motion and the local scheduler:
// a load is placed, and ordered, before any store or call that may
// overwrite what it reads, even when its only use comes after them.
#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "opt/pipeline.h"
#include "parser/parser.h"
#include "sched/cfg.h"
#include "sched/gcm.h"
#include "sched/overwriters.h"
#include "son/mem_access.h"

using namespace simplec;

namespace {

struct Parsed {
  Unit g;
  DiagEngine diag;
  bool ok = false;
  explicit Parsed(const std::string& text) {
    SourceFile src("t.smp", text);
    ok = parseFile(src, diag, g);
  }
};

// Position of `n` in the flattened schedule (block layout order, then
// order in the block), or -1.
int positionOf(const Schedule& s, const Node* n) {
  int pos = 0;
  for (const BasicBlock& b : s.blocks)
    for (const Node* x : b.nodes) {
      if (x == n) return pos;
      pos++;
    }
  return -1;
}

std::vector<Node*> live(const Graph& g, Op op) {
  std::vector<Node*> r;
  for (Node* n : liveNodes(g))
    if (n->op == op) r.push_back(n);
  return r;
}

}  // namespace

TEST_CASE("anti-dependence: a load stays before the store that overwrites it", "[sched][gcm][mem]") {
  // x = a[i] is used only after a[i] = 5 (a parameter: nothing is known
  // about its contents): the load must come first although its use is later.
  Parsed p("val f = { int[] a, int i -> int x = a[i]; a[i] = 5; x * 3; };\n"
           "int[] a = new int[4]; return f(a, arg);");
  REQUIRE(p.ok);
  int fi = -1;
  for (size_t k = 0; k < p.g.funs.size(); k++)
    if (p.g.funs[k].name == "f") fi = int(k);
  REQUIRE(fi >= 0);
  Schedule s = gcm(*p.g.graph(fi));
  Node* load = nullptr;
  Node* store = nullptr;
  for (Node* n : liveNodes(*p.g.graph(fi))) {
    if (s.blockIndexOf(n) < 0) continue;
    if (n->op == Op::Load && n->in[1]) load = n;
    if (n->op == Op::Store) store = n;
  }
  REQUIRE(load);
  REQUIRE(store);
  CHECK(load->in[1] == store->in[1]);
  CHECK(positionOf(s, load) < positionOf(s, store));
}

TEST_CASE("anti-dependence: a load used after a call that may write stays before it", "[sched][gcm][mem]") {
  Parsed p("val set = { int[] a -> a[0] = 9; };\n"
           "int[] a = new int[1]; a[0] = arg; int y = a[arg - 1]; set(a); sys.io.p(y); return 0;");
  REQUIRE(p.ok);
  Schedule s = gcm(*p.g.graph(0));
  Node* load = nullptr;
  for (Node* l : live(*p.g.graph(0), Op::Load))
    if (l->in[0] && p.g.funs[0].fun) load = l;
  REQUIRE(load);
  Node* setCall = nullptr;
  for (Node* c : live(*p.g.graph(0), Op::Call))
    if (c->in[2]->type == Type::funPtr(1)) setCall = c;
  REQUIRE(setCall);
  CHECK(positionOf(s, load) >= 0);
  CHECK(positionOf(s, load) < positionOf(s, setCall));
}

TEST_CASE("anti-dependence: a load feeding a later iteration stays above the loop's store", "[sched][gcm][mem]") {
  // prev = b[0]; b[0] = i + 1; inside a loop: the load may not sink below
  // the store of the same iteration.
  Parsed p("int[] b = new int[1]; int s = 0;\n"
           "for (int i = 0; i < arg; i++) { int prev = b[0]; b[0] = i + 1; s = s + prev; }\n"
           "return s;");
  REQUIRE(p.ok);
  Schedule s = gcm(*p.g.graph(0));
  std::vector<Node*> loads = live(*p.g.graph(0), Op::Load);
  std::vector<Node*> stores = live(*p.g.graph(0), Op::Store);
  REQUIRE(stores.size() == 1);
  int checked = 0;
  for (Node* l : loads)
    if (l->in[1] == stores[0]->in[1]) {
      CHECK(s.blockIndexOf(l) == s.blockIndexOf(stores[0]));
      CHECK(positionOf(s, l) < positionOf(s, stores[0]));
      checked++;
    }
  CHECK(checked == 1);
}

TEST_CASE("anti-dependence: a load stays before a later loop its memory enters through a MergeMem",
          "[sched][gcm][mem]") {
  // After inlining, the memory state `start = sc.x` reads (the first loop's
  // memory Phi) reaches the later loops' memory Phis only through a
  // MergeMem; those loops store sc.x, so the load must stay above them
  // although its use (the print) comes after them. (`look` makes the
  // object escape, so that scalar replacement leaves its fields in memory.)
  Parsed p(
      "struct Scan { int !x; u8[~] buf;\n"
      "  val skip = { -> while (x < buf# && buf[x] <= ' ') x++; return self; };\n"
      "  val number = { -> self.skip(); int v = 0;\n"
      "    while (x < buf# && '0' <= buf[x] <= '9') { v = v * 10 + (buf[x] - '0'); x++; } return v; }; };\n"
      "val seen = { Scan s -> return s.x; };\nval unseen = { Scan s -> return 0; };\n"
      "Scan !sc = new Scan { buf = \" 12\"; };\n"
      "{ Scan -> int } look = arg > 5 ? seen : unseen;\nlook(sc);\n"
      "sc.skip(); int start = sc.x; int v = sc.number(); sys.io.p(start); return v;");
  REQUIRE(p.ok);
  PassOptions o;
  o.verifyEach = true;
  runPipeline(p.g, o);
  int main = -1;
  for (size_t i = 0; i < p.g.funs.size(); i++)
    if (p.g.funs[i].isEntry) main = int(i);
  REQUIRE(main >= 0);
  Schedule s = gcm(*p.g.graph(main));
  // The printed load: the argument of the call to __simplec_print_i64.
  Node* load = nullptr;
  for (Node* c : live(*p.g.graph(main), Op::Call))
    if (c->in.size() > 3 && c->in[3]->op == Op::Load) load = c->in[3];
  REQUIRE(load);
  int checked = 0;
  for (Node* st : live(*p.g.graph(main), Op::Store)) {
    if (st->aux != load->aux || st->in[1] == load->in[1] || s.blockIndexOf(st) < 0) continue;
    // A store of sc.x taking a later memory state: in the later loops.
    CHECK(positionOf(s, load) < positionOf(s, st));
    checked++;
  }
  CHECK(checked >= 1);
}

TEST_CASE("anti-dependence: a store of another alias class never overwrites a load", "[sched][gcm][mem]") {
  // s.y and v[0] = t both take the entry memory (no class has its own state
  // yet). The field load is pinned below the bounds check of v[v[t]], whose
  // index reads the stored element: an anti-dependence from the load to the
  // array store would close a cycle (issue 13's internal error at -O0/-O1).
  for (int level : {0, 1, 2}) {
    INFO("-O" << level);
    Parsed p(
        "struct P { int y; };\n"
        "val f = { int[] v, P s, int t -> v[0] = t; v[v[t]] = 1; return s.y; };\n");
    REQUIRE(p.ok);
    PassOptions o;
    o.optLevel = level;
    o.verifyEach = true;
    runPipeline(p.g, o);
    int fi = -1;
    for (size_t k = 0; k < p.g.funs.size(); k++)
      if (p.g.funs[k].name == "f") fi = int(k);
    REQUIRE(fi >= 0);
    const Graph& g = *p.g.graph(fi);
    Node* field = nullptr;
    for (Node* l : live(g, Op::Load))
      if (p.g.aliases[size_t(MemAccess::decode(l->aux).alias)] == "P.y") field = l;
    REQUIRE(field);
    Schedule s = gcm(g);  // no dependence cycle
    FunctionCfg cfg = buildCfg(g);
    MemoryIndex mem(g, cfg.nodes);
    int writers = 0;
    mem.forEachOverwriter(
        field, [&](const Node*) { writers++; }, [](const Node*, const Node*) {}, [](const Node*) { return false; });
    CHECK(writers == 0);
    CHECK(positionOf(s, field) >= 0);
  }
}
