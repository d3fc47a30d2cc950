// Dominators over the control nodes of one function of the graph, for passes
// that reason along dominating paths (check elimination). Control node X
// dominates Y when every path from the function's Fun to Y passes through X.
// Computed with Cooper, Harvey and Kennedy's iterative algorithm over the
// reverse post-order; only control reachable from the Fun takes part.
#pragma once
#include <unordered_map>
#include <vector>

#include "son/graph.h"

namespace simplec {

class CfgDominators {
 public:
  CfgDominators(const Graph& g, Node* fun);
  // Control nodes in reverse post-order (the Fun first).
  const std::vector<Node*>& order() const { return rpo_; }
  Node* idom(Node* n) const;  // nullptr for the Fun and unreached nodes
  // Children of n in the dominator tree, in reverse post-order.
  const std::vector<Node*>& children(Node* n) const;
  bool reached(Node* n) const { return index_.count(n) != 0; }

  // Control successors of a control node (If/Never: its projections in
  // index order; Region/Loop users through their predecessor inputs).
  static std::vector<Node*> successors(Node* n);

 private:
  std::vector<Node*> rpo_;
  std::unordered_map<Node*, int> index_;
  std::vector<int> idom_;
  std::vector<std::vector<Node*>> children_;
};

}  // namespace simplec
