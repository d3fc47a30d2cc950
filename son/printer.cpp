// The IR text printer and the Graphviz writer.
#include "son/printer.h"

#include <unordered_map>

namespace simplec {

namespace {

// Nodes of one function: reachable backwards from its Return, not through
// Start, in post-order (definitions first).
std::vector<Node*> functionNodes(const Graph& g, const FunInfo& f) {
  std::vector<Node*> order;
  if (!f.ret) return order;
  std::vector<char> seen(g.size(), 0);
  std::vector<std::pair<Node*, size_t>> stack{{f.ret, 0}};
  seen[f.ret->id] = 1;
  seen[g.start()->id] = 1;
  while (!stack.empty()) {
    auto& top = stack.back();
    if (top.second < top.first->in.size()) {
      Node* d = top.first->in[top.second++];
      if (d && !seen[d->id]) {
        seen[d->id] = 1;
        stack.push_back({d, 0});
      }
    } else {
      order.push_back(top.first);
      stack.pop_back();
    }
  }
  return order;
}

}  // namespace

std::string printGraph(const Graph& g) {
  std::unordered_map<const Node*, int> num;
  auto ref = [&](const Node* n) -> std::string {
    if (!n) return "_";
    auto it = num.find(n);
    if (it == num.end()) it = num.emplace(n, int(num.size())).first;
    return "%" + std::to_string(it->second);
  };
  std::string s;
  ref(g.start());
  for (const FunInfo& f : g.funs) {
    if (f.isExtern || !f.ret) continue;
    std::vector<Node*> nodes = functionNodes(g, f);
    // Number first, so back edges (loop Phis) print as numbers too.
    for (Node* n : nodes) ref(n);
    s += "fun " + f.name + (f.isEntry ? " (entry)" : "") + ":\n";
    for (Node* n : nodes) {
      s += "  " + ref(n) + " = " + n->label();
      for (size_t i = 0; i < n->in.size(); i++) {
        if (n->in[i] == g.start()) {
          s += i ? ", Start" : " Start";
          continue;
        }
        s += (i ? ", " : " ") + ref(n->in[i]);
      }
      if (n->op != Op::Con) s += " : " + (n->type ? n->type->str() : std::string("?"));
      s += "\n";
    }
  }
  return s;
}

std::string printDot(const Graph& g) {
  std::string s = "digraph simplec {\n  rankdir=BT;\n  ordering=\"in\";\n";
  for (const FunInfo& f : g.funs) {
    if (f.isExtern || !f.ret) continue;
    s += "  subgraph \"cluster_" + f.name + "\" {\n    label=\"" + f.name + "\";\n";
    for (Node* n : functionNodes(g, f))
      s += "    n" + std::to_string(n->id) + " [label=\"" + n->label() + "\"" +
           (n->isCFG() ? ", shape=box, style=bold" : "") + "];\n";
    s += "  }\n";
  }
  for (Node* n : liveNodes(g)) {
    for (size_t i = 0; i < n->in.size(); i++) {
      Node* d = n->in[i];
      if (!d || d == g.start()) continue;
      bool ctrl = d->isCFG() && (i == 0 || n->isCFG());
      s += "  n" + std::to_string(n->id) + " -> n" + std::to_string(d->id) +
           (ctrl ? " [color=red, style=bold]" : "") + ";\n";
    }
  }
  return s + "}\n";
}

}  // namespace simplec
