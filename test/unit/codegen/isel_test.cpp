// Tests for codegen/isel.h through the -O2 pipeline: what instruction
// selection makes of small functions, read from the MIR printer before
// register allocation (virtual registers) or after it.
#include <catch2/catch.hpp>

#include "codegen/lower.h"
#include "lexer/diag.h"
#include "opt/pipeline.h"
#include "parser/parser.h"

using namespace simplec;

namespace {

// The MIR text of function `fun` of `src` after the -O2 pipeline.
std::string mirOf(const std::string& src, const std::string& fun, bool allocate = false) {
  Graph g;
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
  PassOptions o;
  o.verifyEach = true;
  runPipeline(g, o);
  LowerOptions lo;
  lo.allocate = allocate;
  mir::MModule m = lowerUnit(g, "t.smp", lo);
  for (const mir::MFunction& f : m.funcs)
    if (f.name == fun) return mir::print(f);
  FAIL("no function " << fun);
  return "";
}

}  // namespace

TEST_CASE("codegen/isel: a constant only a Cast's bound uses takes no register", "[codegen][isel]") {
  // After `if (n < 7)` both arms carry Casts with bound 7; the compare takes 7
  // as an immediate, so nothing reads a register holding it.
  std::string text = mirOf(
      "val f = { int n -> if (n < 7) return n * 3; return f(n - 7) - 1; };\n"
      "val main = { int arg -> return f(arg) + f(arg + 9); };",
      "f");
  INFO(text);
  CHECK(text.find("cmp") != std::string::npos);
  CHECK(text.find(", 7\n") == text.find(", 7\n", text.find("cmp")));  // only the compare names 7
}
