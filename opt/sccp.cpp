// The optimistic combined analysis.
#include "opt/sccp.h"

#include <vector>

#include "lexer/diag.h"
#include "son/compute.h"
#include "son/verify.h"

namespace simplec {

namespace {

// Nodes whose type is given, not computed from inputs: they keep it.
bool keepsItsType(const Node* n) {
  switch (n->op) {
    case Op::Start: case Op::Stop: case Op::Fun: case Op::Con: case Op::Parm: return true;
    default: return false;
  }
}

// The optimistic starting point of a node.
const Type* startType(const Node* n) {
  switch (n->op) {
    case Op::If:
    case Op::Never: return Type::tuple({Type::xctrl(), Type::xctrl()});
    case Op::CallEnd: {
      // Keep the declared result; only reachability is unknown.
      const Type* r = n->type && n->type->kind() == TKind::Tuple ? n->type->elems()[2] : Type::intBot();
      return Type::tuple({Type::xctrl(), Type::mem(), r});
    }
    case Op::New: return Type::tuple({Type::xctrl(), Type::mem(), Type::dataPtr(Type::kNonNull)});
    default: return n->isCFG() ? Type::xctrl() : Type::top();
  }
}

constexpr int kWidenAfter = 3;  // changes of a loop Phi's range before widening

}  // namespace

void sccp(Graph& g) {
  sweepUnreachable(g);  // nothing the analysis cannot see may stay behind
  std::vector<Node*> live = liveNodes(g);
  for (Node* n : live)
    if (!keepsItsType(n)) n->type = startType(n);
  std::vector<char> queued(g.size(), 0);
  std::vector<int> changes(g.size(), 0);
  std::vector<Node*> work;
  auto push = [&](Node* n) {
    if (n && !n->dead && n->id < queued.size() && !queued[n->id]) {
      queued[n->id] = 1;
      work.push_back(n);
    }
  };
  for (auto it = live.rbegin(); it != live.rend(); ++it) push(*it);
  size_t steps = 0, limit = 64 * g.size() + 1000;
  while (!work.empty()) {
    SIMPLEC_CHECK(++steps < limit, "sccp", "the analysis did not converge");
    Node* n = work.back();
    work.pop_back();
    queued[n->id] = 0;
    if (keepsItsType(n)) continue;
    const Type* t = compute(n);
    // Types only fall; meeting keeps that true whatever compute says.
    t = t->meet(n->type);
    if (t == n->type) continue;
    if (n->op == Op::Phi && t->isInt() && n->type->isInt() && !n->type->isIntTop() &&
        n->in[0]->op == Op::Loop && ++changes[n->id] > kWidenAfter)
      t = Type::intBot();
    n->type = t;
    for (Node* u : n->out) {
      push(u);
      // A region becoming reachable wakes its Phis; an If or CallEnd its projections.
      if (n->isCFG())
        for (Node* uu : u->out) push(uu);
    }
  }
}

}  // namespace simplec
