// The graphs of every function after parsing and after each pass, kept only
// where they changed (--emit=html). Fed by PassOptions::observe; a pass
// that changed no function leaves no trace, so the page's pass slider has
// one stop per pass that did something.
#pragma once
#include <string>
#include <vector>

#include "cmd/explorer/graph_snapshot.h"
#include "son/unit.h"

namespace simplec {

struct FunctionVersion {
  int pass = 0;         // index into PassHistory::passes()
  bool removed = false; // the function has no body from this pass on (inlined everywhere, unused)
  GraphSnapshot graph;  // empty when removed
};

struct FunctionHistory {
  std::string name;
  std::vector<FunctionVersion> versions;  // in pass order; versions[0] is where it first had a body
};

class PassHistory {
 public:
  // The unit after `pass` ("parse" first). Compares each function's graph
  // with the last one kept for it.
  void record(const Unit& u, const std::string& pass);

  // "parse", then the passes that changed some function, in pipeline order.
  const std::vector<std::string>& passes() const { return passes_; }
  // By the unit's function index; functions that never had a body have no versions.
  const std::vector<FunctionHistory>& functions() const { return functions_; }

 private:
  std::vector<std::string> passes_;
  std::vector<FunctionHistory> functions_;
};

}  // namespace simplec
