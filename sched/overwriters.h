// What may overwrite the bytes a load reads, after the load's memory state:
// the anti-dependences of global code motion and of the local scheduler.
#pragma once
#include <functional>

#include "son/graph.h"

namespace simplec {

// Walks the memory that flows on from `load`'s memory state and reports:
//   onWriter(n)      a Store that may write the load's bytes, or a Call;
//   onPhi(phi, mem)  a memory Phi taking `mem` (the state, or one derived
//                    from it) on some edges: a loop or join it flows into.
// The walk goes on through stores that provably write other bytes (a later
// store chained after one may overwrite the load's bytes: the load's memory
// edge skips the disjoint one only because a peephole let it), through
// MergeMems, and through the memory of allocations (New). A store provably
// disjoint from the load is not reported: ordering the load before it could
// form a cycle when the load depends on what that store wrote.
void forEachOverwriter(const Node* load, const std::function<void(const Node*)>& onWriter,
                       const std::function<void(const Node*, const Node*)>& onPhi);

}  // namespace simplec
