// Tests for codegen/table_base.h: a jump table in a loop gets its address
// in a register set on the edges into the loop (r10 when it is free, else
// another caller-saved register nobody in the loop touches; again after a
// call in the loop), and nothing changes where the jump's own block calls,
// the loop starts at the function's entry, -g facts or live registers stand
// in the way. The MIR interpreter checks the results and that the base
// register holds the table's address at every jump.
#include <catch2/catch.hpp>

#include "codegen/mir_peephole.h"
#include "codegen/table_base.h"
#include "test/unit/codegen/mir_builder.h"
#include "test/unit/codegen/mir_interp.h"

using namespace simplec;
using namespace simplec::mir;
using simplec::test::Jcc;
using simplec::test::blockOf;
using simplec::test::Jmp;
namespace J = simplec::mir::JumpTableOpnd;

namespace {

MInst op2(MOp op, int d, Opnd s) { return MInst(op, {Opnd::preg(d), s}); }
MInst imm(MOp op, int d, int64_t k) { return op2(op, d, Opnd::imm64(k)); }
MInst table(int value, int64_t number, int dflt, std::vector<int> cases) {
  MInst t(MOp::JmpTable, {Opnd::preg(value), Opnd::imm64(0), Opnd::imm64(number), Opnd(), Opnd::block(dflt)});
  for (int c : cases) t.ops.push_back(Opnd::block(c));
  return t;
}

// rax = the sum over i < rdi of 1, 10, 100 or 0 as i & 3 is 0, 1, 2 or 3.
MFunction loop() {
  MFunction f;
  f.name = "loop";
  f.blocks = {
      blockOf({imm(MOp::Mov, RAX, 0), imm(MOp::Mov, RCX, 0), Jmp(1)}, {1}),            // B0
      blockOf({op2(MOp::Cmp, RCX, Opnd::preg(RDI)), Jcc(Cond::GE, 7)}, {7, 2}),         // B1
      blockOf({op2(MOp::Mov, RDX, Opnd::preg(RCX)), imm(MOp::And, RDX, 3), table(RDX, 0, 6, {3, 4, 5, 6})},
            {3, 4, 5, 6}),                                                            // B2
      blockOf({imm(MOp::Add, RAX, 1), Jmp(6)}, {6}),                                    // B3
      blockOf({imm(MOp::Add, RAX, 10), Jmp(6)}, {6}),                                   // B4
      blockOf({imm(MOp::Add, RAX, 100), Jmp(6)}, {6}),                                  // B5
      blockOf({imm(MOp::Add, RCX, 1), Jmp(1)}, {1}),                                    // B6
      blockOf({MInst(MOp::Ret)}, {}),                                                   // B7
  };
  f.blocks[7].insts[0].argRegs = {RAX};
  return f;
}

int64_t expected(int64_t n) {
  int64_t s = 0;
  for (int64_t i = 0; i < n; i++) s += (i & 3) == 0 ? 1 : (i & 3) == 1 ? 10 : (i & 3) == 2 ? 100 : 0;
  return s;
}

int64_t run(const MFunction& f, int64_t n, test::InterpConfig cfg = {}) {
  cfg.args = {n, 5};
  test::InterpResult r = test::runMir(f, cfg);
  INFO(r.error);
  REQUIRE(r.ok);
  return r.ret;
}

void checkRuns(const MFunction& f, int64_t plus = 0, test::InterpConfig cfg = {}) {
  for (int64_t n : {0, 1, 2, 5, 17}) {
    INFO("n = " << n);
    CHECK(run(f, n, cfg) == expected(n) + plus);
  }
}

const MInst& jumpOf(const MFunction& f, int b) { return f.blocks[size_t(b)].insts.back(); }

}  // namespace

TEST_CASE("codegen/table_base: a table in a loop keeps its address in r10", "[codegen][table_base]") {
  MFunction f = loop();
  checkRuns(f);
  REQUIRE(hoistTableBases(f) == 1);
  CHECK(jumpOf(f, 2).ops[J::kBase] == Opnd::preg(R10));
  // Set once, on the way in (before B0's jump), not in the loop.
  REQUIRE(f.blocks[0].insts.size() == 4);
  const MInst& addr = f.blocks[0].insts[2];
  CHECK(addr.op == MOp::TableAddr);
  CHECK(addr.ops[0] == Opnd::preg(R10));
  CHECK(addr.ops[1].imm == 0);
  checkRuns(f);
  // The register is live from there to the jump: the peepholes and the
  // layout keep it.
  peepholeMachineCode(f);
  tidyBlockLayout(f);
  checkRuns(f);
  // Done once: a second run finds no table without a base.
  CHECK(hoistTableBases(f) == 0);
}

TEST_CASE("codegen/table_base: a call in the loop sets the address again after it", "[codegen][table_base]") {
  // Case 1 calls g (which destroys r10): the loop without that block is
  // B1 B2 B3 B5 B6, entered from B0 and from the call's block.
  MFunction f = loop();
  f.blocks[4].insts = {MInst(MOp::Call, {Opnd::symbol("g")}), imm(MOp::Add, RAX, 10), Jmp(6)};
  test::InterpConfig cfg;
  cfg.callees["g"].fn = [](const std::vector<int64_t>&) { return int64_t(0); };
  // rax is caller-saved: the call leaves 0 there, so count from the calls on.
  std::vector<int64_t> before;
  for (int64_t n : {0, 2, 5, 17}) before.push_back(run(f, n, cfg));
  REQUIRE(hoistTableBases(f) == 1);
  CHECK(jumpOf(f, 2).ops[J::kBase] == Opnd::preg(R10));
  REQUIRE(f.blocks[4].insts.size() == 4);
  CHECK(f.blocks[4].insts[0].op == MOp::Call);
  CHECK(f.blocks[4].insts[2].op == MOp::TableAddr);
  CHECK(f.blocks[0].insts[2].op == MOp::TableAddr);
  size_t i = 0;
  for (int64_t n : {0, 2, 5, 17}) CHECK(run(f, n, cfg) == before[i++]);
}

TEST_CASE("codegen/table_base: another register when r10 is taken", "[codegen][table_base]") {
  SECTION("r10 written in the loop") {
    MFunction f = loop();
    f.blocks[4].insts = {imm(MOp::Mov, R10, 10), op2(MOp::Add, RAX, Opnd::preg(R10)), Jmp(6)};
    checkRuns(f);
    REQUIRE(hoistTableBases(f) == 1);
    // rax, rcx and rdx are used in the loop; rsi (an argument nobody reads)
    // is free.
    CHECK(jumpOf(f, 2).ops[J::kBase] == Opnd::preg(RSI));
    checkRuns(f);
  }
  SECTION("a register live through the loop is passed over") {
    // (r10 never is: the jump without a base destroys it.)
    MFunction f = loop();
    f.blocks[4].insts = {imm(MOp::Mov, R10, 10), op2(MOp::Add, RAX, Opnd::preg(R10)), Jmp(6)};
    f.blocks[7].insts.insert(f.blocks[7].insts.begin(), op2(MOp::Add, RAX, Opnd::preg(RSI)));  // rsi = 5
    checkRuns(f, 5);
    REQUIRE(hoistTableBases(f) == 1);
    CHECK(jumpOf(f, 2).ops[J::kBase] == Opnd::preg(R8));  // rdi is read in the loop
    checkRuns(f, 5);
  }
  SECTION("two tables in one loop take two registers") {
    MFunction f = loop();
    // Case 2 adds 100, then 1000 more when rax is odd, through a second table.
    f.blocks[5].insts = {imm(MOp::Add, RAX, 100), op2(MOp::Mov, RDX, Opnd::preg(RAX)), imm(MOp::And, RDX, 1),
                         table(RDX, 1, 6, {6, 8})};
    f.blocks[5].succs = {6, 8};
    f.blocks.push_back(blockOf({imm(MOp::Add, RAX, 1000), Jmp(6)}, {6}));  // B8
    std::vector<int64_t> before;
    for (int64_t n : {0, 3, 9, 17}) before.push_back(run(f, n));
    REQUIRE(hoistTableBases(f) == 2);
    // The first one's loop holds the second jump, which still loads r10;
    // then r10 is the second one's.
    CHECK(jumpOf(f, 2).ops[J::kBase] == Opnd::preg(RSI));
    CHECK(jumpOf(f, 5).ops[J::kBase] == Opnd::preg(R10));
    size_t i = 0;
    for (int64_t n : {0, 3, 9, 17}) CHECK(run(f, n) == before[i++]);
  }
}

TEST_CASE("codegen/table_base: what keeps the address in the jump", "[codegen][table_base]") {
  SECTION("a call in the jump's block") {
    MFunction f = loop();
    f.blocks[2].insts.insert(f.blocks[2].insts.begin(), MInst(MOp::Call, {Opnd::symbol("g")}));
    REQUIRE(hoistTableBases(f) == 0);
    CHECK(jumpOf(f, 2).ops[J::kBase].kind == Opnd::None);
  }
  SECTION("no loop") {
    MFunction f = loop();
    f.blocks[6].insts = {imm(MOp::Add, RCX, 1), Jmp(7)};
    f.blocks[6].succs = {7};
    REQUIRE(hoistTableBases(f) == 0);
  }
  SECTION("the loop starts at the function's first block") {
    MFunction f = loop();
    f.blocks[6].insts = {imm(MOp::Add, RCX, 1), Jmp(0)};
    f.blocks[6].succs = {0};
    REQUIRE(hoistTableBases(f) == 0);
  }
  SECTION("every free register live or used") {
    MFunction f = loop();
    // rsi, rdi, r8, r9 read after the loop; r10 written in it.
    f.blocks[4].insts = {imm(MOp::Mov, R10, 10), op2(MOp::Add, RAX, Opnd::preg(R10)), Jmp(6)};
    for (int r : {RSI, R8, R9}) f.blocks[7].insts.insert(f.blocks[7].insts.begin(), op2(MOp::Add, RAX, Opnd::preg(r)));
    REQUIRE(hoistTableBases(f) == 0);
  }
  SECTION("-g facts") {
    MFunction f = loop();
    f.blocks[1].dbgEntry = {{1, 1}};
    REQUIRE(hoistTableBases(f) == 0);
  }
  SECTION("a base is checked: a jump whose base was overwritten fails in the interpreter") {
    MFunction f = loop();
    REQUIRE(hoistTableBases(f) == 1);
    f.blocks[3].insts.insert(f.blocks[3].insts.begin(), imm(MOp::Mov, R10, 0));
    test::InterpConfig cfg;
    cfg.args = {5, 5};
    CHECK_FALSE(test::runMir(f, cfg).ok);
  }
}
