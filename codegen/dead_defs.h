// Removes instructions, before register allocation, whose only effect is to
// write a virtual register that nothing needs: a constant materialized for
// a user that took it as an immediate after all (sort's `mov $4294967295`),
// an address or a conversion left unread. Such a def takes a register and
// an instruction (spectral's inner loop carried `mov r8, rax` every
// iteration, for a Cast that only bounded another, before Casts became
// their input's vreg). Only instructions that write no memory and no flags
// go: a removed one cannot change what any other reads.
// Returns the number of instructions removed. Linear in the function.
#pragma once
#include "codegen/mir.h"

namespace simplec {

int removeDeadDefs(mir::MFunction& f);

}  // namespace simplec
