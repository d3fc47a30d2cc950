// Rewrites a function after register assignment: every VReg operand becomes
// its physical register or, for a spilled vreg, its frame slot (in place, or
// through the scratch registers r11/r10). ParMoves become Movs.
// Invariant: scratch registers never carry a value from one instruction of
// the input to the next, so they need no interval of their own.
#pragma once
#include <vector>

#include "codegen/mir.h"

namespace simplec {

struct RegAssignment {
  std::vector<int> reg;   // by vreg: physical register, or -1
  std::vector<int> slot;  // by vreg: frame slot when spilled, or -1
};

// A spilled operand is used in place when x86 accepts a memory operand
// there (`mov reg, [slot]`, `mov [slot], reg|imm32`, `add reg, [slot]`,
// `cmp reg, [slot]`, `movzx reg, [slot]`); otherwise it is loaded into a
// scratch register (r11, then r10) before the instruction and stored back
// after it when written. `mov r, r` is dropped, as is a reload of a spill
// slot into a register that still holds it.
// Throws InternalError("regalloc", ...) if a VReg has neither a register nor
// a slot, or for a ParMove it cannot lower (odd operand count, a spilled
// address register inside a memory operand).
void rewriteAllocated(mir::MFunction& f, const RegAssignment& a);

}  // namespace simplec
