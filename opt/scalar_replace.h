// Scalar replacement of allocations that never escape, at -O2. A `new`
// struct (or array of constant length) whose reference is only ever the
// address of loads and stores at constant offsets, never stored, passed,
// compared or returned, lives only in this function: each of its fields
// becomes a value. A load takes what the field holds at that point: the
// value of the last store to it, a Phi where paths with different stores
// merge (loops included), or zero where the object was made; then the
// stores and the allocation go. Finding "where the object was made" on a
// memory path uses dominance: memory from a point the allocation does not
// dominate is older than this instance of the object (its fields are zero).
// Pre: a verified graph. Post: the same program with fewer News, Loads and
// Stores (the new Phis are typed broadly; sccp narrows them).
#pragma once
#include "son/graph.h"

namespace simplec {

// Returns the number of allocations removed.
int scalarReplace(Graph& g);

}  // namespace simplec
