// Range narrowing on each side of a branch (the Pi nodes of TurboFan, the
// CastNodes of Click's Simple): for `if (i < n)`, uses of i and of n that
// only execute on the true arm are rewired to Cast nodes pinned to that arm,
// which carry the fact `i < n` (and `n > i`); the false arm gets `i >= n`.
// A Cast's type is its value's range cut by the fact (son/compute.h), so the
// combined analysis (sccp) that follows sees i as [MIN, n.hi - 1] there:
// comparisons fold, ZeroChecks of divisors proven non-zero go. Casts that
// narrow nothing are removed after the peepholes (removeIdleCasts); the rest
// reach code generation as plain copies.
// A use is on an arm when the arm dominates it: the control of a pinned use
// (control node, Phi input's predecessor, node with a control input), or,
// for a floating use, every use of it, a few levels deep.
// Pre/post: a verified graph. Returns the number of Casts inserted.
#pragma once
#include "son/graph.h"

namespace simplec {

int insertNarrowingCasts(Graph& g);
// Replaces every Cast that narrows nothing (its type is its value's) by the
// value. Run once types have settled; returns the number removed.
int removeIdleCasts(Graph& g);

}  // namespace simplec
