// deadStoreElim: removes a Store that nothing can observe: every load that
// sees its memory reads other bytes, and every other path overwrites the
// same bytes first. Following the memory it produces forward, each use is
// a store of the same address, size and class (the bytes are overwritten:
// that path ends), a store or load provably touching other bytes (the walk
// continues past the store), or anything else (a Phi, a call, a return,
// a load that may read the bytes): then the store stays. So in
// `a[0] = 1; a[1] = 2; a[0] = 3;` the first store goes; the peephole only
// sees a store overwritten directly by the next one.
// Pre: a verified graph. Post: the same program with fewer Stores (and
// without the garbage a removed store leaves: a graph that verifies).
#pragma once
#include "son/graph.h"

namespace simplec {

// Returns the number of Stores removed.
int deadStoreElim(Graph& g);

}  // namespace simplec
