// NodePool: the storage of the nodes of every graph of a unit -- fixed-size
// slots carved from chunks, and a free list. A graph gives back the slots of
// the nodes it frees (Graph::compact, its destructor) and the next node of
// any graph reuses them, so the garbage one function leaves while it is
// parsed and optimized does not add to the unit's peak memory: that peak
// follows the live nodes. When the last node is given back (every graph
// emitted and dropped) the memory goes back to the system, before the
// object file is written. Taking and giving are O(1); nothing here depends
// on which graph a slot serves. Not thread-safe (one unit, one thread).
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "son/node.h"

namespace simplec {

class NodePool {
 public:
  NodePool() = default;
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;

  // Raw storage for one Node (construct it with placement new).
  void* take();
  // Storage of a destroyed Node, for reuse.
  void give(void* slot);

  // Slots ever carved (live, free and not yet used), for tests and reports.
  size_t capacity() const { return chunks_.size() * kChunkSlots; }
  size_t liveCount() const { return live_; }

 private:
  // A chunk is about 200 KB: small next to a unit, few allocations.
  static constexpr size_t kChunkSlots = 1024;
  struct Slot {
    alignas(Node) unsigned char bytes[sizeof(Node)];
  };
  std::vector<std::unique_ptr<Slot[]>> chunks_;
  size_t used_ = kChunkSlots;  // of chunks_.back()
  std::vector<Slot*> free_;
  size_t live_ = 0;  // slots taken and not given back
};

}  // namespace simplec
