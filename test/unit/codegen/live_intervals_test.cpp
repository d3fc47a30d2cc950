// Tests for codegen/live_intervals.cpp: positions (read at 2i, write at
// 2i+1), loop extension, lifetime holes, fixed intervals and hints.
#include <catch2/catch.hpp>

#include "codegen/live_intervals.h"
#include "test/unit/codegen/interval_ranges.h"
#include "test/unit/codegen/mir_builder.h"

using namespace simplec;
using namespace simplec::mir;
using simplec::test::FnBuilder;
using simplec::test::I;
using simplec::test::P;
using simplec::test::V;

using simplec::test::Ranges;
using simplec::test::rangesOf;

TEST_CASE("live intervals: range operations", "[regalloc]") {
  LiveInterval a;
  a.ranges = {{10, 12}, {1, 3}, {4, 5}, {11, 20}};
  a.normalize();
  CHECK(rangesOf(a) == Ranges{{1, 5}, {10, 20}});
  CHECK(a.covers(5));
  CHECK_FALSE(a.covers(6));
  CHECK(a.covers(20));
  CHECK_FALSE(a.covers(21));
  LiveInterval b;
  b.ranges = {{6, 9}, {21, 30}};
  CHECK_FALSE(a.intersects(b));
  CHECK_FALSE(b.intersects(a));
  b.ranges = {{6, 9}, {20, 30}};
  CHECK(a.intersects(b));
  CHECK(b.intersects(a));
}

TEST_CASE("live intervals: straight line positions", "[regalloc]") {
  // 0: mov v0, rdi    1: mov v1, v0    2: add v1, 5    3: mov rax, v1    4: ret
  FnBuilder b;
  b.at(b.block());
  int x = b.vreg(), y = b.vreg();
  b.mov(V(x), P(RDI));
  b.mov(V(y), V(x));
  b.op(MOp::Add, V(y), I(5));
  b.ret(V(y));
  MFunction& f = b.finish();
  LiveIntervals li = buildLiveIntervals(f, computeLiveness(f));
  CHECK(li.numInsts == 5);
  CHECK(rangesOf(li.vregs[size_t(x)]) == Ranges{{1, 2}});
  CHECK(rangesOf(li.vregs[size_t(y)]) == Ranges{{3, 6}});
  CHECK(rangesOf(li.fixed[RDI]) == Ranges{{0, 0}});
  CHECK(rangesOf(li.fixed[RAX]) == Ranges{{7, 8}});
  // x and y may share a register: x dies where y is born.
  CHECK_FALSE(li.vregs[size_t(x)].intersects(li.vregs[size_t(y)]));
  // Hints in program order: y is copied from x, then into rax.
  REQUIRE(li.hints[size_t(y)].size() == 2);
  CHECK(li.hints[size_t(y)][0].virt);
  CHECK(li.hints[size_t(y)][0].reg == x);
  CHECK_FALSE(li.hints[size_t(y)][1].virt);
  CHECK(li.hints[size_t(y)][1].reg == RAX);
  REQUIRE(li.hints[size_t(x)].size() == 2);
  CHECK_FALSE(li.hints[size_t(x)][0].virt);
  CHECK(li.hints[size_t(x)][0].reg == RDI);
}

TEST_CASE("live intervals: loop values cover the whole loop, with holes", "[regalloc]") {
  FnBuilder b;
  int b0 = b.block(), b1 = b.block(1), b2 = b.block(1), b3 = b.block();
  int n = b.vreg(), s = b.vreg(), k = b.vreg(), t = b.vreg(), late = b.vreg();
  b.at(b0);
  b.mov(V(n), P(RDI));     // 0
  b.mov(V(s), I(0));       // 1
  b.mov(V(k), I(7));       // 2
  b.at(b1);
  b.cmp(V(n), I(0));       // 3
  b.jcc(Cond::LE, b3);     // 4
  b.at(b2);
  b.mov(V(t), V(n));       // 5
  b.op(MOp::Add, V(s), V(t));  // 6
  b.op(MOp::Sub, V(n), I(1));  // 7
  b.jmp(b1);               // 8
  b.at(b3);
  b.mov(V(late), I(1));    // 9
  b.op(MOp::Add, V(late), V(k));  // 10
  b.op(MOp::Add, V(s), V(late));  // 11
  b.ret(V(s));             // 12, 13
  MFunction& f = b.finish();
  LiveIntervals li = buildLiveIntervals(f, computeLiveness(f));
  // k: defined at 2, live through the loop (to the end of b2 at 17), used at 10.
  CHECK(rangesOf(li.vregs[size_t(k)]) == Ranges{{5, 20}});
  CHECK(rangesOf(li.vregs[size_t(n)]) == Ranges{{1, 17}});
  CHECK(rangesOf(li.vregs[size_t(t)]) == Ranges{{11, 12}});
  CHECK(rangesOf(li.vregs[size_t(late)]) == Ranges{{19, 22}});
  // s lives from its definition to the copy into rax.
  CHECK(rangesOf(li.vregs[size_t(s)]) == Ranges{{3, 24}});
  CHECK(li.blockFirstInst == std::vector<int>{0, 3, 5, 9});
}

TEST_CASE("live intervals: a value with a hole inside a loop", "[regalloc]") {
  // v is redefined in the loop body after its last use there, so it is
  // dead between that use and the redefinition.
  FnBuilder b;
  int b0 = b.block(), b1 = b.block(1), b2 = b.block();
  int v = b.vreg(), c = b.vreg(), u = b.vreg();
  b.at(b0);
  b.mov(V(v), I(1));         // 0
  b.mov(V(c), I(10));        // 1
  b.at(b1);
  b.mov(V(u), V(v));         // 2: last use of the old v
  b.op(MOp::Add, V(u), I(3));  // 3
  b.mov(V(v), V(u));         // 4: v redefined
  b.op(MOp::Sub, V(c), I(1));  // 5
  b.cmp(V(c), I(0));         // 6
  b.jcc(Cond::G, b1);        // 7
  b.at(b2);
  b.ret(V(v));               // 8, 9
  MFunction& f = b.finish();
  LiveIntervals li = buildLiveIntervals(f, computeLiveness(f));
  CHECK(rangesOf(li.vregs[size_t(v)]) == Ranges{{1, 4}, {9, 16}});
  CHECK(rangesOf(li.vregs[size_t(u)]) == Ranges{{5, 8}});
  CHECK_FALSE(li.vregs[size_t(v)].intersects(li.vregs[size_t(u)]));
}

TEST_CASE("live intervals: fixed intervals for calls, division and shifts", "[regalloc]") {
  FnBuilder b;
  b.at(b.block());
  int x = b.vreg(), d = b.vreg(), q = b.vreg(), r = b.vreg(), s = b.vreg();
  b.mov(V(x), P(RDI));         // 0
  b.mov(V(d), P(RSI));         // 1
  b.mov(P(RAX), V(x));         // 2
  b.emit(MOp::SDivRem, {V(d)});  // 3
  b.mov(V(q), P(RAX));         // 4
  b.mov(V(r), P(RDX));         // 5
  b.mov(P(RCX), V(r));         // 6
  b.mov(V(s), V(q));           // 7
  b.op(MOp::Shl, V(s), P(RCX));  // 8
  b.call("g", {V(s)}, q);      // 9: mov rdi, s  10: call  11: mov q, rax
  b.ret(V(q));                 // 12, 13
  MFunction& f = b.finish();
  LiveIntervals li = buildLiveIntervals(f, computeLiveness(f));
  // rax: set at 2, read by sdivrem (6), written (7), read at 8; clobbered by
  // the call (21), read at 22; written at 25, read by ret at 26.
  CHECK(rangesOf(li.fixed[RAX]) == Ranges{{5, 8}, {21, 22}, {25, 26}});
  // rdx: blocked from the sdivrem's read position on (cqo), read at 10.
  CHECK(rangesOf(li.fixed[RDX]).front() == std::make_pair(6, 10));
  CHECK(li.fixed[RDX].covers(21));
  CHECK(rangesOf(li.fixed[RCX]).front() == std::make_pair(13, 16));
  CHECK(li.callPositions == std::vector<int>{21});
  // The divisor d is read at 6, so it conflicts with rax and rdx.
  CHECK(li.vregs[size_t(d)].intersects(li.fixed[RDX]));
  CHECK(li.vregs[size_t(d)].intersects(li.fixed[RAX]));
  // Callee-saved registers have no fixed ranges here.
  CHECK(li.fixed[RBX].empty());
  CHECK(li.fixed[R12].empty());
}
