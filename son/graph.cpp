// Graph: one function's nodes and the only functions that edit edges.
#include "son/graph.h"

#include <algorithm>
#include <unordered_map>

#include "lexer/diag.h"
#include "lexer/work_counters.h"
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

static_assert(kNumOps < 0xFF, "Graph::ops_ keeps 0xFF for dead nodes");

Graph::~Graph() {
  for (Node* n : nodes_) {
    n->~Node();
    unit_->nodePool.give(n);
  }
}

Node* Graph::make(Op op, Node* const* ins, size_t count, const Type* t, int64_t aux) {
  Node* p = new (unit_->nodePool.take()) Node(uint32_t(nodes_.size()), op);
  nodes_.push_back(p);
  ops_.push_back(uint8_t(op));
  if (op == Op::Loop) loopIds_.push_back(p->id);
  // A constant's type is its value: it never changes.
  if (op == Op::Con && t && t->kind() == TKind::FunPtr) funPtrConIds_.push_back(p->id);
  size_t serial = unit_->nodesMade.fetch_add(1, std::memory_order_relaxed);
  if (unit_->keepSerials) serials_.push_back(uint32_t(serial));
  workCounters().nodesMade++;
  editVersion_++;
  if (opInfo(op).flags & CFG) cfgVersion_++;
  p->type = t;
  p->aux = aux;
  p->in.assign(ins, count);
  for (size_t i = 0; i < count; i++) {
    Node* d = ins[i];
    checkOwned(d, "make");
    if (d) addUse(d, p, uint32_t(i));
  }
  return p;
}

uint32_t Graph::serial(const Node* n) const {
  SIMPLEC_CHECK(n->id < serials_.size(), "graph", "node serials are not kept (Unit::keepSerials)");
  return serials_[n->id];
}

Node* Graph::con(const Type* t) { return make(Op::Con, {start_}, t); }

void Graph::addUse(Node* d, Node* user, uint32_t slot) {
  editVersion_++;
  user->in.link(slot) = uint32_t(d->out.size());
  d->out.push_back(user, slot);
}

void Graph::removeUse(Node* d, Node* user, uint32_t slot) {
  editVersion_++;
  uint32_t k = user->in.link(slot);
  SIMPLEC_CHECK(k < d->out.size() && d->out[k] == user && d->out.link(k) == slot, "graph", "use list out of sync");
  workCounters().useScans++;
  // Order of uses is irrelevant: the last entry moves into the hole.
  uint32_t last = uint32_t(d->out.size()) - 1;
  if (k != last) {
    Node* u = d->out[last];
    uint32_t s = d->out.link(last);
    d->out[k] = u;
    d->out.link(k) = s;
    u->in.link(s) = k;
  }
  d->out.pop_back();
  if (lostUses) lostUses->push_back(d);
}

void Graph::markDead(Node* n) {
  if (n->isCFG() && !debugNames.empty()) noteKilledControl(n);
  editVersion_++;
  n->dead = true;
  ops_[n->id] = kDeadOp;
  dead_++;
  if (n->isCFG()) cfgVersion_++;
}

void Graph::setDef(Node* n, size_t i, Node* d) {
  Node* old = n->in[i];
  if (old == d) return;
  checkOwned(d, "setDef");
  if (n->isCFG() && (i == 0 || n->isRegion())) cfgVersion_++;
  if (old) removeUse(old, n, uint32_t(i));
  n->in[i] = d;
  if (d) addUse(d, n, uint32_t(i));
  if (editedNodes) editedNodes->push_back(n);
  if (old) killIfUnused(old);
}

void Graph::addDef(Node* n, Node* d) {
  checkOwned(d, "addDef");
  if (n->isRegion() || (n->isCFG() && n->in.empty())) cfgVersion_++;
  n->in.push_back(d, 0);
  if (d) addUse(d, n, uint32_t(n->in.size() - 1));
  if (editedNodes) editedNodes->push_back(n);
}

void Graph::swapInputs(Node* n, size_t i, size_t j) {
  if (i == j) return;
  editVersion_++;
  if (n->isCFG() && (i == 0 || j == 0 || n->isRegion())) cfgVersion_++;
  n->in.swap(i, j);
  if (n->in[i]) n->in[i]->out.link(n->in.link(i)) = uint32_t(i);
  if (n->in[j]) n->in[j]->out.link(n->in.link(j)) = uint32_t(j);
  if (editedNodes) editedNodes->push_back(n);
}

void Graph::delDef(Node* n, size_t i) {
  Node* old = n->in[i];
  if (n->isCFG() && (i == 0 || n->isRegion())) cfgVersion_++;
  if (old) removeUse(old, n, uint32_t(i));
  // The later inputs move down one slot: their use entries say so.
  for (size_t j = i + 1; j < n->in.size(); j++)
    if (Node* d = n->in[j]) d->out.link(n->in.link(j)) = uint32_t(j - 1);
  n->in.erase(i);
  if (editedNodes) editedNodes->push_back(n);
  if (old) killIfUnused(old);
}

void Graph::subsume(Node* old, Node* nw) {
  SIMPLEC_CHECK(old != nw, "graph", "subsume of a node by itself");
  checkOwned(nw, "subsume");
  if (old->isCFG()) cfgVersion_++;
  // Each use entry is one (user, slot): it now refers to nw.
  for (size_t k = 0; k < old->out.size(); k++) {
    Node* use = old->out[k];
    uint32_t slot = old->out.link(k);
    use->in[slot] = nw;
    addUse(nw, use, slot);
    if (editedNodes) editedNodes->push_back(use);
  }
  old->out.clear();
  old->keep = 0;
  // -g: nw is the same value, so it is also the value of old's variables;
  // a binding made under old (control) now belongs to nw's place.
  for (uint32_t k = old->dbg; k != 0; k = debugNames[k].next) addDebugNameEntry(nw, debugNames[k]);
  old->dbg = 0;
  if (old->isCFG() && !debugNames.empty()) ctrlForward_.push_back({old, nw});
  subsuming_ = old;
  nw->keep++;  // old's inputs may include nw
  kill(old);
  nw->keep--;
  subsuming_ = nullptr;
}

void Graph::addDebugName(Node* n, int var, DebugName::Kind kind, Node* at, SrcPos passAt) {
  if (debugNames.empty()) debugNames.push_back(DebugName{-1, 0});  // entry 0 means "none"
  DebugName d{var, 0, kind, at, false, uint32_t(debugNames.size()), passAt};
  addDebugNameEntry(n, d);
}

void Graph::addDebugNameEntry(Node* n, DebugName d) {
  for (uint32_t k = n->dbg; k != 0; k = debugNames[k].next)
    if (debugNames[k].var == d.var && debugNames[k].seq == d.seq) return;
  if (debugNames.empty()) debugNames.push_back(DebugName{-1, 0});
  d.next = n->dbg;
  debugNames.push_back(d);
  n->dbg = uint32_t(debugNames.size() - 1);
}

namespace {

// Follows control nodes that were replaced to the live one in their place.
Graph::DebugAnchor liveAnchor(Node* at, bool unreachable, const std::unordered_map<const Node*, Node*>& forward) {
  for (size_t hops = 0; at && at->dead && hops <= forward.size(); hops++) {
    auto it = forward.find(at);
    if (it == forward.end()) return {};
    if (!it->second) return {nullptr, true};
    at = it->second;
  }
  if (at && at->dead) return {};
  return {at, !at && unreachable};
}

std::unordered_map<const Node*, Node*> forwardMap(const std::vector<std::pair<Node*, Node*>>& v) {
  return std::unordered_map<const Node*, Node*>(v.begin(), v.end());  // the first entry of a node wins
}

}  // namespace

void Graph::noteKilledControl(Node* n) {
  if (n == subsuming_) return;  // forwarded to its replacement
  // -g: bindings made under n move to where n's code now is. Dead control
  // never runs; a straight-line control node (a check, a call) sat in the
  // block of its control input; a block head has no such stand-in.
  bool unreachable = n->type && n->type->kind() == TKind::XCtrl;
  bool head = n->isRegion() || n->op == Op::Fun || n->op == Op::Start ||
              (n->op == Op::CProj && !n->in.empty() && n->in[0] &&
               (n->in[0]->op == Op::If || n->in[0]->op == Op::Never));
  if (unreachable) ctrlForward_.push_back({n, nullptr});
  else if (!head && !n->in.empty() && n->in[0]) ctrlForward_.push_back({n, n->in[0]});
}

std::vector<Graph::DebugAnchor> Graph::debugAnchors() const {
  std::unordered_map<const Node*, Node*> forward = forwardMap(ctrlForward_);
  std::vector<DebugAnchor> res(debugNames.size());
  for (size_t k = 0; k < debugNames.size(); k++)
    res[k] = liveAnchor(debugNames[k].at, debugNames[k].unreachable, forward);
  return res;
}

void Graph::resolveDebugAnchors() {
  if (debugNames.empty()) return;
  // Dead nodes are still readable here; after compact() their storage is
  // reused, so no binding may keep pointing at one.
  std::unordered_map<const Node*, Node*> forward = forwardMap(ctrlForward_);
  for (DebugName& d : debugNames) {
    DebugAnchor a = liveAnchor(d.at, d.unreachable, forward);
    d.at = a.at;
    d.unreachable = a.unreachable;
  }
  ctrlForward_.clear();
  for (Node* n : nodes_) {
    if (!n->dead || n->dbg == 0) continue;
    for (uint32_t k = n->dbg; k != 0; k = debugNames[k].next) orphanedNames_.push_back(k);
    n->dbg = 0;
  }
}

void Graph::killIfUnused(Node* n) {
  if (deferKills) return;
  if (n->unused() && !n->dead && n != start_ && n != stop_) kill(n);
}

void Graph::kill(Node* n) {
  if (deferKills) {
    if (n->dead || !n->unused() || n == start_ || n == stop_) return;
    for (size_t i = 0; i < n->in.size(); i++)
      if (Node* d = n->in[i]) removeUse(d, n, uint32_t(i));
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
    for (size_t i = 0; i < x->in.size(); i++) {
      Node* d = x->in[i];
      if (!d) continue;
      removeUse(d, x, uint32_t(i));
      if (d->unused()) work.push_back(d);
    }
    x->in.clear();
  }
}

void Graph::dropUses(const std::vector<char>& keep) {
  editVersion_++;
  std::vector<Node*> garbage;
  for (size_t id = 0; id < nodes_.size(); id++)
    if (ops_[id] != kDeadOp && !keep[id]) garbage.push_back(nodes_[id]);
  // Only the inputs of garbage list garbage users: filter just their use
  // lists, each once and in order (the Start node alone may list a great
  // many dead constants), not every list in the function.
  std::vector<char> filtered(nodes_.size(), 0);
  for (Node* x : garbage)
    for (size_t i = 0; i < x->in.size(); i++) {
      Node* n = x->in[i];
      if (!n || !keep[n->id] || filtered[n->id]) continue;
      filtered[n->id] = 1;
      workCounters().useScans += n->out.size();
      if (lostUses) lostUses->push_back(n);
      size_t w = 0;
      for (size_t k = 0; k < n->out.size(); k++) {
        Node* u = n->out[k];
        if (!keep[u->id]) continue;
        uint32_t slot = n->out.link(k);
        n->out[w] = u;
        n->out.link(w) = slot;
        u->in.link(slot) = uint32_t(w);
        w++;
      }
      n->out.truncate(w);
    }
  for (Node* n : garbage) {
    n->in.clear();
    n->out.clear();
    n->keep = 0;
    markDead(n);
  }
}

void Graph::compact() {
  if (dead_ == 0) return;
  resolveDebugAnchors();
  size_t live = 0;
  loopIds_.clear();
  funPtrConIds_.clear();
  for (Node* n : nodes_) {
    if (n->dead) {
      n->~Node();
      unit_->nodePool.give(n);
      continue;
    }
    if (!serials_.empty()) serials_[live] = serials_[n->id];
    n->id = uint32_t(live);
    if (n->op == Op::Loop) loopIds_.push_back(n->id);
    if (n->op == Op::Con && n->type && n->type->kind() == TKind::FunPtr) funPtrConIds_.push_back(n->id);
    ops_[live] = uint8_t(n->op);
    nodes_[live++] = n;
  }
  nodes_.resize(live);
  ops_.resize(live);
  if (!serials_.empty()) serials_.resize(live);
  dead_ = 0;
  bool wasSwept = swept();
  bool listed = liveCacheVersion_ == editVersion_;
  editVersion_++;
  cfgVersion_++;  // ids changed
  // Renumbering makes no garbage, and the walk from Stop follows pointers,
  // not ids: the same nodes in the same order.
  if (wasSwept) sweptAt = editVersion_;
  if (listed) liveCacheVersion_ = editVersion_;
}

void Graph::settle() {
  compact();
  if (nodes_.capacity() > nodes_.size() + nodes_.size() / 4 + 16) {
    nodes_.shrink_to_fit();
    ops_.shrink_to_fit();
    serials_.shrink_to_fit();
  }
  dropCachedAnalyses();
}

void Graph::relocate() {
  NodePool& pool = unit_->nodePool;
  pool.beginFresh();
  moveNodes([](const Node*) { return true; });
  pool.endFresh();
}

void Graph::moveNodes(const std::function<bool(const Node*)>& shouldMove) {
  compact();
  std::vector<Node*> moved(nodes_.size());
  NodePool& pool = unit_->nodePool;
  bool any = false;
  for (size_t i = 0; i < nodes_.size(); i++) {
    Node* n = nodes_[i];
    bool move = shouldMove(n);
    moved[i] = move ? new (pool.take()) Node(std::move(*n)) : n;
    any |= move;
  }
  if (!any) return;
  // Every edge stays in this graph (checkOwned), so ids find the copies.
  auto fwd = [&](Node* n) { return n && owns(n) ? moved[n->id] : n; };
  for (Node* n : moved) {
    for (size_t i = 0; i < n->in.size(); i++) n->in[i] = fwd(n->in[i]);
    for (size_t i = 0; i < n->out.size(); i++) n->out[i] = fwd(n->out[i]);
  }
  for (DebugName& d : debugNames) d.at = fwd(d.at);
  for (auto& [from, to] : ctrlForward_) {
    from = fwd(from);
    to = fwd(to);
  }
  subsuming_ = fwd(subsuming_);
  FunInfo& f = info();
  if (f.fun) f.fun = fwd(f.fun);
  if (f.ret) f.ret = fwd(f.ret);
  start_ = fwd(start_);
  stop_ = fwd(stop_);
  std::vector<Node*> old = std::move(nodes_);
  nodes_ = std::move(moved);
  for (size_t i = 0; i < old.size(); i++)
    if (old[i] != nodes_[i]) {
      old[i]->~Node();
      pool.give(old[i]);
    }
  liveCache_.clear();
  cfCache_.reset();
  bool wasSwept = swept();
  editVersion_++;
  cfgVersion_++;
  if (wasSwept) sweptAt = editVersion_;  // moving makes no garbage
}

void Graph::keepLiveList(std::vector<Node*> live) {
  liveCache_ = std::move(live);
  liveCacheVersion_ = editVersion_;
}

void Graph::dropLiveCache() {
  std::vector<Node*>().swap(liveCache_);
  liveCacheVersion_ = ~uint64_t(0);
}

void Graph::dropCachedAnalyses() {
  dropLiveCache();
  cfCache_.reset();
}

std::vector<Node*> Graph::loops() const {
  std::vector<Node*> r;
  for (uint32_t id : loopIds_)
    if (!deadAt(id)) r.push_back(nodes_[id]);
  return r;
}

std::vector<Node*> Graph::funPtrConstants() const {
  std::vector<Node*> r;
  for (uint32_t id : funPtrConIds_)
    if (!deadAt(id)) r.push_back(nodes_[id]);
  return r;
}

std::vector<Node*> Graph::nodesOf(Op op) const {
  std::vector<Node*> r;
  for (size_t id = 0; id < ops_.size(); id++)
    if (ops_[id] == uint8_t(op)) r.push_back(nodes_[id]);
  return r;
}

std::vector<Node*> liveNodesOf(const Graph& g, Op op) {
  if (g.swept()) return g.nodesOf(op);
  std::vector<Node*> r;
  for (Node* n : liveNodes(g))
    if (n->op == op) r.push_back(n);
  std::sort(r.begin(), r.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
  return r;
}

std::vector<Node*> liveNodes(const Graph& g) {
  if (g.liveCacheVersion_ == g.editVersion_) return g.liveCache_;
  // Iterative DFS over inputs from Stop, emitted in post-order (defs before uses).
  std::vector<Node*> order;
  std::vector<char> seen(g.size(), 0);
  std::vector<std::pair<Node*, size_t>> stack;
  workCounters().liveNodeVisits += g.size();
  stack.push_back({g.stop(), 0});
  seen[g.stop()->id] = 1;
  while (!stack.empty()) {
    auto& [n, i] = stack.back();
    if (i < n->in.size()) {
      Node* d = n->in[i++];
      if (d && !seen[d->id]) {
        seen[d->id] = 1;
        stack.push_back({d, 0});
        // Its inputs are read next, one after the other: fetch them all
        // now, so that their cache misses overlap.
        for (Node* x : d->in) __builtin_prefetch(x);
      }
    } else {
      order.push_back(n);
      stack.pop_back();
    }
  }
  g.liveCache_ = order;
  g.liveCacheVersion_ = g.editVersion_;
  return order;
}

}  // namespace simplec
