// The call graph: direct calls, escapes and recursive components.
#include "opt/call_graph.h"

#include <algorithm>

namespace simplec {

int CallGraph::calleeOf(const Node* call) {
  if (call->op != Op::Call || call->in.size() < 3 || !call->in[2]) return -1;
  const Node* fp = call->in[2];
  if (!fp->isConst() || !fp->type || fp->type->kind() != TKind::FunPtr || fp->type->fun() < 0) return -1;
  return fp->type->fun();
}

bool CallGraph::recursive(int f) const {
  if (componentSize_[size_t(component[size_t(f)])] > 1 || selfRef_[size_t(f)]) return true;
  return hasIndirectCall[size_t(f)] && escapes(f);
}

namespace {

// Uses of a FunPtr constant other than as the callee of a Call.
int usesAsValue(const Node* con) {
  int n = 0;
  for (const Node* u : con->out) {
    if (u->op != Op::Call) {
      n++;
      continue;
    }
    for (size_t i = 0; i < u->in.size(); i++)
      if (u->in[i] == con && i != 2) n++;
  }
  return n;
}

}  // namespace

// Adds (sign 1) or removes (sign -1) what function f's body contributes to
// the unit-wide counts, and (when adding) fills its own lists.
void CallGraph::scan(const Unit& u, int f, int sign) {
  size_t n = u.funs.size();
  if (sign < 0) {
    // The Calls may be dead by now (inlined): undo by the callees recorded.
    for (int callee : calleeList_[size_t(f)]) callSites[size_t(callee)]--;
    calleeList_[size_t(f)].clear();
    directCalls[size_t(f)].clear();
    refs[size_t(f)].clear();
    hasIndirectCall[size_t(f)] = 0;
    selfRef_[size_t(f)] = 0;
    bodySize[size_t(f)] = 0;
    for (auto& [target, count] : escapeContrib_[size_t(f)]) escapeUses_[size_t(target)] -= count;
    escapeContrib_[size_t(f)].clear();
    return;
  }
  const FunInfo& info = u.funs[size_t(f)];
  if (!info.hasBody()) return;
  // A swept body's live nodes are the ones not dead: a scan of their kinds
  // in id order (reading only the calls themselves, and the graph's list of
  // function-pointer constants) instead of the walk from Stop (one cache
  // miss per node of a huge body).
  const Graph& g = *info.graph;
  std::vector<std::pair<Node*, int>> calls;  // (Call, callee), sorted by id below
  auto visit = [&](Node* x) {
    if (x->op == Op::Con && x->type && x->type->kind() == TKind::FunPtr) {
      int target = x->type->fun();
      if (target >= 0 && size_t(target) < n) {
        refs[size_t(f)].push_back(target);
        if (target == f) selfRef_[size_t(f)] = 1;
        int uses = usesAsValue(x);
        if (uses) {
          escapeUses_[size_t(target)] += uses;
          escapeContrib_[size_t(f)].push_back({target, uses});
        }
      }
    }
    if (x->op == Op::Call) {
      int callee = calleeOf(x);
      if (callee >= 0 && size_t(callee) < n) {
        calls.push_back({x, callee});
        callSites[size_t(callee)]++;
      } else {
        hasIndirectCall[size_t(f)] = 1;
      }
    }
  };
  if (g.swept()) {
    for (size_t id = 0; id < g.size(); id++) {
      if (g.deadAt(id)) continue;
      Op op = g.opAt(id);
      if (op != Op::Con) bodySize[size_t(f)]++;
      if (op == Op::Call) visit(g.nodes()[id]);
    }
    for (Node* c : g.funPtrConstants()) visit(c);
  } else {
    for (Node* x : liveNodes(g)) {
      if (x->op != Op::Con) bodySize[size_t(f)]++;
      visit(x);
    }
  }
  // The same order whichever way the nodes were found.
  std::sort(calls.begin(), calls.end(), [](const auto& a, const auto& b) { return a.first->id < b.first->id; });
  for (auto [call, callee] : calls) {
    directCalls[size_t(f)].push_back(call);
    calleeList_[size_t(f)].push_back(callee);
  }
  std::sort(refs[size_t(f)].begin(), refs[size_t(f)].end());
  refs[size_t(f)].erase(std::unique(refs[size_t(f)].begin(), refs[size_t(f)].end()), refs[size_t(f)].end());
}

CallGraph::CallGraph(const Unit& u) {
  size_t n = u.funs.size();
  directCalls.resize(n);
  refs.resize(n);
  hasIndirectCall.assign(n, 0);
  callSites.assign(n, 0);
  bodySize.assign(n, 0);
  escapeUses_.assign(n, 0);
  escapeContrib_.resize(n);
  calleeList_.resize(n);
  selfRef_.assign(n, 0);
  for (size_t f = 0; f < n; f++) scan(u, int(f), 1);
  computeComponents(n);
}

void CallGraph::update(const Unit& u, int f) {
  scan(u, f, -1);
  scan(u, f, 1);
}

void CallGraph::computeComponents(size_t n) {
  // Tarjan's algorithm, iteratively (deep call chains must not overflow the
  // compiler's stack). A body with an indirect call may reach every escaping
  // function: one extra vertex (index n) stands for "any escaping function",
  // so that those edges stay linear in number.
  std::vector<int> escaping;
  for (size_t t = 0; t < n; t++)
    if (escapes(int(t))) escaping.push_back(int(t));
  auto succOf = [&](size_t v) -> const std::vector<int>& { return v == n ? escaping : refs[v]; };
  size_t total = n + 1;
  component.assign(total, -1);
  std::vector<int> index(total, -1), low(total, 0), stack;
  std::vector<char> onStack(total, 0);
  int next = 0, comps = 0;
  // Successor i of v: refs (or the escaping list), then the "any" vertex.
  auto numSucc = [&](size_t v) { return succOf(v).size() + (v < n && hasIndirectCall[v] ? 1 : 0); };
  auto succAt = [&](size_t v, size_t i) { return i < succOf(v).size() ? succOf(v)[i] : int(n); };
  for (size_t root = 0; root < total; root++) {
    if (index[root] >= 0) continue;
    std::vector<std::pair<int, size_t>> dfs{{int(root), 0}};
    index[root] = low[root] = next++;
    stack.push_back(int(root));
    onStack[root] = 1;
    while (!dfs.empty()) {
      auto& [v, i] = dfs.back();
      if (i < numSucc(size_t(v))) {
        int w = succAt(size_t(v), i++);
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
  componentSize_.assign(size_t(comps), 0);
  component.resize(n);  // the "any" vertex was only a helper
  for (size_t f = 0; f < n; f++) componentSize_[size_t(component[f])]++;
}

std::vector<int> CallGraph::bottomUpOrder() const {
  std::vector<int> order;
  for (size_t f = 0; f < component.size(); f++)
    if (bodySize[f] > 0) order.push_back(int(f));
  // Tarjan numbers a component after every component it reaches.
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return component[size_t(a)] < component[size_t(b)]; });
  return order;
}

}  // namespace simplec
