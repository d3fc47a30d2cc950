// Inlining of direct calls.
#include "opt/inline.h"

#include <unordered_map>

#include "lexer/diag.h"
#include "opt/call_graph.h"
#include "son/verify.h"

namespace simplec {

namespace {

size_t bodySize(const std::vector<Node*>& body) {
  size_t n = 0;
  for (const Node* x : body) n += x->op != Op::Con;
  return n;
}

bool inlinable(const Graph& g, const CallGraph& cg, int callee) {
  const FunInfo& f = g.funs[size_t(callee)];
  if (f.isExtern || f.noReturn || !cg.hasBody(callee)) return false;
  // An end that is not reached means an endless loop: keep it a call.
  const Node* end = f.ret->in[0];
  if (!end || !end->type || end->type->kind() != TKind::Ctrl) return false;
  for (const Node* x : cg.body[size_t(callee)])
    if (x->op == Op::Never || x->op == Op::Scope) return false;
  return true;
}

// The users of the call's result were typed by the callee's declared
// result (a narrow type: a range). The callee's returned value must be
// known to lie in it, or the copy would make those types unsound.
bool resultFits(const Graph& g, const Node* call, int callee) {
  const FunInfo& f = g.funs[size_t(callee)];
  const Node* ce = nullptr;
  for (const Node* u : call->out)
    if (u->op == Op::CallEnd) ce = u;
  if (!ce || !f.ret || f.ret->in.size() < 3 || !f.ret->in[2]) return true;
  if (!ce->type || ce->type->kind() != TKind::Tuple || ce->type->elems().size() < 3) return true;
  const Type* want = ce->type->elems()[2];
  const Type* have = f.ret->in[2]->type;
  if (!want->isInt() || !have || !have->isInt()) return true;
  return have->isIntTop() || (have->lo() >= want->lo() && have->hi() <= want->hi());
}

// Replaces `call` by a copy of function `callee`'s body.
size_t inlineOne(Graph& g, Node* call, int callee) {
  const FunInfo& f = g.funs[size_t(callee)];
  std::vector<Node*> body = functionBody(g, f);
  Node* ce = nullptr;
  for (Node* u : call->out)
    if (u->op == Op::CallEnd) ce = u;
  SIMPLEC_CHECK(ce, "inline", "a Call without its CallEnd");
  std::unordered_map<Node*, Node*> copy;
  copy[g.start()] = g.start();
  copy[f.fun] = call->in[0];
  for (Node* x : body) {
    if (x->op == Op::Parm && x->in[0] == f.fun) {
      size_t slot = x->aux < 0 ? 1 : size_t(3 + x->aux);
      SIMPLEC_CHECK(slot < call->in.size(), "inline", "a call passes fewer arguments than '" + f.name + "' has");
      copy[x] = call->in[slot];
    } else if (x->op == Op::Con || x == f.fun) {
      copy.emplace(x, x);
    }
  }
  std::vector<Node*> cloned;  // body nodes that get a copy (the rest map to the caller's)
  for (Node* x : body)
    if (!copy.count(x)) {
      Node* c = g.make(x->op, {}, x->type, x->aux);
      c->pos = x->pos;
      c->name = x->name;
      copy[x] = c;
      cloned.push_back(x);
    }
  for (Node* x : cloned)
    for (Node* d : x->in) g.addDef(copy[x], d ? copy.at(d) : nullptr);
  Node* ret = copy.at(f.ret);
  // The copy's Return is only a bundle of (control, memory, value): the
  // CallEnd's projections take its parts, then both go.
  ret->keep++;
  std::vector<Node*> projs = ce->out;
  for (Node* p : projs) {
    if (p->dead) continue;
    size_t part = size_t(p->aux);
    SIMPLEC_CHECK(part < 3, "inline", "a CallEnd projection out of range");
    g.subsume(p, ret->in[part]);
  }
  ret->keep--;
  g.kill(ret);
  g.killIfUnused(ce);
  return cloned.size();
}

}  // namespace

int inlineCalls(Graph& g) {
  size_t budget = 2 * liveNodes(g).size() + 2000;  // nodes the copies may add
  int inlined = 0;
  for (int round = 0; round < 8; round++) {
    CallGraph cg(g);
    std::vector<std::pair<Node*, int>> todo;
    for (size_t caller = 0; caller < g.funs.size(); caller++)
      for (Node* call : cg.directCalls[caller]) {
        int callee = CallGraph::calleeOf(call);
        // A recursive callee stays a call: copying it would unroll the recursion.
        if (cg.recursive(callee) || cg.component[size_t(callee)] == cg.component[caller]) continue;
        if (!inlinable(g, cg, callee)) continue;
        const FunInfo& f = g.funs[size_t(callee)];
        size_t size = bodySize(cg.body[size_t(callee)]);
        bool onlySite = cg.callSites[size_t(callee)] == 1 && !cg.escapes[size_t(callee)] &&
                        !f.isGlobal && !f.isEntry;
        if (size <= kSmallCallee || (onlySite && size <= kSingleSiteCallee)) todo.push_back({call, callee});
      }
    if (todo.empty()) break;
    bool any = false;
    for (auto [call, callee] : todo) {
      if (call->dead || !resultFits(g, call, callee)) continue;
      size_t size = bodySize(functionBody(g, g.funs[size_t(callee)]));
      if (size > budget) continue;
      budget -= inlineOne(g, call, callee);
      inlined++;
      any = true;
    }
    if (!any) break;
  }
  sweepUnreachable(g);
  return inlined;
}

}  // namespace simplec
