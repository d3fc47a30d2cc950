// Removes instructions, before register allocation, whose only effect is to
// write a virtual register that nothing needs: a copy made for a Cast that
// only bounds another Cast (the loop-exit test's `j < v#` narrows v# as
// well as j), an address or a conversion left unread. Such a def took a
// register and an instruction in the loop (spectral's inner loop carried
// `mov r8, rax` every iteration). Only instructions that write no memory
// and no flags go: a removed one cannot change what any other reads.
// Returns the number of instructions removed. Linear in the function.
#pragma once
#include "codegen/mir.h"

namespace simplec {

int removeDeadDefs(mir::MFunction& f);

}  // namespace simplec
