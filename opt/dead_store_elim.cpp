// Dead-store elimination by a bounded forward walk over memory uses.
#include "opt/dead_store_elim.h"

#include <algorithm>
#include <unordered_set>

#include "son/mem_access.h"
#include "son/verify.h"

namespace simplec {

namespace {

constexpr size_t kMaxWalk = 64;  // memory values followed per store: bounds the work

bool sameBytes(const Node* s, const Node* t) {
  return s->aux == t->aux && sameValue(s->in[2], t->in[2]) && sameValue(s->in[3], t->in[3]);
}

// Can any load see the bytes `st` writes?
bool observed(const Node* st) {
  std::vector<const Node*> work{st};
  std::unordered_set<const Node*> seen{st};
  while (!work.empty()) {
    const Node* mem = work.back();
    work.pop_back();
    for (const Node* u : mem->out) {
      if (u->dead) continue;
      bool memorySlot = (u->op == Op::Store || u->op == Op::Load) && u->in.size() > 3 && u->in[1] == mem &&
                        std::count(u->in.begin(), u->in.end(), mem) == 1;
      if (!memorySlot) return true;  // a Phi, call, return, merge...: may observe
      if (u->op == Op::Load) {
        if (!provablyDisjoint(st, u)) return true;
        continue;
      }
      if (sameBytes(st, u)) continue;  // overwritten on this path
      if (!provablyDisjoint(st, u)) return true;
      if (seen.insert(u).second) {
        if (seen.size() > kMaxWalk) return true;
        work.push_back(u);
      }
    }
  }
  return false;
}

}  // namespace

int deadStoreElim(Graph& g) {
  // By id: removing one store changes the uses the next walk sees, so the
  // order must not depend on addresses.
  std::vector<Node*> stores;
  for (Node* n : liveNodesOf(g, Op::Store))
    if (n->keep == 0 && n->in.size() > 4 && n->in[1]) stores.push_back(n);
  int removed = 0;
  for (Node* st : stores) {
    if (st->dead || observed(st)) continue;
    g.subsume(st, st->in[1]);
    removed++;
  }
  // The stored values may have been all that kept a cycle (a loop's Phi
  // and its update) in use: such garbage goes too.
  if (removed) sweepUnreachable(g);
  return removed;
}

}  // namespace simplec
