// Jump tables from chains of equality tests, as gcc's if-to-switch pass
// makes them. Simple has no switch statement, so a dispatch is written
//   if (op == 0) ... else if (op == 1) ... else if (op == 2) ...
// which compiles to one compare and branch per case: an interpreter loop
// runs half the chain for every instruction it dispatches. A chain of at
// least kMinJumpTableCases tests of one register against constants whose
// range is dense enough becomes one bounds check and one indirect jump
// through a table (MOp::JmpTable).
//
// The chain's blocks after its first may hold code besides their test:
// global code motion sinks into them what only the later cases use (`sp -
// 1` for the arms that pop). That code now runs after the jump, on each
// path that ran it before: in front of the case's block when only that
// test leads there, else in a block of its own between the table and the
// case. So every path runs what it ran before, whatever registers it
// uses. The chain ends at a block with another way in, -g facts, code that
// writes the tested register, reads the flags, calls or sets up the frame,
// or where the copies would grow past kMaxCopiedPerCase per case.
//
// Pre: registers and frame final (runs after frame lowering, before
// peepholeMachineCode, which threads the table's jumps, and
// tidyBlockLayout, which drops the tests nothing reaches any more).
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
// The instructions copied to the cases may number at most this many per
// case, plus kMaxCopiedExtra.
constexpr size_t kMaxCopiedPerCase = 4;
constexpr size_t kMaxCopiedExtra = 16;

// Returns the number of jump tables made.
int formJumpTables(mir::MFunction& f);

}  // namespace simplec
