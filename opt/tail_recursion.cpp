// Tail recursion into a loop, with an accumulator for `return f(..) op x`.
#include "opt/tail_recursion.h"

#include <unordered_set>

#include "opt/call_graph.h"
#include "son/control_flow.h"
#include "son/compute.h"
#include "son/unit.h"

namespace simplec {

namespace {

// A self call whose result goes straight to the Return, combined with
// `addends` (computed before the call) by `op` (Con when there are none).
struct Site {
  Node* call;
  std::vector<Node*> addends;
  Op op = Op::Con;
};

bool isAccumulatorOp(Op op) {
  return op == Op::Add || op == Op::Mul || op == Op::And || op == Op::Or || op == Op::Xor;
}

int64_t identityOf(Op op) {
  switch (op) {
    case Op::Mul: return 1;
    case Op::And: return -1;
    default: return 0;
  }
}

Node* projOf(Node* multi, int64_t index) {
  for (Node* u : multi->out)
    if ((u->op == Op::Proj || u->op == Op::CProj) && u->aux == index) return u;
  return nullptr;
}

// Does `x` depend, through any input (data, control or memory), on `call`
// or what it gives? Walks inputs back to the function's entry.
bool dependsOn(Node* x, const Node* call, const Graph& g) {
  std::unordered_set<Node*> seen;
  std::vector<Node*> stack{x};
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    if (!n || n == g.start() || !seen.insert(n).second) continue;
    if (n == call) return true;
    if (n->op == Op::Fun || n->op == Op::Con) continue;
    for (Node* d : n->in) stack.push_back(d);
  }
  return false;
}

// The value of `v` (a Phi of `region`, or one value for all paths) along
// predecessor `i` of `region` (i = 0: the Return's control is no Region).
Node* along(Node* v, Node* region, size_t i) {
  if (i > 0 && v->op == Op::Phi && v->in[0] == region) return v->in[i];
  return v;
}

// Splits `e` into the call's result combined with addends by one operator.
bool decompose(Node* e, Node* result, Node* call, const Graph& g, Site& s) {
  if (e == result) return true;
  if (!isAccumulatorOp(e->op) || !e->type || !e->type->isInt()) return false;
  s.op = e->op;
  Node* cur = e;
  while (cur != result) {
    if (cur->op != s.op || cur->in.size() != 3) return false;
    bool da = dependsOn(cur->in[1], call, g), db = dependsOn(cur->in[2], call, g);
    if (da == db) return false;
    s.addends.push_back(da ? cur->in[2] : cur->in[1]);
    cur = da ? cur->in[1] : cur->in[2];
  }
  return true;
}

// The tail sites of function `fi`, all combining by one operator.
std::vector<Site> findSites(const Graph& g) {
  int fi = g.funIndex();
  const FunInfo& f = g.info();
  std::vector<Site> sites;
  Node* ret = f.ret;
  Node* region = ret->in[0];
  Node* mem = ret->in[1];
  Node* val = ret->in.size() > 2 ? ret->in[2] : nullptr;
  if (!region || !mem) return sites;
  std::vector<Node*> preds;
  if (region->op == Op::Region) preds.assign(region->in.begin() + 1, region->in.end());
  else preds.push_back(region);
  Op op = Op::Con;
  for (size_t k = 0; k < preds.size(); k++) {
    size_t i = region->op == Op::Region ? k + 1 : 0;
    Node* p = preds[k];
    if (!p || p->op != Op::CProj || p->aux != 0 || p->in[0]->op != Op::CallEnd) continue;
    Node* ce = p->in[0];
    Node* call = ce->in[0];
    if (CallGraph::calleeOf(call) != fi || call->aux != 0) continue;
    if (call->in.size() != 3 + f.paramTypes.size()) continue;
    if (along(mem, region, i) != projOf(ce, 1)) continue;
    Site s{call, {}, Op::Con};
    if (val) {
      Node* result = projOf(ce, 2);
      if (!result || !decompose(along(val, region, i), result, call, g, s)) continue;
    }
    if (s.op != Op::Con) {
      if (op != Op::Con && s.op != op) continue;
      op = s.op;
    }
    sites.push_back(s);
  }
  return sites;
}

// A constant integer's value, if `n` is one.
bool intConst(const Node* n, int64_t& v) {
  if (!n || n->op != Op::Con || !n->type || !n->type->isInt() || !n->type->isConst()) return false;
  v = n->type->value();
  return true;
}

bool isParm(const Node* n, int64_t index) { return n && n->op == Op::Parm && n->aux == index; }

// The constant step of `arg` from parameter `index` (arg = parm + step), or 0.
int64_t stepFrom(const Node* arg, int64_t index) {
  int64_t c = 0;
  if (arg->op == Op::Add && isParm(arg->in[1], index) && intConst(arg->in[2], c)) return c;
  if (arg->op == Op::Add && isParm(arg->in[2], index) && intConst(arg->in[1], c)) return c;
  if (arg->op == Op::Sub && isParm(arg->in[1], index) && intConst(arg->in[2], c) && c != INT64_MIN) return -c;
  return 0;
}

// The bounds on parameter `index` that hold at control `at`: the branch
// arms on its dominator path that compare the parameter with a constant.
void boundsAt(const ControlFlow& dom, Node* at, int64_t index, int64_t& lo, int64_t& hi) {
  lo = INT64_MIN, hi = INT64_MAX;
  for (Node* c = at; c; c = dom.idom(c)) {
    if (c->op != Op::CProj || c->in[0]->op != Op::If) continue;
    Node* cond = c->in[0]->in[1];
    bool holds = c->aux == 0;  // the true arm
    while (cond->op == Op::Not) {
      cond = cond->in[1];
      holds = !holds;
    }
    if (cond->op != Op::LT && cond->op != Op::LE) continue;
    int64_t k = 0;
    bool strict = cond->op == Op::LT;
    // p < k, p <= k, k < p, k <= p; a false arm holds the negation.
    if (isParm(cond->in[1], index) && intConst(cond->in[2], k)) {
      if (holds) hi = std::min(hi, strict ? (k == INT64_MIN ? k : k - 1) : k);
      else lo = std::max(lo, strict ? k : (k == INT64_MAX ? k : k + 1));
    } else if (isParm(cond->in[2], index) && intConst(cond->in[1], k)) {
      if (holds) lo = std::max(lo, strict ? (k == INT64_MAX ? k : k + 1) : k);
      else hi = std::min(hi, strict ? k : (k == INT64_MIN ? k : k - 1));
    }
  }
}

// Do the jumps provably end? They do when one integer parameter moves at
// every site by a constant step in one direction, and every site is only
// reached while the parameter is on the near side of a constant bound that
// the step cannot carry it around (no wrap): then the parameter walks
// monotonically toward the bound, and the loop ends.
bool jumpsEnd(const Graph& g, const std::vector<Site>& sites) {
  const FunInfo& f = g.info();
  auto cf = controlFlow(g);
  const ControlFlow& dom = *cf;
  for (size_t p = 0; p < f.paramTypes.size(); p++) {
    bool ends = true;
    int direction = 0;
    for (const Site& s : sites) {
      int64_t step = stepFrom(s.call->in[3 + p], int64_t(p));
      int d = step > 0 ? 1 : step < 0 ? -1 : 0;
      if (d == 0 || (direction != 0 && d != direction)) {
        ends = false;
        break;
      }
      direction = d;
      int64_t lo, hi;
      boundsAt(dom, s.call->in[0], int64_t(p), lo, hi);
      bool fits = d < 0 ? lo != INT64_MIN && lo >= INT64_MIN - step : hi != INT64_MAX && hi <= INT64_MAX - step;
      if (!fits) {
        ends = false;
        break;
      }
    }
    if (ends) return true;
  }
  return false;
}

// The value flowing back along the loop's back edge: one site's, or a Phi
// of `back` (the Region joining several sites) over each site's.
Node* backValue(Graph& g, Node* back, const std::vector<Node*>& perSite, const Type* t) {
  if (perSite.size() == 1) return perSite[0];
  std::vector<Node*> ins{back};
  ins.insert(ins.end(), perSite.begin(), perSite.end());
  return g.make(Op::Phi, ins, t);
}

// Every use of `old` except slot `keepSlot` of `keeper` now uses `nw`.
void redirectUses(Graph& g, Node* old, Node* nw, Node* keeper, size_t keepSlot) {
  std::vector<Node*> users = old->out;
  std::unordered_set<Node*> done;
  for (Node* u : users) {
    if (!done.insert(u).second) continue;
    for (size_t k = 0; k < u->in.size(); k++)
      if (u->in[k] == old && !(u == keeper && k == keepSlot)) g.setDef(u, k, nw);
  }
}

// `counted`: jumps are bounded by the counter (see tail_recursion.h);
// otherwise every site jumps, and its call is left on a never-taken arm.
int transform(Graph& g, std::vector<Site>& sites, bool counted) {
  const FunInfo& f = g.info();
  Node* fun = f.fun;
  // Parameters (index -1: memory) and the nodes that hang below the entry.
  std::vector<Node*> parms, ctrlUsers;
  for (Node* u : fun->out)
    if (u->op == Op::Parm) parms.push_back(u);
    else if (!u->in.empty() && u->in[0] == fun) ctrlUsers.push_back(u);
  // A back-edge argument must fit the parameter's type, as every caller's does.
  for (Node* p : parms)
    for (const Site& s : sites) {
      Node* arg = p->aux < 0 ? s.call->in[1] : s.call->in[3 + size_t(p->aux)];
      if (!arg->type || !p->type || !arg->type->isa(p->type)) return 0;
    }

  Node* loop = g.make(Op::Loop, {nullptr, fun, nullptr}, Type::ctrl());
  for (Node* u : ctrlUsers)
    for (size_t k = 0; k < u->in.size(); k++)
      if (u->in[k] == fun) g.setDef(u, k, loop);

  // The jump counter: a site jumps while fewer than kTailLoopLimit jumps were taken.
  Node* below = nullptr;
  if (!counted) {
    below = typed(g.con(Type::intConst(1)));
  } else {
    Node* count = g.make(Op::Phi, {loop, typed(g.con(Type::intConst(0))), nullptr}, Type::intBot());
    Node* next = typed(g.make(Op::Add, {nullptr, count, typed(g.con(Type::intConst(1)))}));
    g.setDef(count, 2, next);
    below = typed(g.make(Op::LT, {nullptr, count, typed(g.con(Type::intConst(kTailLoopLimit)))}));
  }
  std::vector<Node*> jumps;
  for (Site& s : sites) {
    Node* iff = typed(g.make(Op::If, {s.call->in[0], below}));
    Node* jump = typed(g.make(Op::CProj, {iff}, nullptr, 0));
    Node* stay = typed(g.make(Op::CProj, {iff}, nullptr, 1));
    g.setDef(s.call, 0, stay);
    jumps.push_back(jump);
  }
  Node* back = jumps[0];
  if (jumps.size() > 1) {
    std::vector<Node*> ins{nullptr};
    ins.insert(ins.end(), jumps.begin(), jumps.end());
    back = typed(g.make(Op::Region, ins));
  }
  g.setDef(loop, 2, back);

  // The accumulator: what the jumps have combined so far, combined into
  // every returned value. Built first, so that addends that are parameters
  // become the parameters' Phis below.
  Op op = Op::Con;
  for (const Site& s : sites)
    if (s.op != Op::Con) op = s.op;
  if (op != Op::Con) {
    Node* acc = g.make(Op::Phi, {loop, typed(g.con(Type::intConst(identityOf(op)))), nullptr}, Type::intBot());
    std::vector<Node*> perSite;
    for (const Site& s : sites) {
      Node* v = acc;
      for (Node* a : s.addends) v = typed(g.make(op, {nullptr, v, a}));
      perSite.push_back(v);
    }
    g.setDef(acc, 2, backValue(g, back, perSite, Type::intBot()));
    Node* ret = f.ret;
    g.setDef(ret, 2, typed(g.make(op, {nullptr, acc, ret->in[2]})));
  }
  // Parameters and memory become Phis of the loop. Several Parm nodes of
  // one index (not yet value-numbered) share one Phi.
  std::vector<std::pair<int64_t, Node*>> phis;  // parameter index -> Phi
  for (Node* p : parms) {
    Node* phi = nullptr;
    for (auto& [idx, ph] : phis)
      if (idx == p->aux) phi = ph;
    if (!phi) {
      std::vector<Node*> args;
      for (const Site& s : sites) args.push_back(p->aux < 0 ? s.call->in[1] : s.call->in[3 + size_t(p->aux)]);
      phi = g.make(Op::Phi, {loop, p, nullptr}, p->type);
      g.setDef(phi, 2, backValue(g, back, args, p->type));
      phis.push_back({p->aux, phi});
      redirectUses(g, p, phi, phi, 1);
    } else {
      redirectUses(g, p, phi, nullptr, 0);
    }
  }

  return int(sites.size());
}

}  // namespace

int eliminateTailRecursion(Graph& g) {
  const FunInfo& f = g.info();
  if (!f.hasBody() || f.f32Result) return 0;
  for (bool b : f.f32Params)
    if (b) return 0;
  std::vector<Site> sites = findSites(g);
  if (sites.empty()) return 0;
  return transform(g, sites, !jumpsEnd(g, sites));
}

}  // namespace simplec
