// Tests for codegen/jump_tables.h: a chain of equality tests of one
// register becomes one JmpTable (first test of a key wins, holes go to the
// default), the code between the tests is copied to the cases that ran it
// (dead copies dropped), the chain stops at what cannot be copied or has
// another way in, and the function computes the same on every input (the
// MIR interpreter before and after).
#include <catch2/catch.hpp>
#include <climits>

#include "codegen/jump_tables.h"
#include "codegen/mir_peephole.h"
#include "test/unit/codegen/mir_builder.h"
#include "test/unit/codegen/mir_interp.h"

using namespace simplec;
using namespace simplec::mir;
using simplec::test::Jcc;
using simplec::test::blockOf;
using simplec::test::Jmp;
namespace J = simplec::mir::JumpTableOpnd;

namespace {

MInst cmpImm(int r, int64_t k) { return MInst(MOp::Cmp, {Opnd::preg(r), Opnd::imm64(k)}); }
MInst movImm(int r, int64_t k) { return MInst(MOp::Mov, {Opnd::preg(r), Opnd::imm64(k)}); }
MInst leaPlus(int d, int base, int64_t k) { return MInst(MOp::Lea, {Opnd::preg(d), Opnd::memP(base, k)}); }
MInst ret() {
  MInst r(MOp::Ret);
  r.argRegs = {RAX};
  return r;
}
MBlock returns(std::vector<MInst> insts) {
  insts.push_back(ret());
  return blockOf(std::move(insts), {});
}

// rax = f(rdi, rsi), dispatching on rdi:
//   0 -> 10   1 -> rsi + 1   2 -> rsi + 101   3 -> rsi + 2   5 -> 14
//   anything else -> -1 (a second test of 1 is never taken)
// B1 and B3 compute rsi + 1 and rsi + 2 for the later cases (as global code
// motion sinks such values); B2 falls through; B3 tests with jne.
MFunction dispatch() {
  MFunction f;
  f.name = "dispatch";
  f.blocks = {
      blockOf({movImm(RAX, 100), cmpImm(RDI, 0), Jcc(Cond::E, 10), Jmp(1)}, {10, 1}),   // B0
      blockOf({leaPlus(RCX, RSI, 1), cmpImm(RDI, 1), Jcc(Cond::E, 11), Jmp(2)}, {11, 2}),  // B1
      blockOf({cmpImm(RDI, 2), Jcc(Cond::E, 12)}, {12, 3}),                            // B2
      blockOf({leaPlus(RDX, RSI, 2), cmpImm(RDI, 3), Jcc(Cond::NE, 4), Jmp(13)}, {4, 13}),  // B3
      blockOf({cmpImm(RDI, 5), Jcc(Cond::E, 14), Jmp(5)}, {14, 5}),                   // B4
      blockOf({cmpImm(RDI, 1), Jcc(Cond::E, 15), Jmp(6)}, {15, 6}),                   // B5
      returns({movImm(RAX, -1)}),                                                     // B6
      returns({}), returns({}), returns({}),                                          // B7-B9 unused
      returns({movImm(RAX, 10)}),                                                     // B10
      returns({MInst(MOp::Mov, {Opnd::preg(RAX), Opnd::preg(RCX)})}),                 // B11
      returns({MInst(MOp::Mov, {Opnd::preg(RAX), Opnd::preg(RCX)}),
               MInst(MOp::Add, {Opnd::preg(RAX), Opnd::imm64(100)})}),                // B12
      returns({MInst(MOp::Mov, {Opnd::preg(RAX), Opnd::preg(RDX)})}),                 // B13
      returns({movImm(RAX, 14)}),                                                     // B14
      returns({movImm(RAX, 15)}),                                                     // B15
  };
  return f;
}

int64_t run(const MFunction& f, int64_t x, int64_t y, int64_t* steps = nullptr) {
  test::InterpConfig cfg;
  cfg.args = {x, y, 0, 0, test::kHeapAddr};  // r8: memory to load from
  cfg.heap = {41, 42};
  test::InterpResult r = test::runMir(f, cfg);
  INFO(r.error);
  REQUIRE(r.ok);
  if (steps) *steps = r.steps;
  return r.ret;
}

const std::vector<int64_t>& inputs() {
  static const std::vector<int64_t> xs = {INT64_MIN, INT64_MIN + 1, -4294967296, -3, -2, -1, 0, 1, 2, 3, 4,
                                          5, 6, 7, 4294967296, 4294967297, INT64_MAX};
  return xs;
}

// The same results before and after `change`, for every input above.
template <typename Change>
void checkSameResults(MFunction f, Change&& change) {
  std::vector<int64_t> before;
  for (int64_t x : inputs()) before.push_back(run(f, x, 7));
  change(f);
  for (size_t i = 0; i < inputs().size(); i++) {
    INFO("x = " << inputs()[i]);
    CHECK(run(f, inputs()[i], 7) == before[i]);
  }
}

const MInst& lastOf(const MFunction& f, int b) { return f.blocks[size_t(b)].insts.back(); }

}  // namespace

TEST_CASE("codegen/jump_tables: a chain of equality tests becomes one table", "[codegen][jump_tables]") {
  MFunction f = dispatch();
  CHECK(run(f, 2, 7) == 108);
  CHECK(run(f, 3, 7) == 9);
  CHECK(run(f, 4, 7) == -1);
  REQUIRE(formJumpTables(f) == 1);
  const MInst& jt = lastOf(f, 0);
  REQUIRE(jt.op == MOp::JmpTable);
  CHECK(jt.ops[J::kValue] == Opnd::preg(RDI));
  CHECK(jt.ops[J::kLo].imm == 0);  // keys 0..5
  CHECK(jt.ops[J::kTable].imm == 0);  // the function's first table
  CHECK(jt.ops[J::kBase].kind == Opnd::None);  // r10 gets its address
  CHECK(jt.ops[J::kDefault].reg == 6);  // the default: where the last test fails
  std::vector<int> cases;
  for (size_t i = J::kFirstCase; i < jt.ops.size(); i++) cases.push_back(jt.ops[i].reg);
  // 1 -> B11 (its first test); 4 is a hole: the default.
  CHECK(cases == std::vector<int>{10, 11, 12, 13, 6, 14});
  // The head keeps its own code; the cases start with what the tests
  // before them computed, where they read it.
  REQUIRE(f.blocks[0].insts.size() == 2);
  CHECK(f.blocks[0].insts[0].op == MOp::Mov);
  CHECK(f.blocks[0].succs == std::vector<int>{6, 10, 11, 12, 13, 14});
  CHECK(f.blocks[10].insts.size() == 2);  // case 0 ran no code of the chain
  REQUIRE(f.blocks[11].insts.size() == 3);
  CHECK(f.blocks[11].insts[0].ops[0] == Opnd::preg(RCX));
  REQUIRE(f.blocks[13].insts.size() == 3);  // rcx is dead there: only rdx
  CHECK(f.blocks[13].insts[0].ops[0] == Opnd::preg(RDX));
  CHECK(f.blocks[14].insts.size() == 2);
  CHECK(f.blocks[6].insts.size() == 2);
  // The chain's other blocks are unreachable: the layout drops them.
  CHECK(tidyBlockLayout(f) > 0);
  CHECK(f.blocks.size() == 7);  // B0, B6 and B10..B14
}

TEST_CASE("codegen/jump_tables: the function computes the same", "[codegen][jump_tables]") {
  checkSameResults(dispatch(), [](MFunction& f) {
    REQUIRE(formJumpTables(f) == 1);
    peepholeMachineCode(f);
    tidyBlockLayout(f);
  });
  // The dispatch runs fewer instructions for the last case.
  MFunction f = dispatch();
  int64_t before = 0, after = 0;
  run(f, 5, 7, &before);
  formJumpTables(f);
  run(f, 5, 7, &after);
  CHECK(after < before);
}

TEST_CASE("codegen/jump_tables: negative keys and a test of zero", "[codegen][jump_tables]") {
  MFunction f = dispatch();
  // Keys -2, -1, 0 (test rdi, rdi), 1, 2 and the rest as before.
  f.blocks[0].insts[1] = cmpImm(RDI, -2);
  f.blocks[1].insts[1] = cmpImm(RDI, -1);
  f.blocks[2].insts[0] = MInst(MOp::Test, {Opnd::preg(RDI), Opnd::preg(RDI)});
  f.blocks[3].insts[1] = cmpImm(RDI, 1);
  f.blocks[4].insts[0] = cmpImm(RDI, 2);
  checkSameResults(f, [](MFunction& g) {
    REQUIRE(formJumpTables(g) == 1);
    const MInst& jt = lastOf(g, 0);
    CHECK(jt.ops[J::kLo].imm == -2);
    CHECK(jt.ops.size() == J::kFirstCase + 5);
  });
}

TEST_CASE("codegen/jump_tables: registers reused along the chain keep their values on each path",
          "[codegen][jump_tables]") {
  // B2 and B4 overwrite rcx, which case 1 (B11) and case 2 (B12) read.
  MFunction f = dispatch();
  f.blocks[2].insts.insert(f.blocks[2].insts.begin(), movImm(RCX, 1000));
  f.blocks[4].insts.insert(f.blocks[4].insts.begin(), leaPlus(RCX, RSI, 50));
  checkSameResults(f, [](MFunction& g) {
    REQUIRE(formJumpTables(g) == 1);
    CHECK(lastOf(g, 0).ops.size() == J::kFirstCase + 6);
  });
}

TEST_CASE("codegen/jump_tables: a default reached from elsewhere gets the copies in a block of its own",
          "[codegen][jump_tables]") {
  MFunction f = dispatch();
  f.blocks[10].insts = {Jmp(6)};  // case 0 goes on to the default
  f.blocks[10].succs = {6};
  // The default reads what B1 computed.
  f.blocks[6].insts.insert(f.blocks[6].insts.begin(), MInst(MOp::Mov, {Opnd::preg(RAX), Opnd::preg(RCX)}));
  f.blocks[6].insts.erase(f.blocks[6].insts.begin() + 1);
  checkSameResults(f, [](MFunction& g) {
    REQUIRE(formJumpTables(g) == 1);
    // Laid out right after the head: the copy, then a jump to the default
    // (old B6, now B7).
    CHECK(lastOf(g, 0).ops[J::kDefault].reg == 1);
    REQUIRE(g.blocks[1].insts.size() == 2);
    CHECK(g.blocks[1].insts[0].ops[0] == Opnd::preg(RCX));
    CHECK(lastOf(g, 1).op == MOp::Jmp);
    CHECK(lastOf(g, 1).ops[0].reg == 7);
  });
}

// In each case the first three tests are a chain too short for a table,
// and B3 starts one of three tests.
TEST_CASE("codegen/jump_tables: what cannot move, other entries and sparse keys keep the tests",
          "[codegen][jump_tables]") {
  SECTION("a call in the chain") {
    MFunction f = dispatch();
    MInst call(MOp::Call, {Opnd::symbol("g")});
    f.blocks[3].insts.insert(f.blocks[3].insts.begin(), call);
    CHECK(formJumpTables(f) == 0);
  }
  SECTION("a write of the tested register") {
    MFunction f = dispatch();
    f.blocks[3].insts.insert(f.blocks[3].insts.begin(), leaPlus(RDI, RDI, 1));
    CHECK(formJumpTables(f) == 0);
  }
  SECTION("a second way into the chain") {
    MFunction f = dispatch();
    f.blocks[10].insts = {Jmp(3)};
    f.blocks[10].succs = {3};
    CHECK(formJumpTables(f) == 0);
  }
  SECTION("another register tested") {
    MFunction f = dispatch();
    f.blocks[3].insts[1] = cmpImm(RSI, 3);
    CHECK(formJumpTables(f) == 0);
  }
  SECTION("a chain may start after another way in") {
    MFunction f = dispatch();
    f.blocks[10].insts = {Jmp(2)};
    f.blocks[10].succs = {2};
    checkSameResults(f, [](MFunction& g) {
      REQUIRE(formJumpTables(g) == 1);
      CHECK(lastOf(g, 2).op == MOp::JmpTable);  // tests 2, 3, 5, 1
      CHECK(lastOf(g, 2).ops[J::kLo].imm == 1);
    });
  }
  SECTION("a load is copied like the rest") {
    MFunction f = dispatch();
    f.blocks[3].insts.insert(f.blocks[3].insts.begin(), MInst(MOp::Mov, {Opnd::preg(RCX), Opnd::memP(R8, 8)}));
    checkSameResults(f, [](MFunction& g) { CHECK(formJumpTables(g) == 1); });
  }
  SECTION("keys too far apart") {
    MFunction f = dispatch();
    for (int b = 0; b < 5; b++)
      for (MInst& mi : f.blocks[size_t(b)].insts)
        if (mi.op == MOp::Cmp) mi.ops[1].imm *= 1000;
    CHECK(formJumpTables(f) == 0);
  }
}

TEST_CASE("codegen/jump_tables: a chain longer than a table goes on testing after it", "[codegen][jump_tables]") {
  // rax = 3 * x for x in 0..n-1, else -1: n tests, one block each.
  const int n = int(kMaxJumpTableEntries) + 1500;
  MFunction f;
  f.name = "long_chain";
  for (int k = 0; k < n; k++)
    f.blocks.push_back(blockOf({cmpImm(RDI, k), Jcc(Cond::E, n + 1 + k), Jmp(k + 1)}, {n + 1 + k, k + 1}));
  f.blocks.push_back(returns({movImm(RAX, -1)}));
  for (int k = 0; k < n; k++) f.blocks.push_back(returns({movImm(RAX, 3 * k)}));
  auto runOn = [](const MFunction& g, int64_t x) { return run(g, x, 0); };
  REQUIRE(formJumpTables(f) == 1);
  const MInst& jt = lastOf(f, 0);
  REQUIRE(jt.op == MOp::JmpTable);
  CHECK(jt.ops.size() == J::kFirstCase + size_t(kMaxJumpTableEntries));
  CHECK(jt.ops[J::kDefault].reg == int(kMaxJumpTableEntries));  // the first test left
  peepholeMachineCode(f);
  tidyBlockLayout(f);
  for (int64_t x : {int64_t(0), int64_t(1), kMaxJumpTableEntries - 1, kMaxJumpTableEntries, int64_t(n - 1),
                    int64_t(n), int64_t(-1), int64_t(INT64_MIN)})
    CHECK(runOn(f, x) == (x >= 0 && x < n ? 3 * x : -1));
}
