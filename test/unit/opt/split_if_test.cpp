// Tests for opt/split_if.h: predecessors of a short-circuit merge whose
// outcome is known go straight to the arm they take; merges whose Phi is
// used elsewhere, or that carry other values, are left alone; the program
// computes the same (the graph evaluator before and after).
#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "opt/split_if.h"
#include "parser/parser.h"
#include "son/evaluator.h"
#include "test/unit/opt/pass_on_program.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;

namespace {

// Threads `src`'s graph; checks it verifies and that main(argc) prints and
// returns the same before and after. Returns the number threaded.
int threadAndCompare(const std::string& src, int64_t argc = 1) {
  Unit g;
  return opttest::passKeepsBehaviour(g, src, splitIfs, argc);
}

}  // namespace

TEST_CASE("opt/split_if: && and || in loop and if conditions are threaded", "[opt][split_if]") {
  CHECK(threadAndCompare("int it = 0; int z = arg;\n"
                         "while (it < 100 && z * z <= 4000) { z = z + 1; it++; }\nreturn it;") == 1);
  CHECK(threadAndCompare("int n = 0;\nfor (int i = 0; i < 50; i++) if (i % 3 == 0 || i % 5 == 0) n = n + i;\n"
                         "sys.io.p(n); return 0;") == 1);
  for (int64_t argc = 0; argc < 4; argc++)
    CHECK(threadAndCompare("if (arg > 1 && arg < 3) return 7; if (arg == 0 || arg == 3) return 8; return 9;", argc) == 2);
}

TEST_CASE("opt/split_if: a merged condition used as a value stays", "[opt][split_if]") {
  // The Phi is printed too: both predecessors must still reach it.
  CHECK(threadAndCompare("int a = arg; bool t = a > 0 && a < 5; sys.io.p(t); if (t) return 1; return 2;") == 0);
  // Nothing is known along either predecessor.
  CHECK(threadAndCompare("int a = arg; int b = a > 2 ? a : a - 7; if (b) return 1; return 2;") == 0);
  // A constant along one is known: `c ? x : 0` tested goes straight to the false arm.
  CHECK(threadAndCompare("int a = arg; int b = a > 2 ? a : 0; if (b) return 1; return 2;") == 1);
}
