// Tests for the memory peepholes (opt/mem_peephole.cpp) and alias classes on
// hand-built graphs: store-to-load forwarding, loads from fresh allocations,
// loads skipping stores that touch other bytes (and never skipping ones that
// may not), store-after-store, MergeMem folding, array lengths and bounds
// checks; and, from parsed programs, that each alias class has its own
// memory chain.
#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "opt/peephole.h"
#include "parser/parser.h"
#include "son/merge_mem.h"
#include "son/mem_access.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;
using simplec::sontest::verifyText;

namespace {

int64_t intAccess(int alias, int size = 8, bool isSigned = true) {
  MemAccess m;
  m.alias = alias;
  m.size = size;
  m.isSigned = isSigned;
  return m.encode();
}

// f(i, v) with one array a = new int[4] made at the entry.
struct Fixture {
  Unit u;
  SonBuilder b{u, "f", 2};
  Graph& g = b.g;
  Peephole peep{g};
  int cls = u.aliasClass("[]int");
  SonBuilder::NewResult a = b.newArray(b.fun, b.mem, b.con(4), 8);
  Node* i() { return b.parm(0); }
  Node* v() { return b.parm(1); }
  Node* off(int64_t k) { return b.con(kArrayHeader + 8 * k); }
  Node* rewrite(Node* n) {
    Node* r = peep.run(n);
    if (r != n && !n->dead) g.subsume(n, r);
    return r;
  }
  // Returns `val` with memory `m`, rewrites `n`, checks the swept graph.
  Node* rewriteReturned(Node* m, Node* val, Node* n) {
    b.ret(a.ctrl, m, val);
    Node* r = rewrite(n);
    sweepUnreachable(g);
    CHECK(verifyText(g) == "");
    return r;
  }
};

}  // namespace

TEST_CASE("mem: alias classes are registered once and stay distinct", "[opt][mem]") {
  Unit g;
  int a = g.aliasClass("[]int");
  int b = g.aliasClass("[]u8");
  CHECK(a >= 1);
  CHECK(b != a);
  CHECK(g.aliasClass("[]int") == a);
  CHECK(g.aliases[size_t(b)] == "[]u8");
  g.reset();
  CHECK(g.aliases.size() == 1);  // only the header class
}

TEST_CASE("mem: MemAccess round-trips and extends like the machine", "[opt][mem]") {
  MemAccess m;
  m.alias = 5;
  m.size = 2;
  m.isSigned = false;
  MemAccess d = MemAccess::decode(m.encode());
  CHECK(d.alias == 5);
  CHECK(d.size == 2);
  CHECK_FALSE(d.isSigned);
  CHECK(d.extend(0x1FFFF) == 0xFFFF);
  d.isSigned = true;
  CHECK(d.extend(0x18000) == -32768);
  CHECK(d.str() == "i16");
  CHECK(d.loadType() == Type::intRange(-32768, 32767));
}

TEST_CASE("mem: a load after a store to the same address takes the stored value", "[opt][mem]") {
  Fixture f;
  Node* st = f.b.store(f.a.ctrl, f.a.mem, f.a.ptr, f.off(1), f.v(), intAccess(f.cls));
  Node* ld = f.b.load(f.a.ctrl, st, f.a.ptr, f.off(1), intAccess(f.cls));
  CHECK(f.rewriteReturned(st, ld, ld) == f.v());
}

TEST_CASE("mem: a narrow load forwards the stored value as it would read it back", "[opt][mem]") {
  Fixture f;
  int cls = f.u.aliasClass("[]i8");
  Node* st = f.b.store(f.a.ctrl, f.a.mem, f.a.ptr, f.off(1), f.v(), intAccess(cls, 1));
  Node* ld = f.b.load(f.a.ctrl, st, f.a.ptr, f.off(1), intAccess(cls, 1));
  // v is any int: the load sign-extends its low byte, (v << 56) >> 56.
  Node* r = f.rewriteReturned(st, ld, ld);
  REQUIRE(r->op == Op::Sar);
  REQUIRE(r->in[1]->op == Op::Shl);
  CHECK(r->in[1]->in[1] == f.v());
  CHECK(r->in[2]->type == Type::intConst(56));
}

TEST_CASE("mem: a narrow store drops a truncation of its value", "[opt][mem]") {
  Fixture f;
  int cls = f.u.aliasClass("[]u16");
  Node* masked = f.b.op(Op::And, f.v(), f.b.con(0xFFFF));
  Node* st = f.b.store(f.a.ctrl, f.a.mem, f.a.ptr, f.off(1), masked, intAccess(cls, 2, false));
  Node* r = f.rewriteReturned(st, f.v(), st);
  CHECK(r == st);
  CHECK(st->in[4] == f.v());
  // A mask narrower than the store is kept.
  Fixture h;
  Node* m8 = h.b.op(Op::And, h.v(), h.b.con(0xFF));
  Node* st8 = h.b.store(h.a.ctrl, h.a.mem, h.a.ptr, h.off(1), m8, intAccess(cls, 2, false));
  h.rewriteReturned(st8, h.v(), st8);
  CHECK(st8->in[4] == m8);
}

TEST_CASE("mem: a load from a fresh allocation is zero", "[opt][mem]") {
  Fixture f;
  Node* ld = f.b.load(f.a.ctrl, f.a.mem, f.a.ptr, f.off(2), intAccess(f.cls));
  Node* r = f.rewriteReturned(f.a.mem, ld, ld);
  REQUIRE(r->isConst());
  CHECK(r->type == Type::intConst(0));
}

TEST_CASE("mem: a load of a fresh array's length is the length it was made with", "[opt][mem]") {
  Fixture f;
  Node* ld = f.b.load(f.a.ctrl, nullptr, f.a.ptr, f.b.con(0), intAccess(0));
  Node* r = f.rewriteReturned(f.a.mem, ld, ld);
  REQUIRE(r->isConst());
  CHECK(r->type == Type::intConst(4));
}

TEST_CASE("mem: a load skips a store to other bytes, then reads the fresh zero", "[opt][mem]") {
  Fixture f;
  Node* st = f.b.store(f.a.ctrl, f.a.mem, f.a.ptr, f.off(1), f.v(), intAccess(f.cls));
  Node* ld = f.b.load(f.a.ctrl, st, f.a.ptr, f.off(0), intAccess(f.cls));
  Node* r = f.rewriteReturned(st, ld, ld);
  REQUIRE(r->isConst());
  CHECK(r->type == Type::intConst(0));
}

TEST_CASE("mem: a load skips stores into (and the making of) another allocation", "[opt][mem]") {
  Fixture f;
  SonBuilder::NewResult c = f.b.newArray(f.a.ctrl, f.a.mem, f.b.con(2), 8);
  Node* st = f.b.store(c.ctrl, c.mem, c.ptr, f.b.add(f.b.op(Op::Shl, f.i(), f.b.con(3)), f.b.con(8)), f.v(),
                       intAccess(f.cls));
  // Load a[i]: the store into c cannot touch a, and neither can c's New.
  Node* offI = f.b.add(f.b.op(Op::Shl, f.i(), f.b.con(3)), f.b.con(8));
  Node* ld = f.b.load(c.ctrl, st, f.a.ptr, offI, intAccess(f.cls));
  f.b.ret(c.ctrl, st, ld);
  Node* r = f.rewrite(ld);
  sweepUnreachable(f.g);
  CHECK(verifyText(f.g) == "");
  // Past c's store and c's New it reaches a's fresh memory: zero.
  REQUIRE(r->isConst());
  CHECK(r->type == Type::intConst(0));
}

// a = new int[4] (the fixture's), then n more arrays, each written: a load
// of a[0] after them all.
Node* loadPastArrays(Fixture& f, int n) {
  Node* ctrl = f.a.ctrl;
  Node* mem = f.a.mem;
  for (int k = 0; k < n; k++) {
    SonBuilder::NewResult c = f.b.newArray(ctrl, mem, f.b.con(2), 8);
    ctrl = c.ctrl;
    mem = f.b.store(ctrl, c.mem, c.ptr, f.off(1), f.v(), intAccess(f.cls));
  }
  Node* ld = f.b.load(ctrl, mem, f.a.ptr, f.off(0), intAccess(f.cls));
  f.b.ret(ctrl, mem, ld);
  return ld;
}

TEST_CASE("mem: a load looks a bounded way up the memory chain", "[opt][mem]") {
  // Each array is two memory nodes to pass (its New and its store).
  int within = Peephole::kMaxMemoryWalk / 2 - 1, beyond = Peephole::kMaxMemoryWalk / 2 + 1;
  SECTION("its store within reach: read") {
    Fixture f;
    Node* r = f.rewrite(loadPastArrays(f, within));
    REQUIRE(r->isConst());
    CHECK(r->type == Type::intConst(0));
  }
  SECTION("beyond: the load stays where it was, and visiting it again changes nothing") {
    Fixture f;
    Node* ld = loadPastArrays(f, beyond);
    Node* mem = ld->in[1];
    for (int visit = 0; visit < 2; visit++) {
      CHECK(f.rewrite(ld) == ld);
      CHECK(ld->in[1] == mem);
      CHECK_FALSE(f.peep.changedInPlace());
    }
    sweepUnreachable(f.g);
    CHECK(verifyText(f.g) == "");
  }
}

TEST_CASE("mem: a load never skips a store that may touch its bytes", "[opt][mem]") {
  Fixture f;
  Node* offI = f.b.add(f.b.op(Op::Shl, f.i(), f.b.con(3)), f.b.con(8));
  Node* st = f.b.store(f.a.ctrl, f.a.mem, f.a.ptr, offI, f.v(), intAccess(f.cls));
  Node* ld = f.b.load(f.a.ctrl, st, f.a.ptr, f.off(0), intAccess(f.cls));
  Node* r = f.rewriteReturned(st, ld, ld);
  CHECK(r == ld);
  CHECK(ld->in[1] == st);
}

TEST_CASE("mem: a store over a store nothing else saw replaces it", "[opt][mem]") {
  Fixture f;
  Node* s1 = f.b.store(f.a.ctrl, f.a.mem, f.a.ptr, f.off(1), f.b.con(5), intAccess(f.cls));
  Node* s2 = f.b.store(f.a.ctrl, s1, f.a.ptr, f.off(1), f.v(), intAccess(f.cls));
  Node* r = f.rewriteReturned(s2, f.v(), s2);
  CHECK(r == s2);
  CHECK(s2->in[1] == f.a.mem);
  CHECK(s1->dead);
}

TEST_CASE("mem: a store whose memory is also read stays behind the later store", "[opt][mem]") {
  Fixture f;
  Node* s1 = f.b.store(f.a.ctrl, f.a.mem, f.a.ptr, f.off(1), f.v(), intAccess(f.cls));
  Node* s2 = f.b.store(f.a.ctrl, s1, f.a.ptr, f.off(1), f.b.con(7), intAccess(f.cls));
  Node* ld = f.b.load(f.a.ctrl, s1, f.a.ptr, f.off(2), intAccess(f.cls));
  f.rewriteReturned(s2, ld, s2);
  CHECK(s2->in[1] == s1);
}

TEST_CASE("mem: MergeMem drops classes equal to the base and folds to it", "[opt][mem]") {
  Fixture f;
  Node* mm = makeMergeMem(f.g, f.b.mem, {{1, f.b.mem}});
  Node* r = f.rewriteReturned(mm, f.v(), mm);
  CHECK(r == f.b.mem);
}

TEST_CASE("mem: a bounds check of an index known to be in range goes away", "[opt][mem]") {
  Fixture f;
  Node* bc = f.g.make(Op::BoundsCheck, {f.a.ctrl, f.b.con(3), f.b.con(4)}, Type::ctrl());
  CHECK(f.peep.idealize(bc) == f.a.ctrl);
  Node* keep = f.g.make(Op::BoundsCheck, {f.a.ctrl, f.b.con(4), f.b.con(4)}, Type::ctrl());
  CHECK(f.peep.idealize(keep) == nullptr);
  Node* unknown = f.g.make(Op::BoundsCheck, {f.a.ctrl, f.i(), f.b.con(4)}, Type::ctrl());
  CHECK(f.peep.idealize(unknown) == nullptr);
}

TEST_CASE("mem: loads of different element types use different memory", "[opt][mem][parser]") {
  // The u8 store between the int store and the int load is not on the int
  // load's memory chain, so the int load forwards the int store's value.
  SourceFile src("t.smp", "int[] a = new int[2]; u8[] b = new u8[2];\n"
                          "a[arg] = 7; b[arg] = 9; return a[arg];");
  DiagEngine diag;
  Unit g;
  REQUIRE(parseFile(src, diag, g));
  const FunInfo& main = g.funs[0];
  REQUIRE(main.ret);
  CHECK(main.ret->in[2]->isConst());
  CHECK(main.ret->in[2]->type == Type::intConst(7));
  CHECK(sontest::liveOfKind(g, Op::Load).empty());
}

TEST_CASE("mem: an access given all memory takes its own class", "[opt][mem]") {
  // As after inlining: a store whose memory is the caller's MergeMem.
  Fixture f;
  Node* st0 = f.b.store(f.a.ctrl, f.a.mem, f.a.ptr, f.off(0), f.v(), intAccess(f.cls));
  Node* mm = makeMergeMem(f.g, f.b.mem, {{f.cls, st0}});
  Node* ld = f.b.load(f.a.ctrl, mm, f.a.ptr, f.off(0), intAccess(f.cls));
  // Narrowed to st0's memory, then forwarded from it.
  CHECK(f.rewriteReturned(mm, ld, ld) == f.v());
}

TEST_CASE("mem: a MergeMem over a MergeMem is one MergeMem", "[opt][mem]") {
  Fixture f;
  Node* st0 = f.b.store(f.a.ctrl, f.a.mem, f.a.ptr, f.off(0), f.v(), intAccess(f.cls));
  Node* in = makeMergeMem(f.g, f.b.mem, {{f.cls, f.a.mem}});
  Node* out = makeMergeMem(f.g, in, {{f.cls, st0}});
  Node* r = f.rewriteReturned(out, f.v(), out);
  REQUIRE(r->op == Op::MergeMem);
  CHECK(r->in[1] == f.b.mem);
  CHECK(mergeMemClasses(r) == std::vector<int>{f.cls});
  CHECK(mergeMemOf(r, f.cls) == st0);
}

TEST_CASE("mem: a MergeMem lists only its own classes, the outer one's over the inner's", "[opt][mem]") {
  // Classes far apart cost one input each, not one per class between.
  Fixture f;
  Node* a = f.b.store(f.a.ctrl, f.a.mem, f.a.ptr, f.off(0), f.v(), intAccess(f.cls));
  Node* b = f.b.store(f.a.ctrl, a, f.a.ptr, f.off(1), f.v(), intAccess(f.cls));
  Node* c = f.b.store(f.a.ctrl, b, f.a.ptr, f.off(2), f.v(), intAccess(f.cls));
  Node* in = makeMergeMem(f.g, f.b.mem, {{3, a}, {5000, b}});
  REQUIRE(in->in.size() == 4);
  CHECK(mergeMemOf(in, 3) == a);
  CHECK(mergeMemOf(in, 4) == f.b.mem);  // not listed: the base
  CHECK(mergeMemOf(in, 5000) == b);
  Node* out = makeMergeMem(f.g, in, {{2, c}, {5000, c}, {7000, f.b.mem}});
  Node* r = f.rewriteReturned(out, f.v(), out);
  REQUIRE(r->op == Op::MergeMem);
  CHECK(r->in[1] == f.b.mem);
  // 7000 equals the base and goes; 5000 is the outer one's.
  CHECK(mergeMemClasses(r) == std::vector<int>{2, 3, 5000});
  CHECK(mergeMemOf(r, 2) == c);
  CHECK(mergeMemOf(r, 3) == a);
  CHECK(mergeMemOf(r, 5000) == c);
  // Equal lists are one aux, so GVN sees equal MergeMems as equal.
  CHECK(makeMergeMem(f.g, f.b.mem, {{2, a}, {3, b}})->aux == makeMergeMem(f.g, f.a.mem, {{2, c}, {3, c}})->aux);
}
