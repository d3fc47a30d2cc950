// Small rewrites of machine code after register allocation and frame
// lowering, where the registers are final:
//   cmp $0, r      -> test r, r    (same flags, shorter)
//   mov $0, r      -> xor r, r     (shorter; only where the flags are dead)
//   mov d, s; imul d, imm -> imul d, s, imm   (x86's three-operand form)
//   a jump to a block that only jumps (or is empty and falls through) goes
//   straight to where that block leads.
// Returns the number of rewrites.
#pragma once
#include "codegen/mir.h"

namespace simplec {

int peepholeMachineCode(mir::MFunction& f);

// After the jumps are threaded: blocks nothing reaches any more are dropped
// (blocks renumbered), then `jcc NEXT; jmp B` becomes `j!cc B` where NEXT is
// the block laid out next, so that the branch falls through instead of
// jumping twice; and `jcc FWD; jmp BACK` (a latch whose exit is not next)
// becomes `j!cc BACK; jmp FWD`, one taken jump per iteration. Returns the
// number of blocks and jumps removed.
int tidyBlockLayout(mir::MFunction& f);

}  // namespace simplec
