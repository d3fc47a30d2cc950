// What may overwrite the bytes a load reads, after the load's memory state:
// the anti-dependences of global code motion and of the local scheduler.
// MemoryIndex is built once per function: the memory users of each memory
// value (loads left out), and runs of chained stores to known objects (fresh
// allocations, strings), so that a load from one object skips the stores to
// other objects in one step instead of walking them one by one.
#pragma once
#include <functional>
#include <vector>

#include "son/graph.h"

namespace simplec {

class MemoryIndex {
 public:
  // Over the given nodes of one function (the ones being scheduled).
  MemoryIndex(const Graph& g, const std::vector<Node*>& nodes);

  // Walks the memory that flows on from `load`'s memory state and reports:
  //   onWriter(n)      a Store that may write the load's bytes, or a Call;
  //   onPhi(phi, mem)  a memory Phi taking `mem` (the state, or one derived
  //                    from it) on some edges: a loop or join it flows into.
  // The walk goes on through stores that provably write other bytes (another
  // alias class: after a call all classes share one memory state; or the
  // same class at other offsets or in another object) (a later
  // store chained after one may overwrite the load's bytes: the load's memory
  // edge skips the disjoint one only because a peephole let it), through
  // MergeMems, and through the memory of allocations (New); not past a node
  // for which `prune` says nothing beyond it can matter to the caller. A store
  // provably disjoint from the load is not reported: ordering the load before
  // it could form a cycle when the load depends on what that store wrote.
  void forEachOverwriter(const Node* load, const std::function<void(const Node*)>& onWriter,
                         const std::function<void(const Node*, const Node*)>& onPhi,
                         const std::function<bool(const Node*)>& prune) const;

 private:
  // A maximal chain of stores to known objects and allocations, each the
  // only memory user (loads aside) of the memory the one before made.
  struct Run {
    std::vector<const Node*> members;
    std::vector<std::pair<uint32_t, uint32_t>> byObject;  // stores: (object id, position), sorted
  };
  const std::vector<const Node*>& usersOf(const Node* m) const;
  // The memory a store or allocation makes (a New's memory projection).
  static const Node* memoryAfter(const Node* x);
  const Graph& g_;
  std::vector<std::vector<const Node*>> users_;  // by node id: memory users, loads left out
  std::vector<int> runOf_, posInRun_;             // by store id; -1 when in no run
  std::vector<Run> runs_;
  mutable std::vector<uint32_t> seen_;  // by node id: the epoch of the last walk that saw it
  mutable uint32_t epoch_ = 0;
};

}  // namespace simplec
