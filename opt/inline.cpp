// Inlining of direct calls.
#include "opt/inline.h"

#include <algorithm>
#include <unordered_map>

#include "lexer/diag.h"
#include "lexer/work_counters.h"
#include "opt/call_graph.h"
#include "son/compute.h"
#include "son/verify.h"

namespace simplec {

namespace {

bool inlinable(const Unit& u, const CallGraph& cg, int callee) {
  const FunInfo& f = u.funs[size_t(callee)];
  if (f.isExtern || f.noReturn || !f.hasBody()) return false;
  // An end that is not reached means an endless loop: keep it a call.
  const Node* end = f.ret->in[0];
  if (!end || !end->type || end->type->kind() != TKind::Ctrl) return false;
  for (const auto& up : f.graph->nodes())
    if (!up->dead && (up->op == Op::Never || up->op == Op::Scope)) return false;
  (void)cg;
  return true;
}

// The users of the call's result were typed by the callee's declared
// result (a narrow type: a range). The callee's returned value must be
// known to lie in it, or the copy would make those types unsound.
bool resultFits(const Unit& u, const Node* call, int callee) {
  const FunInfo& f = u.funs[size_t(callee)];
  const Node* ce = nullptr;
  for (const Node* use : call->out)
    if (use->op == Op::CallEnd) ce = use;
  if (!ce || !f.ret || f.ret->in.size() < 3 || !f.ret->in[2]) return true;
  if (!ce->type || ce->type->kind() != TKind::Tuple || ce->type->elems().size() < 3) return true;
  const Type* want = ce->type->elems()[2];
  const Type* have = f.ret->in[2]->type;
  if (!want->isInt() || !have || !have->isInt()) return true;
  return have->isIntTop() || (have->lo() >= want->lo() && have->hi() <= want->hi());
}

// Nodes whose inputs no longer allow their types take the types their inputs
// give, then their users (integers and floats go to the whole type of their
// kind at once, so that a range cannot creep outward around a cycle).
void widenTypes(std::vector<Node*> work) {
  while (!work.empty()) {
    Node* u = work.back();
    work.pop_back();
    if (u->dead || !u->type) continue;
    const Type* t = compute(u);
    if (t->isa(u->type)) continue;
    u->type = t->isInt() ? Type::intBot() : t->isFlt() ? Type::fltBot() : t;
    work.insert(work.end(), u->out.begin(), u->out.end());
  }
}

// The site a copied node's position gets: the callee's own code gets a new
// site for this call; code the callee had inlined keeps its chain, extended
// at its outer end by this call. `memo` maps the callee's sites to the copies'.
int copySite(Unit& u, int site, int callee, SrcPos callPos, std::unordered_map<int, int>& memo) {
  auto it = memo.find(site);
  if (it != memo.end()) return it->second;
  InlineSite s;
  if (site < 0 || size_t(site) >= u.inlineSites.size()) {
    s.callee = callee;
    s.call = callPos;
  } else {
    s = u.inlineSites[size_t(site)];
    s.call.site = copySite(u, s.call.site, callee, callPos, memo);
  }
  u.inlineSites.push_back(s);
  int made = int(u.inlineSites.size()) - 1;
  memo[site] = made;
  return made;
}

// -g: the callee's variables that hold one value become variables of this
// inlined frame (DebugVar::inlineSite), named on the copies of their values
// (for a parameter: the argument). A variable assigned again is left out:
// its assignments' places are the callee's, not this copy's. Only the
// callee's first `vars` variables count: when the callee is g itself, the
// ones after them belong to copies made earlier, and the argument nodes
// (not copies) already carry their names.
void copyDebugNames(Unit& u, Graph& g, const Graph& from, int callee, size_t vars, const std::vector<Node*>& body,
                    const std::vector<Node*>& copy, SrcPos callPos, std::unordered_map<int, int>& sites) {
  std::vector<int> varOf(vars, -2);  // -2: not yet asked
  auto mapVar = [&](int v) {
    if (v < 0 || size_t(v) >= varOf.size()) return -1;
    if (varOf[size_t(v)] != -2) return varOf[size_t(v)];
    DebugVar d = u.funs[size_t(callee)].debugVars[size_t(v)];
    if (d.reassigned) return varOf[size_t(v)] = -1;
    d.inlineSite = copySite(u, d.inlineSite, callee, callPos, sites);
    d.scopeBegin = d.scopeEnd = SrcPos{};  // the callee's blocks are not the caller's
    std::vector<DebugVar>& vars = g.info().debugVars;
    vars.push_back(d);
    return varOf[size_t(v)] = int(vars.size() - 1);
  };
  for (Node* x : body) {
    Node* c = copy[x->id];
    if (!c || x->dbg == 0) continue;
    for (uint32_t k = x->dbg; k != 0; k = from.debugNames[k].next) {
      DebugName d = from.debugNames[k];  // a copy: from may be g, whose names grow
      if (d.kind != DebugName::Declare) continue;
      int v = mapVar(d.var);
      if (v >= 0) g.addDebugName(c, v);
    }
  }
}

// A copy of a callee's body made for one call: copy[id of a callee node] is
// the caller's node standing for it (Parms stand for the call's arguments).
struct BodyCopy {
  std::vector<Node*> copy;
  std::vector<Node*> cloned;  // callee nodes that got a new node
};

// Copies `body` (the callee's live nodes) into g for `call`. Reads the
// callee's nodes and writes only new nodes, so several copies of one body can
// be made before any is spliced in, even when the callee is g's own function;
// `vars` is the number of the callee's debug variables when `body` was taken.
BodyCopy copyBody(Unit& u, Graph& g, const std::vector<Node*>& body, size_t vars, Node* call, int callee) {
  const FunInfo& f = u.funs[size_t(callee)];
  const Graph& from = *f.graph;
  BodyCopy b;
  std::vector<Node*>& copy = b.copy;
  copy.assign(from.size(), nullptr);
  copy[from.start()->id] = g.start();
  copy[f.fun->id] = call->in[0];
  for (Node* x : body)
    if (x->op == Op::Parm && x->in[0] == f.fun) {
      size_t slot = x->aux < 0 ? 1 : size_t(3 + x->aux);
      SIMPLEC_CHECK(slot < call->in.size(), "inline", "a call passes fewer arguments than '" + f.name + "' has");
      copy[x->id] = call->in[slot];
    }
  std::unordered_map<int, int> sites;
  for (Node* x : body) {
    if (copy[x->id] || x == from.stop()) continue;
    Node* c = g.make(x->op, {}, x->type, x->aux);
    c->pos = x->pos;
    // Runtime errors in the copy show the callee and this call (call_chain.h).
    if (c->pos.valid()) c->pos.site = copySite(u, x->pos.site, callee, call->pos, sites);
    c->name = x->name;
    copy[x->id] = c;
    b.cloned.push_back(x);
  }
  workCounters().inlinedNodes += b.cloned.size();
  for (Node* x : b.cloned)
    for (Node* d : x->in) g.addDef(copy[x->id], d ? copy[d->id] : nullptr);
  if (!from.debugNames.empty()) copyDebugNames(u, g, from, callee, vars, body, copy, call->pos, sites);
  return b;
}

// Replaces `call` by its copy `b` of the callee's `body`.
void spliceBody(Unit& u, Graph& g, Node* call, int callee, const std::vector<Node*>& body, const BodyCopy& b) {
  const FunInfo& f = u.funs[size_t(callee)];
  const std::vector<Node*>& copy = b.copy;
  Node* ce = nullptr;
  for (Node* use : call->out)
    if (use->op == Op::CallEnd) ce = use;
  SIMPLEC_CHECK(ce, "inline", "a Call without its CallEnd");
  // An argument may be typed wider than its parameter (an array field read
  // after a call is `ptr` in the graph; the parameter is `ptr!`, non-null
  // by the language): the copies typed from the parameter would look more
  // precise than their inputs allow. Widen them, and what was typed from them.
  std::vector<Node*> work;
  for (Node* x : body)
    if (x->op == Op::Parm && x->in[0] == f.fun && x->type && copy[x->id]->type && !copy[x->id]->type->isa(x->type))
      for (Node* u : x->out)
        if (u->id < copy.size() && copy[u->id] && u != f.graph->stop()) work.push_back(copy[u->id]);
  widenTypes(std::move(work));
  Node* ret = copy[f.ret->id];
  // The copy's Return is only a bundle of (control, memory, value): the
  // CallEnd's projections take its parts, then both go.
  ret->keep++;
  std::vector<Node*> projs = ce->out;
  std::vector<Node*> retyped;  // the caller's users of the result, typed by the projection's type
  for (Node* p : projs) {
    if (p->dead) continue;
    size_t part = size_t(p->aux);
    SIMPLEC_CHECK(part < 3, "inline", "a CallEnd projection out of range");
    if (part == 2) retyped.insert(retyped.end(), p->out.begin(), p->out.end());
    g.subsume(p, ret->in[part]);
  }
  widenTypes(std::move(retyped));
  ret->keep--;
  g.kill(ret);
  g.killIfUnused(ce);
}

// Replaces `call` (in graph g) by a copy of function `callee`'s body.
// Returns the number of nodes copied.
size_t inlineOne(Unit& u, Graph& g, Node* call, int callee) {
  const FunInfo& f = u.funs[size_t(callee)];
  std::vector<Node*> body = liveNodes(*f.graph);
  BodyCopy b = copyBody(u, g, body, f.debugVars.size(), call, callee);
  spliceBody(u, g, call, callee, body, b);
  return b.cloned.size();
}

// A small function that calls itself at one or two places gets one copy of
// its body at each: one level of its recursion unrolled, so a call does the
// work of several. All copies are made from the body as it was before any is
// spliced in, so each unrolls exactly one level. (A fallback call that
// tailrec left on a never-taken arm counts as a place; its copy goes with
// the arm.)
int inlineSelfCalls(Unit& u, const CallGraph& cg, int f) {
  const FunInfo& fi = u.funs[size_t(f)];
  std::vector<Node*> sites;
  for (Node* call : cg.directCalls[size_t(f)])
    if (!call->dead && CallGraph::calleeOf(call) == f) sites.push_back(call);
  if (sites.empty() || sites.size() > kMaxSelfCallSites || cg.bodySize[size_t(f)] > kSmallCallee) return 0;
  if (!inlinable(u, cg, f)) return 0;
  for (Node* call : sites)
    if (!resultFits(u, call, f)) return 0;
  std::sort(sites.begin(), sites.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
  Graph& g = *fi.graph;
  std::vector<Node*> body = liveNodes(g);
  size_t vars = fi.debugVars.size();
  std::vector<BodyCopy> copies;
  for (Node* call : sites) copies.push_back(copyBody(u, g, body, vars, call, f));
  for (size_t i = 0; i < sites.size(); i++) spliceBody(u, g, sites[i], f, body, copies[i]);
  return int(sites.size());
}

}  // namespace

int inlineSelfCalls(Unit& u) {
  CallGraph cg(u);
  int inlined = 0;
  for (int f : cg.bottomUpOrder()) inlined += inlineSelfCalls(u, cg, f);
  for (FunInfo& f : u.funs)
    if (f.hasBody()) sweepUnreachable(*f.graph);
  return inlined;
}

int inlineCalls(Unit& u) {
  CallGraph cg(u);
  int inlined = 0;
  // Copies of larger bodies, all together, stay within a multiple of the
  // unit: a chain of functions each calling the next once would otherwise
  // copy the chain's tail into every one of them (quadratic up to the
  // single-site limit). Small callees stay inlined whatever this says.
  size_t unitBudget = kUnitGrowthConstant;
  for (size_t f = 0; f < u.funs.size(); f++) unitBudget += kUnitGrowthFactor * cg.bodySize[f];
  // Callees first: a body is copied with its own calls already inlined, so
  // one pass reaches any depth, and each body is looked at once.
  for (int caller : cg.bottomUpOrder()) {
    Graph& g = *u.funs[size_t(caller)].graph;
    // Nodes the copies may add to this function.
    size_t budget = 2 * cg.bodySize[size_t(caller)] + 2000;
    bool changed = false;
    std::vector<Node*> calls = cg.directCalls[size_t(caller)];
    std::sort(calls.begin(), calls.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
    for (Node* call : calls) {
      if (call->dead) continue;
      int callee = CallGraph::calleeOf(call);
      // A recursive callee stays a call: copying it would unroll the recursion.
      if (cg.recursive(callee) || cg.component[size_t(callee)] == cg.component[size_t(caller)]) continue;
      if (!inlinable(u, cg, callee) || !resultFits(u, call, callee)) continue;
      const FunInfo& f = u.funs[size_t(callee)];
      size_t size = cg.bodySize[size_t(callee)];
      bool onlySite = cg.callSites[size_t(callee)] == 1 && !cg.escapes(callee) && !f.isGlobal && !f.isEntry;
      if (!(size <= kSmallCallee || (onlySite && size <= kSingleSiteCallee)) || size > budget) continue;
      if (size > kSmallCallee && size > unitBudget) continue;
      size_t copied = inlineOne(u, g, call, callee);
      budget -= std::min(budget, copied);
      unitBudget -= std::min(unitBudget, copied);
      inlined++;
      changed = true;
      // Its only call is gone: its body goes now, not after every pass up to
      // unused-funs (a chain of functions each calling the next once kept a
      // copy of the chain's tail in every one of them).
      // Its calls, now copied here, stay counted as its own until this
      // caller's update counts the copies: a count never falls below the
      // calls there are, so a callee counted once is called once.
      if (onlySite) {
        u.dropGraph(callee);
        cg.directCalls[size_t(callee)].clear();
      }
    }
    if (changed) cg.update(u, caller);
  }
  // Every body leaves swept, as every pass leaves it (the copies' garbage).
  for (FunInfo& f : u.funs)
    if (f.hasBody()) sweepUnreachable(*f.graph);
  return inlined;
}

}  // namespace simplec
