// Tests for opt/endless_loops.h: loops whose exit the optimizer folds away
// stay in the graph, tied to their function's Return through a Never exit,
// and the result still schedules.
#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "opt/iterate.h"
#include "parser/parser.h"
#include "sched/gcm.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;

namespace {

using sontest::countLive;

void parseAndOptimize(Unit& g, const std::string& src) {
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
  sontest::onEachFunction(g, [](Graph& f) { iterPeeps(f, 0, true); });
  CHECK(sontest::verifyText(g) == "");
}

}  // namespace

TEST_CASE("opt/endless_loops: a loop whose test folds to true keeps running", "[opt][endless]") {
  // `i` never changes, so `i < 10` is always true once the Phi folds: the
  // return after the loop is unreachable, but the loop is not dead code.
  Unit g;
  parseAndOptimize(g, "int x = arg; int i = 0; while (i < 10) x = x + 1; return x;");
  CHECK(countLive(g, Op::Loop) == 1);
  CHECK(countLive(g, Op::Never) == 1);
  CHECK_NOTHROW(gcm(*g.graph(0)));
}

TEST_CASE("opt/endless_loops: an endless loop on one path leaves the other path alone", "[opt][endless]") {
  Unit g;
  parseAndOptimize(g,
                   "int x = arg; int i = 0;\n"
                   "if (arg > 5) { while (i < 10) x = x + 1; }\n"
                   "return x;");
  CHECK(countLive(g, Op::Loop) == 1);
  CHECK(countLive(g, Op::Never) == 1);
  CHECK(countLive(g, Op::Return) == 1);
  for (FunInfo& f : g.funs)
    if (f.hasBody()) CHECK_NOTHROW(gcm(*f.graph));
}

TEST_CASE("opt/endless_loops: loops with a live exit are not touched", "[opt][endless]") {
  Unit g;
  parseAndOptimize(g, "int s = 0; for (int i = 0; i < arg; i++) s += i; return s;");
  CHECK(countLive(g, Op::Loop) == 1);
  CHECK(countLive(g, Op::Never) == 0);
}
