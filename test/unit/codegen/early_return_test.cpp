// Tests for codegen/early_return.cpp: the copy of an early return in front
// of the prologue, its renamed registers, and the paths it must refuse.
// Every wrapped function is run on the MIR interpreter against the
// function before wrapping (it checks that each ret restores rsp, rbp and
// the callee-saved registers).
#include <catch2/catch.hpp>

#include "codegen/early_return.h"
#include "codegen/frame.h"
#include "test/unit/codegen/mir_builder.h"
#include "test/unit/codegen/mir_interp.h"

using namespace simplec;
using namespace simplec::mir;
using namespace simplec::test;

namespace {

// Like tak after tail recursion: the arguments move into callee-saved
// registers, a loop tests them and calls g, and the exit returns from them.
//   b0: rbx = 0; r12 = x; r13 = y; r14 = z
//   b1: while (r13 < r12) { rbx += g(r12); r12-- }   (the test: y >= x returns)
//   b3: return r14 + rbx
MFunction loopWithCall() {
  FnBuilder b;
  int b0 = b.block(), b1 = b.block(1), b2 = b.block(1), b3 = b.block();
  b.at(b0);
  b.op(MOp::Xor, P(RBX), P(RBX));
  b.mov(P(R12), P(RDI));
  b.mov(P(R13), P(RSI));
  b.mov(P(R14), P(RDX));
  b.at(b1);
  b.cmp(P(R13), P(R12));
  b.jcc(Cond::GE, b3);
  b.at(b2);
  b.mov(P(RDI), P(R12));
  b.emit(MOp::Call, {Opnd::symbol("g")}).argRegs = {RDI};
  b.op(MOp::Add, P(RBX), P(RAX));
  b.op(MOp::Sub, P(R12), I(1));
  b.jmp(b1);
  b.at(b3);
  b.mov(P(RAX), P(R14));
  b.op(MOp::Add, P(RAX), P(RBX));
  b.emit(MOp::Ret).argRegs = {RAX};
  MFunction f = b.finish();
  f.usedCalleeSaved = {RBX, R12, R13, R14};
  lowerFrame(f);
  return f;
}

// Runs f before and after wrapping on the same arguments.
void checkSameRuns(const MFunction& before, const MFunction& after, const std::vector<std::vector<int64_t>>& argSets) {
  for (const std::vector<int64_t>& args : argSets) {
    InterpConfig c;
    c.lowered = true;
    c.args = args;
    c.callees["g"].fn = [](const std::vector<int64_t>& x) { return x[0] * 7 + 1; };
    InterpResult r0 = runMir(before, c);
    InterpResult r1 = runMir(after, c);
    INFO("args " << args[0] << " " << args[1] << " " << args[2] << ": " << r0.error << " / " << r1.error);
    REQUIRE(r0.ok);
    REQUIRE(r1.ok);
    CHECK(r0.ret == r1.ret);
    CHECK(r0.calls == r1.calls);
  }
}

std::string blockText(const MFunction& f, size_t from, size_t to) {
  MFunction part;
  part.name = f.name;
  for (size_t b = from; b < to; b++) part.blocks.push_back(f.blocks[b]);
  return print(part);
}

}  // namespace

TEST_CASE("early return: the base case returns before the prologue", "[early_return]") {
  MFunction f = loopWithCall();
  MFunction g = f;
  REQUIRE(wrapEarlyReturn(g));
  CHECK(g.probeBlock == 2);
  REQUIRE(g.blocks.size() == f.blocks.size() + 2);
  // The copy: rbx's zero goes to a register the path does not use (not an
  // argument register, which the prologue's path reads again); the copies
  // of the arguments vanish; the result moves into rax at the end.
  CHECK(blockText(g, 0, 2) ==
        "function f slots=0\n"
        "b0:  succs b1 b2\n"
        "  xor r10, r10\n"
        "  cmp rsi, rdi\n"
        "  jl b2\n"
        "b1:\n"
        "  mov rax, rdx\n"
        "  add rax, r10\n"
        "  ret (rax)\n");
  // The original follows, its jumps moved up by two.
  CHECK(g.blocks[2].insts[0].op == MOp::Cmp);  // the stack probe
  CHECK(g.blocks[2].insts[1].op == MOp::Push);
  CHECK(g.blocks[3].insts.back().ops[0] == Opnd::block(5));
  CHECK(g.blocks[3].succs == std::vector<int>{5, 4});
  checkSameRuns(f, g, {{5, 1, 9}, {1, 5, 9}, {3, 3, -2}, {-4, 2, 0}, {9, -9, 100}});
  CHECK_FALSE(wrapEarlyReturn(g));  // once
}

TEST_CASE("early return: the copy leaves the arguments to the prologue's path", "[early_return]") {
  // b0 changes an argument register before the test; the slow path runs
  // that again from the original value.
  FnBuilder b;
  int b0 = b.block(), b1 = b.block(), b2 = b.block();
  b.at(b0);
  b.op(MOp::Sub, P(RDI), I(3));
  b.mov(P(RBX), P(RSI));
  b.cmp(P(RDI), P(RBX));
  b.jcc(Cond::L, b2);
  b.at(b1);
  b.emit(MOp::Call, {Opnd::symbol("g")}).argRegs = {RDI};
  b.op(MOp::Add, P(RAX), P(RBX));
  b.emit(MOp::Ret).argRegs = {RAX};
  b.at(b2);
  b.mov(P(RAX), P(RDI));
  b.op(MOp::Imul, P(RAX), P(RSI));
  b.emit(MOp::Ret).argRegs = {RAX};
  MFunction f = b.finish();
  f.usedCalleeSaved = {RBX};
  lowerFrame(f);
  MFunction g = f;
  REQUIRE(wrapEarlyReturn(g));
  CHECK(blockText(g, 0, 2) ==
        "function f slots=0\n"
        "b0:  succs b1 b2\n"
        "  mov r10, rdi\n"
        "  sub r10, 3\n"
        "  cmp r10, rsi\n"
        "  jge b2\n"
        "b1:\n"
        "  mov rax, r10\n"
        "  imul rax, rsi\n"
        "  ret (rax)\n");
  checkSameRuns(f, g, {{10, 2, 0}, {2, 10, 0}, {5, 2, 0}, {4, 2, 0}, {-7, -12, 0}});
}

TEST_CASE("early return: paths the copy cannot take", "[early_return]") {
  // A return arm ending in `ret (rax)` after `body`, behind a test of rdi;
  // the other arm calls, so the function has a frame.
  auto make = [](const std::function<void(FnBuilder&)>& body, bool leaf = false) {
    FnBuilder b;
    int b0 = b.block(), b1 = b.block(), b2 = b.block();
    b.at(b0);
    b.mov(P(RBX), P(RDI));
    b.op(MOp::Test, P(RDI), P(RDI));
    b.jcc(Cond::E, b2);
    b.at(b1);
    if (!leaf) b.emit(MOp::Call, {Opnd::symbol("g")}).argRegs = {RDI};
    b.op(MOp::Add, P(RAX), P(RBX));
    b.emit(MOp::Ret).argRegs = {RAX};
    b.at(b2);
    body(b);
    b.emit(MOp::Ret).argRegs = {RAX};
    MFunction f = b.finish();
    f.usedCalleeSaved = {RBX};
    if (leaf) f.usedCalleeSaved.clear();
    return f;
  };
  auto wraps = [](MFunction f) {
    lowerFrame(f);
    return wrapEarlyReturn(f);
  };
  CHECK(wraps(make([](FnBuilder& b) { b.mov(P(RAX), P(RBX)); })));
  // A store.
  CHECK_FALSE(wraps(make([](FnBuilder& b) {
    b.mov(Opnd::memP(RSI, 0), I(1));
    b.mov(P(RAX), I(0));
  })));
  // A call (a runtime error's too).
  CHECK_FALSE(wraps(make([](FnBuilder& b) { b.emit(MOp::Call, {Opnd::symbol("g")}).argRegs = {RDI}; })));
  // A frame slot.
  CHECK_FALSE(wraps(make([](FnBuilder& b) {
    b.f.numSlots = 1;
    b.mov(P(RAX), Opnd::slot(0));
  })));
  // A shift whose count would come from another register than cl.
  CHECK_FALSE(wraps(make([](FnBuilder& b) {
    b.mov(P(RCX), P(RSI));
    b.mov(P(RAX), P(RBX));
    b.op(MOp::Shl, P(RAX), P(RCX));
  })));
  // Nothing to save: a function without a frame.
  FnBuilder leaf;
  int l0 = leaf.block(), l1 = leaf.block(), l2 = leaf.block();
  leaf.at(l0);
  leaf.op(MOp::Test, P(RDI), P(RDI));
  leaf.jcc(Cond::E, l2);
  leaf.at(l1);
  leaf.mov(P(RAX), P(RDI));
  leaf.emit(MOp::Ret).argRegs = {RAX};
  leaf.at(l2);
  leaf.mov(P(RAX), I(0));
  leaf.emit(MOp::Ret).argRegs = {RAX};
  CHECK_FALSE(wraps(leaf.finish()));
}

TEST_CASE("early return: not when the registers it may write run out", "[early_return]") {
  // Four callee-saved registers get new values before the test and the
  // return reads them all: before its branch the copy may write only rax,
  // r10 and r11 (not the argument registers), and rax holds the result.
  auto make = [](int n) {
    FnBuilder b;
    int b0 = b.block(), b1 = b.block(), b2 = b.block();
    const int regs[4] = {RBX, R12, R13, R14};
    b.at(b0);
    for (int k = 0; k < n; k++) b.mov(P(regs[k]), I(k + 1));
    b.op(MOp::Test, P(RDI), P(RDI));
    b.jcc(Cond::E, b2);
    b.at(b1);
    b.emit(MOp::Call, {Opnd::symbol("g")}).argRegs = {RDI};
    b.emit(MOp::Ret).argRegs = {RAX};
    b.at(b2);
    b.mov(P(RAX), P(RDI));
    for (int k = 0; k < n; k++) b.op(MOp::Add, P(RAX), P(regs[k]));
    b.emit(MOp::Ret).argRegs = {RAX};
    MFunction f = b.finish();
    f.usedCalleeSaved.assign(regs, regs + n);
    lowerFrame(f);
    return f;
  };
  MFunction two = make(2), wrapped = two;
  CHECK(wrapEarlyReturn(wrapped));
  checkSameRuns(two, wrapped, {{0, 0, 0}, {4, 0, 0}});
  MFunction four = make(4);
  CHECK_FALSE(wrapEarlyReturn(four));
}
