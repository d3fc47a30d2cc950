// The IR text printer and the Graphviz writer.
#include "son/printer.h"

namespace simplec {

namespace {

// Prints one function, numbering its nodes from `next` on.
void printFunction(const Graph& g, int* next, std::string* s) {
  const FunInfo& f = g.info();
  std::vector<Node*> nodes = liveNodes(g);
  std::vector<int> num(g.size(), -1);
  // Number first, so back edges (loop Phis) print as numbers too.
  for (Node* n : nodes)
    if (n != g.start() && n != g.stop()) num[n->id] = (*next)++;
  auto ref = [&](const Node* n) -> std::string {
    if (!n) return "_";
    if (n == g.start()) return "Start";
    return "%" + std::to_string(num[n->id]);
  };
  *s += "fun " + f.name + (f.isEntry ? " (entry)" : "") + ":\n";
  for (Node* n : nodes) {
    if (n == g.start() || n == g.stop()) continue;
    *s += "  " + ref(n) + " = " + n->label();
    for (size_t i = 0; i < n->in.size(); i++) *s += (i ? ", " : " ") + ref(n->in[i]);
    if (n->op != Op::Con) *s += " : " + (n->type ? n->type->str() : std::string("?"));
    *s += "\n";
  }
}

}  // namespace

std::string printGraph(const Graph& g) {
  std::string s;
  int next = 1;  // %0 was Start's number once; keep texts stable
  printFunction(g, &next, &s);
  return s;
}

std::string printGraph(const Unit& u) {
  std::string s;
  int next = 1;
  for (const FunInfo& f : u.funs)
    if (f.hasBody()) printFunction(*f.graph, &next, &s);
  return s;
}

std::string printDot(const Unit& u) {
  std::string s = "digraph simplec {\n  rankdir=BT;\n  ordering=\"in\";\n";
  for (size_t fi = 0; fi < u.funs.size(); fi++) {
    const FunInfo& f = u.funs[fi];
    if (!f.hasBody()) continue;
    const Graph& g = *f.graph;
    std::string prefix = "f" + std::to_string(fi) + "n";
    std::vector<Node*> nodes = liveNodes(g);
    s += "  subgraph \"cluster_" + f.name + "\" {\n    label=\"" + f.name + "\";\n";
    for (Node* n : nodes)
      if (n != g.start() && n != g.stop())
        s += "    " + prefix + std::to_string(n->id) + " [label=\"" + n->label() + "\"" +
             (n->isCFG() ? ", shape=box, style=bold" : "") + "];\n";
    s += "  }\n";
    for (Node* n : nodes) {
      if (n == g.stop()) continue;
      for (size_t i = 0; i < n->in.size(); i++) {
        Node* d = n->in[i];
        if (!d || d == g.start()) continue;
        bool ctrl = d->isCFG() && (i == 0 || n->isCFG());
        s += "  " + prefix + std::to_string(n->id) + " -> " + prefix + std::to_string(d->id) +
             (ctrl ? " [color=red, style=bold]" : "") + ";\n";
      }
    }
  }
  return s + "}\n";
}

}  // namespace simplec
