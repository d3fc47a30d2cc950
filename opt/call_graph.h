// The unit's call graph, for the interprocedural passes (inlining, unused
// function removal, constants flowing into parameters). Built once from the
// functions' graphs, then kept up to date function by function (update())
// as inlining rewrites bodies. A direct call is a Call whose function input
// is a constant FunPtr. A function escapes when its FunPtr constant is used
// in any other way (passed, stored, returned, compared, called through a
// Phi...): then it may be called from places the graph does not show.
// Cost: linear in the unit when built; update(f) is linear in f's body.
#pragma once
#include <vector>

#include "son/unit.h"

namespace simplec {

class CallGraph {
 public:
  explicit CallGraph(const Unit& u);

  // Re-reads function f's body (after a pass changed it). Components stay
  // as computed: rewriting a body (inlining) never makes new recursion, so
  // they remain a safe over-approximation.
  void update(const Unit& u, int f);

  // Indexed by function (Unit::funs); empty for externs and removed functions.
  std::vector<std::vector<Node*>> directCalls;   // Calls in the body with a known callee
  std::vector<std::vector<int>> refs;            // functions whose FunPtr the body mentions
  std::vector<char> hasIndirectCall;             // a Call through an unknown pointer
  std::vector<int> callSites;                    // direct calls to the function, unit-wide
  std::vector<size_t> bodySize;                  // nodes of the body, constants not counted
  // Strongly connected component of each function over `refs`, where a body
  // with an indirect call refers to every escaping function. Two functions in
  // one component may call each other (recursion). Components are numbered
  // callees first: a function's callees outside its component have smaller
  // numbers.
  std::vector<int> component;

  bool escapes(int f) const { return escapeUses_[size_t(f)] > 0; }
  // f may call itself, directly or through others. O(1).
  bool recursive(int f) const;
  // Functions with a body, callees before callers (by component).
  std::vector<int> bottomUpOrder() const;
  // The known callee of a Call, or -1.
  static int calleeOf(const Node* call);

 private:
  void scan(const Unit& u, int f, int sign);
  void computeComponents(size_t n);
  std::vector<int> escapeUses_;   // uses of the function's FunPtr as a value
  // What each body added to escapeUses_: (function, uses), undone by update().
  std::vector<std::vector<std::pair<int, int>>> escapeContrib_;
  std::vector<char> selfRef_;     // the body mentions its own FunPtr
  std::vector<std::vector<int>> calleeList_;  // the callee of each of directCalls, for update()
  std::vector<int> componentSize_;
};

}  // namespace simplec
