// Where instruction selection makes a constant that needs a register: once
// per block that reads it, in that block, or, for a block inside loops, in
// the latest block before the outermost of those loops that the constant's
// GCM block still dominates (the shallowest loop depth, as GCM chooses for
// any value). GCM puts a constant read in many places at their common
// dominator, so in one huge function (a script) a few hundred constants
// lived from the entry to the end: live sets, and the allocator's work,
// grew with the square of the function's size.
#pragma once
#include "sched/schedule.h"

namespace simplec {

// The block where a constant that GCM placed in `conBlock` is made for a
// read in `useBlock` (conBlock dominates useBlock). Walks the schedule's
// shallowerDom links: at most the loop depth of useBlock.
int constantHome(const Schedule& s, int useBlock, int conBlock);

}  // namespace simplec
