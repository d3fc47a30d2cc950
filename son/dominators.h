// Dominators of a CFG given as predecessor lists (Cooper, Harvey, Kennedy:
// "A Simple, Fast Dominance Algorithm"), and the dominator tree with O(1)
// dominance tests and O(log n) lowest common ancestors.
// Invariant: block 0 is the entry and has idom -1; every other block is
// reachable and has an immediate dominator.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simplec {

// Immediate dominators. Blocks must be numbered in reverse post-order from
// the entry (block 0); predecessors equal to -1 are ignored.
std::vector<int> computeIdoms(const std::vector<std::vector<int>>& preds);
// The same with the predecessors flat: those of block b are
// preds[predStart[b] .. predStart[b + 1]) (predStart has one more entry).
std::vector<int> computeIdoms(const std::vector<uint32_t>& predStart, const std::vector<int>& preds);

class DomTree {
 public:
  DomTree() = default;
  // idom[0] == -1; idom[b] is a valid block for every other b, and following
  // idom from any block reaches 0 (checked: throws internalError otherwise).
  explicit DomTree(std::vector<int> idom);

  int size() const { return int(idom_.size()); }
  int idom(int b) const { return idom_[size_t(b)]; }
  int depth(int b) const { return depth_[size_t(b)]; }  // entry: 0
  // a dominates b (reflexive).
  bool dominates(int a, int b) const {
    return pre_[size_t(a)] <= pre_[size_t(b)] && post_[size_t(b)] <= post_[size_t(a)];
  }
  // Lowest common ancestor; -1 acts as the identity (lca(-1, b) == b).
  int lca(int a, int b) const;
  // Preorder number in the tree (children in increasing block order).
  int preorder(int b) const { return pre_[size_t(b)]; }
  // Blocks in preorder: every block after its dominators.
  const std::vector<int>& preorderList() const { return order_; }
  // Heap bytes held.
  size_t bytes() const {
    return (idom_.capacity() + depth_.capacity() + pre_.capacity() + post_.capacity() + order_.capacity() +
            up_.capacity()) *
           sizeof(int);
  }

 private:
  std::vector<int> idom_, depth_, pre_, post_, order_;
  // The 2^k-th ancestor of b (or 0): idom_ for k == 0, else
  // up_[(k - 1) * size() + b]. One flat array: every function keeps its
  // tree cached while a pass runs over the unit.
  int ancestor(size_t k, int b) const {
    return k == 0 ? std::max(idom_[size_t(b)], 0) : up_[(k - 1) * idom_.size() + size_t(b)];
  }
  std::vector<int> up_;
  size_t levels_ = 0;
};

}  // namespace simplec
