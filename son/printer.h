// Deterministic text form of the graph (--emit=ir, --dump-after, tests).
// Nodes are renumbered %0, %1, ... in print order, so the text depends only
// on the graph's shape, not on how many nodes were created and dropped.
// Each function prints its nodes, definitions before uses, as
//   %4 = Add %2, %3 : int
#pragma once
#include <string>

#include "son/graph.h"

namespace simplec {

std::string printGraph(const Graph& g);

// Graphviz: control edges bold, data edges plain, one cluster per function.
std::string printDot(const Graph& g);

}  // namespace simplec
