// Tests for how the parser reports problems, end to end through the lexer
// and DiagEngine: notes after their error, errors in source order whatever
// stage found them, suggestions, and recovery that avoids follow-on errors.
#include <catch2/catch.hpp>

#include "test/unit/parser/parse_helpers.h"

using namespace simplec;
using namespace simplec::parsetest;
using S = std::vector<std::string>;

namespace {

// The "LINE:COL: SEVERITY: message" header of every diagnostic, in order.
S headers(const std::string& diags) {
  S out;
  size_t p = 0;
  while (p < diags.size()) {
    size_t e = diags.find('\n', p);
    if (e == std::string::npos) e = diags.size();
    std::string line = diags.substr(p, e - p);
    if (line.rfind("t.smp:", 0) == 0) out.push_back(line.substr(6));
    p = e + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("a missing '}' notes the '{' it would close", "[parser][diagnostics]") {
  Parsed p = parseText("val f = { int a ->\n    if (a) {\n        return 1;\n    }\n    return 2;\n");
  CHECK(p.diags ==
        "t.smp:5:14: error: expected '}'\n"
        "    return 2;\n"
        "             ^\n"
        "t.smp:1:9: note: to match this '{'\n"
        "val f = { int a ->\n"
        "        ^\n");
  CHECK(p.errors == 1);
}

TEST_CASE("a missing ')' or ']' notes its opening bracket", "[parser][diagnostics]") {
  CHECK(headers(parseText("int x = (1 + 2;\nreturn x;").diags) ==
        S{"1:15: error: expected ')'", "1:9: note: to match this '('"});
  CHECK(headers(parseText("int[] a = new int[3];\nreturn a[1;").diags) ==
        S{"2:11: error: expected ']'", "2:9: note: to match this '['"});
  CHECK(headers(parseText("val f = { int a -> a; };\nreturn f(1;").diags) ==
        S{"2:11: error: expected ')'", "2:9: note: to match this '('"});
  CHECK(headers(parseText("while (arg { }\nreturn 0;").diags) ==
        S{"1:11: error: expected ')'", "1:7: note: to match this '('"});
}

TEST_CASE("a return type conflict notes the return that set the type", "[parser][diagnostics]") {
  Parsed p = parseText("val f = { int x ->\n    if (x) return 1;\n    return { -> 2; };\n};\nreturn 0;\n");
  CHECK(p.diags ==
        "t.smp:3:12: error: return type mismatch: '{ -> int }' here, 'int' before\n"
        "    return { -> 2; };\n"
        "           ^\n"
        "t.smp:2:19: note: 'int' comes from this return\n"
        "    if (x) return 1;\n"
        "                  ^\n");
}

TEST_CASE("lexer and parser errors print in source order", "[parser][diagnostics]") {
  // The parser finds the undefined name on line 1 after the lexer has
  // reported the bad characters of lines 2 and 3.
  Parsed p = parseText("int a = nope;\nint b = 1 @;\nint c = 2 `;\nreturn q;\n");
  CHECK(p.errorLines() == S{"1:9: undefined name 'nope'", "2:11: unexpected character '@'",
                            "3:11: unexpected character '`'", "4:8: undefined name 'q'"});
}

TEST_CASE("errors found late are still printed in source order", "[parser][diagnostics]") {
  // That f's result type cannot be inferred is only known after the whole
  // file is parsed, after the undefined name on line 2 was found.
  Parsed p = parseText("val f = { -> return f; };\nreturn zz;\n");
  CHECK(p.errorLines() == S{"1:9: cannot infer the result type of recursive function 'f'", "2:8: undefined name 'zz'"});
}

TEST_CASE("a missing ';' at the end of a line does not swallow the next line", "[parser][diagnostics]") {
  Parsed p = parseText("int x = 1\nint y = x + 2;\nreturn y;\n");
  CHECK(p.errorLines() == S{"1:10: expected ';'"});
  // On the same line the rest of the statement is skipped, as before.
  Parsed q = parseText("int x = 1 2;\nreturn x;\n");
  CHECK(q.errorLines() == S{"1:10: expected ';'"});
}

TEST_CASE("suggestions name what is in scope at the error", "[parser][diagnostics]") {
  // A local of another function is not offered; one of this function is.
  Parsed p = parseText("val f = { int total -> total; };\nval g = { int totl -> totol; };\nreturn totl;\n");
  CHECK(p.errorLines() == S{"2:23: undefined name 'totol'; did you mean 'totl'?", "3:8: undefined name 'totl'"});
}

TEST_CASE("columns and carets of parser errors count characters", "[parser][diagnostics]") {
  Parsed p = parseText("u8[~] s = \"\xC3\xA9t\xC3\xA9\";\tint a = b;\nreturn a;\n");
  CHECK(p.diags ==
        "t.smp:1:26: error: undefined name 'b'\n"
        "u8[~] s = \"\xC3\xA9t\xC3\xA9\";\tint a = b;\n"
        "                \t        ^\n");
}
