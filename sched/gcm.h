// gcm: global code motion (Click 1995) for one function's graph.
// Pre: the graph is verified; the function's control nodes are reachable
// from its Fun node; no Scope nodes remain.
// Post: every live data node of the function is placed in exactly one block
// that dominates all its uses (Phi uses count at the matching predecessor)
// and is dominated by all its inputs' blocks; among the legal blocks the one
// with the shallowest loop depth is chosen (the latest on a tie), except that
// a value that is the last use of two or more inputs moves up to where they
// are within the blocks that run exactly when its block runs (fewer values
// live); blocks are laid out in reverse post-order with loop bodies kept
// together.
#pragma once
#include "sched/schedule.h"

namespace simplec {

// Every node reachable backwards from the function's Return (or from one of
// its reachable control nodes) without passing Start is placed, its
// constants included.
// Throws internalError("gcm", "function 'f': ...") when the function has no
// body, its Return is unreachable from its Fun, or its CFG or data
// dependences are malformed (an If without both arms, a value whose inputs
// do not dominate its uses, an irreducible loop, ...). Never recurses deeply.
Schedule gcm(const Graph& g);

}  // namespace simplec
