// The optimistic combined analysis.
#include "opt/sccp.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "lexer/diag.h"
#include "lexer/work_counters.h"
#include "opt/call_graph.h"
#include "son/compute.h"
#include "son/unit.h"
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

// Parameters whose every caller the graph shows: a function that is not
// exported, not the entry, and never used as a value. Their range is the
// meet of the arguments at its reachable call sites.
struct KnownCallers {
  explicit KnownCallers(const Unit& u) : cg(u), parms(u.funs.size()), callsTo(u.funs.size()) {
    for (size_t f = 0; f < u.funs.size(); f++) {
      const FunInfo& info = u.funs[f];
      if (!info.hasBody() || cg.escapes(int(f)) || info.isGlobal || info.isEntry || cg.callSites[f] == 0) continue;
      for (Node* p : info.fun->out)
        if (p->op == Op::Parm && p->aux >= 0 && p->type && p->type->isInt()) parms[f].push_back(p);
    }
    for (const auto& calls : cg.directCalls)
      for (Node* call : calls) {
        int callee = CallGraph::calleeOf(call);
        if (!parms[size_t(callee)].empty()) callsTo[size_t(callee)].push_back(call);
      }
  }
  CallGraph cg;
  std::vector<std::vector<Node*>> parms;    // by callee
  std::vector<std::vector<Node*>> callsTo;  // by callee, for callees with parms
};

// Per-function state of the analysis: by node id, a byte or two per node
// (the analysis holds it for every function of the unit at once).
struct FunState {
  std::vector<uint8_t> queued;
  std::vector<uint8_t> changes;  // of a loop Phi's type, saturating
  // Parameters typed by their callers, by parameter index (Node::aux): the
  // node, the type the parser gave (not FunInfo::paramTypes: a narrow
  // parameter arrives as any int and is truncated inside the function),
  // the meet of the arguments at the call sites reached so far, kept up to
  // date as calls are reached or their arguments fall (types only fall: the
  // meet never has to be redone), and how often its type changed.
  std::vector<Node*> parm;
  std::vector<const Type*> declared, args;
  std::vector<int> parmChanges;
  bool known(const Node* n) const {
    return n->op == Op::Parm && n->aux >= 0 && size_t(n->aux) < parm.size() && parm[size_t(n->aux)] == n;
  }
};

}  // namespace

void sccp(Unit& u) {
  size_t nf = u.funs.size();
  size_t ids = 0;
  for (FunInfo& f : u.funs)
    if (f.hasBody()) {
      sweepUnreachable(*f.graph);  // nothing the analysis cannot see may stay behind
      ids += f.graph->size();
    }
  KnownCallers callers(u);
  std::vector<FunState> st(nf);
  // A node by function and id: half the size of a pointer pair, for a
  // worklist that starts with every node of the unit.
  struct Item {
    uint32_t f, id;
  };
  std::vector<Item> work;
  work.reserve(ids);  // every live node starts queued: one allocation, not a doubling series
  auto push = [&](int f, Node* n) {
    FunState& s = st[size_t(f)];
    if (n && !n->dead && n->id < s.queued.size() && !s.queued[n->id]) {
      s.queued[n->id] = 1;
      work.push_back({uint32_t(f), n->id});
    }
  };
  size_t total = 0;
  for (size_t f = 0; f < nf; f++) {
    if (!u.funs[f].hasBody()) continue;
    Graph& g = *u.funs[f].graph;
    FunState& s = st[f];
    s.queued.assign(g.size(), 0);
    s.changes.assign(g.size(), 0);
    size_t nparms = 0;
    for (Node* p : callers.parms[f]) nparms = std::max(nparms, size_t(p->aux) + 1);
    s.parm.assign(nparms, nullptr);
    s.declared.assign(nparms, nullptr);
    s.args.assign(nparms, Type::top());
    s.parmChanges.assign(nparms, 0);
    total += g.size();
    // The graph's own list stays: the peepholes after the analysis start
    // from it when the analysis changed only types (8 bytes a node).
    std::vector<Node*> live = liveNodes(g);
    for (Node* n : live)
      if (!keepsItsType(n)) n->type = startType(n);
    for (Node* p : callers.parms[f]) {
      s.parm[size_t(p->aux)] = p;
      s.declared[size_t(p->aux)] = p->type;
      p->type = Type::intTop();
    }
    for (auto it = live.rbegin(); it != live.rend(); ++it) push(int(f), *it);
  }
  // A call reached, or one of its arguments fell: its callee's parameters see it.
  auto contribute = [&](const Node* call) {
    int callee = CallGraph::calleeOf(call);
    if (callee < 0 || callers.parms[size_t(callee)].empty()) return;
    if (!call->type || call->type->kind() != TKind::Ctrl) return;
    FunState& cs = st[size_t(callee)];
    for (Node* p : callers.parms[size_t(callee)]) {
      size_t slot = size_t(3 + p->aux);
      bool passed = slot < call->in.size() && call->in[slot];
      size_t k = size_t(p->aux);
      const Type* acc = cs.args[k]->meet(passed ? call->in[slot]->type : cs.declared[k]);
      if (acc == cs.args[k]) continue;
      cs.args[k] = acc;
      push(callee, p);
    }
  };
  auto parmType = [&](const FunState& s, int f, const Node* p) {
    const Type* decl = s.declared[size_t(p->aux)];
    const Type* t = s.args[size_t(p->aux)];
    if (callers.callsTo[size_t(f)].empty()) return decl;
    if (t->kind() == TKind::Top) return Type::intTop();
    return t->isa(decl) ? t : decl;
  };
  // Lowers n's type to what its inputs (or, for a parameter, its callers)
  // allow, and queues its users when it changed.
  auto update = [&](int f, Node* n) {
    FunState& s = st[size_t(f)];
    bool knownParm = s.known(n);
    if (keepsItsType(n) && !knownParm) return;
    const Type* t = knownParm ? parmType(s, f, n) : compute(n);
    // Types only fall; meeting keeps that true whatever compute says.
    t = t->meet(n->type);
    if (t == n->type) return;
    bool widens = (n->op == Op::Phi && n->in[0]->op == Op::Loop) || knownParm;
    // A parameter may legitimately change once per call site reached.
    int allowed = kWidenAfter + (knownParm ? int(callers.callsTo[size_t(f)].size()) : 0);
    auto countChange = [&] {
      if (knownParm) return ++s.parmChanges[size_t(n->aux)];
      s.changes[n->id] = uint8_t(std::min(255, s.changes[n->id] + 1));
      return int(s.changes[n->id]);
    };
    if (widens && t->isInt() && n->type->isInt() && !n->type->isIntTop() && countChange() > allowed) {
      // Widen only the ends that moved: a counter that only grows keeps its
      // lower bound, for the branch Casts in the loop to cut from above.
      int64_t lo = t->lo() < n->type->lo() ? INT64_MIN : t->lo();
      int64_t hi = t->hi() > n->type->hi() ? INT64_MAX : t->hi();
      t = Type::intRange(lo, hi);
    }
    n->type = t;
    for (Node* use : n->out) {
      push(f, use);
      // A region becoming reachable wakes its Phis; an If or CallEnd its projections.
      if (n->isCFG())
        for (Node* uu : use->out) push(f, uu);
    }
  };
  size_t steps = 0, limit = 64 * total + 1000;
  auto solve = [&] {
    while (!work.empty()) {
      SIMPLEC_CHECK(++steps < limit, "sccp", "the analysis did not converge");
      workCounters().sccpSteps++;
      auto [fi, id] = work.back();
      work.pop_back();
      int f = int(fi);
      Node* n = u.funs[fi].graph->node(id);
      st[fi].queued[id] = 0;
      update(f, n);
      if (n->op == Op::Call) contribute(n);
    }
  };
  solve();
  // A parameter whose calls were all unreachable: the function is never
  // called, but its body must still make sense: the declared type.
  bool again = false;
  for (size_t f = 0; f < nf; f++)
    for (Node* p : callers.parms[f])
      if (p->type->isIntTop()) {
        p->type = st[f].declared[size_t(p->aux)];
        for (Node* use : p->out) push(int(f), use);
        again = true;
      }
  if (again) solve();
}

}  // namespace simplec
