// verify: the graph's invariants, checked after every pass in tests and with
// --verify-each. Returns the list of violations (empty when the graph is sound):
//  - use lists match inputs exactly (multiplicity included);
//  - every live node is reachable from Stop, and none is marked dead;
//  - control inputs are control nodes; Phi arity equals its Region's;
//  - types are monotone: recomputing a node's type never loses precision
//    against the cached one;
//  - no parser-only (Scope) node survives;
//  - every edge joins nodes of the same function's graph.
#pragma once
#include <string>
#include <vector>

#include "son/unit.h"

namespace simplec {

// One function's graph; also checks that no edge leaves it and that its
// Fun and Return are live.
std::vector<std::string> verify(const Graph& g);
// Every function with a body; each message names its function.
std::vector<std::string> verify(const Unit& u);

// Kill every node not reachable from Stop (garbage cycles left by rewrites).
void sweepUnreachable(Graph& g);

}  // namespace simplec
