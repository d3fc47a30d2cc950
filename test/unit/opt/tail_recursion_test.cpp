// Tests for opt/tail_recursion.h: which self calls become jumps (the result
// returned at once or combined by an accumulator operator with values from
// before the call), which stay calls, and that the program computes the same
// (the graph evaluator before and after), an endless recursion included.
#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "opt/call_graph.h"
#include "opt/tail_recursion.h"
#include "parser/parser.h"
#include "son/evaluator.h"
#include "test/unit/opt/pass_on_program.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;

namespace {

void parse(Unit& g, const std::string& src) {
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
}

int opsIn(const Unit& g, const std::string& fun, Op op) {
  for (const FunInfo& f : g.funs)
    if (f.name == fun) return int(sontest::liveOfKind(*f.graph, op).size());
  FAIL("no function " << fun);
  return -1;
}

// main(argc)'s output and status before and after the pass must agree;
// returns the number of jumps made and the run after.
int checkSame(const std::string& src, EvalResult* after = nullptr, int64_t argc = 1) {
  Unit g;
  return opttest::passKeepsBehaviour(g, src, eliminateTailRecursion, argc, after);
}

}  // namespace

TEST_CASE("opt/tail_recursion: a returned self call becomes a loop, the call a fallback", "[opt][tailrec]") {
  Unit g;
  parse(g, "val gcd = { int a, int b -> if (b == 0) return a; return gcd(b, a % b); };\nreturn gcd(arg * 1071, 462);");
  CHECK(opsIn(g, "gcd", Op::Loop) == 0);
  CHECK(sontest::onEachFunction(g, eliminateTailRecursion) == 1);
  CHECK(sontest::verifyText(g) == "");
  CHECK(opsIn(g, "gcd", Op::Loop) == 1);
  CHECK(opsIn(g, "gcd", Op::Call) == 1);  // taken after kTailLoopLimit jumps
  EvalResult r = evaluateProgram(g, 1, EvalOptions{});
  CHECK(r.returnValue == 21);
}

TEST_CASE("opt/tail_recursion: accumulator operators keep the result", "[opt][tailrec]") {
  CHECK(checkSame("val s = { int n -> if (n == 0) return 0; return n + s(n - 1); };\nreturn s(1000) % 256;") == 1);
  CHECK(checkSame("val f = { int n -> if (n <= 1) return 1; return f(n - 1) * n; };\n"
                  "sys.io.p(f(25)); return 0;") == 1);
  CHECK(checkSame("val f = { int n -> if (n == 0) return -1; return (n | 8) & f(n - 1); };\n"
                  "sys.io.p(f(7)); return 0;") == 1);
  CHECK(checkSame("val f = { int n -> if (n < 0) return 0; return f(n - 1) | (1 << n); };\n"
                  "sys.io.p(f(40)); return 0;") == 1);
  CHECK(checkSame("val f = { int n -> if (n == 0) return 5; return n ^ f(n - 1) ^ (n * 3); };\n"
                  "sys.io.p(f(99)); return 0;") == 1);
  // Two calls: the second is the tail site, the first's result an addend.
  CHECK(checkSame("val fib = { int n -> if (n < 2) return n; return fib(n - 1) + fib(n - 2); };\n"
                  "sys.io.p(fib(20)); return 0;") == 1);
  // Several sites, one accumulator.
  CHECK(checkSame("val w = { int n -> if (n <= 0) return 0; if (n % 2 == 0) return n + w(n - 1);"
                  " return w(n - 2) + 3 * n; };\nsys.io.p(w(77)); return 0;") == 2);
}

TEST_CASE("opt/tail_recursion: what is not a tail site stays a call", "[opt][tailrec]") {
  // Subtraction does not reassociate.
  CHECK(checkSame("val f = { int n -> if (n <= 0) return 0; return n - f(n - 1); };\nreturn f(9) + 10;") == 0);
  // Work after the call (output, a store) is not in tail position.
  CHECK(checkSame("val f = { int n -> if (n <= 0) return 0; int r = f(n - 1); sys.io.p(n); return r; };\n"
                  "return f(5);") == 0);
  CHECK(checkSame("val f = { int[] a, int n -> if (n <= 0) return 0; int r = f(a, n - 1); a[0] = n; return r; };\n"
                  "int[] a = new int[1]; f(a, 4); return a[0];") == 0);
  // A value read after the call depends on it.
  CHECK(checkSame("val f = { int[] a, int n -> if (n <= 0) return 0; a[0] += 1; return f(a, n - 1) + a[0]; };\n"
                  "return f(new int[1], 6);") == 0);
  // The result goes through another operator first.
  CHECK(checkSame("val f = { int n -> if (n <= 0) return 1; return f(n - 1) * f(n - 1) + 1; };\n"
                  "return f(4);") == 0);
  // Sites with different operators: only the first operator's are jumps.
  CHECK(checkSame("val m = { int n -> if (n <= 0) return 1; if (n > 5) return n + m(n - 1);"
                  " return m(n - 1) * 2; };\nreturn m(9);") == 1);
}

TEST_CASE("opt/tail_recursion: an endless recursion still overflows the stack", "[opt][tailrec]") {
  EvalResult r;
  CHECK(checkSame("val up = { int n -> if (n < 0) return n; return up(n + 1); };\nsys.io.p(1); return up(0);", &r) == 1);
  CHECK(r.out == "1");
  CHECK(r.error == "program:1:10: runtime error: stack overflow");  // at the `{` of up
}

// Counts the LT nodes of `fun` after the pass: the jump counter adds one.
int ltAfterPass(const std::string& src, const std::string& fun) {
  Unit g;
  parse(g, src);
  int before = opsIn(g, fun, Op::LT);
  CHECK(sontest::onEachFunction(g, eliminateTailRecursion) >= 1);
  CHECK(sontest::verifyText(g) == "");
  return opsIn(g, fun, Op::LT) - before;
}

TEST_CASE("opt/tail_recursion: jumps that provably end need no counter", "[opt][tailrec]") {
  // A parameter stepping toward a bound that guards the site: no counter.
  std::string fib = "val fib = { int n -> if (n < 2) return n; return fib(n - 1) + fib(n - 2); };\n"
                    "sys.io.p(fib(20)); return 0;";
  CHECK(ltAfterPass(fib, "fib") == 0);
  CHECK(checkSame(fib) == 1);
  std::string up = "val up = { int n, int s -> if (n > 100) return s; return up(n + 3, s + n); };\n"
                   "return up(arg, 0) % 256;";
  CHECK(ltAfterPass(up, "up") == 0);
  CHECK(checkSame(up) == 1);
  std::string negated = "val f = { int n -> if (!(n >= 1)) return 0; return n + f(n - 1); };\n"
                        "return f(50000) % 256;";
  CHECK(ltAfterPass(negated, "f") == 0);
  CHECK(checkSame(negated) == 1);
  // Two sites stepping the same parameter the same way.
  std::string two = "val w = { int n -> if (n <= 0) return 0; if (n % 2 == 0) return n + w(n - 1);"
                    " return w(n - 2) + 3 * n; };\nsys.io.p(w(77)); return 0;";
  CHECK(ltAfterPass(two, "w") == 0);
}

TEST_CASE("opt/tail_recursion: jumps that may not end keep the counter", "[opt][tailrec]") {
  // No bound, a test for equality, a step away from the bound, a step
  // that could wrap past the bound, steps in both directions.
  CHECK(ltAfterPass("val f = { bool b, int n -> if (b) return n; return f(b, n - 1); };\nreturn f(arg == 9, arg);", "f") == 1);
  CHECK(ltAfterPass("val f = { int n -> if (n == 0) return 0; return n + f(n - 1); };\nreturn f(9);", "f") == 1);
  CHECK(ltAfterPass("val f = { int n -> if (n < 2) return n; return f(n + 1); };\nreturn f(-9);", "f") == 1);
  CHECK(ltAfterPass("val f = { int n -> if (n < -9223372036854775807) return 0; return f(n - 2); };\n"
                    "return f(arg);", "f") == 1);
  CHECK(ltAfterPass("val f = { int n -> if (n < 0) return 0; if (n > 9) return 1; if (n % 2 == 0) return f(n + 1);"
                    " return f(n - 1); };\nreturn f(arg);", "f") == 1);
  // The bound is on another parameter than the one that steps.
  CHECK(ltAfterPass("val f = { int n, int m -> if (m < 0) return 0; return f(n - 1, m); };\nreturn f(3, 3);", "f") ==
        1);
}
