// Tests for the -g bindings the parser records (parser/debug_vars.cpp):
// where the source has passed an assignment. A for-loop's step runs after
// the body, so its assignments are passed at the end of the body, not at
// the step's own text; a function literal written in the step keeps its
// own positions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "lexer/diag.h"
#include "lexer/source.h"
#include "parser/parser.h"
#include "son/unit.h"

using namespace simplec;

namespace {

// The lines where the source passes each assignment (not the declaration)
// of variable `var` in function `fun`.
std::vector<int> assignedAtLines(const Unit& u, const std::string& fun, const std::string& var) {
  std::vector<int> lines;
  for (const FunInfo& f : u.funs) {
    if (f.name != fun || !f.graph) continue;
    const Graph& g = *f.graph;
    for (Node* n : g.nodes())
      for (uint32_t k = n->dbg; k != 0; k = g.debugNames[k].next) {
        const DebugName& d = g.debugNames[k];
        if (d.kind == DebugName::Assign && f.debugVars[size_t(d.var)].name == var) lines.push_back(d.passAt.line);
      }
  }
  return lines;
}

}  // namespace

TEST_CASE("parser -g: a for step's assignment is passed at the end of the body", "[parser][debug]") {
  Unit u;
  u.debugInfo = true;
  SourceFile file("t.smp",
                  "val f = { int m ->\n"            // 1
                  "    int s = 0;\n"                // 2
                  "    for (int j = 0; j < m; j++) {\n"  // 3
                  "        s = s + j;\n"            // 4
                  "    }\n"                         // 5
                  "    var g = { int x -> return x; };\n"
                  "    for (int k = 0; k < m; g = { int x ->\n"  // 7
                  "            int y = x;\n"        // 8
                  "            y = y + 1;\n"        // 9
                  "            return y;\n"
                  "        }) {\n"
                  "        s = s + g(k);\n"         // 12
                  "        k++;\n"                  // 13
                  "    }\n"                         // 14
                  "    return s;\n"
                  "};\n"
                  "return f(3);\n");
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, u));
  // j++ is written on line 3 and runs after the body, which ends on line 5.
  CHECK(assignedAtLines(u, "f", "j") == std::vector<int>{5});
  // An assignment in the body: where it is written.
  std::vector<int> s = assignedAtLines(u, "f", "s");
  CHECK(std::count(s.begin(), s.end(), 4) == 1);
  CHECK(std::count(s.begin(), s.end(), 12) == 1);
  // The step assigns g (passed at the body's end, line 14); the literal
  // assigned is a function of its own, whose y = y + 1 is passed on line 9.
  CHECK(assignedAtLines(u, "f", "g") == std::vector<int>{14});
  std::vector<int> y;
  for (const FunInfo& fi : u.funs)
    if (fi.name != "f") {
      std::vector<int> here = assignedAtLines(u, fi.name, "y");
      y.insert(y.end(), here.begin(), here.end());
    }
  REQUIRE(!y.empty());
  for (int line : y) CHECK(line == 9);
}
