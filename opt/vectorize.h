// vectorizeLoops: two iterations at once in SSE2 registers. An innermost
// counted loop `for (j = init; j < limit; j++)` (or `<=`) whose body is one
// straight block of flt loads and stores at a[j + d] (d unchanged by the
// loop) and +, -, *, /, min, max, -x, abs and sqrt of their values and of
// invariant flts gets a copy
// before it that runs j, j + 1 together: 16-byte loads and stores
// (movupd), packed arithmetic (addpd, mulpd, ...), an invariant flt in
// both lanes (unpcklpd). Each round of the copy does two such pairs (j, j
// + 1 and j + 2, j + 3; the second pair's addresses differ by a
// displacement), with j stepping by 4 while all four are iterations the
// loop would run. The loop as written then runs what is left (at most
// three iterations), from where the copy stopped.
// Each lane computes what its scalar iteration did, operation for
// operation, so the results are the same bits. What may differ is only
// the order of memory accesses: the copy does an access of iteration j + 1
// before the later accesses of iteration j. That changes nothing unless
// two of the accesses, one a store, are to the same array 8 bytes apart
// (or overlap at any distance up to 16 bytes): a test before the copy
// sends such runs to the loop as written. Accesses to two different
// allocations, or at equal offsets, need no test.
// Conditions: the loop may run 16 iterations or more (by the ranges of
// init and limit); the loop's only Phis are j (stepping by 1, compared by the
// header) and memory; no bounds check, call or other control in the body
// (the checks a copy made by loop-version dropped are gone there); j is
// used only in addresses and the header; no value of the body is used
// after the loop; every element is an f64. No reduction: adding the lanes
// in another order would change the rounding.
// Pre: a verified graph late in -O2 (after if-convert, so the body is
// as small as it gets). Post: a verified graph computing the same, with
// the peepholes' fixed point again.
#pragma once
#include <cstdint>

#include "son/graph.h"

namespace simplec {

constexpr int kMaxVectorizedNodes = 64;  // data nodes of a loop body at most

// On one function; returns the number of loops vectorized.
int vectorizeLoops(Graph& g, uint64_t seed = 0);

}  // namespace simplec
