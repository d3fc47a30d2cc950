// Tests for test/fuzz/source_tokens.h, which the reducer edits programs
// with: statements are found around stray closing brackets (a stray `)` at
// the top level once looped forever, filling memory: a libFuzzer crash file
// given to --reduce-file), and nested blocks and bodies become lists.
#include <catch2/catch.hpp>

#include "test/fuzz/source_tokens.h"

using namespace simplec::fuzz;

TEST_CASE("fuzz/source_tokens: stray closing brackets end statements", "[fuzz][reducer]") {
  for (const char* src : {") x = 1;", "] ) } y = 2; )", "struct V{({}(}};val a=sys.io.p(e)", "((", "{ ) }"}) {
    INFO(src);
    StmtTree t = parseStatements(tokenizeSource(src));
    CHECK(t.top.size() <= tokenizeSource(src).size());
  }
}

TEST_CASE("fuzz/source_tokens: blocks and function bodies are statement lists", "[fuzz][reducer]") {
  StmtTree t = parseStatements(tokenizeSource("int a = 1;\nif (a) { a = 2; a = 3; } else a = 4;\n"
                                              "val f = { int x -> x = x + 1; return x; };\nreturn a;"));
  CHECK(t.top.size() == 4);
  // The top list, the if's block and the function's body.
  CHECK(t.lists.size() == 3);
}
