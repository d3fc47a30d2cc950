// ControlFlow: reverse post-order, successors and dominators of a function's
// control nodes, and the per-graph cache.
#include "son/control_flow.h"

#include <algorithm>

#include "lexer/diag.h"
#include "son/unit.h"

namespace simplec {

std::vector<Node*> ControlFlow::successorsOf(const Node* n) {
  std::vector<Node*> s;
  for (Node* u : n->out) {
    if (!u->isCFG() || u->dead) continue;
    if (u->isRegion()) {
      for (size_t i = 1; i < u->in.size(); i++)
        if (u->in[i] == n) {
          s.push_back(u);
          break;
        }
    } else if (!u->in.empty() && u->in[0] == n && u->op != Op::Stop) {
      s.push_back(u);
    }
  }
  // Projections in index order, so the order does not depend on use lists.
  std::sort(s.begin(), s.end(), [](Node* a, Node* b) {
    if (a->op == Op::CProj && b->op == Op::CProj) return a->aux < b->aux;
    return a->id < b->id;
  });
  // A Region listing n twice is one successor.
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

ControlFlow::ControlFlow(const Graph& g) : index_(g.size(), -1) {
  Node* fun = g.info().fun;
  if (!fun || !g.owns(fun) || fun->dead) internalError("dominators", "function '" + g.info().name + "' has no entry");
  // Iterative DFS for the post-order; each node's successors computed once.
  std::vector<std::vector<Node*>> succById;  // by DFS discovery number
  std::vector<Node*> post, found;
  std::vector<int> disc(g.size(), -1);
  std::vector<std::pair<int, size_t>> stack;
  auto discover = [&](Node* n) {
    disc[n->id] = int(found.size());
    found.push_back(n);
    succById.push_back(successorsOf(n));
    stack.push_back({disc[n->id], 0});
  };
  discover(fun);
  while (!stack.empty()) {
    auto [d, i] = stack.back();
    const std::vector<Node*>& succ = succById[size_t(d)];
    if (i < succ.size()) {
      stack.back().second++;
      Node* s = succ[i];
      if (disc[s->id] < 0) discover(s);
    } else {
      post.push_back(found[size_t(d)]);
      stack.pop_back();
    }
  }
  rpo_.assign(post.rbegin(), post.rend());
  for (size_t i = 0; i < rpo_.size(); i++) index_[rpo_[i]->id] = int(i);
  succ_.resize(rpo_.size());
  std::vector<std::vector<int>> preds(rpo_.size());
  for (size_t i = 0; i < rpo_.size(); i++) {
    succ_[i] = std::move(succById[size_t(disc[rpo_[i]->id])]);
    for (Node* s : succ_[i]) preds[size_t(index_[s->id])].push_back(int(i));
  }
  tree_ = DomTree(computeIdoms(preds));
  children_.assign(rpo_.size(), {});
  for (size_t i = 1; i < rpo_.size(); i++) children_[size_t(tree_.idom(int(i)))].push_back(rpo_[i]);
}

Node* ControlFlow::idom(const Node* n) const {
  int i = index(n);
  if (i <= 0) return nullptr;
  return rpo_[size_t(tree_.idom(i))];
}

const std::vector<Node*>& ControlFlow::children(const Node* n) const {
  static const std::vector<Node*> none;
  int i = index(n);
  return i < 0 ? none : children_[size_t(i)];
}

const std::vector<Node*>& ControlFlow::successors(const Node* n) const {
  static const std::vector<Node*> none;
  int i = index(n);
  return i < 0 ? none : succ_[size_t(i)];
}

std::shared_ptr<const ControlFlow> controlFlow(const Graph& g) {
  if (!g.cfCache_ || g.cfCacheVersion_ != g.cfgVersion_) {
    g.cfCache_ = std::make_shared<const ControlFlow>(g);
    g.cfCacheVersion_ = g.cfgVersion_;
  }
  return g.cfCache_;
}

}  // namespace simplec
