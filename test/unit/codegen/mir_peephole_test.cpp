// Tests for codegen/mir_peephole.h: compares with zero become tests, zeroing
// moves become xor only where the flags are dead, a copy before a multiply
// by a constant becomes the multiply's source, and jumps to blocks that
// only pass control on go to the final target.
#include <catch2/catch.hpp>

#include "codegen/mir_peephole.h"
#include "test/unit/codegen/mir_builder.h"
#include "test/unit/codegen/mir_interp.h"

using namespace simplec;
using namespace simplec::mir;
using simplec::test::Jcc;

TEST_CASE("codegen/mir_peephole: cmp $0 becomes test", "[codegen][mir_peephole]") {
  MFunction f;
  f.blocks.resize(3);
  f.blocks[0].insts = {MInst(MOp::Cmp, {Opnd::preg(RDI), Opnd::imm64(0)}), Jcc(Cond::L, 2)};
  f.blocks[0].succs = {2, 1};
  f.blocks[1].insts = {MInst(MOp::Cmp, {Opnd::preg(RDI), Opnd::imm64(5)}), MInst(MOp::Ret)};
  f.blocks[2].insts = {MInst(MOp::Ret)};
  CHECK(peepholeMachineCode(f) == 1);
  const MInst& t = f.blocks[0].insts[0];
  CHECK(t.op == MOp::Test);
  CHECK(t.ops[0] == Opnd::preg(RDI));
  CHECK(t.ops[1] == Opnd::preg(RDI));
  CHECK(f.blocks[1].insts[0].op == MOp::Cmp);  // not a zero
}

TEST_CASE("codegen/mir_peephole: mov $0 becomes xor only where the flags are dead", "[codegen][mir_peephole]") {
  MFunction f;
  f.blocks.resize(2);
  MInst set(MOp::Setcc, {Opnd::preg(RCX)});
  set.cc = Cond::E;
  f.blocks[0].insts = {
      MInst(MOp::Mov, {Opnd::preg(RAX), Opnd::imm64(0)}),   // then cmp: flags dead -> xor
      MInst(MOp::Cmp, {Opnd::preg(RDI), Opnd::preg(RSI)}),
      MInst(MOp::Mov, {Opnd::preg(RDX), Opnd::imm64(0)}),   // between cmp and setcc: stays
      set,
      MInst(MOp::Mov, {Opnd::preg(R8), Opnd::imm64(0)}),    // block falls through: stays
  };
  f.blocks[0].succs = {1};
  f.blocks[1].insts = {MInst(MOp::Mov, {Opnd::preg(RAX), Opnd::imm64(0)}), MInst(MOp::Ret)};
  CHECK(peepholeMachineCode(f) == 2);
  CHECK(f.blocks[0].insts[0].op == MOp::Xor);
  CHECK(f.blocks[0].insts[0].ops[0] == Opnd::preg(RAX));
  CHECK(f.blocks[0].insts[2].op == MOp::Mov);
  CHECK(f.blocks[0].insts[4].op == MOp::Mov);
  CHECK(f.blocks[1].insts[0].op == MOp::Xor);
}

TEST_CASE("codegen/mir_peephole: mov d, s; imul d, imm becomes imul d, s, imm", "[codegen][mir_peephole]") {
  MFunction f;
  f.blocks.resize(1);
  MInst ret(MOp::Ret);
  ret.argRegs = {RAX};
  f.blocks[0].insts = {
      MInst(MOp::Mov, {Opnd::preg(RAX), Opnd::preg(RDI)}),  // fused: rdi stays live
      MInst(MOp::Imul, {Opnd::preg(RAX), Opnd::imm64(10)}),
      MInst(MOp::Mov, {Opnd::preg(RCX), Opnd::preg(RSI)}),  // a register multiplier: stays
      MInst(MOp::Imul, {Opnd::preg(RCX), Opnd::preg(RDX)}),
      MInst(MOp::Mov, {Opnd::preg(R8), Opnd::preg(RSI)}),   // the copy is multiplied elsewhere: stays
      MInst(MOp::Imul, {Opnd::preg(RCX), Opnd::imm64(3)}),
      MInst(MOp::Add, {Opnd::preg(RAX), Opnd::preg(RDI)}),
      MInst(MOp::Add, {Opnd::preg(RAX), Opnd::preg(RCX)}),
      MInst(MOp::Add, {Opnd::preg(RAX), Opnd::preg(R8)}),
      ret,
  };
  test::InterpConfig cfg;
  cfg.args = {7, 5, 3};
  int64_t before = test::runMir(f, cfg).ret;
  CHECK(before == 70 + 7 + 15 * 3 + 5);
  CHECK(peepholeMachineCode(f) == 1);
  REQUIRE(f.blocks[0].insts.size() == 9);
  const MInst& mul = f.blocks[0].insts[0];
  CHECK(mul.op == MOp::Imul);
  REQUIRE(mul.ops.size() == 3);
  CHECK(mul.ops[0] == Opnd::preg(RAX));
  CHECK(mul.ops[1] == Opnd::preg(RDI));
  CHECK(mul.ops[2].imm == 10);
  // It writes rax without reading it.
  DefUse du = defUses(mul);
  CHECK(du.uses.size() == 1);
  CHECK(du.uses[0] == Opnd::preg(RDI));
  test::InterpResult after = test::runMir(f, cfg);
  REQUIRE(after.ok);
  CHECK(after.ret == before);
}

TEST_CASE("codegen/mir_peephole: jumps through jump-only blocks are threaded", "[codegen][mir_peephole]") {
  MFunction f;
  f.blocks.resize(6);
  // B0: jl B2 else B1; B1: jmp B3; B2: empty, falls into B3; B3: jmp B5;
  // B4: jmp B4 (an endless loop); B5: ret.
  f.blocks[0].insts = {MInst(MOp::Cmp, {Opnd::preg(RDI), Opnd::preg(RSI)}), Jcc(Cond::L, 2)};
  f.blocks[0].succs = {2, 1};
  f.blocks[1].insts = {MInst(MOp::Jmp, {Opnd::block(3)})};
  f.blocks[1].succs = {3};
  f.blocks[2].succs = {3};
  f.blocks[3].insts = {MInst(MOp::Jmp, {Opnd::block(5)})};
  f.blocks[3].succs = {5};
  f.blocks[4].insts = {MInst(MOp::Jmp, {Opnd::block(4)})};
  f.blocks[4].succs = {4};
  f.blocks[5].insts = {MInst(MOp::Ret)};
  peepholeMachineCode(f);
  CHECK(f.blocks[0].insts[1].ops[0].reg == 5);
  CHECK(f.blocks[0].succs[0] == 5);
  CHECK(f.blocks[1].insts[0].ops[0].reg == 5);
  CHECK(f.blocks[4].insts[0].ops[0].reg == 4);
}

TEST_CASE("codegen/mir_peephole: unreachable blocks go, a branch over the next block is inverted",
          "[codegen][mir_peephole]") {
  MFunction f;
  f.blocks.resize(5);
  // B0: jge B2, jmp B4; B1: jmp B4 (nothing reaches it after threading);
  // B2: jmp B3 ... B3: falls into B4; B4: ret.
  f.blocks[0].insts = {MInst(MOp::Cmp, {Opnd::preg(RDI), Opnd::imm64(2)}), Jcc(Cond::GE, 2),
                       MInst(MOp::Jmp, {Opnd::block(4)})};
  f.blocks[0].succs = {2, 4};
  f.blocks[1].insts = {MInst(MOp::Jmp, {Opnd::block(4)})};
  f.blocks[1].succs = {4};
  f.blocks[2].insts = {MInst(MOp::Add, {Opnd::preg(RDI), Opnd::imm64(1)}), MInst(MOp::Jmp, {Opnd::block(3)})};
  f.blocks[2].succs = {3};
  f.blocks[3].insts = {MInst(MOp::Add, {Opnd::preg(RDI), Opnd::imm64(2)})};
  f.blocks[3].succs = {4};
  f.blocks[4].insts = {MInst(MOp::Ret)};
  CHECK(tidyBlockLayout(f) == 2);  // B1 dropped, B0's two jumps made one
  REQUIRE(f.blocks.size() == 4);
  REQUIRE(f.blocks[0].insts.size() == 2);
  CHECK(f.blocks[0].insts[1].op == MOp::Jcc);
  CHECK(f.blocks[0].insts[1].cc == Cond::L);
  CHECK(f.blocks[0].insts[1].ops[0].reg == 3);  // old B4
  CHECK(f.blocks[0].succs == std::vector<int>{1, 3});
  CHECK(f.blocks[1].insts[1].ops[0].reg == 2);  // old B3
  CHECK(f.blocks[2].succs == std::vector<int>{3});
  CHECK(tidyBlockLayout(f) == 0);
}

TEST_CASE("codegen/mir_peephole: a block reached only by falling through stays", "[codegen][mir_peephole]") {
  MFunction f;
  f.blocks.resize(3);
  f.blocks[0].insts = {MInst(MOp::Cmp, {Opnd::preg(RDI), Opnd::imm64(0)}), Jcc(Cond::E, 2)};  // falls into B1
  f.blocks[1].insts = {MInst(MOp::Mov, {Opnd::preg(RAX), Opnd::imm64(1)}), MInst(MOp::Ret)};
  f.blocks[2].insts = {MInst(MOp::Ret)};
  CHECK(tidyBlockLayout(f) == 0);
  CHECK(f.blocks.size() == 3);
}

TEST_CASE("codegen/mir_peephole: a latch whose exit is not next branches back", "[codegen][mir_peephole]") {
  // rax = rdi + (rdi - 1) + ... + 1:
  //   B0: rax = 0; cmp rdi, 0; jle B3        B1: rax += rdi; rdi -= 1
  //   B2: cmp rdi, 0; jle B4; jmp B1 (the latch; its exit B4 is not next)
  //   B3: ret 0 path (rax = 0)               B4: ret
  MFunction f;
  f.blocks.resize(5);
  f.blocks[0].insts = {MInst(MOp::Mov, {Opnd::preg(RAX), Opnd::imm64(0)}),
                       MInst(MOp::Cmp, {Opnd::preg(RDI), Opnd::imm64(0)}), Jcc(Cond::LE, 3)};
  f.blocks[0].succs = {3, 1};
  f.blocks[1].insts = {MInst(MOp::Add, {Opnd::preg(RAX), Opnd::preg(RDI)}),
                       MInst(MOp::Sub, {Opnd::preg(RDI), Opnd::imm64(1)})};
  f.blocks[1].succs = {2};
  f.blocks[2].insts = {MInst(MOp::Cmp, {Opnd::preg(RDI), Opnd::imm64(0)}), Jcc(Cond::LE, 4),
                       MInst(MOp::Jmp, {Opnd::block(1)})};
  f.blocks[2].succs = {4, 1};
  f.blocks[3].insts = {MInst(MOp::Ret)};
  f.blocks[4].insts = {MInst(MOp::Ret)};
  auto sum = [&](int64_t n) {
    test::InterpConfig cfg;
    cfg.args = {n};
    test::InterpResult r = test::runMir(f, cfg);
    REQUIRE(r.ok);
    return r.ret;
  };
  CHECK(sum(10) == 55);
  CHECK(tidyBlockLayout(f) == 0);  // nothing removed, the latch's jumps swapped
  const std::vector<MInst>& latch = f.blocks[2].insts;
  REQUIRE(latch.size() == 3);
  CHECK(latch[1].cc == Cond::G);
  CHECK(latch[1].ops[0].reg == 1);
  CHECK(latch[2].ops[0].reg == 4);
  for (int64_t n : {-2, 0, 1, 10}) CHECK(sum(n) == (n > 0 ? n * (n + 1) / 2 : 0));
  // A forward branch with a forward jump is left as it is.
  f.blocks[2].insts[2].ops[0] = Opnd::block(3);
  f.blocks[2].insts[1].cc = Cond::LE;
  f.blocks[2].insts[1].ops[0] = Opnd::block(4);
  tidyBlockLayout(f);
  CHECK(f.blocks[2].insts[1].ops[0].reg == 4);
}
