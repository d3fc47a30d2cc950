// NodePool: a chunk's given-back slots first, then its uncarved rest, then
// another chunk with room, then a new chunk; empty chunks go back at once.
#include "son/node_pool.h"

#include <algorithm>

namespace simplec {

void* NodePool::take() {
  live_++;
  for (;;) {
    if (current_ != SIZE_MAX) {
      Chunk& c = chunks_[current_];
      if (!c.free.empty()) {
        uint16_t i = c.free.back();
        c.free.pop_back();
        c.live++;
        return &c.slots[i];
      }
      if (c.carved < kChunkSlots) {
        c.live++;
        return &c.slots[c.carved++];
      }
    }
    // The current chunk is full: one that got slots back, else a new one.
    while (!withRoom_.empty()) {
      size_t k = withRoom_.back();
      withRoom_.pop_back();
      if (k != current_ && chunks_[k].slots && !chunks_[k].full()) {
        current_ = k;
        break;
      }
    }
    if (current_ != SIZE_MAX && !chunks_[current_].full()) continue;
    Chunk c;
    // Uninitialised on purpose: a slot's bytes are written by Node's constructor.
    c.slots.reset(new Slot[kChunkSlots]);
    const Slot* base = c.slots.get();
    current_ = chunks_.size();
    chunks_.push_back(std::move(c));
    held_++;
    auto at = std::lower_bound(byAddress_.begin(), byAddress_.end(), std::make_pair(base, size_t(0)));
    byAddress_.insert(at, {base, current_});
  }
}

size_t NodePool::chunkOf(const void* slot) const {
  const Slot* s = static_cast<const Slot*>(slot);
  // The last chunk starting at or before the slot.
  auto it = std::upper_bound(byAddress_.begin(), byAddress_.end(), s,
                             [](const Slot* x, const std::pair<const Slot*, size_t>& e) { return x < e.first; });
  return std::prev(it)->second;
}

void NodePool::release(size_t k) {
  Chunk& c = chunks_[k];
  const Slot* base = c.slots.get();
  auto at = std::lower_bound(byAddress_.begin(), byAddress_.end(), std::make_pair(base, size_t(0)));
  byAddress_.erase(at);
  c = Chunk{};
  held_--;
}

void NodePool::give(void* slot) {
  if (--live_ == 0) {
    // Nothing live: everything goes, and the next take starts afresh.
    chunks_.clear();
    chunks_.shrink_to_fit();
    byAddress_.clear();
    byAddress_.shrink_to_fit();
    withRoom_.clear();
    withRoom_.shrink_to_fit();
    current_ = SIZE_MAX;
    held_ = 0;
    return;
  }
  size_t k = chunkOf(slot);
  Chunk& c = chunks_[k];
  bool wasFull = c.full();
  c.free.push_back(uint16_t(static_cast<Slot*>(slot) - c.slots.get()));
  c.live--;
  if (k == current_) return;
  if (c.live == 0) {
    release(k);
    return;
  }
  if (wasFull) withRoom_.push_back(k);
}

}  // namespace simplec
