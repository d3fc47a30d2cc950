// Branches on a merged condition are threaded, at -O2. `a && b` and `a || b`
// leave a Region whose Phi holds, along each predecessor, either a constant
// or the condition the predecessor was just branched on (`it < 100` on the
// arm where it was false). An If on that Phi is decided along such a
// predecessor: the predecessor then goes straight to the arm it takes, and
// only the other predecessors still reach the If. So `while (i < n && a[i])`
// tests `i < n` once and jumps, instead of storing the outcome in a register
// and testing it again.
// Only when the Region holds nothing else (no other Phi, nothing pinned to
// it) and the arms have only control users, so no value needs new Phis.
// Pre/post: a verified graph that computes the same.
#pragma once
#include "son/graph.h"

namespace simplec {

// Returns the number of predecessors threaded.
int splitIfs(Graph& g);

}  // namespace simplec
