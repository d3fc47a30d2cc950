// The IR text printer and the Graphviz writer.
#include "son/printer.h"

#include <unordered_map>

namespace simplec {

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
