// ControlFlow: reverse post-order, successors and dominators of a function's
// control nodes, and the per-graph cache.
#include "son/control_flow.h"

#include <algorithm>

#include "lexer/diag.h"
#include "son/unit.h"

namespace simplec {

std::vector<Node*> ControlFlow::successorsOf(const Node* n) {
  std::vector<Node*> s;
  appendSuccessors(n, s);
  return s;
}

void ControlFlow::appendSuccessors(const Node* n, std::vector<Node*>& s) {
  size_t first = s.size();
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
  std::sort(s.begin() + long(first), s.end(), [](Node* a, Node* b) {
    if (a->op == Op::CProj && b->op == Op::CProj) return a->aux < b->aux;
    return a->id < b->id;
  });
  // A Region listing n twice is one successor.
  s.erase(std::unique(s.begin() + long(first), s.end()), s.end());
}

// Every pass asks for this after a change of control flow, in every
// function: it allocates a fixed handful of flat arrays, nothing per node.
ControlFlow::ControlFlow(const Graph& g) : index_(g.size(), -1) {
  Node* fun = g.info().fun;
  if (!fun || !g.owns(fun) || fun->dead) internalError("dominators", "function '" + g.info().name + "' has no entry");
  // Iterative DFS for the post-order; each node's successors computed once,
  // kept flat by discovery number: those of d are succ[succAt[d] ..
  // succAt[d + 1]). index_ holds discovery numbers until the order is known.
  // Each edge's target is also kept by its discovery number (succDisc):
  // the passes below then index small arrays instead of loading the node
  // and a slot of the graph-sized index_ again (two cache misses per edge
  // in a big function).
  std::vector<Node*> succ, found;
  std::vector<int> post;      // discovery numbers
  std::vector<int> succDisc;  // succ[k]'s discovery number
  std::vector<uint32_t> succAt{0};
  std::vector<std::pair<int, uint32_t>> stack;
  auto discover = [&](Node* n) {
    int d = int(found.size());
    index_[n->id] = d;
    found.push_back(n);
    appendSuccessors(n, succ);
    succDisc.resize(succ.size(), -1);
    succAt.push_back(uint32_t(succ.size()));
    stack.push_back({d, succAt[size_t(d)]});
    return d;
  };
  discover(fun);
  while (!stack.empty()) {
    auto [d, at] = stack.back();
    if (at < succAt[size_t(d) + 1]) {
      stack.back().second++;
      Node* s = succ[at];
      int sd = index_[s->id];
      if (sd < 0) sd = discover(s);  // (which grows succDisc)
      succDisc[at] = sd;
    } else {
      post.push_back(d);
      stack.pop_back();
    }
  }
  size_t n = post.size();
  std::vector<int> discAt(n);  // by position in rpo_
  std::vector<int> posOf(n);   // by discovery number: the position
  rpo_.resize(n);
  for (size_t i = 0; i < n; i++) {
    discAt[i] = post[n - 1 - i];
    posOf[size_t(discAt[i])] = int(i);
    rpo_[i] = found[size_t(discAt[i])];
  }
  for (size_t i = 0; i < n; i++) index_[rpo_[i]->id] = int(i);
  // Predecessors by position, flat: count, then fill.
  std::vector<uint32_t> predStart(n + 1, 0);
  for (size_t i = 0; i < n; i++) {
    size_t d = size_t(discAt[i]);
    for (size_t k = succAt[d]; k < succAt[d + 1]; k++) predStart[size_t(posOf[size_t(succDisc[k])]) + 1]++;
  }
  for (size_t i = 0; i < n; i++) predStart[i + 1] += predStart[i];
  std::vector<int> preds(predStart[n]);
  std::vector<uint32_t> fill(predStart.begin(), predStart.end() - 1);
  for (size_t i = 0; i < n; i++) {
    size_t d = size_t(discAt[i]);
    for (size_t k = succAt[d]; k < succAt[d + 1]; k++) preds[fill[size_t(posOf[size_t(succDisc[k])])]++] = int(i);
  }
  tree_ = DomTree(computeIdoms(predStart, preds));
  // Children in increasing position, so each list is in reverse post-order.
  kidStart_.assign(n + 1, 0);
  for (size_t i = 1; i < n; i++) kidStart_[size_t(tree_.idom(int(i))) + 1]++;
  for (size_t i = 0; i < n; i++) kidStart_[i + 1] += kidStart_[i];
  kids_.resize(n == 0 ? 0 : n - 1);
  fill.assign(kidStart_.begin(), kidStart_.end() - 1);
  for (size_t i = 1; i < n; i++) kids_[fill[size_t(tree_.idom(int(i)))]++] = rpo_[i];
}

Node* ControlFlow::idom(const Node* n) const {
  int i = index(n);
  if (i <= 0) return nullptr;
  return rpo_[size_t(tree_.idom(i))];
}

std::span<Node* const> ControlFlow::children(const Node* n) const {
  int i = index(n);
  if (i < 0) return {};
  return {kids_.data() + kidStart_[size_t(i)], kids_.data() + kidStart_[size_t(i) + 1]};
}

size_t ControlFlow::bytes() const {
  return sizeof(*this) + rpo_.capacity() * sizeof(Node*) + index_.capacity() * sizeof(int) +
         kidStart_.capacity() * sizeof(uint32_t) + kids_.capacity() * sizeof(Node*) + tree_.bytes();
}

size_t cachedControlFlowBytes(const Graph& g) {
  if (!g.cfCache_) return 0;
  if (g.cfCacheVersion_ != g.cfgVersion_) {
    g.cfCache_.reset();
    return 0;
  }
  return g.cfCache_->bytes();
}

std::shared_ptr<const ControlFlow> controlFlow(const Graph& g) {
  if (!g.cfCache_ || g.cfCacheVersion_ != g.cfgVersion_) {
    g.cfCache_ = std::make_shared<const ControlFlow>(g);
    g.cfCacheVersion_ = g.cfgVersion_;
  }
  return g.cfCache_;
}

}  // namespace simplec
