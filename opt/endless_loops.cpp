// Reconnecting loops that optimization left without an exit.
#include "opt/endless_loops.h"

#include "son/compute.h"
#include "son/unit.h"

namespace simplec {

namespace {

Node* memParm(Node* fun) {
  for (Node* u : fun->out)
    if (u->op == Op::Parm && u->aux < 0) return u;
  return nullptr;
}

}  // namespace

bool reconnectEndlessLoops(Graph& g) {
  FunInfo& f = g.info();
  if (!f.ret || f.ret->dead || !f.fun) return false;
  std::vector<Node*> loops = g.loops();
  if (loops.empty()) return false;  // no walk for a function without loops
  // Control nodes from which some Return is reachable along live control.
  std::vector<char> reach(g.size(), 0);
  std::vector<Node*> work;
  work.push_back(f.ret);
  auto live = [](Node* c) { return c && c->isCFG() && c->type && c->type->kind() != TKind::XCtrl; };
  while (!work.empty()) {
    Node* c = work.back();
    work.pop_back();
    if (reach[c->id]) continue;
    reach[c->id] = 1;
    if (c->isRegion()) {
      for (size_t i = 1; i < c->in.size(); i++)
        if (live(c->in[i])) work.push_back(c->in[i]);
    } else if (!c->in.empty() && live(c->in[0])) {
      work.push_back(c->in[0]);
    }
  }
  for (Node* loop : loops) {
    if (reach[loop->id] || loop->type != Type::ctrl()) continue;
    Node* back = loop->in[2];
    if (!back || !back->isCFG() || back->type->kind() == TKind::XCtrl) continue;
    Node* ret = f.ret;
    Node* mem = memParm(f.fun);
    if (!mem) continue;
    Node* never = g.make(Op::Never, {back}, Type::tuple({Type::ctrl(), Type::ctrl()}));
    Node* exit = g.make(Op::CProj, {never}, Type::ctrl(), 0);
    Node* stay = g.make(Op::CProj, {never}, Type::ctrl(), 1);
    g.setDef(loop, 2, stay);
    // The exit is never taken, so any value that is available there will do
    // for the result: a constant.
    Node* region = g.make(Op::Region, {nullptr, ret->in[0], exit}, Type::ctrl());
    Node* oldVal = ret->in[2];
    Node* anyVal = oldVal->isConst() ? oldVal : g.con(Type::intConst(0));
    Node* mphi = g.make(Op::Phi, {region, ret->in[1], mem}, Type::mem());
    Node* vphi = g.make(Op::Phi, {region, oldVal, anyVal}, nullptr);
    vphi->type = compute(vphi);
    g.setDef(ret, 0, region);
    g.setDef(ret, 1, mphi);
    g.setDef(ret, 2, vphi);
    return true;
  }
  return false;
}

}  // namespace simplec
