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
  size_t h = size_t(n->op) * 0x9E3779B97F4A7C15ull ^ size_t(n->aux);
  for (const Node* d : n->in) h = h * 31 + (d ? d->id : 0x7777);
  if (n->isConst()) h ^= std::hash<const void*>()(n->type);
  return h;
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
