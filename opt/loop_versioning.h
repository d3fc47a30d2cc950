// versionLoops: loop predication by versioning. An innermost counted loop
// `for (j = init; j < limit; j++)` (or `j <= limit`) whose body still has
// bounds checks on `a[j + c]`, with a# and limit unchanged by the loop,
// gets one test before it: `init + cmin >= 0` and `limit + cmax < a#` for
// every such array. When the test passes, a copy of the loop runs with
// those checks gone (they cannot fail); when it fails, the loop as it was
// runs, so a check that fails does so at its own iteration, with its own
// position and message, after the same output. Both copies leave into a
// new Region whose Phis merge every value the loop hands on.
// An index j + d with d not constant but unchanged by the loop (`c[i * n
// + j]` in a row-major loop over flat arrays of run-time size) is tested
// by its first and last values instead: `0 <= first <= last < length`
// (first <= last: no value between wrapped around; `j <= limit` loops
// also need limit < INT64_MAX, or j itself would wrap). So are constant
// offsets on a length not known to be non-negative (a New's input).
// lcs's inner loop (`cur[j] = prev[j - 1] + 1` over rows of unknown length)
// keeps no check then, and its arms become plain stores.
// Only loops whose only exit is the header's test, with no loop inside,
// of at most kMaxVersionedNodes nodes; j must be the loop's Phi stepping
// by 1 and the header test must compare that Phi (so j never wraps: it
// stays below limit, or at most limit, which the test keeps under a#).
// Pre: a verified graph after boundscheck (the checks it could not remove
// are the ones worth a copy). Post: a verified graph computing the same,
// with the peepholes' fixed point again.
#pragma once
#include <cstdint>

#include "son/graph.h"

namespace simplec {

constexpr int kMaxVersionedNodes = 160;  // nodes of a loop copied at most

// On one function; returns the number of loops versioned.
int versionLoops(Graph& g, uint64_t seed = 0);

}  // namespace simplec
