// The unit's call graph, for the interprocedural passes (inlining, unused
// function removal, constants flowing into parameters). A function's body
// is every node reachable backwards from its Return without passing Start
// (constants are shared between functions and belong to every body that
// reaches them). A direct call is a Call whose function input is a constant
// FunPtr. A function escapes when its FunPtr constant is used in any other
// way (passed, stored, returned, compared, called through a Phi...): then it
// may be called from places the graph does not show.
#pragma once
#include <vector>

#include "son/graph.h"

namespace simplec {

struct CallGraph {
  explicit CallGraph(const Graph& g);

  // Indexed by function (Graph::funs); empty for externs and removed functions.
  std::vector<std::vector<Node*>> body;
  std::vector<std::vector<Node*>> directCalls;   // Calls in the body with a known callee
  std::vector<std::vector<int>> refs;            // functions whose FunPtr the body mentions
  std::vector<char> hasIndirectCall;             // a Call through an unknown pointer
  std::vector<int> callSites;                    // direct calls to the function, unit-wide
  std::vector<char> escapes;
  // Strongly connected component of each function over `refs`, where a body
  // with an indirect call refers to every escaping function. Two functions in
  // one component may call each other (recursion).
  std::vector<int> component;

  // f may call itself, directly or through others.
  bool recursive(int f) const;
  bool hasBody(int f) const { return !body[size_t(f)].empty(); }
  // The known callee of a Call, or -1.
  static int calleeOf(const Node* call);
};

// Nodes of function f reachable backwards from its Return, definitions first.
std::vector<Node*> functionBody(const Graph& g, const FunInfo& f);

}  // namespace simplec
