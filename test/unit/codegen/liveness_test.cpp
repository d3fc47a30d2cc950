// Tests for codegen/liveness.cpp: live-in/live-out sets on hand-built loops
// and diamonds, effective successors, and the RegSet they are stored in.
#include <catch2/catch.hpp>

#include "codegen/liveness.h"
#include "test/unit/codegen/mir_builder.h"

using namespace simplec;
using namespace simplec::mir;
using simplec::test::FnBuilder;
using simplec::test::I;
using simplec::test::P;
using simplec::test::V;

namespace {

// Live vregs only (physical registers are the indices after them).
std::vector<int> vregsIn(const RegSet& s, int numVRegs) {
  std::vector<int> out;
  for (int i : s.elements())
    if (i < numVRegs) out.push_back(i);
  return out;
}

}  // namespace

TEST_CASE("liveness: bitset", "[liveness]") {
  RegSet a(130), b(130);
  a.set(0);
  a.set(64);
  a.set(129);
  CHECK(a.test(64));
  CHECK_FALSE(a.test(63));
  CHECK(a.elements() == std::vector<int>{0, 64, 129});
  b.set(5);
  CHECK(b.unionWith(a));
  CHECK_FALSE(b.unionWith(a));
  CHECK(b.elements() == std::vector<int>{0, 5, 64, 129});
  b.subtract(a);
  CHECK(b.elements() == std::vector<int>{5});
  b.reset(5);
  CHECK(b.elements().empty());
}

TEST_CASE("liveness: loop summing 1..n", "[liveness]") {
  // b0: n = rdi; s = 0; k = 7
  // b1: cmp n, 0; jle b3          (loop header)
  // b2: add s, n; sub n, 1; jmp b1
  // b3: add s, k; ret s
  FnBuilder b;
  int b0 = b.block(), b1 = b.block(1), b2 = b.block(1), b3 = b.block();
  int n = b.vreg(), s = b.vreg(), k = b.vreg(), t = b.vreg();
  b.at(b0);
  b.mov(V(n), P(RDI));
  b.mov(V(s), I(0));
  b.mov(V(k), I(7));
  b.at(b1);
  b.cmp(V(n), I(0));
  b.jcc(Cond::LE, b3);
  b.at(b2);
  b.mov(V(t), V(n));  // t is local to the body
  b.op(MOp::Add, V(s), V(t));
  b.op(MOp::Sub, V(n), I(1));
  b.jmp(b1);
  b.at(b3);
  b.op(MOp::Add, V(s), V(k));
  b.ret(V(s));
  MFunction& f = b.finish();
  Liveness lv = computeLiveness(f);
  int nv = int(f.vregs.size());

  CHECK(lv.succs[size_t(b1)] == std::vector<int>{b3, b2});
  CHECK(lv.succs[size_t(b2)] == std::vector<int>{b1});
  CHECK(lv.preds[size_t(b1)] == std::vector<int>{b0, b2});

  CHECK(vregsIn(lv.liveIn[size_t(b0)], nv).empty());
  CHECK(vregsIn(lv.liveOut[size_t(b0)], nv) == std::vector<int>{n, s, k});
  // k is only used after the loop but must stay live all through it.
  CHECK(vregsIn(lv.liveIn[size_t(b1)], nv) == std::vector<int>{n, s, k});
  CHECK(vregsIn(lv.liveOut[size_t(b1)], nv) == std::vector<int>{n, s, k});
  CHECK(vregsIn(lv.liveIn[size_t(b2)], nv) == std::vector<int>{n, s, k});
  CHECK(vregsIn(lv.liveOut[size_t(b2)], nv) == std::vector<int>{n, s, k});
  CHECK(vregsIn(lv.liveIn[size_t(b3)], nv) == std::vector<int>{s, k});
  CHECK(vregsIn(lv.liveOut[size_t(b3)], nv).empty());
  CHECK_FALSE(lv.vregLiveIn(b2, t));
  CHECK_FALSE(lv.vregLiveOut(b2, t));

  // Physical registers: rdi is live into the entry (the parameter), rax is
  // not live anywhere across a block boundary.
  CHECK(lv.liveIn[size_t(b0)].test(Liveness::pregIndex(nv, RDI)));
  CHECK_FALSE(lv.liveOut[size_t(b0)].test(Liveness::pregIndex(nv, RDI)));
  for (int bb = 0; bb < 4; ++bb)
    CHECK_FALSE(lv.liveOut[size_t(bb)].test(Liveness::pregIndex(nv, RAX)));

  // The fixed point satisfies the dataflow equations.
  for (int bb = 0; bb < 4; ++bb) {
    RegSet out(lv.size());
    for (int sc : lv.succs[size_t(bb)]) out.unionWith(lv.liveIn[size_t(sc)]);
    CHECK(out == lv.liveOut[size_t(bb)]);
  }
}

TEST_CASE("liveness: nested loops need more than one round", "[liveness]") {
  // A value defined before both loops and used only at the very end, and a
  // value defined in the inner loop body and used in the outer loop latch.
  // Blocks are laid out so that a single backward pass cannot converge.
  FnBuilder b;
  int b0 = b.block(), outer = b.block(1), inner = b.block(2), latch = b.block(1),
      exit = b.block();
  int a = b.vreg(), i = b.vreg(), j = b.vreg(), x = b.vreg();
  b.at(b0);
  b.mov(V(a), P(RDI));
  b.mov(V(i), I(3));
  b.mov(V(x), I(0));
  b.at(outer);
  b.mov(V(j), I(2));
  b.at(inner);
  b.op(MOp::Add, V(x), V(j));
  b.op(MOp::Sub, V(j), I(1));
  b.cmp(V(j), I(0));
  b.jcc(Cond::G, inner);
  b.at(latch);
  b.op(MOp::Sub, V(i), I(1));
  b.cmp(V(i), I(0));
  b.jcc(Cond::G, outer);
  b.at(exit);
  b.op(MOp::Add, V(x), V(a));
  b.ret(V(x));
  MFunction& f = b.finish();
  Liveness lv = computeLiveness(f);
  int nv = int(f.vregs.size());
  CHECK(vregsIn(lv.liveIn[size_t(outer)], nv) == std::vector<int>{a, i, x});
  CHECK(vregsIn(lv.liveIn[size_t(inner)], nv) == std::vector<int>{a, i, j, x});
  CHECK(vregsIn(lv.liveOut[size_t(inner)], nv) == std::vector<int>{a, i, j, x});
  CHECK(vregsIn(lv.liveOut[size_t(latch)], nv) == std::vector<int>{a, i, x});
  CHECK(vregsIn(lv.liveIn[size_t(exit)], nv) == std::vector<int>{a, x});
}

TEST_CASE("liveness: diamond with parallel moves", "[liveness]") {
  // b0: a = rdi; c = rsi; cmp a, c; jl b2
  // b1: parmove r <- a; jmp b3
  // b2: parmove r <- c
  // b3: ret r
  FnBuilder b;
  int b0 = b.block(), b1 = b.block(), b2 = b.block(), b3 = b.block();
  int a = b.vreg(), c = b.vreg(), r = b.vreg();
  b.at(b0);
  b.mov(V(a), P(RDI));
  b.mov(V(c), P(RSI));
  b.cmp(V(a), V(c));
  b.jcc(Cond::L, b2);
  b.at(b1);
  b.parmove({{V(r), V(a)}});
  b.jmp(b3);
  b.at(b2);
  b.parmove({{V(r), V(c)}});
  b.at(b3);
  b.ret(V(r));
  MFunction& f = b.finish();
  Liveness lv = computeLiveness(f);
  int nv = int(f.vregs.size());
  CHECK(vregsIn(lv.liveOut[size_t(b0)], nv) == std::vector<int>{a, c});
  CHECK(vregsIn(lv.liveIn[size_t(b1)], nv) == std::vector<int>{a});
  CHECK(vregsIn(lv.liveIn[size_t(b2)], nv) == std::vector<int>{c});
  CHECK(vregsIn(lv.liveOut[size_t(b1)], nv) == std::vector<int>{r});
  CHECK(vregsIn(lv.liveOut[size_t(b2)], nv) == std::vector<int>{r});
  CHECK(vregsIn(lv.liveIn[size_t(b3)], nv) == std::vector<int>{r});
}

TEST_CASE("liveness: effective successors", "[liveness]") {
  MFunction f;
  f.blocks.resize(5);
  f.blocks[0].insts.emplace_back(MOp::Jcc, std::vector<Opnd>{Opnd::block(3)});
  f.blocks[1].insts.emplace_back(MOp::Jmp, std::vector<Opnd>{Opnd::block(0)});
  f.blocks[2].insts.emplace_back(MOp::Ret);
  MInst panic(MOp::Call, {Opnd::symbol("rt_panic")});
  panic.noReturn = true;
  f.blocks[3].insts.push_back(panic);
  f.blocks[4].succs = {2, 99};  // an out-of-range successor is ignored
  std::vector<std::vector<int>> s = blockSuccessors(f);
  CHECK(s[0] == std::vector<int>{3, 1});
  CHECK(s[1] == std::vector<int>{0});
  CHECK(s[2].empty());
  CHECK(s[3].empty());
  CHECK(s[4] == std::vector<int>{2});
}

TEST_CASE("liveness: call clobbers kill physical registers", "[liveness]") {
  FnBuilder b;
  int b0 = b.block(), b1 = b.block();
  int x = b.vreg(), y = b.vreg();
  b.at(b0);
  b.mov(V(x), P(RDI));
  b.call("g", {V(x)}, -1);
  b.jmp(b1);
  b.at(b1);
  b.mov(V(y), P(RAX));  // the call result, read in the next block
  b.ret(V(y));
  MFunction& f = b.finish();
  Liveness lv = computeLiveness(f);
  int nv = int(f.vregs.size());
  CHECK(lv.liveOut[size_t(b0)].test(Liveness::pregIndex(nv, RAX)));
  CHECK(lv.liveIn[size_t(b1)].test(Liveness::pregIndex(nv, RAX)));
  // rax is written by the call before anything in b0 reads it.
  CHECK_FALSE(lv.liveIn[size_t(b0)].test(Liveness::pregIndex(nv, RAX)));
  CHECK(vregsIn(lv.liveOut[size_t(b0)], nv).empty());
}
