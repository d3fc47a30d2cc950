// Graph: one function's node arena and the only functions that edit edges.
#include "son/graph.h"

#include <algorithm>

#include "lexer/diag.h"
#include "son/unit.h"

namespace simplec {

Graph::Graph(Unit& unit, int funIndex) : unit_(&unit), funIndex_(funIndex) {
  start_ = make(Op::Start, {}, Type::ctrl());
  stop_ = make(Op::Stop, {}, Type::ctrl());
}

FunInfo& Graph::info() const { return unit_->funs[size_t(funIndex_)]; }

void Graph::checkOwned(const Node* d, const char* what) const {
  if (d && !owns(d))
    internalError("graph", std::string(what) + ": an edge to node " + std::to_string(d->id) + " (" + d->label() +
                               ") of another function's graph");
}

Node* Graph::make(Op op, const std::vector<Node*>& ins, const Type* t, int64_t aux) {
  auto n = std::make_unique<Node>(uint32_t(nodes_.size()), op);
  Node* p = n.get();
  nodes_.push_back(std::move(n));
  unit_->nodesMade++;
  if (opInfo(op).flags & CFG) cfgVersion_++;
  p->type = t;
  p->aux = aux;
  p->in.reserve(ins.size());
  for (Node* d : ins) {
    checkOwned(d, "make");
    p->in.push_back(d);
    if (d) d->out.push_back(p);
  }
  return p;
}

Node* Graph::con(const Type* t) { return make(Op::Con, {start_}, t); }

void Graph::removeUse(Node* d, Node* user) {
  // Search from the back: the newest uses are the likeliest to go first.
  auto it = std::find(d->out.rbegin(), d->out.rend(), user);
  SIMPLEC_CHECK(it != d->out.rend(), "graph", "use list out of sync");
  // Order of uses is irrelevant: swap-remove.
  *it = d->out.back();
  d->out.pop_back();
  if (lostUses) lostUses->push_back(d);
}

void Graph::markDead(Node* n) {
  n->dead = true;
  dead_++;
  if (n->isCFG()) cfgVersion_++;
}

void Graph::setDef(Node* n, size_t i, Node* d) {
  Node* old = n->in[i];
  if (old == d) return;
  checkOwned(d, "setDef");
  if (n->isCFG() && (i == 0 || n->isRegion())) cfgVersion_++;
  if (d) d->out.push_back(n);
  n->in[i] = d;
  if (old) {
    removeUse(old, n);
    killIfUnused(old);
  }
}

void Graph::addDef(Node* n, Node* d) {
  checkOwned(d, "addDef");
  if (n->isRegion() || (n->isCFG() && n->in.empty())) cfgVersion_++;
  n->in.push_back(d);
  if (d) d->out.push_back(n);
}

void Graph::delDef(Node* n, size_t i) {
  Node* old = n->in[i];
  if (n->isCFG() && (i == 0 || n->isRegion())) cfgVersion_++;
  n->in.erase(n->in.begin() + long(i));
  if (old) {
    removeUse(old, n);
    killIfUnused(old);
  }
}

void Graph::subsume(Node* old, Node* nw) {
  SIMPLEC_CHECK(old != nw, "graph", "subsume of a node by itself");
  checkOwned(nw, "subsume");
  if (old->isCFG()) cfgVersion_++;
  while (!old->out.empty()) {
    Node* use = old->out.back();
    old->out.pop_back();
    for (auto& x : use->in)
      if (x == old) {
        x = nw;
        nw->out.push_back(use);
      }
    // `use` may have had `old` in several slots: the loop above moved them all,
    // and removed one entry from old->out; drop the remaining duplicates.
    auto it = std::remove(old->out.begin(), old->out.end(), use);
    old->out.erase(it, old->out.end());
  }
  old->keep = 0;
  nw->keep++;  // old's inputs may include nw
  kill(old);
  nw->keep--;
}

void Graph::killIfUnused(Node* n) {
  if (deferKills) return;
  if (n->unused() && !n->dead && n != start_ && n != stop_) kill(n);
}

void Graph::kill(Node* n) {
  if (deferKills) {
    if (n->dead || !n->unused() || n == start_ || n == stop_) return;
    for (Node* d : n->in)
      if (d) removeUse(d, n);
    n->in.clear();
    markDead(n);
    return;
  }
  std::vector<Node*> work{n};
  while (!work.empty()) {
    Node* x = work.back();
    work.pop_back();
    if (x->dead || !x->unused() || x == start_ || x == stop_) continue;
    markDead(x);
    for (Node* d : x->in) {
      if (!d) continue;
      removeUse(d, x);
      if (d->unused()) work.push_back(d);
    }
    x->in.clear();
  }
}

void Graph::compact() {
  if (dead_ == 0) return;
  size_t live = 0;
  for (auto& up : nodes_) {
    if (up->dead) continue;
    up->id = uint32_t(live);
    nodes_[live++] = std::move(up);
  }
  nodes_.resize(live);  // frees the dead nodes
  dead_ = 0;
  cfgVersion_++;  // ids changed
}

std::vector<Node*> liveNodes(const Graph& g) {
  // Iterative DFS over inputs from Stop, emitted in post-order (defs before uses).
  std::vector<Node*> order;
  std::vector<char> seen(g.size(), 0);
  std::vector<std::pair<Node*, size_t>> stack;
  stack.push_back({g.stop(), 0});
  seen[g.stop()->id] = 1;
  while (!stack.empty()) {
    auto& [n, i] = stack.back();
    if (i < n->in.size()) {
      Node* d = n->in[i++];
      if (d && !seen[d->id]) {
        seen[d->id] = 1;
        stack.push_back({d, 0});
      }
    } else {
      order.push_back(n);
      stack.pop_back();
    }
  }
  return order;
}

}  // namespace simplec
