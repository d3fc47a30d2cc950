// Jump tables from chains of equality tests, as gcc's if-to-switch pass
// makes them. Simple has no switch statement, so a dispatch is written
//   if (op == 0) ... else if (op == 1) ... else if (op == 2) ...
// which compiles to one compare and branch per case: an interpreter loop
// runs half the chain for every instruction it dispatches. A chain of at
// least kMinJumpTableCases tests of one register against constants whose
// range is dense enough becomes one bounds check and one indirect jump
// through a table (MOp::JmpTable).
//
// The chain's blocks after its first hold nothing but their test, except
// for instructions global code motion sank into them for the later cases
// (`sp - 1` for the arms that pop). Those move up in front of the jump,
// in order, when they only compute into a register from registers and
// constants (no memory access, no fault), do not write the tested
// register, and write no register that an earlier case's block reads on
// entry (liveness after register allocation). The chain ends at the first
// block where that does not hold, or that has another predecessor, or
// that -g facts are attached to.
//
// Pre: registers and frame final. It runs before peepholeMachineCode, whose
// `xor r, r` for `mov $0, r` would read r as far as liveness can tell, and
// which then threads the table's jumps; tidyBlockLayout drops the chain's
// blocks nothing reaches any more.
#pragma once
#include <cstdint>

#include "codegen/mir.h"

namespace simplec {

// gcc and clang start at 4 or 5 cases; the table's indirect jump costs
// about as much as two compares that the branch predictor gets wrong.
constexpr int kMinJumpTableCases = 4;
// The table may have at most this many entries per case (holes jump to
// the default), and at most kMaxJumpTableEntries in all.
constexpr int64_t kMaxJumpTableEntriesPerCase = 4;
constexpr int64_t kMaxJumpTableEntries = 4096;

// Returns the number of jump tables made.
int formJumpTables(mir::MFunction& f);

}  // namespace simplec
