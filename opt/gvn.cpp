// Hash-consing of pure nodes.
#include "opt/gvn.h"

namespace simplec {

bool Gvn::eligible(const Node* n) {
  if (n->dead || n->isCFG()) return false;
  switch (n->op) {
    case Op::Parm:
    case Op::Proj:
    case Op::Scope:
    case Op::Store:  // a side effect, even when an equal one exists
      return false;
    case Op::Phi:  // a Phi of a loop still being parsed may gain inputs
      return !(n->in[0]->op == Op::Loop && (n->in[0]->in.size() < 3 || !n->in[0]->in[2]));
    default:
      return true;
  }
}

size_t Gvn::hashOf(const Node* n) {
  if (n->op == Op::Con && n->aux == 0 && n->in.size() == 1 && n->in[0]) return constHash(n->type, n->in[0]);
  size_t h = size_t(n->op) * 0x9E3779B97F4A7C15ull ^ size_t(n->aux);
  for (const Node* d : n->in) h = h * 31 + (d ? d->id : 0x7777);
  if (n->isConst()) h ^= std::hash<const void*>()(n->type);
  return h;
}

size_t Gvn::constHash(const Type* t, const Node* start) {
  return (size_t(Op::Con) * 0x9E3779B97F4A7C15ull * 31 + start->id) ^ std::hash<const void*>()(t);
}

template <class F>
Node* Gvn::probe(size_t h, F f) const {
  if (slots_.empty()) return nullptr;
  size_t mask = slots_.size() - 1;
  // Linear probing: entries of one hash lie along its probe path in the
  // order they were recorded.
  for (size_t i = h & mask; slots_[i]; i = (i + 1) & mask) {
    const Entry& e = entries_[slots_[i] - 1];
    if (e.hash == h && f(e.node)) return e.node;
  }
  return nullptr;
}

void Gvn::record(size_t h, Node* n) {
  if ((entries_.size() + 1) * 2 > slots_.size()) rebuild();
  entries_.push_back({h, n});
  size_t mask = slots_.size() - 1, i = h & mask;
  while (slots_[i]) i = (i + 1) & mask;
  slots_[i] = uint32_t(entries_.size());
}

// Drops the entries that no longer hash where they were recorded (dead, or
// inputs changed), then sizes the slots for twice what is left.
void Gvn::rebuild() {
  size_t kept = 0;
  for (const Entry& e : entries_)
    if (!e.node->dead && hashOf(e.node) == e.hash) entries_[kept++] = e;
  entries_.resize(kept);
  size_t size = 16;
  while (size < 4 * (kept + 1)) size *= 2;
  slots_.assign(size, 0);
  size_t mask = size - 1;
  for (size_t k = 0; k < entries_.size(); k++) {
    size_t i = entries_[k].hash & mask;
    while (slots_[i]) i = (i + 1) & mask;
    slots_[i] = uint32_t(k + 1);
  }
}

Node* Gvn::findConst(const Type* t, const Node* start) const {
  return probe(constHash(t, start), [&](const Node* c) {
    return c->op == Op::Con && !c->dead && c->aux == 0 && c->type == t && c->in.size() == 1 && c->in[0] == start;
  });
}

bool Gvn::same(const Node* a, const Node* b) {
  if (a->op != b->op || a->aux != b->aux || a->in != b->in || a->dead || b->dead) return false;
  if (a->isConst() && a->type != b->type) return false;
  // A memory Phi and a value Phi may have the same inputs (say, both only
  // a dead path's constant): one must not stand for the other.
  if (a->op == Op::Phi && (!a->type || !b->type || a->type->kind() != b->type->kind())) return false;
  return true;
}

Node* Gvn::findOrInsert(Node* n) {
  if (!eligible(n)) return n;
  size_t h = hashOf(n);
  if (Node* m = probe(h, [&](const Node* c) { return c == n || same(c, n); })) return m;
  record(h, n);
  return n;
}

}  // namespace simplec
