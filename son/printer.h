// Deterministic text form of the graph (--emit=ir, --dump-after, tests).
// Nodes are renumbered %0, %1, ... in print order, so the text depends only
// on the graph's shape, not on how many nodes were created and dropped.
// Each function prints its nodes, definitions before uses, as
//   %4 = Add %2, %3 : int
// Numbers continue from one function to the next; each function's Start
// (the root of its constants) prints as `Start`.
#pragma once
#include <string>

#include "son/unit.h"

namespace simplec {

// Every function of the unit with a body, in index order.
std::string printGraph(const Unit& u);
// One function.
std::string printGraph(const Graph& g);
// Graphviz: control edges bold, data edges plain, one cluster per function.
std::string printDot(const Unit& u);

}  // namespace simplec
