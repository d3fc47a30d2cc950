// Threading of predecessors whose branch outcome is known past a merged condition.
#include "opt/split_if.h"

#include <algorithm>

#include "son/compute.h"

namespace simplec {

namespace {

// The truthiness (0 false, 1 true) of `v` along `pred`, -1 when unknown: a
// constant, or the predicate of the If that `pred` is an arm of.
int knownAlong(const Node* v, const Node* pred) {
  if (v->isConst() && v->type && v->type->isInt() && v->type->isConst()) return v->type->value() != 0;
  if (pred->op == Op::CProj && pred->in[0]->op == Op::If && pred->in[0]->in[1] == v) return pred->aux == 0;
  return -1;
}

Node* armOf(const Node* iff, int64_t index) {
  for (Node* u : iff->out)
    if (u->op == Op::CProj && u->aux == index) return u;
  return nullptr;
}

bool onlyControlUsers(const Node* n) {
  return std::all_of(n->out.begin(), n->out.end(), [](const Node* u) { return u->isCFG(); });
}

// Threads what can be threaded around If `j`; returns the count.
int splitOne(Graph& g, Node* j) {
  Node* r = j->in[0];
  Node* p = j->in[1];
  if (!r || r->op != Op::Region || !p || p->op != Op::Phi || p->in[0] != r) return 0;
  if (r->out.size() != 2 || p->out.size() != 1 || p->in.size() != r->in.size()) return 0;
  Node* arms[2] = {armOf(j, 0), armOf(j, 1)};
  if (!arms[0] || !arms[1] || !onlyControlUsers(arms[0]) || !onlyControlUsers(arms[1])) return 0;
  std::vector<int> known(r->in.size(), -1);
  size_t unknown = 0;
  for (size_t i = 1; i < r->in.size(); i++) {
    if (r->in[i] && p->in[i]) known[i] = knownAlong(p->in[i], r->in[i]);
    unknown += known[i] < 0;
  }
  // At least one predecessor must still reach the If, which keeps it simple.
  if (unknown == 0 || unknown == r->in.size() - 1) return 0;
  // Where each arm's users are now reached from: a Region merging the arm
  // and the predecessors that go straight to it.
  Node* merge[2] = {nullptr, nullptr};
  int threaded = 0;
  for (size_t i = r->in.size() - 1; i >= 1; i--) {
    if (known[i] < 0) continue;
    int arm = known[i] ? 0 : 1;
    Node* pred = r->in[i];
    if (!merge[arm]) {
      std::vector<Node*> users = arms[arm]->out;
      merge[arm] = g.make(Op::Region, {nullptr, arms[arm]}, Type::ctrl());
      for (Node* u : users)
        for (size_t k = 0; k < u->in.size(); k++)
          if (u->in[k] == arms[arm]) g.setDef(u, k, merge[arm]);
    }
    g.addDef(merge[arm], pred);
    g.delDef(p, i);
    g.delDef(r, i);
    threaded++;
  }
  for (Node* m : merge)
    if (m) m->type = compute(m);
  return threaded;
}

}  // namespace

int splitIfs(Graph& g) {
  int total = 0;
  // Threading one If can expose another (a chain `a && b && c`): repeat a
  // few rounds over the live Ifs. Threading makes no If and leaves every If
  // reached (each keeps a predecessor), so the first list serves them all.
  std::vector<Node*> ifs = liveNodesOf(g, Op::If);
  for (int round = 0; round < 4; round++) {
    int threaded = 0;
    for (Node* n : ifs)
      if (!n->dead) threaded += splitOne(g, n);
    total += threaded;
    if (!threaded) break;
  }
  return total;
}

}  // namespace simplec
