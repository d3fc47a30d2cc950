// strengthReduce: a multiplication of a basic induction variable by a
// loop-invariant value that is not a power of two (`k * n` in `b[k * n + j]`
// inside the loop over k) becomes an induction variable of its own: a new
// Phi of the loop that starts at init * n and adds step * n each time
// round. Both products are invariant, so code motion takes them out of
// the loop; the multiply in the loop becomes an add. Exact with wrapping
// arithmetic (the product of the IV and n is init*n + k*step*n mod 2^64
// in the k-th round either way), so no overflow needs to be ruled out.
// Powers of two are left alone: the peepholes made them shifts, which
// cost no more than the add. A product used only after the loop would
// also get its add in the loop; the pass does not look where products are
// used.
// Linear-function test replacement follows: a counter whose products all
// became the new IV and that is otherwise only stepped and compared with
// invariants (`i < n`) is compared through the product instead
// (`j < n * s`, for a factor s > 0 and ranges under which neither product
// overflows), and dies.
// Pre: a verified graph (after boundscheck, whose proofs read the products'
// ranges). Post: the same program; the peepholes' fixed point again.
#pragma once
#include <cstdint>

#include "son/graph.h"

namespace simplec {

// On one function; returns the number of multiplications replaced.
int strengthReduce(Graph& g, uint64_t seed = 0);

}  // namespace simplec
