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

Node* Gvn::findConst(const Type* t, const Node* start) const {
  auto [lo, hi] = table_.equal_range(constHash(t, start));
  for (auto it = lo; it != hi; ++it) {
    Node* c = it->second;
    if (c->op == Op::Con && !c->dead && c->aux == 0 && c->type == t && c->in.size() == 1 && c->in[0] == start)
      return c;
  }
  return nullptr;
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
  auto [lo, hi] = table_.equal_range(h);
  for (auto it = lo; it != hi; ++it) {
    if (it->second == n) return n;
    if (same(it->second, n)) return it->second;
  }
  table_.emplace(h, n);
  return n;
}

}  // namespace simplec
