// planLoops: the loops of a function a loop pass takes, planned before the
// pass edits anything (a plan reads the graph as it was; copying one loop
// must not change what the next plan sees).
#pragma once
#include <vector>

#include "son/control_flow.h"

namespace simplec {

// Does cf's function have a loop? (A planner's side tables are sized by
// the function: a function without loops should not pay for them.)
inline bool hasLoop(const ControlFlow& cf) {
  for (Node* n : cf.order())
    if (n->op == Op::Loop) return true;
  return false;
}

// Each Loop of cf's function, in reverse post-order, for which
// planner.plan(loop, &plan) fills a plan and says the loop qualifies.
template <class Plan, class Planner>
std::vector<Plan> planLoops(const ControlFlow& cf, Planner& planner) {
  std::vector<Plan> plans;
  for (Node* n : cf.order()) {
    if (n->op != Op::Loop) continue;
    Plan p;
    if (planner.plan(n, &p)) plans.push_back(std::move(p));
  }
  return plans;
}

}  // namespace simplec
