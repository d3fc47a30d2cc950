// LoopInvariance: which values a loop cannot change. A value is invariant
// in the loop headed by Loop node L when it is computed from constants,
// parameters and nodes pinned to control that strictly dominates L's entry:
// such a node runs before the loop starts and cannot run again until the
// loop has been left (its control is outside the loop body, which only the
// header enters). A load counts when its memory, address and control do:
// then no store or call of the loop is between it and the memory it reads.
// Invariant values are available at the end of L's entry block, so a new
// node there (a Phi's entry value) may use them.
// Answers are memoized per loop and bounded by a step budget: a query
// costs O(1) amortized, and "no" is always a safe answer.
#pragma once
#include <unordered_map>

#include "son/control_flow.h"
#include "son/graph.h"

namespace simplec {

class LoopInvariance {
 public:
  // loop: a reached Loop node of cf's function.
  LoopInvariance(const ControlFlow& cf, Node* loop) : cf_(cf), loop_(loop), entry_(loop->in[1]) {}
  bool invariant(Node* n) { return check(n, kDepth); }
  Node* loop() const { return loop_; }

 private:
  static constexpr int kDepth = 12;     // levels of inputs looked through
  static constexpr int kBudget = 256;   // nodes looked at per loop
  bool check(Node* n, int depth);
  bool controlBefore(Node* c) const;  // c strictly dominates the loop
  const ControlFlow& cf_;
  Node* loop_;
  Node* entry_;
  std::unordered_map<const Node*, bool> memo_;
  int budget_ = kBudget;
};

}  // namespace simplec
