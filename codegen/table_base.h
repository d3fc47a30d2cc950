// A jump table's address kept in a register across its loop. The jump
// loads it with `lea r10, [rip + T]` every time it dispatches, which puts
// one more instruction on an interpreter's dispatch path, the path every
// bytecode takes (interp in bench/ ran 1.3x gcc's time; with the address
// in a register, as gcc keeps it, it matches gcc). So when the jump is in a
// loop that makes no call and leaves some caller-saved register untouched
// and dead, a TableAddr sets that register on each edge into the loop and
// the jump reads it (its JumpTableOpnd::kBase).
//
// The loop is the jump's strongly connected component of the control-flow
// graph without the blocks that call: every call-free block both reachable
// from the jump and reaching it, so the outermost loop around it that makes
// no call. The register is r10 (the jump's own) when it is free there, else
// another caller-saved one. Nothing happens where -g facts could name
// registers, where the loop is entered at the function's first block, or
// where an edge into it leaves a block in which the register is live out.
// A block in the outer loop that calls is an edge in: the address is set
// again after its call.
//
// Pre: registers and frame final, after formJumpTables. Post: the same
// program; liveness sees the register live from each TableAddr to its jump.
#pragma once
#include "codegen/mir.h"

namespace simplec {

// At most this many tables per function are considered: each costs a walk
// of its loop, and few registers are free anyway.
constexpr int kMaxTableBaseTries = 8;

// Returns the number of jumps given a base register.
int hoistTableBases(mir::MFunction& f);

}  // namespace simplec
