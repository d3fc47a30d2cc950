// loadElim: a Load that reads the same memory state, pointer and offset
// (and width) as a Load whose control dominates its own computes the same
// value: its uses take the dominating Load instead. Value numbering alone
// misses these, since each Load is pinned below its own check or branch
// (`if (keys[s] == 0) ... keys[s]` loads once; a read of an array that the
// loop does not write moves out of the loop with the first read before it).
// A walk down the dominator tree keeps the Loads seen on the current path.
// Pre: a verified graph. Post: the same program with fewer Loads; a kept
// Load may have uses below a store to its memory state, which global code
// motion orders after it (its anti-dependences).
#pragma once
#include "son/graph.h"

namespace simplec {

// Returns the number of Loads replaced.
// On one function; returns the number of loads replaced.
int loadElim(Graph& g);

}  // namespace simplec
