// Tests for codegen/frame.cpp: the prologue/epilogue shape, slot and
// incoming-argument offsets, 16-byte alignment for every mix of saved
// registers, slots and outgoing arguments, and end-to-end runs on the MIR
// interpreter (which checks alignment at calls and the restore at ret).
#include <catch2/catch.hpp>

#include "codegen/frame.h"
#include "test/unit/codegen/alloc_check.h"
#include "test/unit/codegen/mir_builder.h"
#include "test/unit/codegen/mir_interp.h"

using namespace simplec;
using namespace simplec::mir;
using namespace simplec::test;

namespace {

// An allocated function (physical registers, slots, incoming arguments)
// that writes rbx and r12, keeps a value in a slot across a call with a
// stack argument, and returns in two places.
MFunction allocatedExample() {
  FnBuilder b;
  int b0 = b.block(), b1 = b.block(), b2 = b.block();
  b.at(b0);
  b.mov(P(RBX), P(RDI));
  b.mov(P(R12), Opnd::inArg(1));
  b.mov(Opnd::slot(0), P(RSI));
  b.mov(Opnd::slot(2), Opnd::imm64(40));
  b.mov(P(RAX), Opnd::inArg(0));
  b.op(MOp::Add, P(RAX), Opnd::slot(2));
  b.mov(Opnd::slot(1), P(RAX));
  b.mov(P(RDI), P(RBX));
  b.mov(Opnd::memP(RSP, 0), P(R12));
  MInst& c = b.emit(MOp::Call, {Opnd::symbol("g")});
  c.argRegs = {RDI};
  b.f.outArgBytes = 8;
  b.op(MOp::Add, P(RAX), Opnd::slot(0));
  b.op(MOp::Add, P(RAX), Opnd::slot(1));
  b.cmp(P(RAX), P(R12));
  b.jcc(Cond::L, b2);
  b.at(b1);
  b.op(MOp::Imul, P(RAX), P(RBX));
  b.emit(MOp::Ret).argRegs = {RAX};
  b.at(b2);
  b.emit(MOp::Lea, {P(RAX), Opnd::slot(1)});  // the address of a local
  b.emit(MOp::Ret).argRegs = {RAX};
  MFunction& f = b.finish();
  f.numSlots = 3;
  f.numIncomingStackArgs = 2;
  f.usedCalleeSaved = {RBX, R12};
  return f;
}

}  // namespace

TEST_CASE("frame: prologue, epilogues and operand offsets", "[frame]") {
  MFunction f = allocatedExample();
  lowerFrame(f);
  // 2 saved registers (16 bytes) + 3 slots + 8 bytes of outgoing arguments
  // = 48 bytes below rbp: aligned, no padding.
  CHECK(f.frameSize == 32);
  CHECK(print(f) ==
        "function f slots=3 outargs=8 inargs=2 saves rbx r12 frame=32\n"
        "b0:  succs b2 b1\n"
        "  cmp rsp, [rsp - 4152]\n"  // probe: rbp, rbx, r12, frame, 4096 reserve
        "  push rbp\n"
        "  mov rbp, rsp\n"
        "  push rbx\n"
        "  push r12\n"
        "  sub rsp, 32\n"
        "  mov rbx, rdi\n"
        "  mov r12, [rbp + 24]\n"
        "  mov [rbp - 24], rsi\n"
        "  mov [rbp - 40], 40\n"
        "  mov rax, [rbp + 16]\n"
        "  add rax, [rbp - 40]\n"
        "  mov [rbp - 32], rax\n"
        "  mov rdi, rbx\n"
        "  mov [rsp], r12\n"
        "  call g (rdi)\n"
        "  add rax, [rbp - 24]\n"
        "  add rax, [rbp - 32]\n"
        "  cmp rax, r12\n"
        "  jl b2\n"
        "b1:\n"
        "  imul rax, rbx\n"
        "  lea rsp, [rbp - 16]\n"
        "  pop r12\n"
        "  pop rbx\n"
        "  pop rbp\n"
        "  ret (rax)\n"
        "b2:\n"
        "  lea rax, [rbp - 32]\n"
        "  lea rsp, [rbp - 16]\n"
        "  pop r12\n"
        "  pop rbx\n"
        "  pop rbp\n"
        "  ret (rax)\n");
}

TEST_CASE("frame: lowered code runs like the original", "[frame]") {
  MFunction f = allocatedExample();
  MFunction g = f;
  lowerFrame(g);
  CHECK(findUnloweredOperands(g).empty());
  for (int64_t a : {1, -3, 1000}) {
    InterpConfig c;
    c.args = {a, 7, 0, 0, 0, 0, 100 + a, 5 - a};
    c.callees["g"].stackArgs = 1;
    c.callees["g"].fn = [](const std::vector<int64_t>& x) {
      return int64_t(uint64_t(x[0]) * 3 - uint64_t(x[1]));
    };
    InterpResult before = runMir(f, c);
    c.lowered = true;
    InterpResult after = runMir(g, c);
    INFO(before.error << " / " << after.error);
    REQUIRE(before.ok);
    REQUIRE(after.ok);
    CHECK(before.calls == after.calls);
    // The second return gives a frame address; it differs by design.
    if (before.ret < kHeapAddr) CHECK(before.ret == after.ret);
  }
}

TEST_CASE("frame: rsp stays 16-byte aligned for every frame shape", "[frame]") {
  for (int saved = 0; saved <= 5; ++saved)
    for (int slots = 0; slots <= 4; ++slots)
      for (int out : {0, 8, 16, 20}) {
        FnBuilder b;
        b.at(b.block());
        for (int k = 0; k < slots; ++k) b.mov(Opnd::slot(k), I(k));
        for (int k = 0; k < saved; ++k) b.mov(P(kCalleeSaved[k]), I(k));
        for (int k = 0; k < out / 8; ++k) b.mov(Opnd::memP(RSP, 8 * k), I(k));
        b.emit(MOp::Call, {Opnd::symbol("g")});
        b.mov(P(RAX), I(0));
        for (int k = 0; k < slots; ++k) b.op(MOp::Add, P(RAX), Opnd::slot(k));
        b.emit(MOp::Ret).argRegs = {RAX};
        MFunction f = b.finish();
        f.numSlots = slots;
        f.outArgBytes = out;
        for (int k = 0; k < saved; ++k) f.usedCalleeSaved.push_back(kCalleeSaved[k]);
        lowerFrame(f);
        INFO("saved " << saved << " slots " << slots << " out " << out);
        CHECK((8 * saved + f.frameSize) % 16 == 0);
        CHECK(f.frameSize >= 8 * slots + (out + 7) / 8 * 8);
        CHECK(f.frameSize < 8 * slots + (out + 7) / 8 * 8 + 16);
        InterpConfig c;
        c.lowered = true;
        InterpResult r = runMir(f, c);  // checks alignment at the call and the restore
        INFO(r.error);
        REQUIRE(r.ok);
        CHECK(r.ret == slots * (slots - 1) / 2);
      }
}

TEST_CASE("frame: slot and incoming argument offsets", "[frame]") {
  CHECK(slotOffset(0, 0) == -8);
  CHECK(slotOffset(0, 3) == -32);
  CHECK(slotOffset(2, 0) == -24);
  CHECK(slotOffset(5, 1) == -56);
}

TEST_CASE("frame: an entry block that is a branch target gets a new entry", "[frame]") {
  // b0 loops to itself: running the prologue on every iteration would push
  // rbp again each time and leave rsp wrong at ret (the interpreter checks).
  FnBuilder b;
  int b0 = b.block(1), b1 = b.block();
  b.at(b0);
  b.op(MOp::Sub, P(RDI), I(1));
  b.mov(P(RBX), P(RDI));
  b.mov(Opnd::slot(0), P(RBX));
  b.cmp(P(RDI), I(0));
  b.jcc(Cond::G, b0);
  b.at(b1);
  b.mov(P(RAX), Opnd::slot(0));
  b.op(MOp::Add, P(RAX), P(RBX));
  b.emit(MOp::Ret).argRegs = {RAX};
  MFunction f = b.finish();
  f.numSlots = 1;
  f.usedCalleeSaved = {RBX};
  MFunction g = f;
  lowerFrame(g);
  REQUIRE(g.blocks.size() == 3);
  CHECK(g.blocks[0].succs == std::vector<int>{1});
  REQUIRE(g.blocks[0].insts.size() == 5);  // probe, push rbp, mov rbp, push rbx, sub rsp
  CHECK(g.blocks[0].insts[0].op == MOp::Cmp);
  CHECK(g.blocks[0].insts[1].op == MOp::Push);
  CHECK(g.blocks[1].insts.back().op == MOp::Jcc);
  CHECK(g.blocks[1].insts.back().ops[0] == Opnd::block(1));  // renumbered
  CHECK(g.blocks[1].succs == std::vector<int>{1, 2});
  for (int64_t n : {1, 5, 9, -3}) {
    InterpConfig cfg;
    cfg.args = {n};
    InterpResult r0 = runMir(f, cfg);
    cfg.lowered = true;
    InterpResult r1 = runMir(g, cfg);
    INFO(r0.error << " / " << r1.error);
    REQUIRE(r0.ok);
    REQUIRE(r1.ok);
    CHECK(r0.ret == (n > 1 ? 0 : 2 * (n - 1)));
    CHECK(r1.ret == r0.ret);
  }
}

TEST_CASE("frame: a leaf with no call, slot or saved register gets no frame", "[frame]") {
  FnBuilder b;
  b.at(b.block());
  b.mov(P(RAX), P(RDI));
  b.emit(MOp::Ret).argRegs = {RAX};
  MFunction f = b.finish();
  CHECK(needsNoFrame(f));
  lowerFrame(f);
  CHECK(f.frameSize == 0);
  CHECK(print(f) ==
        "function f slots=0\n"
        "b0:\n"
        "  mov rax, rdi\n"
        "  ret (rax)\n");
}

TEST_CASE("frame: a call (a runtime error's too), a slot or a saved register keeps the frame", "[frame]") {
  auto leaf = [] {
    FnBuilder b;
    b.at(b.block());
    b.mov(P(RAX), P(RDI));
    b.emit(MOp::Ret).argRegs = {RAX};
    return b;
  };
  FnBuilder withCall = leaf();
  int stub = withCall.block();
  withCall.at(stub);
  withCall.emit(MOp::Call, {Opnd::symbol("__simplec_rt_error")}).noReturn = true;
  MFunction f1 = withCall.finish();
  CHECK_FALSE(needsNoFrame(f1));
  lowerFrame(f1);
  CHECK(print(f1).find("push rbp") != std::string::npos);
  CHECK(print(f1).find("cmp rsp, [rsp - 4104]") != std::string::npos);
  FnBuilder withSlot = leaf();
  withSlot.f.blocks[0].insts.insert(withSlot.f.blocks[0].insts.begin(),
                                    MInst(MOp::Mov, {Opnd::slot(withSlot.f.newSlot()), P(RDI)}));
  MFunction f2 = withSlot.finish();
  CHECK_FALSE(needsNoFrame(f2));
  FnBuilder withSaved = leaf();
  withSaved.f.usedCalleeSaved = {RBX};
  CHECK_FALSE(needsNoFrame(withSaved.finish()));
  FnBuilder withInArg = leaf();
  withInArg.f.blocks[0].insts[0].ops[1] = Opnd::inArg(0);
  withInArg.f.numIncomingStackArgs = 1;
  CHECK_FALSE(needsNoFrame(withInArg.finish()));
}
