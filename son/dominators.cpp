// Cooper-Harvey-Kennedy iterative dominators over a reverse post-order, and
// the dominator tree: pre/post numbers for dominance, binary lifting for LCA.
// All traversals are iterative (deep dominator trees are common: a chain of
// a hundred thousand ifs is a tree of that depth).
#include "son/dominators.h"

#include <algorithm>

#include "lexer/diag.h"

namespace simplec {

std::vector<int> computeIdoms(const std::vector<std::vector<int>>& preds) {
  std::vector<uint32_t> start{0};
  std::vector<int> flat;
  for (const std::vector<int>& p : preds) {
    flat.insert(flat.end(), p.begin(), p.end());
    start.push_back(uint32_t(flat.size()));
  }
  return computeIdoms(start, flat);
}

std::vector<int> computeIdoms(const std::vector<uint32_t>& predStart, const std::vector<int>& preds) {
  size_t n = predStart.size() - 1;
  std::vector<int> idom(n, -1);
  if (n == 0) return idom;
  idom[0] = 0;
  // With RPO numbers, a dominator always has a smaller number: walk the
  // larger finger up until they meet.
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (a > b) a = idom[size_t(a)];
      while (b > a) b = idom[size_t(b)];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t b = 1; b < n; b++) {
      int nd = -1;
      for (size_t k = predStart[b]; k < predStart[b + 1]; k++) {
        int p = preds[k];
        if (p < 0 || idom[size_t(p)] < 0) continue;  // dead edge, or not processed yet
        nd = nd < 0 ? p : intersect(p, nd);
      }
      if (nd >= 0 && idom[b] != nd) {
        idom[b] = nd;
        changed = true;
      }
    }
  }
  idom[0] = -1;
  for (size_t b = 1; b < n; b++)
    if (idom[b] < 0) internalError("dominators", "block " + std::to_string(b) + " is unreachable from the entry");
  return idom;
}

DomTree::DomTree(std::vector<int> idom) : idom_(std::move(idom)) {
  size_t n = idom_.size();
  depth_.assign(n, 0);
  pre_.assign(n, 0);
  post_.assign(n, 0);
  if (n == 0) return;
  if (idom_[0] != -1) internalError("dominators", "the entry block has a dominator");
  // Children lists in CSR form, in increasing block order.
  std::vector<int> start(n + 1, 0), kids(n > 0 ? n - 1 : 0);
  for (size_t b = 1; b < n; b++) {
    int d = idom_[b];
    if (d < 0 || size_t(d) >= n || size_t(d) == b)
      internalError("dominators", "block " + std::to_string(b) + " has no valid immediate dominator");
    start[size_t(d) + 1]++;
  }
  for (size_t i = 0; i < n; i++) start[i + 1] += start[i];
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (size_t b = 1; b < n; b++) kids[size_t(fill[size_t(idom_[b])]++)] = int(b);

  // Iterative DFS: preorder and postorder numbers, depths.
  order_.clear();
  order_.reserve(n);
  int preCount = 0, postCount = 0;
  std::vector<std::pair<int, int>> stack{{0, start[0]}};
  pre_[0] = preCount++;
  order_.push_back(0);
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    if (next < start[size_t(b) + 1]) {
      int c = kids[size_t(next++)];
      depth_[size_t(c)] = depth_[size_t(b)] + 1;
      pre_[size_t(c)] = preCount++;
      order_.push_back(c);
      stack.push_back({c, start[size_t(c)]});
    } else {
      post_[size_t(b)] = postCount++;
      stack.pop_back();
    }
  }
  if (order_.size() != n) internalError("dominators", "the dominator tree is not a tree rooted at the entry");

  int maxDepth = 0;
  for (int d : depth_) maxDepth = std::max(maxDepth, d);
  int levels = 1;
  while ((1 << levels) <= maxDepth) levels++;
  // Level 0 is idom_ (with the entry its own parent); levels 1.. are flat.
  levels_ = size_t(levels);
  up_.assign((levels_ - 1) * n, 0);
  for (size_t k = 1; k < levels_; k++)
    for (size_t b = 0; b < n; b++) {
      int half = ancestor(k - 1, int(b));
      up_[(k - 1) * n + b] = ancestor(k - 1, half);
    }
}

int DomTree::lca(int a, int b) const {
  if (a < 0) return b;
  if (b < 0) return a;
  if (dominates(a, b)) return a;
  if (dominates(b, a)) return b;
  // Lift a to just below the common ancestor.
  for (size_t k = levels_; k-- > 0;) {
    int x = ancestor(k, a);
    if (!dominates(x, b)) a = x;
  }
  return idom_[size_t(a)];
}

}  // namespace simplec
