// Bounds-check elimination by a walk down each function's dominator tree.
#include "opt/bounds_check_elim.h"

#include "opt/index_facts.h"
#include "son/control_flow.h"
#include "son/unit.h"
#include "son/verify.h"

namespace simplec {

int boundsCheckElim(Graph& g) {
  Node* fun = g.info().fun;
  auto cf = controlFlow(g);
  const ControlFlow& dom = *cf;
  if (!dom.reached(fun)) return 0;
  IndexFacts facts(g);
  std::vector<Node*> redundant;
  // Explicit-stack DFS; a node's facts hold for its dominator-tree subtree.
  std::vector<std::pair<Node*, size_t>> stack;
  auto enter = [&](Node* n) {
    // Proven from what holds above the check, before it adds its own facts.
    if (n->op == Op::BoundsCheck && n->in.size() > 2 && facts.provesInBounds(n->in[1], n->in[2]))
      redundant.push_back(n);
    facts.enter(n);
    stack.push_back({n, 0});
  };
  enter(fun);
  while (!stack.empty()) {
    auto& [n, next] = stack.back();
    const auto& kids = dom.children(n);
    if (next < kids.size()) {
      enter(kids[next++]);
      continue;
    }
    facts.leave();
    stack.pop_back();
  }
  for (Node* bc : redundant)
    if (!bc->dead) g.subsume(bc, bc->in[0]);
  // An index may have been all that kept a cycle (a loop's Phi and its
  // update) in use: such garbage goes too.
  if (!redundant.empty()) sweepUnreachable(g);
  return int(redundant.size());
}

}  // namespace simplec
