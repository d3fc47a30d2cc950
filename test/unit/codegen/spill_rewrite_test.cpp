// Tests for codegen/spill_rewrite.cpp with assignments chosen by the test,
// not by the allocator: for every subset of spilled vregs, the rewritten
// function must compute the same as the original on the interpreter, so
// every instruction form is exercised with every mix of spilled operands.
#include <catch2/catch.hpp>

#include "codegen/regalloc.h"
#include "codegen/spill_rewrite.h"
#include "test/unit/codegen/mir_builder.h"
#include "test/unit/codegen/mir_interp.h"

using namespace simplec;
using namespace simplec::mir;
using namespace simplec::test;

namespace {

// Registers for the vregs that are not spilled (none is used explicitly by
// the test functions, and rdi is free once the parameters are read).
const int kPool[8] = {RBX, R12, R13, R14, R15, R8, R9, RDI};

// Rewrites a copy of `f`: vreg v is spilled when bit v of `mask` is set,
// otherwise it gets kPool[v].
MFunction rewriteWith(const MFunction& f, unsigned mask) {
  MFunction g = f;
  RegAssignment a;
  for (int v = 0; v < int(f.vregs.size()); ++v) {
    bool spill = (mask >> v) & 1;
    a.reg.push_back(spill ? -1 : kPool[v]);
    a.slot.push_back(spill ? g.newSlot() : -1);
  }
  rewriteAllocated(g, a);
  return g;
}

std::vector<InterpConfig> heapInputs() {
  std::vector<InterpConfig> out;
  for (int i = 0; i < 3; ++i) {
    InterpConfig c;
    c.seed = uint64_t(i + 1);
    c.args = {kHeapAddr, 5 + 11 * i};
    for (int k = 0; k < 40; ++k) c.heap.push_back(int64_t(k * 7919 + i * 104729) * (k % 3 - 1));
    out.push_back(c);
  }
  return out;
}

// Every subset of spilled vregs gives the same results.
void checkAllSubsets(const MFunction& f) {
  REQUIRE(f.vregs.size() <= 8);
  std::vector<InterpConfig> in = heapInputs();
  std::vector<InterpResult> ref;
  for (const InterpConfig& c : in) {
    ref.push_back(runMir(f, c));
    INFO(ref.back().error);
    REQUIRE(ref.back().ok);
  }
  for (unsigned mask = 0; mask < (1u << f.vregs.size()); ++mask) {
    MFunction g = rewriteWith(f, mask);
    INFO("spilled mask " << mask << "\n" << print(g));
    REQUIRE(findVirtualRegisters(g).empty());
    for (size_t i = 0; i < in.size(); ++i) {
      InterpConfig c = in[i];
      c.seed += 1000;  // different garbage in the registers
      InterpResult r = runMir(g, c);
      INFO(r.error);
      REQUIRE(r.ok);
      CHECK(r.ret == ref[i].ret);
      CHECK(r.heap == ref[i].heap);
    }
  }
}

Opnd mem(int base, int index, int scale, int64_t disp) {
  Opnd m = Opnd::memV(base, disp);
  m.index = index;
  m.indexVirt = true;
  m.scale = uint8_t(scale);
  return m;
}

}  // namespace

TEST_CASE("spill rewrite: every instruction form with every spill subset", "[regalloc]") {
  FnBuilder b;
  b.at(b.block());
  int base = b.vreg(), x = b.vreg(), y = b.vreg(), z = b.vreg(), i = b.vreg(), t = b.vreg();
  b.mov(V(x), P(RSI));
  b.mov(V(base), P(RDI));
  b.mov(V(y), I(3));
  b.mov(V(z), V(x));
  b.op(MOp::Add, V(z), V(y));
  b.op(MOp::Imul, V(z), V(x));
  b.op(MOp::Sub, V(z), Opnd::memV(base, 8));
  b.mov(V(i), V(z));
  b.op(MOp::And, V(i), I(7));
  b.mov(mem(base, i, 8, 0), V(z));          // store, three registers read
  b.mov(V(t), mem(base, i, 8, 8));          // load with base and index
  b.op(MOp::Add, V(t), mem(base, i, 8, 0));  // alu with a memory source
  b.emit(MOp::MovZX, {V(y), V(t)}).size = 1;
  b.emit(MOp::MovSX, {V(x), Opnd::memV(base, 16)}).size = 2;
  b.emit(MOp::MovSX, {V(z), V(x)}).size = 1;
  b.emit(MOp::Lea, {V(i), mem(base, i, 8, 4)});
  b.op(MOp::Sub, V(i), V(base));
  b.emit(MOp::Neg, {V(i)});
  b.emit(MOp::Not, {V(t)});
  b.cmp(V(i), V(t));
  b.setcc(Cond::L, V(y));
  b.cmp(V(t), V(i));
  b.cmov(Cond::G, V(x), V(z));
  b.emit(MOp::Test, {V(x), V(y)});
  b.cmov(Cond::E, V(z), V(i));
  b.mov(P(RCX), V(y));
  b.op(MOp::Shl, V(z), P(RCX));
  b.op(MOp::Or, V(y), I(1));               // non-zero divisor
  b.mov(P(RAX), V(z));
  b.emit(MOp::SDivRem, {V(y)});
  b.mov(V(z), P(RAX));
  b.mov(V(t), P(RDX));
  b.mov(V(i), V(t));
  b.op(MOp::And, V(i), I(15));
  b.mov(mem(base, i, 8, 0), I(-12345));    // store of an immediate
  b.op(MOp::Xor, V(z), V(z));
  b.op(MOp::Add, V(z), mem(base, i, 8, 0));
  b.op(MOp::Add, V(z), V(t));
  b.op(MOp::Add, V(z), V(x));
  b.op(MOp::Imul, V(z), V(y));
  b.mov(V(x), V(x));
  b.op(MOp::Add, V(z), V(x));
  b.ret(V(z));
  checkAllSubsets(b.finish());
}

TEST_CASE("spill rewrite: parallel moves with spilled operands", "[regalloc]") {
  FnBuilder b;
  int b0 = b.block(), head = b.block(1), body = b.block(1), exit = b.block();
  int n = b.vreg(), v1 = b.vreg(), v2 = b.vreg(), v3 = b.vreg(), v4 = b.vreg(), acc = b.vreg();
  b.at(b0);
  b.mov(V(v1), P(RSI));
  b.parmove({{V(n), I(4)}, {V(v2), I(20)}, {V(v3), V(v1)}, {V(v4), I(int64_t(1) << 40)}});
  b.at(head);
  b.cmp(V(n), I(0));
  b.jcc(Cond::LE, exit);
  b.at(body);
  b.op(MOp::Sub, V(n), I(1));
  b.op(MOp::Add, V(v1), I(1));
  b.parmove({{V(v1), V(v2)}, {V(v2), V(v3)}, {V(v3), V(v1)}, {V(v4), V(v4)}, {V(n), V(n)}});
  b.jmp(head);
  b.at(exit);
  b.mov(V(acc), V(v1));
  b.op(MOp::Imul, V(acc), I(100));
  b.op(MOp::Add, V(acc), V(v2));
  b.op(MOp::Imul, V(acc), I(100));
  b.op(MOp::Add, V(acc), V(v3));
  b.op(MOp::Add, V(acc), V(v4));
  b.ret(V(acc));
  checkAllSubsets(b.finish());
}

TEST_CASE("spill rewrite: spilled operands used in place or through scratch registers",
          "[regalloc]") {
  FnBuilder b;
  b.at(b.block());
  int base = b.vreg(), x = b.vreg(), y = b.vreg(), i = b.vreg();
  b.mov(V(base), P(RDI));                   // 0: def of a spilled vreg: store
  b.mov(V(x), V(base));                     // 1: load from the slot in place
  b.op(MOp::Add, V(x), V(base));            // 2: alu with the slot as source
  b.mov(V(i), I(1));                        // 3: store of an immediate
  b.mov(mem(base, i, 8, 0), V(y));          // 4: base, index and value spilled
  b.op(MOp::Add, V(y), mem(base, i, 8, 0)); // 5: likewise, y read and written
  b.cmp(V(base), V(i));                     // 6: a scratch register and the slot
  // base, y and i spilled (slots 0, 1, 2); x in kPool[1] = r12.
  MFunction g = rewriteWith(b.finish(), 0b1101);
  CHECK(print(g) ==
        "function f slots=3\n"
        "b0:\n"
        "  mov slot0, rdi\n"
        "  mov r12, rdi\n"          // rdi still holds slot0: a register copy
        "  add r12, slot0\n"
        "  mov slot2, 1\n"
        "  mov r11, rdi\n"
        "  mov r10, slot2\n"
        "  lea r11, [r11 + r10*8]\n"
        "  mov r10, slot1\n"
        "  mov [r11], r10\n"
        "  mov r11, rdi\n"
        "  mov r10, slot2\n"
        "  lea r11, [r11 + r10*8]\n"
        "  mov r10, slot1\n"
        "  add r10, [r11]\n"
        "  mov slot1, r10\n"
        "  mov r11, rdi\n"
        "  cmp r11, slot2\n");
}

TEST_CASE("spill rewrite: reloads of values still in a register are dropped", "[regalloc]") {
  FnBuilder b;
  int b0 = b.block(), b1 = b.block();
  int x = b.vreg(), y = b.vreg();
  b.at(b0);
  b.mov(V(x), P(RDI));
  b.op(MOp::Add, V(x), I(1));   // load, add, store
  b.op(MOp::Sub, V(x), I(2));   // no reload: r11 still holds slot0
  b.mov(V(y), V(x));            // no reload either
  b.cmp(V(x), I(0));            // reload: r11 now holds y's slot
  b.jmp(b1);
  b.at(b1);
  b.op(MOp::Add, V(x), I(3));   // a new block: reload
  MInst call(MOp::Call, {Opnd::symbol("g")});
  b.f.blocks[size_t(b1)].insts.push_back(call);
  b.op(MOp::Add, V(x), I(4));   // the call clobbered r11: reload
  MFunction g = rewriteWith(b.finish(), 0b11);
  CHECK(print(g) ==
        "function f slots=2\n"
        "b0:  succs b1\n"
        "  mov slot0, rdi\n"
        "  mov r11, rdi\n"
        "  add r11, 1\n"
        "  mov slot0, r11\n"
        "  sub r11, 2\n"
        "  mov slot0, r11\n"
        "  mov slot1, r11\n"
        "  mov r11, slot0\n"
        "  cmp r11, 0\n"
        "  jmp b1\n"
        "b1:\n"
        "  mov r11, slot0\n"
        "  add r11, 3\n"
        "  mov slot0, r11\n"
        "  call g\n"
        "  mov r11, slot0\n"
        "  add r11, 4\n"
        "  mov slot0, r11\n");
}

TEST_CASE("spill rewrite: a spilled two-lane vector moves 16 bytes through a scratch register",
          "[regalloc]") {
  // v (a splat) is spilled: each def stores and each use reloads all 16
  // bytes (movupd) through xmm15, never as an 8-byte memory operand.
  FnBuilder b;
  b.at(b.block());
  int x = b.f.newVReg(RegClass::Xmm), v = b.f.newVReg(RegClass::Vec), w = b.f.newVReg(RegClass::Vec);
  b.mov(V(x), P(XMM0));
  b.mov(V(v), V(x));
  b.emit(MOp::VSplat, {V(v)});
  b.mov(V(w), V(v));
  b.op(MOp::VAdd, V(w), V(v));
  b.emit(MOp::Mov, {Opnd::memP(RDI, 8), V(w)}).size = 16;
  MFunction g = b.finish();
  RegAssignment a;
  a.reg = {XMM0 + 1, -1, XMM0 + 2};
  a.slot = {-1, g.newSlot() + g.newSlot(), -1};  // slots 0 and 1: v is the 16 bytes at slot 1
  rewriteAllocated(g, a);
  CHECK(print(g) ==
        "function f slots=2\n"
        "b0:\n"
        "  mov xmm1, xmm0\n"
        "  mov xmm15, xmm1\n"
        "  mov.16 slot1, xmm15\n"
        "  mov.16 xmm15, slot1\n"
        "  unpcklpd xmm15\n"
        "  mov.16 slot1, xmm15\n"
        "  mov.16 xmm15, slot1\n"
        "  mov xmm2, xmm15\n"
        "  mov.16 xmm15, slot1\n"
        "  addpd xmm2, xmm15\n"
        "  mov.16 [rdi + 8], xmm2\n");
}
