// Tests for expression parsing (parser/parse_expr.cpp): precedence and
// associativity, literals, wrap-around, compound assignment and ++/--, all
// checked through constant programs whose value LANGUAGE.md fixes (the parser
// folds them to one constant); then the shape of what cannot fold: &&/|| as
// values, the ternary, comparison chains that evaluate the middle once; and
// the type errors of expressions.
#include <catch2/catch.hpp>

#include <climits>
#include <string>

#include "test/unit/parser/parse_helpers.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::parsetest::parseIR;
using simplec::parsetest::Parsed;
using simplec::parsetest::parseText;

namespace {

// The IR of a script that returns the constant v.
std::string returnsConst(int64_t v) {
  return "fun main (entry):\n"
         "  %1 = Fun main Start : ctrl\n"
         "  %2 = Parm mem %1 : mem\n"
         "  %3 = Con " + std::to_string(v) + " Start\n"
         "  %4 = Return %1, %2, %3 : ctrl\n";
}

int countLive(const Unit& g, Op op) { return sontest::countLive(g, op); }

// The main function folds to returning v (objects may stay in the graph).
bool foldsToReturn(const std::string& ir, int64_t v) {
  size_t r = ir.find(" = Return ");
  if (r == std::string::npos) return false;
  size_t lineStart = ir.rfind('\n', ir.rfind('\n', r) - 1);
  return ir.substr(lineStart, r - lineStart).find("= Con " + std::to_string(v) + " Start\n") != std::string::npos;
}

}  // namespace

TEST_CASE("parser/expr: constant programs fold to the value the language defines", "[parser][expr]") {
  struct Case {
    const char* src;
    int64_t value;
  };
  const Case cases[] = {
      // Precedence: * over +, + over <<, << over <, < over ==, == over &.
      {"return 1 + 2 * 3;", 7},
      {"return (1 + 2) * 3;", 9},
      {"return 1 + 2 << 1;", 6},
      {"return 1 << 2 < 5;", 1},
      {"return 1 < 2 == 1;", 1},
      {"return 2 == 2 & 3;", 1},
      {"return 10 - 3 - 2;", 5},  // left associative
      {"return 64 / 4 / 2;", 8},
      {"return 6 & 3 | 8;", 10},  // & | ^ share one level, left to right
      {"return 1 | 2 ^ 3;", 0},
      {"return 2 == 2 == 2;", 0},  // (2 == 2) == 2
      {"return 3 == 3 == 1;", 1},
      {"return -2 * -3;", 6},
      {"return !0 + !5;", 1},
      {"return - - 4;", 4},
      // Integer semantics: truncation, sign of the remainder, wrap-around.
      {"return 7 / -2;", -3},
      {"return -7 / 2;", -3},
      {"return -7 % 2;", -1},
      {"return 7 % -2;", 1},
      {"return 9223372036854775807 + 1;", INT64_MIN},
      {"return -9223372036854775808;", INT64_MIN},
      {"return -9223372036854775808 / -1;", INT64_MIN},
      {"return -9223372036854775808 % -1;", 0},
      {"return 0x7FFF_FFFF_FFFF_FFFF;", INT64_MAX},
      {"return 0xFFFF_FFFF_FFFF_FFFF;", -1},
      {"return 1_000_000;", 1000000},
      {"return 'A';", 65},
      {"return 1 << 64;", 1},
      {"return 1 << -1;", INT64_MIN},
      {"return -16 >> 2;", -4},
      {"return -1 >>> 60;", 15},
      {"return true + true;", 2},
      // Variables, assignment, compound assignment, ++ and --.
      {"int x = 5; int y = x++; return y * 10 + x;", 56},
      {"int x = 5; int y = ++x; return y * 10 + x;", 66},
      {"int x = 5; int y = x--; return y * 10 + x;", 54},
      {"int x = 5; x += 3; x <<= 2; return x;", 32},
      {"int x = 100; x -= 1; x /= 9; x %= 7; return x;", 4},
      {"int x = 6; x &= 3; x |= 8; x ^= 1; return x;", 11},
      {"int x = -1; x >>>= 60; return x;", 15},
      {"int x = -64; x >>= 3; return x;", -8},
      {"int a; int b; a = b = 7; return a + b;", 14},  // right associative; zero-initialized
      {"int a = 1, b = a + 1; return a * 10 + b;", 12},
      {"bool b = 7; return b;", 1},  // a bool keeps the low bit
      {"bool b = 6; return b;", 0},
      {"var v = true; v = 5; return v;", 5},  // inferred types are never narrow
      {"int x = 1; { int x = 2; } return x;", 1},  // shadowing in a block
      {"int x = 1; { x = 2; } return x;", 2},
      // && and || are values: the last operand evaluated, for integers of
      // any widths (parse_logical_test.cpp has the rest).
      {"return 0 && 5;", 0},
      {"return 3 && 5;", 5},
      {"return 0 || 7;", 7},
      {"return 4 || 7;", 4},
      {"return 3 && true;", 1},
      {"return 2 || false;", 2},
      {"return 0 || false;", 0},
      {"u8 r = 5; return 0 || r;", 5},
      {"u8 r = 5; bool b = false; return b || r;", 5},
      {"u32 r = 7; i8 s = -3; return r && s;", -3},
      {"return 1.5 && 7;", 1},  // a float operand: a bool
      // `--` before anything but a numeric variable's name is two minuses.
      {"return --5;", 5},
      {"return ---5;", -5},
      {"return -- -5;", -5},
      {"return --(2 + 1);", 3},
      {"return --9223372036854775808;", INT64_MIN},
      {"int x = 5; int y = ---x; return y * 10 + x;", -36},
      {"int x = 5; int y = ----x; return y * 10 + x;", 44},
      {"int x = 5; int y = -- -x; return y * 10 + x;", -45},
      {"flt f = 2.5; --f; return int(f * 2);", 3},
      // The ternary; `c ? a` is a or zero.
      {"return 1 ? 5 : 6;", 5},
      {"return 0 ? 5 : 6;", 6},
      {"return 0 ? 5;", 0},
      {"return 2 ? 5;", 5},
      {"return 1 ? 0 ? 1 : 2 : 3;", 2},
      // Comparison chains.
      {"return 1 < 2 < 3;", 1},
      {"return 1 < 3 < 2;", 0},
      {"return 3 > 2 > 1;", 1},
      {"return 1 <= 1 < 2;", 1},
      {"return 2 < 1 < 3;", 0},
      {"return 1 < 2 <= 2 < 3;", 1},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    CHECK(parseIR(c.src) == returnsConst(c.value));
  }
}

TEST_CASE("parser/expr: arg + 0 is arg", "[parser][expr]") {
  CHECK(parseIR("return arg+0;") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Parm mem %1 : mem\n"
        "  %3 = Parm 0 %1 : int\n"
        "  %4 = Return %1, %2, %3 : ctrl\n");
  // Identities fold while parsing too.
  CHECK(parseIR("return arg * 1 - 0;") == parseIR("return arg;"));
  CHECK(parseIR("return arg - arg;") == returnsConst(0));
  CHECK(parseIR("return arg == arg;") == returnsConst(1));
}

TEST_CASE("parser/expr: && and || evaluate their right side on one arm only", "[parser][expr]") {
  // a && b: b on the true arm; the value is b there, a (zero) on the other.
  CHECK(parseIR("return arg && 5;") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Parm 0 %1 : int\n"
        "  %3 = If %1, %2 : (ctrl, ctrl)\n"
        "  %4 = CProj 0 %3 : ctrl\n"
        "  %5 = CProj 1 %3 : ctrl\n"
        "  %6 = Region _, %4, %5 : ctrl\n"
        "  %7 = Parm mem %1 : mem\n"
        "  %8 = Con 5 Start\n"
        "  %9 = Con 0 Start\n"
        "  %10 = Phi %6, %8, %9 : [0,5]\n"
        "  %11 = Return %6, %7, %10 : ctrl\n");
  // a || b: b on the false arm.
  CHECK(parseIR("return arg || 5;") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Parm 0 %1 : int\n"
        "  %3 = If %1, %2 : (ctrl, ctrl)\n"
        "  %4 = CProj 1 %3 : ctrl\n"
        "  %5 = CProj 0 %3 : ctrl\n"
        "  %6 = Region _, %4, %5 : ctrl\n"
        "  %7 = Parm mem %1 : mem\n"
        "  %8 = Con 5 Start\n"
        "  %9 = Phi %6, %8, %2 : int\n"
        "  %10 = Return %6, %7, %9 : ctrl\n");
  // Integers of different widths give an int; a float operand a bool.
  CHECK(parseIR("u8 r = 200; return arg || r;").find("Phi %6, %8, %2 : int") != std::string::npos);
  CHECK(parseIR("return arg && 2.5;").find("Phi %6, %8, %9 : [0,1]") != std::string::npos);
  // The right side's call happens only on its arm: it hangs below the If.
  Parsed p = parseText("val f = { int x -> x; }; return f(arg) && f(2);");
  REQUIRE(p.ok);
  CHECK(p.verifyErrors() == "");
  auto calls = sontest::liveOfKind(*p.g, Op::Call);
  REQUIRE(calls.size() == 2);
  int below = 0;
  for (Node* c : calls)
    if (c->in[0]->op == Op::CProj && c->in[0]->in[0]->op == Op::If) below++;
  CHECK(below == 1);
}

TEST_CASE("parser/expr: a comparison chain evaluates its middle once", "[parser][expr]") {
  CHECK(parseIR("return 1 < arg < 10;") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Con 1 Start\n"
        "  %3 = Parm 0 %1 : int\n"
        "  %4 = LT _, %2, %3 : [0,1]\n"
        "  %5 = If %1, %4 : (ctrl, ctrl)\n"
        "  %6 = CProj 0 %5 : ctrl\n"
        "  %7 = CProj 1 %5 : ctrl\n"
        "  %8 = Region _, %6, %7 : ctrl\n"
        "  %9 = Parm mem %1 : mem\n"
        "  %10 = Con 10 Start\n"
        "  %11 = LT _, %3, %10 : [0,1]\n"
        "  %12 = Con 0 Start\n"
        "  %13 = Phi %8, %11, %12 : [0,1]\n"
        "  %14 = Return %8, %9, %13 : ctrl\n");
  // With a call in the middle: one call, its result used by both comparisons.
  Parsed p = parseText("val f = { int x -> x; }; return 1 < f(arg) < 10;");
  REQUIRE(p.ok);
  CHECK(p.verifyErrors() == "");
  auto calls = sontest::liveOfKind(*p.g, Op::Call);
  REQUIRE(calls.size() == 1);
  Node* result = nullptr;
  for (Node* n : sontest::liveNodes(*p.g))
    if (n->op == Op::Proj && n->aux == 2) result = n;
  REQUIRE(result);
  int cmps = 0;
  for (Node* u : result->out)
    if (u->op == Op::LT) cmps++;
  CHECK(cmps == 2);
  // A longer chain: the third comparison only where the first two held.
  Parsed q = parseText("val f = { int x -> x; }; return 0 < f(arg) < f(5) < 9;");
  REQUIRE(q.ok);
  CHECK(q.verifyErrors() == "");
  CHECK(countLive(*q.g, Op::Call) == 2);
  CHECK(countLive(*q.g, Op::If) == 2);
}

TEST_CASE("parser/expr: the ternary merges its arms", "[parser][expr]") {
  CHECK(parseIR("return arg ? 7 : 9;") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Parm 0 %1 : int\n"
        "  %3 = If %1, %2 : (ctrl, ctrl)\n"
        "  %4 = CProj 0 %3 : ctrl\n"
        "  %5 = CProj 1 %3 : ctrl\n"
        "  %6 = Region _, %4, %5 : ctrl\n"
        "  %7 = Parm mem %1 : mem\n"
        "  %8 = Con 7 Start\n"
        "  %9 = Con 9 Start\n"
        "  %10 = Phi %6, %8, %9 : [7,9]\n"
        "  %11 = Return %6, %7, %10 : ctrl\n");
}

TEST_CASE("parser/expr: division is guarded by a ZeroCheck unless the divisor cannot be zero", "[parser][expr]") {
  Parsed p = parseText("return 100 / arg;");
  REQUIRE(p.ok);
  CHECK(p.verifyErrors() == "");
  auto zc = sontest::liveOfKind(*p.g, Op::ZeroCheck);
  auto div = sontest::liveOfKind(*p.g, Op::Div);
  REQUIRE(zc.size() == 1);
  REQUIRE(div.size() == 1);
  CHECK(div[0]->in[0] == zc[0]);
  CHECK(zc[0]->pos.line == 1);
  CHECK(zc[0]->pos.col == 12);  // the '/'
  Parsed q = parseText("return arg % ((arg & 7) + 1);");
  REQUIRE(q.ok);
  CHECK(countLive(*q.g, Op::ZeroCheck) == 0);
  REQUIRE(countLive(*q.g, Op::Mod) == 1);
  CHECK(sontest::liveOfKind(*q.g, Op::Mod)[0]->in[0] == nullptr);
  // A division by a constant zero is left to trap at run time.
  Parsed r = parseText("return arg / 0;");
  REQUIRE(r.ok);
  CHECK(countLive(*r.g, Op::ZeroCheck) == 1);
}

TEST_CASE("parser/expr: type and name errors", "[parser][expr]") {
  struct Case {
    const char* src;
    const char* error;
  };
  const Case cases[] = {
      {"return x;", "1:8: undefined name 'x'"},
      {"int y = 1; return \"s\" + y;", "1:23: operator '+' needs integer operands, found 'u8[~]'"},
      {"val f = { int a -> a; }; return f == 1;", "1:35: cannot compare '{ int -> int }' and 'int' with '=='"},
      {"val f = { int a -> a; }; int x = f; return x;", "1:34: type mismatch: expected 'int', found '{ int -> int }'"},
      {"int x = 1; x++ ++; return x;", "1:15: expected ';'"},  // x++ is a value, not a variable
      {"return ++3;", "1:10: '++' needs a variable"},
      {"return 7 % 2.0;", "1:10: operator '%' needs integer operands, found 'flt'"},
      {"int x = 1; int y = x = ; return y;", "1:24: expected expression"},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    Parsed p = parseText(c.src);
    INFO(p.diags);
    CHECK_FALSE(p.ok);
    REQUIRE_FALSE(p.errorLines().empty());
    CHECK(p.errorLines()[0] == c.error);
  }
}

TEST_CASE("parser/expr: floats widen, round to f32 on store and convert explicitly", "[parser][expr][float]") {
  std::string ir = parseIR("flt x = arg; f32 y = x * 2; return int(y + 1);");
  CHECK(ir.find("IToF") != std::string::npos);   // arg widened
  CHECK(ir.find("FMul") != std::string::npos);
  CHECK(ir.find("FToF32") != std::string::npos); // stored into an f32
  CHECK(ir.find("FAdd") != std::string::npos);
  CHECK(ir.find("FToI") != std::string::npos);   // int(...)
  // Constants fold, -0.0 included; x + 0.0 does not fold away.
  CHECK(simplec::parsetest::optimizedIR("flt z = -0.0; return int(1 / (z + 0.0));").find("FAdd") == std::string::npos);
  CHECK(simplec::parsetest::optimizedIR("flt x = arg; return int(1 / (x + 0.0));").find("FAdd") != std::string::npos);
  // A float condition compares with 0.0; NaN is true.
  CHECK(parseIR("flt x = arg; if (x) return 1; return 0;").find("FNE") != std::string::npos);
}

TEST_CASE("parser/expr: '--' before anything but a numeric variable is two minuses", "[parser][expr]") {
  // A field is not a variable: `--c.n` is c.n (as in Simple); `++c.n` still increments.
  CHECK(foldsToReturn(parseIR("struct C { int n; }; C c = new C { n = 4; }; int v = --c.n; return v * 10 + c.n;"), 44));
  CHECK(foldsToReturn(parseIR("struct C { int n; }; C c = new C { n = 4; }; int v = ++c.n; return v * 10 + c.n;"), 55));
  CHECK(foldsToReturn(parseIR("int[] a = new int[2]; a[1] = 3; return --a[1] * 10 + a[1];"), 33));
  // A numeric variable's name after `--`, also a bare field in a method.
  std::string ir = parseIR("struct C { int n = 4; val dec = { -> --n; }; }; C c = new C; return c.dec();");
  CHECK(ir.find("= Con -1 Start\n") != std::string::npos);
  CHECK(parseIR("int x = arg; --x; return x;") == parseIR("int x = arg; x = x - 1; return x;"));
  struct Bad {
    const char* src;
    const char* error;
  };
  const Bad bad[] = {
      {"struct S { int x; }; S s = new S; return --s;", "1:43: operator '-' needs integer operands, found 'S'"},
      {"return ---y;", "1:11: undefined name 'y'"},
      {"val k = 3; return ---k;", "1:20: cannot assign to val 'k'"},
  };
  for (const Bad& c : bad) {
    INFO(c.src);
    Parsed p = parseText(c.src);
    INFO(p.diags);
    CHECK_FALSE(p.ok);
    CHECK(p.errorLines() == std::vector<std::string>{c.error});
  }
}
