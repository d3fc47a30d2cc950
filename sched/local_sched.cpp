// The in-block list scheduler: a depth-first, demand-driven order over the
// block's dependence DAG, with an explicit stack (a block may hold a chain
// of a hundred thousand nodes).
#include "sched/local_sched.h"

#include <algorithm>

#include "lexer/diag.h"
#include "sched/cfg.h"

namespace simplec {

namespace {

enum : char { kPending = 0, kOnStack = 1, kDone = 2 };

bool byId(const Node* a, const Node* b) { return a->id < b->id; }

class BlockScheduler {
 public:
  BlockScheduler(const std::vector<Node*>& ctrl, int block,
                 const std::unordered_map<const Node*, int>& blockOf)
      : ctrl_(ctrl), block_(block), blockOf_(blockOf) {}

  std::vector<Node*> run(const std::vector<Node*>& members) {
    Node* head = ctrl_[0];
    Node* last = ctrl_.back();
    if (ctrl_.size() > 1 && (last->op == Op::If || last->op == Op::Return)) term_ = last;

    std::vector<Node*> phis, parms, free;
    for (Node* n : members) {
      if (n->op == Op::Phi) phis.push_back(n);
      else if (n->op == Op::Parm) parms.push_back(n);
      else free.push_back(n);
    }
    std::sort(phis.begin(), phis.end(), byId);
    std::sort(parms.begin(), parms.end(), [](const Node* a, const Node* b) {
      return a->aux != b->aux ? a->aux < b->aux : a->id < b->id;
    });

    // The nodes to order: inner control nodes and the free data nodes.
    std::vector<Node*> inner(ctrl_.begin() + 1, term_ ? ctrl_.end() - 1 : ctrl_.end());
    for (Node* n : inner) state_.emplace(n, kPending);
    for (Node* n : free) state_.emplace(n, kPending);
    // Projs of each CallEnd, to glue them right after it.
    for (Node* n : free)
      if (n->op == Op::Proj && n->in.size() == 1 && n->in[0] && n->in[0]->op == Op::CallEnd)
        projs_[n->in[0]].push_back(n);
    for (auto& [ce, ps] : projs_)
      std::sort(ps.begin(), ps.end(), [](const Node* a, const Node* b) {
        return a->aux != b->aux ? a->aux < b->aux : a->id < b->id;
      });

    order_.reserve(members.size() + ctrl_.size());
    order_.push_back(head);
    order_.insert(order_.end(), phis.begin(), phis.end());
    order_.insert(order_.end(), parms.begin(), parms.end());
    for (Node* c : inner) schedule(c);
    std::vector<Node*> liveOut;
    for (Node* n : free)
      if (usedOutside(n)) liveOut.push_back(n);
    std::sort(liveOut.begin(), liveOut.end(), byId);
    for (Node* n : liveOut) schedule(n);
    // Anything left has uses only in the final If/Return (or none at all).
    std::vector<Node*> rest;
    if (term_) {
      schedule(term_);
    }
    for (Node* n : free)
      if (state_.at(n) != kDone) rest.push_back(n);
    if (!rest.empty()) {
      // Unused values (the function's nodes always have uses, so this is
      // defensive): still placed, before the block's final control node.
      std::sort(rest.begin(), rest.end(), byId);
      std::vector<Node*> tail;
      if (term_) {
        tail.push_back(order_.back());
        order_.pop_back();
      }
      for (Node* n : rest) schedule(n);
      order_.insert(order_.end(), tail.begin(), tail.end());
    }
    return std::move(order_);
  }

 private:
  // Used by a node of another block, or by a Phi (read at a block's end).
  bool usedOutside(const Node* n) const {
    for (const Node* u : n->out) {
      auto it = blockOf_.find(u);
      if (it == blockOf_.end()) continue;  // another function's node
      if (it->second != block_ || u->op == Op::Phi) return true;
    }
    return false;
  }

  // Emit n after its unscheduled in-block inputs, depth first.
  void schedule(Node* root) {
    if (root != term_ && state_.at(root) == kDone) return;
    std::vector<std::pair<Node*, size_t>> stack{{root, 0}};
    if (root != term_) state_[root] = kOnStack;
    while (!stack.empty()) {
      auto& [n, i] = stack.back();
      if (i < n->in.size()) {
        Node* d = n->in[i++];
        if (!d) continue;
        if (d == term_) internalError("gcm", nodeLabel(n) + " uses " + nodeLabel(d) + ", which ends its block");
        auto it = state_.find(d);
        if (it == state_.end() || it->second == kDone) continue;  // placed already, or elsewhere
        if (it->second == kOnStack)
          internalError("gcm", "dependence cycle through " + nodeLabel(d) + " in block " + std::to_string(block_));
        it->second = kOnStack;
        stack.push_back({d, 0});
        continue;
      }
      emit(n);
      stack.pop_back();
    }
  }

  void emit(Node* n) {
    order_.push_back(n);
    if (n == term_) return;
    state_[n] = kDone;
    auto it = projs_.find(n);
    if (it == projs_.end()) return;
    for (Node* p : it->second)
      if (state_.at(p) == kPending) {
        order_.push_back(p);
        state_[p] = kDone;
      }
  }

  const std::vector<Node*>& ctrl_;
  int block_;
  const std::unordered_map<const Node*, int>& blockOf_;
  Node* term_ = nullptr;
  std::unordered_map<const Node*, char> state_;
  std::unordered_map<const Node*, std::vector<Node*>> projs_;
  std::vector<Node*> order_;
};

}  // namespace

std::vector<Node*> scheduleBlock(const std::vector<Node*>& ctrl, const std::vector<Node*>& members,
                                 int block, const std::unordered_map<const Node*, int>& blockOf) {
  if (ctrl.empty()) internalError("gcm", "block " + std::to_string(block) + " has no control node");
  return BlockScheduler(ctrl, block, blockOf).run(members);
}

}  // namespace simplec
