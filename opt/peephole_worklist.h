// The peephole worklist (opt/iterate.h): nodes waiting for a rewrite, each
// at most once.
#pragma once
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "son/node.h"

namespace simplec {

// The peephole worklist. Seed 0 (the default): first in, first out, so the
// first round goes through the nodes in liveNodes' order (definitions before
// uses, and neighbours in the graph near each other in memory: a huge
// function stays cache-friendly). Any other seed: a random element each
// time, the order depending only on the seed (--seed, to test that the
// rewrites reach a correct fixed point in any order).
class PeepholeWorklist {
 public:
  explicit PeepholeWorklist(uint64_t seed) : random_(seed != 0), rng_(seed) {}
  void push(Node* n) {
    if (!n || n->dead) return;
    if (n->id >= on_.size()) on_.resize(n->id * 2 + 16, 0);
    if (on_[n->id]) return;
    on_[n->id] = 1;
    items_.push_back(n);
  }
  Node* pop() {
    Node* n;
    if (random_) {
      std::uniform_int_distribution<size_t> d(head_, items_.size() - 1);
      size_t i = d(rng_);
      n = items_[i];
      items_[i] = items_.back();
      items_.pop_back();
    } else {
      n = items_[head_++];
      // Reclaim the consumed front now and then (amortized O(1)).
      if (head_ >= 4096 && head_ * 2 >= items_.size()) {
        items_.erase(items_.begin(), items_.begin() + std::ptrdiff_t(head_));
        head_ = 0;
      }
    }
    on_[n->id] = 0;
    return n;
  }
  bool empty() const { return head_ == items_.size(); }

 private:
  bool random_;
  std::mt19937_64 rng_;
  std::vector<Node*> items_;
  size_t head_ = 0;  // FIFO: items_[head_..] are waiting
  std::vector<char> on_;
};

}  // namespace simplec
