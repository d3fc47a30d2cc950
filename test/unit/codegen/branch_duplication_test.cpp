// Tests for codegen/branch_duplication.h: a jump to a block that only
// compares and branches becomes a copy of that block (a while loop's test
// moves to the bottom of the loop), other jumps stay, and the function
// computes the same (the MIR interpreter before and after).
#include <catch2/catch.hpp>

#include "codegen/branch_duplication.h"
#include "codegen/mir_peephole.h"
#include "test/unit/codegen/mir_builder.h"
#include "test/unit/codegen/mir_interp.h"

using namespace simplec;
using namespace simplec::mir;
using simplec::test::Jcc;
using simplec::test::Jmp;

namespace {

// rax = n + (n - 1) + ... + 1, as a loop with its test at the top:
//   B0: rax = 0                 B2: rax += rdi; rdi -= 1; jmp B1
//   B1: cmp rdi, 0; jle B3      B3: ret
MFunction sumLoop() {
  MFunction f;
  f.blocks.resize(4);
  f.blocks[0].insts = {MInst(MOp::Mov, {Opnd::preg(RAX), Opnd::imm64(0)})};
  f.blocks[0].succs = {1};
  f.blocks[1].insts = {MInst(MOp::Cmp, {Opnd::preg(RDI), Opnd::imm64(0)}), Jcc(Cond::LE, 3)};
  f.blocks[1].succs = {3, 2};
  f.blocks[2].insts = {MInst(MOp::Add, {Opnd::preg(RAX), Opnd::preg(RDI)}),
                       MInst(MOp::Sub, {Opnd::preg(RDI), Opnd::imm64(1)}), Jmp(1)};
  f.blocks[2].succs = {1};
  f.blocks[3].insts = {MInst(MOp::Ret)};
  return f;
}

int64_t run(const MFunction& f, int64_t n, int64_t* steps = nullptr) {
  test::InterpConfig cfg;
  cfg.args = {n};
  test::InterpResult r = test::runMir(f, cfg);
  REQUIRE(r.ok);
  if (steps) *steps = r.steps;
  return r.ret;
}

}  // namespace

TEST_CASE("codegen/branch_duplication: a loop's test moves to its bottom", "[codegen][branch_duplication]") {
  MFunction f = sumLoop();
  int64_t stepsBefore = 0, stepsAfter = 0;
  CHECK(run(f, 10, &stepsBefore) == 55);
  CHECK(duplicateBranchBlocks(f) == 1);
  // B2 ends with the test's copy, then a jump to where the test fell through.
  const std::vector<MInst>& body = f.blocks[2].insts;
  REQUIRE(body.size() == 5);
  CHECK(body[2].op == MOp::Cmp);
  CHECK(body[3].op == MOp::Jcc);
  CHECK(body[3].ops[0].reg == 3);
  CHECK(body[4].op == MOp::Jmp);
  CHECK(body[4].ops[0].reg == 2);
  CHECK(f.blocks[2].succs == std::vector<int>{3, 2});
  // The layout then turns `jle B3; jmp B2` (B3 next) into `jg B2`.
  CHECK(tidyBlockLayout(f) == 1);
  REQUIRE(f.blocks[2].insts.size() == 4);
  CHECK(f.blocks[2].insts[3].cc == Cond::G);
  CHECK(f.blocks[2].insts[3].ops[0].reg == 2);
  for (int64_t n : {-3, 0, 1, 10}) CHECK(run(f, n) == (n > 0 ? n * (n + 1) / 2 : 0));
  run(f, 10, &stepsAfter);
  CHECK(stepsAfter < stepsBefore);  // one jump fewer per iteration
}

TEST_CASE("codegen/branch_duplication: only compare-and-branch blocks are copied", "[codegen][branch_duplication]") {
  // The target computes something besides its test: the jump stays.
  MFunction f = sumLoop();
  f.blocks[1].insts.insert(f.blocks[1].insts.begin(), MInst(MOp::Add, {Opnd::preg(RCX), Opnd::imm64(1)}));
  CHECK(duplicateBranchBlocks(f) == 0);
  // A target that ends in a jump of its own is copied with it.
  MFunction g = sumLoop();
  g.blocks.resize(5);
  g.blocks[1].insts.push_back(Jmp(4));
  g.blocks[1].succs = {3, 4};
  g.blocks[4].insts = {Jmp(2)};
  g.blocks[4].succs = {2};
  CHECK(duplicateBranchBlocks(g) == 1);
  CHECK(g.blocks[2].insts.back().op == MOp::Jmp);
  CHECK(g.blocks[2].insts.back().ops[0].reg == 4);
  CHECK(run(g, 6) == 21);
  // A jump to the next block falls through for free: it stays.
  MFunction n = sumLoop();
  n.blocks[0].insts.push_back(Jmp(1));
  CHECK(duplicateBranchBlocks(n) == 1);  // only B2's back edge
  CHECK(n.blocks[0].insts.back().op == MOp::Jmp);
  // A block jumping to itself is left alone.
  MFunction h;
  h.blocks.resize(1);
  h.blocks[0].insts = {MInst(MOp::Cmp, {Opnd::preg(RDI), Opnd::imm64(0)}), Jmp(0)};
  CHECK(duplicateBranchBlocks(h) == 0);
}
