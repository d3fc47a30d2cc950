// NodePool: a chunk's given-back slots first, then its uncarved rest, then
// another chunk with room, then a new chunk; empty chunks go back at once.
// While fresh, only uncarved slots of chunks made in that spell.
#include "son/node_pool.h"

#include <algorithm>
#include <new>

#include <sys/mman.h>

#include "son/shared_graphs.h"

namespace simplec {

void* NodePool::take() {
  LockIfShared lock(mu_);
  live_++;
  for (;;) {
    if (current_ != SIZE_MAX) {
      Chunk& c = chunks_[current_];
      if (!c.free.empty() && !fresh_) {
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
    // The current chunk is full: one that got slots back, else a new one
    // (always a new one while fresh).
    if (!fresh_) {
      bool found = false;
      while (!found && !withRoom_.empty()) {
        size_t k = withRoom_.back();
        withRoom_.pop_back();
        if (k != current_ && chunks_[k].slots && !chunks_[k].full() && !chunks_[k].evacuate) {
          leaveCurrent();
          current_ = k;
          found = true;
        }
      }
      if (found) continue;
    }
    leaveCurrent();
    Chunk c;
    // Uninitialised on purpose: a slot's bytes are written by Node's constructor.
    c.slots.reset(mapChunk());
    const Slot* base = c.slots.get();
    current_ = chunks_.size();
    chunks_.push_back(std::move(c));
    if (fresh_) lastFresh_ = current_;
    held_++;
    auto at = std::lower_bound(byAddress_.begin(), byAddress_.end(), std::make_pair(base, size_t(0)));
    byAddress_.insert(at, {base, current_});
  }
}

NodePool::Slot* NodePool::mapChunk() {
  void* p = mmap(nullptr, sizeof(Slot) * kChunkSlots, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return static_cast<Slot*>(p);
}

void NodePool::Unmap::operator()(Slot* p) const { munmap(p, sizeof(Slot) * kChunkSlots); }

void NodePool::leaveCurrent() {
  // The chunk taken from is never released while it is that: now it may be.
  if (current_ != SIZE_MAX && chunks_[current_].slots && chunks_[current_].live == 0) release(current_);
  current_ = SIZE_MAX;
}

void NodePool::beginFresh() {
  fresh_ = true;
  // Carving goes on in the chunk the last fresh spell carved in (packed
  // graphs sit together, in the order they were packed), else a new one.
  if (current_ == lastFresh_) return;
  leaveCurrent();
  if (lastFresh_ != SIZE_MAX && chunks_[lastFresh_].slots && chunks_[lastFresh_].carved < kChunkSlots)
    current_ = lastFresh_;
}

void NodePool::endFresh() {
  fresh_ = false;
  lastFresh_ = current_;
}

size_t NodePool::beginEvacuation() {
  leaveCurrent();
  std::vector<size_t> held;
  size_t freeSlots = 0;
  for (size_t k = 0; k < chunks_.size(); k++)
    if (chunks_[k].slots) {
      held.push_back(k);
      freeSlots += kChunkSlots - chunks_[k].live;
    }
  // Emptiest first (ties by index: the same plan every run); each chunk
  // marked takes its free slots out of the room and its live ones into it.
  std::sort(held.begin(), held.end(), [&](size_t a, size_t b) {
    return chunks_[a].live != chunks_[b].live ? chunks_[a].live < chunks_[b].live : a < b;
  });
  size_t marked = 0, moving = 0;
  for (size_t k : held) {
    Chunk& c = chunks_[k];
    size_t room = freeSlots - (kChunkSlots - c.live);
    if (moving + c.live > room) break;
    c.evacuate = true;
    freeSlots = room;
    moving += c.live;
    marked++;
  }
  evacuating_ = marked > 0;
  // Every unmarked chunk with room is a place to take from.
  withRoom_.clear();
  for (size_t k : held)
    if (!chunks_[k].evacuate && !chunks_[k].full()) withRoom_.push_back(k);
  return marked;
}

void NodePool::endEvacuation() {
  evacuating_ = false;
  for (Chunk& c : chunks_) c.evacuate = false;
}

size_t NodePool::chunksHolding(const std::vector<void*>& slots) const {
  std::vector<size_t> ks;
  ks.reserve(slots.size());
  for (const void* s : slots) ks.push_back(chunkOf(s));
  std::sort(ks.begin(), ks.end());
  return size_t(std::unique(ks.begin(), ks.end()) - ks.begin());
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
  LockIfShared lock(mu_);
  if (--live_ == 0) {
    // Nothing live: everything goes, and the next take starts afresh.
    chunks_.clear();
    chunks_.shrink_to_fit();
    byAddress_.clear();
    byAddress_.shrink_to_fit();
    withRoom_.clear();
    withRoom_.shrink_to_fit();
    current_ = lastFresh_ = SIZE_MAX;
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
