// Duplication of small branch blocks into the blocks that jump to them, after
// register allocation and frame lowering. A `jmp H` to a block H that only
// compares and branches (a while loop's test, the test of an `&&`) is
// replaced by a copy of H's compare and branches, so the jump disappears;
// on a loop's back edge this rotates the loop (the test at the bottom, as
// gcc and clang lay loops out), which saves a jump per iteration and lets
// the branch predictor see the loop's own branch.
// A jump to the next block in the layout is left alone: it costs nothing.
// Pre: registers and frame are final (the copy must mean what the original
// does); jumps threaded (peepholeMachineCode) and the layout tidied. Post:
// the same function, possibly with blocks nothing reaches any more and with
// `jcc NEXT; jmp B` pairs (tidyBlockLayout drops and merges them).
#pragma once
#include "codegen/mir.h"

namespace simplec {

// The most instructions a duplicated block may hold (compare and two jumps).
constexpr size_t kMaxDuplicatedBranchBlock = 3;

// Returns the number of jumps replaced.
int duplicateBranchBlocks(mir::MFunction& f);

}  // namespace simplec
