// The optimistic combined analysis.
#include "opt/sccp.h"

#include <climits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lexer/diag.h"
#include "opt/call_graph.h"
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

// Parameters whose every caller the graph shows: a function that is not
// exported, not the entry, and never used as a value. Their range is the
// meet of the arguments at its reachable call sites.
struct KnownCallers {
  explicit KnownCallers(const Graph& g) : cg(g), parms(g.funs.size()) {
    for (size_t f = 0; f < g.funs.size(); f++) {
      const FunInfo& info = g.funs[f];
      if (!cg.hasBody(int(f)) || cg.escapes[f] || info.isGlobal || info.isEntry || cg.callSites[f] == 0) continue;
      for (Node* u : info.fun->out)
        if (u->op == Op::Parm && u->aux >= 0 && size_t(u->aux) < info.paramTypes.size() &&
            info.paramTypes[size_t(u->aux)] && info.paramTypes[size_t(u->aux)]->isInt())
          parms[f].push_back(u);
    }
    for (const auto& calls : cg.directCalls)
      for (Node* call : calls) {
        int callee = CallGraph::calleeOf(call);
        if (!parms[size_t(callee)].empty()) callsTo[callee].push_back(call);
      }
    for (const auto& ps : parms)
      for (Node* p : ps) known.insert(p);
  }
  // The meet of the argument over the call sites reached so far.
  const Type* parmType(const Graph& g, const Node* parm) const {
    int f = int(parm->in[0]->aux);
    const Type* declared = g.funs[size_t(f)].paramTypes[size_t(parm->aux)];
    const Type* t = Type::top();
    auto it = callsTo.find(f);
    if (it == callsTo.end()) return declared;
    for (const Node* call : it->second) {
      if (!call->type || call->type->kind() != TKind::Ctrl) continue;
      size_t slot = size_t(3 + parm->aux);
      if (slot >= call->in.size() || !call->in[slot]) return declared;
      t = t->meet(call->in[slot]->type);
    }
    if (t->kind() == TKind::Top) return Type::intTop();
    return t->isa(declared) ? t : declared;
  }
  int numCallsTo(const Node* parm) const {
    auto it = callsTo.find(int(parm->in[0]->aux));
    return it == callsTo.end() ? 0 : int(it->second.size());
  }
  CallGraph cg;
  std::vector<std::vector<Node*>> parms;           // by callee
  std::unordered_map<int, std::vector<Node*>> callsTo;
  std::unordered_set<const Node*> known;
};

}  // namespace

void sccp(Graph& g) {
  sweepUnreachable(g);  // nothing the analysis cannot see may stay behind
  KnownCallers callers(g);
  std::vector<Node*> live = liveNodes(g);
  for (Node* n : live)
    if (!keepsItsType(n)) n->type = startType(n);
  for (const auto& ps : callers.parms)
    for (Node* p : ps) p->type = Type::intTop();
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
  auto solve = [&] {
    while (!work.empty()) {
      SIMPLEC_CHECK(++steps < limit, "sccp", "the analysis did not converge");
      Node* n = work.back();
      work.pop_back();
      queued[n->id] = 0;
      if (n->op == Op::Call) {
        // A call reached, or an argument changed: the callee's parameters see it.
        int callee = CallGraph::calleeOf(n);
        if (callee >= 0)
          for (Node* p : callers.parms[size_t(callee)]) push(p);
      }
      bool knownParm = n->op == Op::Parm && callers.known.count(n);
      if (keepsItsType(n) && !knownParm) continue;
      const Type* t = knownParm ? callers.parmType(g, n) : compute(n);
      // Types only fall; meeting keeps that true whatever compute says.
      t = t->meet(n->type);
      if (t == n->type) continue;
      bool widens = (n->op == Op::Phi && n->in[0]->op == Op::Loop) || knownParm;
      // A parameter may legitimately change once per call site reached.
      int allowed = kWidenAfter + (knownParm ? callers.numCallsTo(n) : 0);
      if (widens && t->isInt() && n->type->isInt() && !n->type->isIntTop() && ++changes[n->id] > allowed) {
        // Widen only the ends that moved: a counter that only grows keeps its
        // lower bound, for the branch Casts in the loop to cut from above.
        int64_t lo = t->lo() < n->type->lo() ? INT64_MIN : t->lo();
        int64_t hi = t->hi() > n->type->hi() ? INT64_MAX : t->hi();
        t = Type::intRange(lo, hi);
      }
      n->type = t;
      for (Node* u : n->out) {
        push(u);
        // A region becoming reachable wakes its Phis; an If or CallEnd its projections.
        if (n->isCFG())
          for (Node* uu : u->out) push(uu);
      }
    }
  };
  solve();
  // A parameter whose calls were all unreachable: the function is never
  // called, but its body must still make sense: the declared type.
  bool again = false;
  for (const auto& ps : callers.parms)
    for (Node* p : ps)
      if (p->type->isIntTop()) {
        p->type = g.funs[size_t(p->in[0]->aux)].paramTypes[size_t(p->aux)];
        for (Node* u : p->out) push(u);
        again = true;
      }
  if (again) solve();
}

}  // namespace simplec
