// NodePool: free slots first, then the rest of the newest chunk; all of
// it back to the system when nothing is live.
#include "son/node_pool.h"

namespace simplec {

void* NodePool::take() {
  live_++;
  if (!free_.empty()) {
    Slot* s = free_.back();
    free_.pop_back();
    return s;
  }
  if (used_ == kChunkSlots) {
    // Uninitialised on purpose: a slot's bytes are written by Node's constructor.
    chunks_.push_back(std::unique_ptr<Slot[]>(new Slot[kChunkSlots]));
    used_ = 0;
  }
  return &chunks_.back()[used_++];
}

void NodePool::give(void* slot) {
  if (--live_ > 0) {
    free_.push_back(static_cast<Slot*>(slot));
    return;
  }
  chunks_.clear();
  chunks_.shrink_to_fit();
  free_.clear();
  free_.shrink_to_fit();
  used_ = kChunkSlots;
}

}  // namespace simplec
