// Tests for the parser's statements and entry (parser/parser.cpp): the IR of
// if/else merges, while loops with lazy Phis (only variables a loop writes
// get one), break/continue, for loops and returns; every parsed graph
// verifies, before and after the -O2 pipeline; errors are reported at the
// right line:col and make parseFile return false; the golden and error
// programs of test/ parse as their expectations say.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test/unit/parser/parse_helpers.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::parsetest::optimizedIR;
using simplec::parsetest::parseIR;
using simplec::parsetest::Parsed;
using simplec::parsetest::parseText;

namespace {

// Names of the live Phis (by variable), sorted.
std::vector<std::string> livePhis(const Unit& g) {
  std::vector<std::string> r;
  for (Node* n : sontest::liveNodes(g))
    if (n->op == Op::Phi) r.push_back(n->name);
  std::sort(r.begin(), r.end());
  return r;
}

// Was a Phi for variable `name` ever made (live or dead)?
bool everHadPhi(const Unit& g, const std::string& name) {
  for (Node* n : sontest::allNodes(g))
    if (n->op == Op::Phi && n->name == name) return true;
  return false;
}

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("parser: a constant expression is folded while parsing", "[parser]") {
  CHECK(parseIR("return 1+2*3;") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Parm mem %1 : mem\n"
        "  %3 = Con 7 Start\n"
        "  %4 = Return %1, %2, %3 : ctrl\n");
}

TEST_CASE("parser: if/else merges a variable into a Phi", "[parser]") {
  CHECK(parseIR("int x = 1; if (arg) x = 2; else x = 3; return x;") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Parm 0 %1 : int\n"
        "  %3 = If %1, %2 : (ctrl, ctrl)\n"
        "  %4 = CProj 0 %3 : ctrl\n"
        "  %5 = CProj 1 %3 : ctrl\n"
        "  %6 = Region _, %4, %5 : ctrl\n"
        "  %7 = Parm mem %1 : mem\n"
        "  %8 = Con 2 Start\n"
        "  %9 = Con 3 Start\n"
        "  %10 = Phi %6, %8, %9 : [2,3]\n"
        "  %11 = Return %6, %7, %10 : ctrl\n");
  // An if without else: the untouched arm brings the old value.
  std::string ir = parseIR("int x = 1; if (arg < 0) x = 5; return x;");
  CHECK(ir.find("%12 = Phi %8, %10, %11 : [1,5]") != std::string::npos);
  // Arms that assign the same value need no Phi; a constant condition no If.
  CHECK(parseIR("int x = 1; if (arg) x = 4; else x = 4; return x;").find("Phi") == std::string::npos);
  CHECK(parseIR("int x = 1; if (2 > 1) x = 4; else x = 5; return x;") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Parm mem %1 : mem\n"
        "  %3 = Con 4 Start\n"
        "  %4 = Return %1, %2, %3 : ctrl\n");
}

TEST_CASE("parser: a while loop gets Phis only for what it writes", "[parser]") {
  const char* src =
      "int i = 0; int s = 0; int k = arg; int u = 7;\n"
      "while (i < 10) { s = s + k; i = i + 1; }\n"
      "return s + u;";
  Parsed p = parseText(src);
  REQUIRE(p.ok);
  CHECK(p.verifyErrors() == "");
  CHECK(livePhis(*p.g) == std::vector<std::string>{"i", "s"});
  CHECK_FALSE(everHadPhi(*p.g, "u"));  // never touched in the loop: no Phi ever made
  CHECK(parseIR("int i = 0; int s = 0; int k = arg;\n"
                "while (i < 10) { s = s + k; i = i + 1; }\n"
                "return s;") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = CProj 0 %10 : ctrl\n"
        "  %3 = Loop _, %1, %2 : ctrl\n"
        "  %4 = Con 0 Start\n"
        "  %5 = Con 1 Start\n"
        "  %6 = Add _, %7, %5 : int\n"
        "  %7 = Phi %3, %4, %6 : int\n"
        "  %8 = Con 10 Start\n"
        "  %9 = LT _, %7, %8 : [0,1]\n"
        "  %10 = If %3, %9 : (ctrl, ctrl)\n"
        "  %11 = CProj 1 %10 : ctrl\n"
        "  %12 = Parm mem %1 : mem\n"
        "  %13 = Parm 0 %1 : int\n"
        "  %14 = Add _, %15, %13 : int\n"
        "  %15 = Phi %3, %4, %14 : int\n"
        "  %16 = Return %11, %12, %15 : ctrl\n");
}

TEST_CASE("parser: nested loops", "[parser]") {
  Parsed p = parseText(
      "int s = 0; int k = arg; int i = 0;\n"
      "while (i < 10) { int j = 0; while (j < i) { s = s + k; j = j + 1; } i = i + 1; }\n"
      "return s;");
  REQUIRE(p.ok);
  CHECK(p.verifyErrors() == "");
  // Outer: i and s; inner: j and s; k is only read.
  CHECK(livePhis(*p.g) == std::vector<std::string>{"i", "j", "s", "s"});
  CHECK(sontest::liveOfKind(*p.g, Op::Loop).size() == 2);
}

TEST_CASE("parser: break and continue", "[parser]") {
  CHECK(parseIR("int i = 0;\n"
                "while (1) { i = i + 1; if (i == 5) continue; if (i > 10) break; }\n"
                "return i;") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = CProj 0 %12 : ctrl\n"   // continue
        "  %3 = CProj 1 %16 : ctrl\n"   // end of the body
        "  %4 = Region _, %2, %3 : ctrl\n"
        "  %5 = Loop _, %1, %4 : ctrl\n"
        "  %6 = Con 0 Start\n"
        "  %7 = Phi %5, %6, %9 : int\n"
        "  %8 = Con 1 Start\n"
        "  %9 = Add _, %7, %8 : int\n"
        "  %10 = Con 5 Start\n"
        "  %11 = EQ _, %9, %10 : [0,1]\n"
        "  %12 = If %5, %11 : (ctrl, ctrl)\n"
        "  %13 = CProj 1 %12 : ctrl\n"
        "  %14 = Con 10 Start\n"
        "  %15 = LT _, %14, %9 : [0,1]\n"
        "  %16 = If %13, %15 : (ctrl, ctrl)\n"
        "  %17 = CProj 0 %16 : ctrl\n"  // break: the only way out of while (1)
        "  %18 = Parm mem %1 : mem\n"
        "  %19 = Return %17, %18, %9 : ctrl\n");
}

TEST_CASE("parser: for loops", "[parser]") {
  CHECK(parseIR("int s = 0; for (int i = 0; i < arg; i++) s += i; return s;") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = CProj 0 %10 : ctrl\n"
        "  %3 = Loop _, %1, %2 : ctrl\n"
        "  %4 = Con 0 Start\n"
        "  %5 = Con 1 Start\n"
        "  %6 = Add _, %7, %5 : int\n"
        "  %7 = Phi %3, %4, %6 : int\n"
        "  %8 = Parm 0 %1 : int\n"
        "  %9 = LT _, %7, %8 : [0,1]\n"
        "  %10 = If %3, %9 : (ctrl, ctrl)\n"
        "  %11 = CProj 1 %10 : ctrl\n"
        "  %12 = Parm mem %1 : mem\n"
        "  %13 = Add _, %14, %7 : int\n"
        "  %14 = Phi %3, %4, %13 : int\n"
        "  %15 = Return %11, %12, %14 : ctrl\n");
  // `continue` in a for loop still runs the step: one increment, after the
  // merge of the continue and the end of the body.
  Parsed p = parseText("int s = 0; for (int i = 0; i < 10; i++) { if (i == 3) continue; s += i; } return s;");
  REQUIRE(p.ok);
  CHECK(p.verifyErrors() == "");
  // i around the loop; s around the loop and at the merge with the continue.
  CHECK(livePhis(*p.g) == std::vector<std::string>{"i", "s", "s"});
  int increments = 0;
  for (Node* n : sontest::liveNodes(*p.g))
    if (n->op == Op::Add && n->in[2]->isConst() && n->in[2]->type == Type::intConst(1)) increments++;
  CHECK(increments == 1);
  // The loop variable is gone after the loop.
  CHECK(parseText("for (int i = 0; i < 3; i++) ; return i;").errorLines() ==
        std::vector<std::string>{"1:38: undefined name 'i'"});
}

TEST_CASE("parser: returns", "[parser]") {
  // Two returns merge at one Return.
  std::string ir = parseIR("if (arg) return 1; return 2;");
  CHECK(ir ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Parm 0 %1 : int\n"
        "  %3 = If %1, %2 : (ctrl, ctrl)\n"
        "  %4 = CProj 0 %3 : ctrl\n"
        "  %5 = CProj 1 %3 : ctrl\n"
        "  %6 = Region _, %4, %5 : ctrl\n"
        "  %7 = Parm mem %1 : mem\n"
        "  %8 = Con 1 Start\n"
        "  %9 = Con 2 Start\n"
        "  %10 = Phi %6, %8, %9 : [1,2]\n"
        "  %11 = Return %6, %7, %10 : ctrl\n");
  // Code after a return is dead; falling off the end of the script returns 0.
  // Code after a return is dropped, with a warning.
  Parsed dead = parseText("return 3; return 4;");
  REQUIRE(dead.ok);
  CHECK(dead.ir().find("Con 4") == std::string::npos);
  CHECK(dead.diags.find("1:11: warning: code will never be executed [-Wunreachable-code]") != std::string::npos);
}

TEST_CASE("parser: a return inside a loop", "[parser]") {
  // The return's memory and value are read while the loop is open (through
  // its lazy Phis); the Return must still be wired to live nodes.
  for (const char* src : {
           "while (arg) return 0; return 1;",
           "while (arg < 10) { if (arg == 3) return 0; arg = arg + 1; } return 1;",
           "int k = arg * 3; int i = 0; while (i < 10) { if (i == arg) return k; i = i + 1; } return 1;",
           "val f = { int n -> while (n < 10) { if (n == 3) return false; n = n + 1; } return true; };\n"
           "return f(arg);",
       }) {
    INFO(src);
    parseIR(src);
  }
}

TEST_CASE("parser: every parsed graph verifies before and after -O2", "[parser]") {
  const char* programs[] = {
      "return 1+2*3;",
      "return arg;",
      "int x = 1; if (arg) x = 2; else x = 3; return x;",
      "int i = 0; int s = 0; while (i < arg) { s += i; i++; } return s;",
      "int i = 0; while (1) { i = i + 1; if (i == 5) continue; if (i > 10) break; } return i;",
      "int s = 0; for (int i = 0; i < 10; i++) { if (i == 3) continue; s += i; } return s;",
      "int s = 0; for (;;) { s++; if (s > arg) break; } return s;",
      "int a = 5; int b = 5; int i = 0; int s = 0;\n"
      "while (i < arg) { int t = (a - b) ? 1 : 2; s = s + t * 3; i = i + 1; }\n"
      "return s;",
      "val fib = { int n -> n < 2 ? n : fib(n - 1) + fib(n - 2); }; return fib(arg);",
      "val g = { int a, int b -> return a / b + a % b; }; return g(arg, 7) + g(7, arg);",
      "int x = arg / 3; int y = arg % 0; return x + y;",
      "sys.io.p(\"hi\"); sys.io.p(arg); sys.io.p(arg > 2); return 0;",
      "int x = arg; x += 2; x -= 1; x *= 3; x /= 2; x %= 5; x <<= 1; x >>= 1; x >>>= 1; x &= 7; x |= 8; x ^= 1;\n"
      "return x;",
      "return 1 < arg <= 10 < 20;",
      "return arg < 0 ? -arg : arg;",
      "bool b = arg > 3; return !b + !!b;",
      "while (arg) return 0; return 1;",
      "int x = 1; while (x < 5) { int x = 10; x++; } return x;",  // endless: the inner x shadows
      "for (;;) {} return 0;",
      "int i = 0; int s = 0;\n"
      "while (i < 10) { int j = 0; while (j < 10) { if (j == i) break; if (j > 5) { j++; continue; } s += j; j++; }\n"
      "  if (s > 100) return s; i++; }\n"
      "return s;",
      "int d = arg; int i = 0; int s = 0; while (i < 10) { s = s + 100 / d; d = d + 1; i++; } return s;",
      "val a = { int x -> x + 1; }; val b = { int x -> x * 2; }; val f = arg ? a : b; return f(3);",
      "int x = 0; if (arg) { if (arg > 5) return 1; x = 2; } else { while (x < arg) x++; } return x;",
      "int x = arg; while (x > 0) { x = x - 1; if (x == 7) { while (1) { x = x + 1; if (x > 20) break; } } }\n"
      "return x;",
      "int k = 5; while (arg < 3) { if (k == 5) { arg++; } else { k = 6; } } return k;",
      "bool b = false; int i = 0; while (i < arg) { b = !b; i++; } return b;",
  };
  for (const char* src : programs) {
    INFO(src);
    Parsed p = parseText(src);
    INFO(p.diags);
    REQUIRE(p.ok);
    CHECK(p.verifyErrors() == "");
    optimizedIR(src);
  }
}

TEST_CASE("parser: errors are reported at their line and column", "[parser]") {
  struct Case {
    const char* src;
    std::vector<std::string> errors;
  };
  const Case cases[] = {
      {"int x = 1;\nreturn y + 1;\n", {"2:8: undefined name 'y'"}},
      {"int x = 1\nreturn x;\n", {"1:10: expected ';'"}},
      {"break;\nreturn 0;\n", {"1:1: 'break' outside of a loop"}},
      {"int x = 1;\nint x = 2;\nreturn x;", {"2:5: redefinition of 'x'"}},
      {"val k = 3;\nk = 4;\nreturn k;", {"2:3: cannot assign to val 'k'"}},
      {"return 1 < 2 > 0;", {"1:14: comparison chain mixes '<' and '>' directions"}},
      {"val f = { int x -> x; };\nreturn f(1, 2);", {"2:9: wrong number of arguments: expected 1, found 2"}},
      {"if (arg) int x = 1;\nreturn 0;", {"1:10: cannot define a new name on one arm of an if"}},
      {"return 9223372036854775808;", {"1:8: integer literal too large"}},
      {"int a = b;\nint c = d;\nreturn 0;", {"1:9: undefined name 'b'", "2:9: undefined name 'd'"}},
      {"while (arg) { continue }\nreturn 0;", {"1:23: expected ';'"}},
      {"return 1 +;", {"1:11: expected expression"}},
      {"}\nreturn 0;", {"1:1: unexpected '}'"}},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    Parsed p = parseText(c.src);
    INFO(p.diags);
    CHECK_FALSE(p.ok);
    CHECK(p.errors == int(c.errors.size()));
    CHECK(p.errorLines() == c.errors);
  }
  // The full diagnostic: location, message, source line, caret.
  CHECK(parseText("int x = 1;\nreturn y + 1;\n").diags ==
        "t.smp:2:8: error: undefined name 'y'\n"
        "return y + 1;\n"
        "       ^\n");
}

TEST_CASE("parser: limits are diagnostics, not crashes", "[parser]") {
  std::string deep = "return " + std::string(5000, '(') + "1" + std::string(5000, ')') + ";";
  Parsed p = parseText(deep);
  CHECK_FALSE(p.ok);
  CHECK(p.diags.find("nesting too deep") != std::string::npos);
  std::string blocks = std::string(5000, '{') + std::string(5000, '}') + "return 0;";
  Parsed q = parseText(blocks);
  CHECK_FALSE(q.ok);
  CHECK(q.diags.find("nesting too deep") != std::string::npos);
  // Inputs that are not programs at all.
  for (const char* src : {"", ";", "return", "(((", "val", "val f = {", "{ int x -> ", "\x01\x02", "while"}) {
    INFO(src);
    CHECK_NOTHROW(parseText(src));
  }
}

TEST_CASE("parser: the golden programs parse, verify and optimize", "[parser][golden]") {
#ifdef SIMPLEC_SOURCE_DIR
  namespace fs = std::filesystem;
  fs::path dir = fs::path(SIMPLEC_SOURCE_DIR) / "test" / "golden";
  REQUIRE(fs::is_directory(dir));
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().extension() == ".smp") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() > 50);
  for (const fs::path& f : files) {
    std::string src = readFile(f);
    INFO(f.string());
    Parsed p = parseText(src);
    INFO(p.diags);
    // A golden program is valid by definition.
    CHECK(p.ok);
    if (!p.ok) continue;
    CHECK(p.verifyErrors() == "");
    optimizedIR(src, 2);
  }
#else
  WARN("SIMPLEC_SOURCE_DIR is not defined: skipped");
#endif
}

TEST_CASE("parser: the error programs report exactly their expected errors", "[parser][golden]") {
#ifdef SIMPLEC_SOURCE_DIR
  namespace fs = std::filesystem;
  fs::path dir = fs::path(SIMPLEC_SOURCE_DIR) / "test" / "errors";
  REQUIRE(fs::is_directory(dir));
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".smp") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() > 10);
  const std::string tag = "// EXPECT-ERROR: ";
  for (const fs::path& f : files) {
    std::string src = readFile(f);
    std::vector<std::string> want;
    std::istringstream lines(src);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind(tag, 0) == 0) want.push_back(line.substr(tag.size()));
    INFO(f.string());
    Parsed p = parseText(src);
    INFO(p.diags);
    CHECK_FALSE(p.ok);
    CHECK(p.errorLines() == want);
  }
#else
  WARN("SIMPLEC_SOURCE_DIR is not defined: skipped");
#endif
}
