// Shrink-wrapping of an early return. A function that often returns at
// once -- the base case of a recursion, `if (n < 2) return n;` -- pays for
// its whole frame on that path too: the stack probe, rbp, the pushes and
// pops of callee-saved registers. When the code from the entry to the
// first conditional branch, and from one arm of that branch to a `ret`,
// needs no frame (no call, no stack slot or argument, no store), a copy of
// both goes in front of the prologue: the copy tests, returns when it can,
// and otherwise jumps to the prologue, after which the original code tests
// again (the test is a few register instructions).
//
// The copy keeps the caller's state: it writes no callee-saved register,
// and before its branch no argument register, since the original code reads
// the arguments again. Such writes go to registers the copy does not use
// otherwise, or disappear when they only copy a register; code whose result
// the copy does not need is left out. Like a frameless leaf (frame.h), the
// copy's only stack use is its return address, which the caller's probe
// covers. The stack probe is then no longer the function's first
// instruction: MFunction::probeBlock says where it is (the stack table).
// For debuggers, the copy is still at the function's entry state: the CFI
// needs no rule and the parameters stay in their registers; values the copy
// computes have no debug location.
#pragma once
#include "codegen/mir.h"

namespace simplec {

// Precondition: f is final (allocated, frame lowered, laid out). Returns
// whether f got the copy: then blocks 0 and 1 are the copy (its test, its
// return) and every other block moved up by two.
bool wrapEarlyReturn(mir::MFunction& f);

}  // namespace simplec
