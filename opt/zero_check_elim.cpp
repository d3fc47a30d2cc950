// Dominator-based ZeroCheck and BoundsCheck elimination.
#include "opt/zero_check_elim.h"

#include <map>

#include "son/control_flow.h"
#include "son/unit.h"

namespace simplec {

namespace {

// The value under any narrowing Casts: the same number, known more precisely.
Node* uncast(Node* n) {
  while (n && n->op == Op::Cast && n->in.size() > 1 && n->in[1]) n = n->in[1];
  return n;
}

bool isZero(const Node* n) { return n->isConst() && n->type->isInt() && n->type->isConst() && n->type->value() == 0; }

// The value a branch arm proves non-zero, or null.
Node* provenNonZero(Node* proj) {
  if (proj->op != Op::CProj || proj->in[0]->op != Op::If) return nullptr;
  Node* p = proj->in[0]->in[1];
  bool trueArm = proj->aux == 0;
  if (trueArm && p->op == Op::NE) {
    if (isZero(p->in[2])) return uncast(p->in[1]);
    if (isZero(p->in[1])) return uncast(p->in[2]);
  }
  if (!trueArm && p->op == Op::EQ) {
    if (isZero(p->in[2])) return uncast(p->in[1]);
    if (isZero(p->in[1])) return uncast(p->in[2]);
  }
  if (!trueArm && p->op == Op::Not) return nullptr;
  return trueArm ? uncast(p) : nullptr;
}

}  // namespace

int zeroCheckElim(Graph& g) {
  Node* fun = g.info().fun;
  auto cf = controlFlow(g);
  const ControlFlow& dom = *cf;
  std::vector<int> known(g.size(), 0);  // by value id: how many dominating facts
  // (index, length) pairs checked by a dominating BoundsCheck.
  std::map<std::pair<uint32_t, uint32_t>, int> inBounds;
  std::vector<Node*> dead;
  // Explicit-stack DFS of the dominator tree; each frame undoes its fact.
  struct Frame {
    Node* n;
    Node* fact;
    Node* boundsFact;
    size_t next;
  };
  std::vector<Frame> stack;
  auto boundsKey = [](Node* bc) { return std::make_pair(bc->in[1]->id, bc->in[2]->id); };
  auto enter = [&](Node* n) {
    Node* fact = nullptr;
    Node* boundsFact = nullptr;
    if (n->op == Op::ZeroCheck) {
      Node* v = uncast(n->in[1]);
      if (known[v->id] > 0) dead.push_back(n);
      else fact = v;
    } else if (n->op == Op::BoundsCheck) {
      if (inBounds[boundsKey(n)] > 0) dead.push_back(n);
      else boundsFact = n;
    } else {
      fact = provenNonZero(n);
    }
    if (fact) known[fact->id]++;
    if (boundsFact) inBounds[boundsKey(boundsFact)]++;
    stack.push_back({n, fact, boundsFact, 0});
  };
  if (!dom.reached(fun)) return 0;
  enter(fun);
  while (!stack.empty()) {
    Frame& f = stack.back();
    const auto& kids = dom.children(f.n);
    if (f.next < kids.size()) {
      Node* k = kids[f.next++];
      enter(k);
      continue;
    }
    if (f.fact) known[f.fact->id]--;
    if (f.boundsFact) inBounds[boundsKey(f.boundsFact)]--;
    stack.pop_back();
  }
  for (Node* zc : dead)
    if (!zc->dead) g.subsume(zc, zc->in[0]);
  return int(dead.size());
}

}  // namespace simplec
