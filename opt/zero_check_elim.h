// zeroCheckElim: removes a ZeroCheck whose value is already known to be
// non-zero on every path that reaches it: checked by a dominating ZeroCheck,
// or tested on a dominating branch (the true arm of `if (d)` / `if (d != 0)`,
// the false arm of `if (d == 0)`). A walk over each function's dominator
// tree carries the set of values known non-zero (the check elimination of
// "Semantic Reasoning about the Sea of Nodes"). Likewise a BoundsCheck of
// the same index and length as a dominating one (`a[i] = a[i] + 1`).
// Pre: a verified graph. Post: the same program with fewer checks; a
// division stays below a control node that guarantees its divisor non-zero.
#pragma once
#include "son/graph.h"

namespace simplec {

// On one function; returns the number of checks removed.
int zeroCheckElim(Graph& g);

}  // namespace simplec
