// ControlFlow: the control nodes of one function reachable from its Fun, in
// reverse post-order, with their successors and dominator tree (son/
// dominators.h, the one dominator implementation). Control node X dominates
// Y when every path from the Fun to Y passes through X.
// Graph caches it: controlFlow(g) recomputes only after the control flow
// changed (any edit of a control node's edges bumps Graph::cfgVersion()), so
// every pass between two CFG changes shares one analysis. A ControlFlow is a
// snapshot: holding the shared_ptr keeps it valid (ids and all) while the
// graph changes; queries about nodes made or renumbered since are invalid.
#pragma once
#include <memory>
#include <span>
#include <vector>

#include "son/dominators.h"
#include "son/graph.h"

namespace simplec {

class ControlFlow {
 public:
  explicit ControlFlow(const Graph& g);

  // Control nodes in reverse post-order (the Fun first).
  const std::vector<Node*>& order() const { return rpo_; }
  // Position of n in order(), or -1 when n is not reached.
  int index(const Node* n) const {
    return n && n->id < index_.size() && rpo_.size() > size_t(index_[n->id]) && index_[n->id] >= 0 &&
                   rpo_[size_t(index_[n->id])] == n
               ? index_[n->id]
               : -1;
  }
  bool reached(const Node* n) const { return index(n) >= 0; }
  Node* idom(const Node* n) const;  // nullptr for the Fun and unreached nodes
  // Children of n in the dominator tree, in reverse post-order.
  std::span<Node* const> children(const Node* n) const;
  // a dominates b (reflexive); both reached. O(1).
  bool dominates(const Node* a, const Node* b) const {
    int x = index(a), y = index(b);
    return x >= 0 && y >= 0 && tree_.dominates(x, y);
  }
  const DomTree& tree() const { return tree_; }

  // The control successors of any control node n, computed from its uses
  // (If/Never: projections in index order; Regions/Loops once each, by id).
  static std::vector<Node*> successorsOf(const Node* n);
  // The same, appended to s.
  static void appendSuccessors(const Node* n, std::vector<Node*>& s);

  // Heap bytes this analysis holds.
  size_t bytes() const;

 private:
  // Every function's analysis stays cached while a pass runs over the
  // whole unit, so this is kept lean: flat arrays, no list per node.
  std::vector<Node*> rpo_;
  std::vector<int> index_;  // by node id
  // The dominator-tree children of order() position i are
  // kids_[kidStart_[i] .. kidStart_[i + 1]).
  std::vector<uint32_t> kidStart_;
  std::vector<Node*> kids_;
  DomTree tree_;
};

// The function's control flow, cached in g until its control flow changes.
std::shared_ptr<const ControlFlow> controlFlow(const Graph& g);
// Bytes held by g's cached control flow: 0 when none is cached, and when the
// cached one is stale (it is freed then).
size_t cachedControlFlowBytes(const Graph& g);

}  // namespace simplec
