// Dominator tree of a function's control nodes.
#include "opt/cfg_dominators.h"

#include <algorithm>

namespace simplec {

std::vector<Node*> CfgDominators::successors(Node* n) {
  std::vector<Node*> s;
  for (Node* u : n->out) {
    if (!u->isCFG() || u->dead) continue;
    if (u->isRegion()) {
      for (size_t i = 1; i < u->in.size(); i++)
        if (u->in[i] == n && std::find(s.begin(), s.end(), u) == s.end()) s.push_back(u);
    } else if (!u->in.empty() && u->in[0] == n && u->op != Op::Stop) {
      s.push_back(u);
    }
  }
  // Projections in index order, so the order does not depend on use lists.
  std::sort(s.begin(), s.end(), [](Node* a, Node* b) {
    if (a->op == Op::CProj && b->op == Op::CProj) return a->aux < b->aux;
    return a->id < b->id;
  });
  return s;
}

CfgDominators::CfgDominators(const Graph& g, Node* fun) {
  // Iterative DFS for the post-order.
  std::vector<Node*> post;
  std::unordered_map<Node*, char> seen;
  std::vector<std::pair<Node*, std::vector<Node*>>> stack;
  stack.push_back({fun, successors(fun)});
  seen[fun] = 1;
  while (!stack.empty()) {
    auto& [n, succ] = stack.back();
    if (!succ.empty()) {
      Node* s = succ.back();
      succ.pop_back();
      if (!seen.count(s)) {
        seen[s] = 1;
        stack.push_back({s, successors(s)});
      }
    } else {
      post.push_back(n);
      stack.pop_back();
    }
  }
  rpo_.assign(post.rbegin(), post.rend());
  for (size_t i = 0; i < rpo_.size(); i++) index_[rpo_[i]] = int(i);
  // Predecessors among reached nodes.
  std::vector<std::vector<int>> preds(rpo_.size());
  for (size_t i = 0; i < rpo_.size(); i++)
    for (Node* s : successors(rpo_[i])) {
      auto it = index_.find(s);
      if (it != index_.end()) preds[size_t(it->second)].push_back(int(i));
    }
  idom_.assign(rpo_.size(), -1);
  if (!rpo_.empty()) idom_[0] = 0;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (a > b) a = idom_[size_t(a)];
      while (b > a) b = idom_[size_t(b)];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < rpo_.size(); i++) {
      int nd = -1;
      for (int p : preds[i])
        if (idom_[size_t(p)] >= 0) nd = nd < 0 ? p : intersect(p, nd);
      if (nd >= 0 && idom_[i] != nd) {
        idom_[i] = nd;
        changed = true;
      }
    }
  }
  children_.assign(rpo_.size(), {});
  for (size_t i = 1; i < rpo_.size(); i++)
    if (idom_[i] >= 0) children_[size_t(idom_[i])].push_back(rpo_[i]);
  (void)g;
}

Node* CfgDominators::idom(Node* n) const {
  auto it = index_.find(n);
  if (it == index_.end() || it->second == 0) return nullptr;
  int d = idom_[size_t(it->second)];
  return d < 0 ? nullptr : rpo_[size_t(d)];
}

const std::vector<Node*>& CfgDominators::children(Node* n) const {
  static const std::vector<Node*> none;
  auto it = index_.find(n);
  return it == index_.end() ? none : children_[size_t(it->second)];
}

}  // namespace simplec
