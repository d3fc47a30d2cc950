// See split_compares.h.
#include "opt/split_compares.h"

#include <algorithm>
#include <vector>

namespace simplec {

namespace {

// Integer compares only: float values outlive calls in stack slots (no
// xmm register survives a call), and a copy after a call reloads both.
bool isIntCompare(Op op) { return op == Op::EQ || op == Op::NE || op == Op::LT || op == Op::LE; }

// Users that test p's flags once it is theirs alone: a branch, a select on
// it, a `!` that only such users read.
bool testsFlags(const Node* p, const Node* u) {
  if (u->op == Op::If) return true;
  if (u->op == Op::Select) return u->in.size() > 1 && u->in[1] == p;
  if (u->op != Op::Not || u->out.empty()) return false;
  for (const Node* w : u->out)
    if (!(w->op == Op::If || (w->op == Op::Select && w->in.size() > 1 && w->in[1] == u))) return false;
  return true;
}

}  // namespace

int splitSharedCompares(Graph& g) {
  int made = 0;
  std::vector<Node*> compares;
  for (Node* n : liveNodes(g))
    if (isIntCompare(n->op)) compares.push_back(n);
  for (Node* p : compares) {
    if (p->out.size() < 2) continue;
    // (user, slot) pairs, by user id: the copies' numbering must not
    // depend on use-list order.
    std::vector<std::pair<Node*, uint32_t>> uses;
    for (size_t k = 0; k < p->out.size(); k++)
      if (testsFlags(p, p->out[k])) uses.push_back({p->out[k], p->out.link(k)});
    std::sort(uses.begin(), uses.end(), [](const auto& a, const auto& b) {
      return a.first->id != b.first->id ? a.first->id < b.first->id : a.second < b.second;
    });
    // A value read as a number too is made anyway: testing it costs no
    // more than a compare, and copies would keep the inputs alive longer.
    if (uses.size() != p->out.size()) continue;
    for (size_t k = 1; k < uses.size(); k++) {
      std::vector<Node*> ins(p->in.begin(), p->in.end());
      Node* copy = g.make(p->op, ins, p->type, p->aux);
      copy->pos = p->pos;
      g.setDef(uses[k].first, uses[k].second, copy);
      made++;
    }
  }
  return made;
}

}  // namespace simplec
