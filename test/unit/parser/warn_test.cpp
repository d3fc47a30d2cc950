// Tests for the parser's warnings (parser/warn_names.cpp, warn_exprs.cpp):
// each is printed once whatever the parser parses twice (re-parse rounds,
// field initializers replayed at every `new`), none changes the graph, and
// unused names are not warned after an error.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test/unit/parser/parse_helpers.h"

using namespace simplec;
using simplec::parsetest::Parsed;
using simplec::parsetest::parseText;

namespace {

// "LINE:COL: message" of every warning, in the order printed.
std::vector<std::string> warnings(const Parsed& p) {
  std::vector<std::string> out;
  size_t b = 0;
  while (b < p.diags.size()) {
    size_t e = p.diags.find('\n', b);
    if (e == std::string::npos) e = p.diags.size();
    std::string line = p.diags.substr(b, e - b);
    size_t w = line.find(": warning: ");
    if (line.rfind("t.smp:", 0) == 0 && w != std::string::npos)
      out.push_back(line.substr(6, w - 6) + ": " + line.substr(w + 11));
    b = e + 1;
  }
  return out;
}

WarningOptions everything() {
  WarningOptions o;
  for (const char* w : {"all", "extra", "shadow"}) REQUIRE(o.apply(w));
  return o;
}

}  // namespace

TEST_CASE("parser/warn: a re-parse round does not repeat warnings", "[parser][warn]") {
  // f's recursive call first assumes a bool result; the flt return makes
  // the parser parse the file again.
  const char* src =
      "val f = { int n -> int u = 1; if (n < 1) return 1.5; return f(n - 1); };\n"
      "return int(f(arg));\n";
  Parsed p = parseText(src, everything());
  INFO(p.diags);
  REQUIRE(p.ok);
  CHECK(warnings(p) == std::vector<std::string>{"1:24: unused variable 'u' [-Wunused-variable]"});
}

TEST_CASE("parser/warn: a field initializer is warned once, however many news", "[parser][warn]") {
  const char* src =
      "struct S { bool b = sys.args# < 2 & sys.args# > 0; };\n"
      "S a = new S; S c = new S; S d = new S;\n"
      "return a.b + c.b + d.b;\n";
  Parsed p = parseText(src, everything());
  INFO(p.diags);
  REQUIRE(p.ok);
  CHECK(warnings(p) == std::vector<std::string>{
                           "1:35: '&' between comparisons evaluates both; did you mean '&&'? "
                           "[-Wbitwise-instead-of-logical]"});
}

TEST_CASE("parser/warn: warnings do not change the graph", "[parser][warn]") {
  const char* src =
      "val N = 3;\n"
      "val g = { int a, int b -> int x = a; x = x; { int a = 2; } if (N > 1) return x; return 0; };\n"
      "int[] arr = new int[2];\n"
      "int y = 0;\n"
      "if (y = g(arr, 1)) y++;\n"
      "for (int i = 0; i < 3 & i > -1; i++) y += i;\n"
      "return y;\n";
  Parsed loud = parseText(src, everything());
  WarningOptions quiet;
  quiet.silenceAll(true);
  Parsed silent = parseText(src, quiet);
  INFO(loud.diags);
  REQUIRE(loud.ok);
  REQUIRE(silent.ok);
  CHECK(silent.diags.empty());
  CHECK(warnings(loud).size() == 8);  // each kind of warning (two on line 2 from -Wunused)
  CHECK(loud.ir() == silent.ir());
}

TEST_CASE("parser/warn: no unused warnings after an error", "[parser][warn]") {
  Parsed p = parseText("int unused = 1;\nint y = nosuch;\nreturn 0;\n", everything());
  CHECK_FALSE(p.ok);
  CHECK(warnings(p).empty());
  // A warning made an error by -Werror does not count as one.
  WarningOptions o = everything();
  REQUIRE(o.apply("error=unused-variable"));
  Parsed w = parseText("{ int a = 1; }\n{ int b = 2; }\nreturn 0;\n", o);
  CHECK(w.errorLines() == std::vector<std::string>{"1:7: unused variable 'a' [-Werror=unused-variable]",
                                                   "2:7: unused variable 'b' [-Werror=unused-variable]"});
}
