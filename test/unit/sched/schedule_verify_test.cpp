// Tests for the schedule checker itself: it accepts gcm's schedules and
// catches each kind of broken schedule (order, block, idom, loop depth,
// missing node, wrong predecessors), so the other tests can rely on it.
#include "sched/schedule_verify.h"

#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "opt/pipeline.h"
#include "sched/cfg.h"
#include "son/mem_access.h"
#include "test/unit/sched/sched_builder.h"

using namespace simplec;
using simplec::test::blockOfHead;
using simplec::test::checkedGcm;
using simplec::test::FunBuilder;

namespace {

struct LoopFun {
  Unit u;
  Graph* gp = nullptr;
  Node *loop, *i, *i1, *x, *cmp;
  FunBuilder::Branch br;
  int index;
};

// for (i = 0; i < n; i++) x = i * 5;  return x (via a Phi)
void build(LoopFun& L) {
  FunBuilder f(L.u, "lf", 1);
  L.gp = &f.g;
  L.index = f.index;
  L.loop = f.loop(f.fun);
  L.i = f.loopPhi(L.loop, f.con(0));
  L.cmp = f.cmp(Op::LT, L.i, f.parm(0));
  L.br = f.branch(L.loop, L.cmp);
  L.i1 = f.add(L.i, f.con(1));
  L.x = f.op(Op::Mul, L.i1, f.con(5));
  f.closeLoop(L.loop, L.br.t);
  f.setBack(L.i, L.x);
  f.ret(L.br.f, f.mem, L.i);
}

bool mentions(const std::vector<std::string>& errs, const std::string& what) {
  for (const std::string& e : errs)
    if (e.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("the checker accepts gcm's schedule and rejects broken ones", "[sched][verify]") {
  LoopFun L;
  build(L);
  Schedule good = checkedGcm((*L.gp));
  int body = good.blockIndexOf(L.x);
  REQUIRE(body == blockOfHead(good, L.br.t));

  SECTION("inputs after their use") {
    Schedule s = good;
    auto& ns = s.blocks[size_t(body)].nodes;
    auto a = std::find(ns.begin(), ns.end(), L.i1), b = std::find(ns.begin(), ns.end(), L.x);
    REQUIRE(a < b);
    std::iter_swap(a, b);
    CHECK(mentions(verifySchedule((*L.gp), s), "comes after it"));
  }
  SECTION("a use in a block its input does not dominate") {
    Schedule s = good;
    int exitB = blockOfHead(s, L.br.f);
    // Move i1 from the loop body to the exit block: it no longer dominates x.
    auto& ns = s.blocks[size_t(body)].nodes;
    ns.erase(std::find(ns.begin(), ns.end(), L.i1));
    auto& es = s.blocks[size_t(exitB)].nodes;
    es.insert(es.end() - 1, L.i1);
    s.blockOf[L.i1->id] = exitB;
    CHECK(mentions(verifySchedule((*L.gp), s), "does not dominate"));
  }
  SECTION("blockOf out of sync") {
    Schedule s = good;
    s.blockOf[L.x->id] = 0;
    CHECK(mentions(verifySchedule((*L.gp), s), "blockOf says"));
  }
  SECTION("a missing node") {
    Schedule s = good;
    auto& ns = s.blocks[size_t(body)].nodes;
    ns.erase(std::find(ns.begin(), ns.end(), L.x));
    s.blockOf[L.x->id] = -1;
    CHECK(mentions(verifySchedule((*L.gp), s), "is not scheduled"));
  }
  SECTION("a wrong idom") {
    Schedule s = good;
    int exitB = blockOfHead(s, L.br.f);
    s.blocks[size_t(exitB)].idom = 0;  // shallower than the truth (the loop header)
    CHECK(mentions(verifySchedule((*L.gp), s), "idom is"));
  }
  SECTION("a wrong loop depth") {
    Schedule s = good;
    s.blocks[size_t(blockOfHead(s, L.br.f))].loopDepth = 1;
    CHECK(mentions(verifySchedule((*L.gp), s), "loop depth"));
  }
  SECTION("predecessors out of order") {
    Schedule s = good;
    auto& p = s.blocks[size_t(blockOfHead(s, L.loop))].preds;
    std::swap(p[0], p[1]);
    CHECK(!verifySchedule((*L.gp), s).empty());
  }
  SECTION("the If not last") {
    Schedule s = good;
    auto& ns = s.blocks[size_t(s.blockIndexOf(L.br.iff))].nodes;
    std::iter_swap(ns.end() - 1, ns.end() - 2);
    CHECK(mentions(verifySchedule((*L.gp), s), "must be the last node"));
  }
  SECTION("a Phi after other nodes") {
    Schedule s = good;
    auto& ns = s.blocks[size_t(s.blockIndexOf(L.i))].nodes;
    REQUIRE(ns[1] == L.i);
    std::rotate(ns.begin() + 1, ns.begin() + 2, ns.begin() + 3);
    CHECK(mentions(verifySchedule((*L.gp), s), "does not follow the head"));
  }
}

namespace {

// One function over an array p0 and an int p1 whose graph has a dependence
// cycle through an anti-dependence, as a wrong memory edge would make it:
//   S:  p0[0] = p1             (entry memory)
//   L2: p0[0]                  (after S)
//   Z:  ZeroCheck(L2)
//   L:  p0[0] below Z, reading the entry memory: it must run before S,
//       which overwrites its bytes, yet it needs Z, which needs S's value.
struct CycleFun {
  Unit u;
  Graph* gp = nullptr;
  Node *store, *load, *check, *reload;
};

void build(CycleFun& C) {
  FunBuilder f(C.u, "cyc", 2);
  C.gp = &f.g;
  Graph& g = f.g;
  MemAccess m;
  m.alias = C.u.aliasClass("int[]");
  int64_t aux = m.encode();
  Node* off = f.con(kArrayHeader);
  C.store = g.make(Op::Store, {f.fun, f.mem, f.parm(0), off, f.parm(1)}, Type::mem(), aux);
  C.reload = g.make(Op::Load, {f.fun, C.store, f.parm(0), off}, Type::intBot(), aux);
  C.check = f.zeroCheck(f.fun, C.reload);
  C.load = g.make(Op::Load, {C.check, f.mem, f.parm(0), off}, Type::intBot(), aux);
  f.ret(C.check, C.store, C.load);
}

}  // namespace

TEST_CASE("the checker names the load and the store of a dependence cycle", "[sched][verify]") {
  CycleFun C;
  build(C);
  REQUIRE(verify(*C.gp).empty());
  std::vector<std::string> errs = verifySchedules(C.u);
  REQUIRE(errs.size() == 1);
  INFO(errs[0]);
  std::string load = nodeLabel(C.load), store = nodeLabel(C.store);
  CHECK(errs[0].rfind("gcm: function 'cyc': dependence cycle in block 0: " + load + " must run before " + store +
                          ", which may overwrite what it reads, but it depends on " + store + ": ",
                      0) == 0);
  // The cycle itself, from the load back to it.
  CHECK(mentions(errs, load + " needs " + nodeLabel(C.check) + " needs " + nodeLabel(C.reload) + " needs " + store +
                           " needs " + load));
}

TEST_CASE("--verify-each blames a dependence cycle on the pass that made the graph", "[sched][verify]") {
  CycleFun C;
  build(C);
  PassOptions o;
  o.verifyEach = true;
  o.checkSchedules = verifySchedules;
  std::string msg, pass;
  try {
    afterParse(C.u, o);
  } catch (const InternalError& e) {
    msg = e.what();
    pass = e.pass;
  }
  INFO(msg);
  CHECK(pass == "parse");
  CHECK(msg.rfind("graph verification failed after 'parse': gcm: function 'cyc': dependence cycle", 0) == 0);
  CHECK(msg.find(nodeLabel(C.load) + " must run before " + nodeLabel(C.store)) != std::string::npos);
  // Without the hook the graph verifier alone finds nothing: the cycle is
  // only in the schedule.
  o.checkSchedules = nullptr;
  CHECK_NOTHROW(afterParse(C.u, o));
}

TEST_CASE("the checker finds a load placed after the store that overwrites it", "[sched][verify]") {
  // x = a[0]; a[0] = 5; return x: gcm keeps the load first; swapped by hand.
  Unit u;
  FunBuilder f(u, "ld", 1);
  Graph& g = f.g;
  MemAccess m;
  m.alias = u.aliasClass("int[]");
  Node* off = f.con(kArrayHeader);
  Node* load = g.make(Op::Load, {f.fun, f.mem, f.parm(0), off}, Type::intBot(), m.encode());
  Node* store = g.make(Op::Store, {f.fun, f.mem, f.parm(0), off, f.con(5)}, Type::mem(), m.encode());
  f.ret(f.fun, store, load);
  Schedule good = checkedGcm(g);
  auto& ns = good.blocks[0].nodes;
  auto l = std::find(ns.begin(), ns.end(), load), s = std::find(ns.begin(), ns.end(), store);
  REQUIRE(l < s);
  Schedule bad = good;
  auto& bs = bad.blocks[0].nodes;
  std::iter_swap(bs.begin() + (l - ns.begin()), bs.begin() + (s - ns.begin()));
  std::vector<std::string> errs = verifySchedule(g, bad);
  INFO((errs.empty() ? std::string() : errs[0]));
  CHECK(mentions(errs, nodeLabel(load) + " runs after " + nodeLabel(store) + " (B0), which may overwrite what it reads"));
}
