// Graph: the node arena and the only functions that edit edges.
#include "son/graph.h"

#include <algorithm>

#include "lexer/diag.h"

namespace simplec {

Graph::Graph() {
  start_ = make(Op::Start, {}, Type::ctrl());
  stop_ = make(Op::Stop, {}, Type::ctrl());
}

void Graph::reset() {
  nodes_.clear();
  funs.clear();
  strings.clear();
  aliases.assign(1, "header");
  deferKills = false;
  start_ = make(Op::Start, {}, Type::ctrl());
  stop_ = make(Op::Stop, {}, Type::ctrl());
}

int Graph::aliasClass(const std::string& key) {
  for (size_t i = 1; i < aliases.size(); i++)
    if (aliases[i] == key) return int(i);
  aliases.push_back(key);
  return int(aliases.size()) - 1;
}

Node* Graph::make(Op op, const std::vector<Node*>& ins, const Type* t, int64_t aux) {
  auto n = std::make_unique<Node>(uint32_t(nodes_.size()), op);
  Node* p = n.get();
  nodes_.push_back(std::move(n));
  p->type = t;
  p->aux = aux;
  p->in.reserve(ins.size());
  for (Node* d : ins) {
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
}

void Graph::setDef(Node* n, size_t i, Node* d) {
  Node* old = n->in[i];
  if (old == d) return;
  if (d) d->out.push_back(n);
  n->in[i] = d;
  if (old) {
    removeUse(old, n);
    killIfUnused(old);
  }
}

void Graph::addDef(Node* n, Node* d) {
  n->in.push_back(d);
  if (d) d->out.push_back(n);
}

void Graph::delDef(Node* n, size_t i) {
  Node* old = n->in[i];
  n->in.erase(n->in.begin() + long(i));
  if (old) {
    removeUse(old, n);
    killIfUnused(old);
  }
}

void Graph::subsume(Node* old, Node* nw) {
  SIMPLEC_CHECK(old != nw, "graph", "subsume of a node by itself");
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
    n->dead = true;
    return;
  }
  std::vector<Node*> work{n};
  while (!work.empty()) {
    Node* x = work.back();
    work.pop_back();
    if (x->dead || !x->unused() || x == start_ || x == stop_) continue;
    x->dead = true;
    for (Node* d : x->in) {
      if (!d) continue;
      removeUse(d, x);
      if (d->unused()) work.push_back(d);
    }
    x->in.clear();
  }
}

std::vector<Node*> functionNodes(const Graph& g, const FunInfo& f) {
  std::vector<Node*> order;
  if (!f.ret) return order;
  std::vector<char> seen(g.size(), 0);
  std::vector<std::pair<Node*, size_t>> stack{{f.ret, 0}};
  seen[f.ret->id] = 1;
  seen[g.start()->id] = 1;
  while (!stack.empty()) {
    auto& top = stack.back();
    if (top.second < top.first->in.size()) {
      Node* d = top.first->in[top.second++];
      if (d && !seen[d->id]) {
        seen[d->id] = 1;
        stack.push_back({d, 0});
      }
    } else {
      order.push_back(top.first);
      stack.pop_back();
    }
  }
  return order;
}

std::vector<Node*> liveNodes(const Graph& g) {
  // Iterative DFS over inputs from Stop; post-order then reversed would put
  // uses first, so we emit in post-order (defs before uses).
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
