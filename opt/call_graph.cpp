// The call graph: bodies, direct calls, escapes and recursive components.
#include "opt/call_graph.h"

#include <algorithm>
#include <functional>

namespace simplec {

std::vector<Node*> functionBody(const Graph& g, const FunInfo& f) {
  if (f.isExtern || !f.ret || f.ret->dead || !f.fun || f.fun->dead) return {};
  return functionNodes(g, f);
}

int CallGraph::calleeOf(const Node* call) {
  if (call->op != Op::Call || call->in.size() < 3 || !call->in[2]) return -1;
  const Node* fp = call->in[2];
  if (!fp->isConst() || !fp->type || fp->type->kind() != TKind::FunPtr || fp->type->fun() < 0) return -1;
  return fp->type->fun();
}

bool CallGraph::recursive(int f) const {
  for (size_t g = 0; g < component.size(); g++)
    if (int(g) != f && component[g] == component[size_t(f)]) return true;
  for (int t : refs[size_t(f)])
    if (t == f) return true;
  return hasIndirectCall[size_t(f)] && escapes[size_t(f)];
}

namespace {

// A FunPtr constant used as anything but the callee of a Call escapes.
bool usedAsValue(const Node* con) {
  for (const Node* u : con->out) {
    if (u->op != Op::Call) return true;
    for (size_t i = 0; i < u->in.size(); i++)
      if (u->in[i] == con && i != 2) return true;
  }
  return false;
}

}  // namespace

CallGraph::CallGraph(const Graph& g) {
  size_t n = g.funs.size();
  body.resize(n);
  directCalls.resize(n);
  refs.resize(n);
  hasIndirectCall.assign(n, 0);
  callSites.assign(n, 0);
  escapes.assign(n, 0);
  component.assign(n, -1);
  std::vector<char> seenCon(g.size(), 0);
  for (size_t f = 0; f < n; f++) {
    body[f] = functionBody(g, g.funs[f]);
    for (Node* x : body[f]) {
      if (x->op == Op::Con && x->type && x->type->kind() == TKind::FunPtr) {
        int target = x->type->fun();
        if (target >= 0 && size_t(target) < n) {
          refs[f].push_back(target);
          if (!seenCon[x->id] && usedAsValue(x)) escapes[size_t(target)] = 1;
          seenCon[x->id] = 1;
        }
      }
      if (x->op == Op::Call) {
        int callee = calleeOf(x);
        if (callee >= 0 && size_t(callee) < n) {
          directCalls[f].push_back(x);
          callSites[size_t(callee)]++;
        } else {
          hasIndirectCall[f] = 1;
        }
      }
    }
  }
  // Tarjan's algorithm, iteratively over functions (few of them, but deep
  // call chains must not overflow the compiler's stack).
  std::vector<std::vector<int>> succ = refs;
  for (size_t f = 0; f < n; f++)
    if (hasIndirectCall[f])
      for (size_t t = 0; t < n; t++)
        if (escapes[t]) succ[f].push_back(int(t));
  std::vector<int> index(n, -1), low(n, 0), stack;
  std::vector<char> onStack(n, 0);
  int next = 0, comps = 0;
  for (size_t root = 0; root < n; root++) {
    if (index[root] >= 0) continue;
    std::vector<std::pair<int, size_t>> dfs{{int(root), 0}};
    index[root] = low[root] = next++;
    stack.push_back(int(root));
    onStack[root] = 1;
    while (!dfs.empty()) {
      auto& [v, i] = dfs.back();
      if (i < succ[size_t(v)].size()) {
        int w = succ[size_t(v)][i++];
        if (index[size_t(w)] < 0) {
          index[size_t(w)] = low[size_t(w)] = next++;
          stack.push_back(w);
          onStack[size_t(w)] = 1;
          dfs.push_back({w, 0});
        } else if (onStack[size_t(w)]) {
          low[size_t(v)] = std::min(low[size_t(v)], index[size_t(w)]);
        }
        continue;
      }
      int done = v;
      dfs.pop_back();
      if (!dfs.empty()) low[size_t(dfs.back().first)] = std::min(low[size_t(dfs.back().first)], low[size_t(done)]);
      if (low[size_t(done)] == index[size_t(done)]) {
        int w;
        do {
          w = stack.back();
          stack.pop_back();
          onStack[size_t(w)] = 0;
          component[size_t(w)] = comps;
        } while (w != done);
        comps++;
      }
    }
  }
}

}  // namespace simplec
