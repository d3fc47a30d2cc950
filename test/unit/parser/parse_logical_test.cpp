// Tests for `&&`/`||` (parser/parse_logical.cpp): the grouping of one
// right-associative level, the -Wparentheses warning and the options that
// change it, the type of the value (int, bool, a reference), and what stays
// a compile error.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test/unit/parser/parse_helpers.h"

using namespace simplec;
using simplec::parsetest::parseIR;
using simplec::parsetest::Parsed;
using simplec::parsetest::parseText;

namespace {

// "LINE:COL: message" of every warning.
std::vector<std::string> warningLines(const Parsed& p) {
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

// The constant a script returns (it must fold to one).
int64_t constResult(const Parsed& p) {
  std::string ir = p.ir();
  size_t c = ir.find("= Con ");
  REQUIRE(c != std::string::npos);
  REQUIRE(ir.find("Phi") == std::string::npos);
  return std::stoll(ir.substr(c + 6));
}

const char* kAndOr = "'&&' and '||' mixed without parentheses: 'a && b || c' groups as 'a && (b || c)' [-Wparentheses]";
const char* kOrAnd = "'&&' and '||' mixed without parentheses: 'a || b && c' groups as 'a || (b && c)' [-Wparentheses]";

WarningOptions flags(std::initializer_list<const char*> ws) {
  WarningOptions o;
  for (const char* w : ws) REQUIRE(o.apply(w));
  return o;
}

}  // namespace

TEST_CASE("parser/logical: one right-associative level, mixing warned", "[parser][logical]") {
  struct Case {
    const char* src;
    int64_t value;
    std::vector<std::string> warnings;
  };
  const Case cases[] = {
      {"return 0 && 2 || 3;", 0, {std::string("1:15: ") + kAndOr}},  // 0 && (2 || 3)
      {"return 1 && 0 || 4;", 4, {std::string("1:15: ") + kAndOr}},
      {"return 2 || 0 && 3;", 2, {std::string("1:15: ") + kOrAnd}},
      {"return 0 || 5 && 0 || 6;", 6, {std::string("1:15: ") + kOrAnd, std::string("1:20: ") + kAndOr}},
      {"return 1 && 2 && 0 || 7;", 7, {std::string("1:20: ") + kAndOr}},
      {"return (0 && 2) || 3;", 3, {}},
      {"return 0 && (2 || 3);", 0, {}},
      {"return 1 && 2 && 3;", 3, {}},
      {"return 0 || 0 || 8;", 8, {}},
      {"return 0 || (0 ? 1 : 2) && 9;", 9, {std::string("1:25: ") + kOrAnd}},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    Parsed p = parseText(c.src);
    INFO(p.diags);
    REQUIRE(p.ok);
    CHECK(p.verifyErrors() == "");
    CHECK(constResult(p) == c.value);
    CHECK(warningLines(p) == c.warnings);
  }
}

TEST_CASE("parser/logical: -Wparentheses is on by default; -w, -Wno- and -Werror change it", "[parser][logical]") {
  const char* src = "int a = arg; return a && 1 || 2;";
  Parsed on = parseText(src, flags({"parentheses"}));
  CHECK(on.ok);
  CHECK(warningLines(on).size() == 1);
  CHECK(warningLines(parseText(src, flags({"no-parentheses"}))).empty());
  CHECK(warningLines(parseText(src, flags({"no-parentheses", "parentheses"}))).size() == 1);  // the last wins
  WarningOptions quiet = flags({"parentheses", "error"});
  quiet.silenceAll(true);
  Parsed q = parseText(src, quiet);
  CHECK(q.ok);
  CHECK(q.diags.empty());
  Parsed e = parseText(src, flags({"error"}));
  CHECK_FALSE(e.ok);
  CHECK(e.errorLines() == std::vector<std::string>{
                              "1:28: '&&' and '||' mixed without parentheses: 'a && b || c' groups as "
                              "'a && (b || c)' [-Werror=parentheses]"});
  Parsed e2 = parseText(src, flags({"no-parentheses", "error=parentheses"}));
  CHECK_FALSE(e2.ok);
  Parsed w = parseText(src, flags({"error", "no-error=parentheses"}));
  CHECK(w.ok);
  CHECK(warningLines(w).size() == 1);
  WarningOptions bad;
  CHECK_FALSE(bad.apply("no-such-warning"));
  CHECK_FALSE(bad.apply("error=no-such-warning"));
  CHECK(bad.apply("all"));
  CHECK(bad.apply("extra"));
}

TEST_CASE("parser/logical: struct references and null give a reference", "[parser][logical]") {
  const char* prelude = "struct S { int x; }; S a = new S; S b = new S; S? n = arg ? a : null; S? d = null;\n";
  const char* ok[] = {
      "return (a && b).x;",
      "return (a || b).x;",
      "return (n || b).x;",  // n is the value only when it is not null
      "return d == (null || null);",
      "S? m = n && b; return m ? m.x : 0;",
      "S? m = null || n; return m ? m.x : 0;",
      "S m = a && b; return m.x;",
      "var v = n || d; return v == null;",
      "return (n && b) ? (n && b).x : 0;",
  };
  for (const char* src : ok) {
    std::string text = std::string(prelude) + src;
    INFO(text);
    parseIR(text);
  }
  struct Bad {
    const char* src;
    const char* error;
  };
  const Bad bad[] = {
      {"return (n && b).x;", "2:16: a value of type 'S?' might be null"},
      {"return (a || n).x;", "2:16: a value of type 'S?' might be null"},
      {"return (a && null).x;", "2:19: a value of type 'S?' might be null"},
      {"struct T { int x; }; T t = new T; return (a && t).x;", "2:50: a value of type 'bool' has no fields"},
      {"return (a && 1).x;", "2:16: a value of type 'bool' has no fields"},
      {"int[] r = new int[1]; return (r || r)[0];", "2:38: cannot index a value of type 'bool'"},
      {"S m = a && 1; return 0;", "2:7: type mismatch: expected 'S', found 'bool'"},
      {"int i = a && b; return i;", "2:9: type mismatch: expected 'int', found 'S'"},
  };
  for (const Bad& c : bad) {
    std::string text = std::string(prelude) + c.src;
    INFO(text);
    Parsed p = parseText(text);
    INFO(p.diags);
    CHECK_FALSE(p.ok);
    CHECK(p.errorLines() == std::vector<std::string>{c.error});
  }
}

TEST_CASE("parser/logical: integers of any widths give an int, floats a bool", "[parser][logical]") {
  // The value is the operand itself, not a 0/1 of it.
  CHECK(parseIR("u8 r = 200; return arg || r;").find("Phi %6, %8, %2 : int") != std::string::npos);
  CHECK(parseIR("bool t = arg > 1; u32 r = 9; return t && r;").find(" : [0,9]") != std::string::npos);
  // A float operand makes a bool (two bools stay a bool: golden/arith/logic_values.smp).
  CHECK(parseIR("flt f = 0.5; return arg && f;").find(" : [0,1]") != std::string::npos);
}
