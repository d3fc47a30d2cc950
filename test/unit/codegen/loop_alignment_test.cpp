// Tests for codegen/loop_alignment.h: which loop heads get a 64-byte
// boundary.
#include <catch2/catch.hpp>

#include "codegen/loop_alignment.h"
#include "test/unit/codegen/mir_builder.h"

using namespace simplec;
using namespace simplec::mir;
using namespace simplec::test;

namespace {

// `n` register instructions into the current block.
void filler(FnBuilder& b, int n) {
  for (int i = 0; i < n; i++) b.op(MOp::Add, P(RAX), I(i + 1));
}

}  // namespace

TEST_CASE("loop alignment: a small counted loop, not its preheader", "[codegen][loop_alignment]") {
  FnBuilder b;
  int b0 = b.block(), b1 = b.block(1), b2 = b.block();
  b.at(b0);
  b.mov(P(RCX), I(0));
  b.at(b1);
  filler(b, 4);
  b.op(MOp::Add, P(RCX), I(1));
  b.cmp(P(RCX), I(100));
  b.jcc(Cond::L, b1);
  b.at(b2);
  b.emit(MOp::Ret).argRegs = {RAX};
  CHECK(alignedLoopHeads(b.finish()) == std::vector<char>{0, 1, 0});
}

// A small nest: b0 outer head; b1 inner head, which leaves early (to b3,
// the outer loop's back edge, or to a runtime error's stub); b2 the inner
// back edge; b3 the outer one. Returns the heads.
static std::vector<char> nestHeads(bool exitToError) {
  FnBuilder b;
  int b0 = b.block(1), b1 = b.block(2), b2 = b.block(2), b3 = b.block(1), b4 = b.block(), stub = b.block();
  b.f.blocks[size_t(stub)].cold = true;
  b.at(b0);
  b.mov(P(RCX), I(0));
  b.at(b1);
  b.cmp(P(RCX), P(RDX));
  b.jcc(exitToError ? Cond::AE : Cond::NE, exitToError ? stub : b3);
  b.at(b2);
  b.op(MOp::Add, P(RCX), I(1));
  b.cmp(P(RCX), I(8));
  b.jcc(Cond::L, b1);
  b.at(b3);
  b.op(MOp::Add, P(RDX), I(1));
  b.cmp(P(RDX), I(1000));
  b.jcc(Cond::L, b0);
  b.at(b4);
  b.emit(MOp::Ret).argRegs = {RAX};
  b.at(stub);
  b.emit(MOp::Call, {Opnd::symbol("__simplec_rt_error")}).noReturn = true;
  return alignedLoopHeads(b.finish());
}

TEST_CASE("loop alignment: an early-exit loop inside a small nest: the nest", "[codegen][loop_alignment]") {
  // The inner loop's padding would run on every entry.
  CHECK(nestHeads(false) == std::vector<char>{1, 0, 0, 0, 0, 0});
}

TEST_CASE("loop alignment: an exit to a runtime error is not an early exit", "[codegen][loop_alignment]") {
  CHECK(nestHeads(true) == std::vector<char>{1, 1, 0, 0, 0, 0});
}

TEST_CASE("loop alignment: big loops and loops that call are left alone", "[codegen][loop_alignment]") {
  auto loop = [](int fill, bool call) {
    FnBuilder b;
    int b0 = b.block(), b1 = b.block(1), b2 = b.block();
    b.at(b0);
    b.mov(P(RCX), I(0));
    b.at(b1);
    filler(b, fill);
    if (call) b.emit(MOp::Call, {Opnd::symbol("g")});
    b.op(MOp::Add, P(RCX), I(1));
    b.cmp(P(RCX), I(100));
    b.jcc(Cond::L, b1);
    b.at(b2);
    b.emit(MOp::Ret).argRegs = {RAX};
    return alignedLoopHeads(b.finish())[size_t(b1)];
  };
  CHECK(loop(kSmallNestInsts - 3, false) == 1);  // the whole loop: exactly kSmallNestInsts
  CHECK(loop(kSmallNestInsts - 2, false) == 0);
  CHECK(loop(2, true) == 0);
}

TEST_CASE("loop alignment: a dispatch loop's head, when its jump table is near", "[codegen][loop_alignment]") {
  // b1 (the head) falls through into b2, which ends with a jump table; the
  // four cases are long (the loop is big) and jump back to b1. Returns the
  // heads of b1 and b2.
  enum Entry { kFalls, kJumpsToNext, kBranchesElsewhere };
  auto dispatch = [](int fill, Entry entry) {
    FnBuilder b;
    int b0 = b.block(), b1 = b.block(1), b2 = b.block(1);
    std::vector<int> cases;
    for (int k = 0; k < 4; k++) cases.push_back(b.block(1));
    int exit = b.block();
    b.at(b0);
    b.mov(P(RCX), I(0));
    b.at(b1);
    b.cmp(P(RCX), I(1000));
    if (entry == kBranchesElsewhere) {
      b.jcc(Cond::L, b2);
      b.jmp(exit);
    } else {
      b.jcc(Cond::GE, exit);
      if (entry == kJumpsToNext) b.jmp(b2);
    }
    b.at(b2);
    b.mov(P(RDX), P(RCX));
    filler(b, fill);
    b.op(MOp::And, P(RDX), I(3));
    MInst& jt = b.emit(MOp::JmpTable, {P(RDX), I(0), I(0), Opnd(), Opnd::block(cases[0])});
    for (int c : cases) jt.ops.push_back(Opnd::block(c));
    for (int c : cases) {
      b.at(c);
      filler(b, kSmallNestInsts);
      b.op(MOp::Add, P(RCX), I(1));
      b.jmp(b1);
    }
    b.at(exit);
    b.emit(MOp::Ret).argRegs = {RAX};
    std::vector<char> heads = alignedLoopHeads(b.finish());
    return std::make_pair(int(heads[size_t(b1)]), int(heads[size_t(b2)]));
  };
  // head: cmp, jcc (2); table block: mov, and, the table (1 + 1 + 6) + fill.
  int room = kDispatchInsts - 2 - 2 - kJumpTableInsts;
  CHECK(dispatch(room, kFalls) == std::make_pair(1, 0));
  CHECK(dispatch(room + 1, kFalls) == std::make_pair(0, 0));
  // A jump to the next block is dropped by the emitter: it falls through.
  CHECK(dispatch(room, kJumpsToNext) == std::make_pair(1, 0));
  // The head ends with a jump elsewhere: the table block starts no loop
  // either.
  CHECK(dispatch(0, kBranchesElsewhere) == std::make_pair(0, 0));
}
