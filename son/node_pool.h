// NodePool: the storage of the nodes of every graph of a unit -- fixed-size
// slots carved from chunks, with free slots kept per chunk. A graph gives
// back the slots of the nodes it frees (Graph::compact, its destructor) and
// the next node of any graph reuses them, so the garbage one function leaves
// while it is parsed and optimized does not add to the unit's peak memory:
// that peak follows the live nodes. A chunk whose slots are all given back
// goes back to the system at once (but the one being carved from), so while
// functions are emitted and their graphs dropped one by one, their memory
// does not wait for the last function. Before code generation the holes
// the optimizer left everywhere can be filled from the emptiest chunks
// (beginEvacuation, Unit::defragmentNodes).
// Taking is O(1); giving finds the slot's chunk by binary search over the
// chunks' addresses (O(log chunks)); nothing here depends on which graph a
// slot serves. take and give lock while graphs are shared between threads
// (son/shared_graphs.h); the rest is for one thread at a time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
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

  // While fresh: slots come only from chunks carved in this fresh spell, so
  // the nodes taken (a graph being packed, Graph::relocate) sit together.
  void beginFresh();
  void endFresh();
  // Defragmenting: marks the emptiest chunks whose live slots all fit into
  // the free slots of the other chunks, and returns how many. Until
  // endEvacuation(), take() gives only slots of unmarked chunks, and a
  // marked chunk goes back to the system when its last slot is given back: the
  // caller moves every node out of the marked chunks (Graph::moveNodes).
  size_t beginEvacuation();
  bool evacuating(const void* slot) const { return evacuating_ && chunks_[chunkOf(slot)].evacuate; }
  void endEvacuation();
  // How many chunks hold these slots (each a slot taken from this pool).
  size_t chunksHolding(const std::vector<void*>& slots) const;
  static constexpr size_t slotsPerChunk() { return kChunkSlots; }

  // Slots of the chunks held now (live, free and not yet used), for tests and reports.
  size_t capacity() const { return held_ * kChunkSlots; }
  size_t liveCount() const { return live_; }

 private:
  // A chunk is about 150 KB: small next to a unit, few allocations.
  static constexpr size_t kChunkSlots = 1024;
  struct Slot {
    alignas(Node) unsigned char bytes[sizeof(Node)];
  };
  // A chunk's memory comes from the system and goes back to it directly
  // (mmap): chunks live long and come and go in a different rhythm from
  // the compiler's other memory, and through malloc a freed chunk would
  // stay in its heap, between blocks still in use.
  struct Unmap {
    void operator()(Slot* p) const;
  };
  static Slot* mapChunk();
  struct Chunk {
    std::unique_ptr<Slot[], Unmap> slots;  // null once released
    std::vector<uint16_t> free;     // given-back slots, taken again first
    size_t carved = 0;              // slots handed out at least once
    size_t live = 0;
    bool evacuate = false;          // marked by beginEvacuation
    bool full() const { return free.empty() && carved == kChunkSlots; }
  };
  size_t chunkOf(const void* slot) const;
  void release(size_t chunk);
  void leaveCurrent();

  std::vector<Chunk> chunks_;  // released ones stay as empty entries
  // (address of the first slot, chunk index) of the chunks holding memory, sorted.
  std::vector<std::pair<const Slot*, size_t>> byAddress_;
  std::vector<size_t> withRoom_;  // chunks that got a slot back since they were full
  size_t current_ = SIZE_MAX;     // the chunk taken from
  size_t live_ = 0;               // slots taken and not given back
  size_t held_ = 0;               // chunks holding memory
  bool fresh_ = false;
  std::mutex mu_;  // take and give, while graphs are shared
  bool evacuating_ = false;
  size_t lastFresh_ = SIZE_MAX;   // the chunk the last fresh spell carved in
};

}  // namespace simplec
