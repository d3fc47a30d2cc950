// Small rewrites of machine code after register allocation and frame
// lowering, where the registers are final:
//   cmp $0, r      -> test r, r    (same flags, shorter)
//   mov $0, r      -> xor r, r     (shorter; only where the flags are dead)
//   a jump to a block that only jumps (or is empty and falls through) goes
//   straight to where that block leads.
// Returns the number of rewrites.
#pragma once
#include "codegen/mir.h"

namespace simplec {

int peepholeMachineCode(mir::MFunction& f);

}  // namespace simplec
