// Small diamonds into selects, at -O2. An If whose two arms hold no code of
// their own and meet at once in a Region, whose Phis merge integers or
// references, becomes one Select per Phi: both values are computed and a
// cmov picks one, so an unpredictable branch (collatz's `x & 1`, a clamp)
// costs no misprediction. Only what cannot trap or touch memory is
// computed on the path that did not need it (arithmetic, compares), at most
// kMaxSpeculated nodes per arm and Phi, as gcc and clang do for cmov; and
// only when the condition does not wait for a load (a predicted branch
// runs past it, a cmov could not), unless the merge picks the larger or
// smaller of the two values compared (a max or min: as unpredictable as
// the data, and both values are computed anyway).
// Before that, when each arm holds one store to the same address over the
// same memory (`if (p >= q) c[j] = p; else c[j] = q;`), the two become one
// store of a Phi at the merge, which empties the arms.
// -g: assignments made in the arms are superseded by the merge's bindings
// (the Selects), so they are dropped rather than moved onto both paths.
// Pre: a verified graph after the peepholes and idle-casts (no Casts left
// pinned to arms they do not narrow). Post: a verified graph computing the
// same, with Selects (son/ops.def) and no Region, If or arm for each
// diamond converted.
#pragma once
#include "son/graph.h"

namespace simplec {

constexpr int kMaxSpeculated = 4;

// Returns the number of rewrites: diamonds converted and store pairs sunk.
int convertIfs(Graph& g);

}  // namespace simplec
