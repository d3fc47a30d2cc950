// Tests for opt/strength_reduce.h: products of an induction variable and
// a loop invariant become induction variables, behaviour is kept (also
// when the products wrap around), and the pass is linear in the function;
// and the linear work of opt/load_hoist.h.
#include <catch2/catch.hpp>

#include "lexer/work_counters.h"
#include "opt/load_hoist.h"
#include "opt/strength_reduce.h"
#include "sched/gcm.h"
#include "test/unit/opt/pass_on_program.h"

using namespace simplec;

namespace {

// Multiplications with a loop Phi (or a Cast of one) as an operand.
int ivProducts(const Unit& u) {
  int n = 0;
  for (Node* m : sontest::liveOfKind(u, Op::Mul))
    for (int k = 1; k <= 2; k++) {
      Node* x = m->in[size_t(k)];
      while (x->op == Op::Cast) x = x->in[1];
      if (x->op == Op::Phi && x->in[0]->op == Op::Loop) {
        n++;
        break;
      }
    }
  return n;
}

opttest::PassResult run(const std::string& src) {
  return opttest::runPassOnProgram(src, "strength-reduce", ivProducts, [](Graph& g) { return strengthReduce(g); });
}

}  // namespace

TEST_CASE("opt/strength_reduce: iv * invariant becomes an induction variable", "[opt][sr]") {
  opttest::PassResult r = run(
      "val f = { int[] b, int n, int j -> int s = 0;\n"
      "  for (int k = 0; k < n; k++) s += b[k * n + j]; return s; };");
  CHECK(r.before == 1);
  CHECK(r.left == 0);
  // By a constant that is not a power of two; counting down; by an invariant step.
  CHECK(run("val f = { int[] b -> int s = 0; for (int k = 9; k >= 0; k--) s += b[k * 660]; return s; };").left == 0);
  CHECK(run("val f = { int[] b, int d, int n -> int s = 0;\n"
            "  for (int k = 0; k < 100; k += d) s += b[k * n]; return s; };")
            .left == 0);
}

TEST_CASE("opt/strength_reduce: products it leaves alone", "[opt][sr]") {
  // Two induction variables; a factor the loop changes; a doubling (no IV).
  CHECK(run("val f = { int n -> int s = 0; for (int i = 0; i < n; i++) s += i * i; return s; };").left == 1);
  CHECK(run("val f = { int n -> int s = 1; for (int i = 0; i < n; i++) s += i * s; return s; };").left == 1);
  CHECK(run("val f = { int n, int m -> int x = 1; for (int i = 0; i < n; i++) x = x * m; return x; };").left == 1);
  // A power of two is a shift already.
  CHECK(run("val f = { int[] b -> int s = 0; for (int k = 0; k < 9; k++) s += b[k * 8]; return s; };").before == 0);
}

TEST_CASE("opt/strength_reduce: behaviour kept, wrapping products included", "[opt][sr]") {
  auto sr = [](Graph& g) { return strengthReduce(g); };
  Unit a;
  // k * n wraps around: n = 2^62 + 1 and k = 0, 4, 8: the products are 0, 4, 8.
  CHECK(opttest::passKeepsBehaviour(a,
                                    "int n = 0x4000_0000_0000_0001 + arg - 1; int s = 0;\n"
                                    "for (int k = 0; k < 40; k += 4) { s = s * 7 + k * n; sys.io.p(k * n); }\n"
                                    "return s & 127;",
                                    sr) == 1);
  Unit b;
  // Nested loops: i * n in the outer loop, k * n in the inner one, counting down.
  CHECK(opttest::passKeepsBehaviour(b,
                                    "int n = 7 + arg; int[] x = new int[n * n]; int s = 0;\n"
                                    "for (int i = 0; i < n; i++) for (int k = n - 1; k >= 0; k--) {\n"
                                    "  x[i * n + k] = i - k; s += x[k * n + i] * 3; }\n"
                                    "sys.io.p(s); return 0;",
                                    sr) == 2);
}

TEST_CASE("opt/strength_reduce: matmul's inner loop keeps no check and no multiply", "[opt][sr][bounds]") {
  Unit u;
  SourceFile file("t.smp", "int n = 66; flt[] a = new flt[n * n]; flt[] b = new flt[n * n]; flt[] c = new flt[n * n];\n"
                           "for (int round = 0; round < 2; round++) {\n"
                           "  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) { flt s = 0.0;\n"
                           "    for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j]; c[i * n + j] = s; }\n"
                           "  flt[] !t = a; a = c; c = t; }\n"
                           "return int(a[5]);");
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, u));
  PassOptions o;
  o.verifyEach = true;
  runPipeline(u, o);
  int main = -1;
  for (size_t i = 0; i < u.funs.size(); i++)
    if (u.funs[i].isEntry) main = int(i);
  REQUIRE(main >= 0);
  Graph& g = *u.graph(main);
  CHECK(sontest::liveOfKind(g, Op::BoundsCheck).empty());
  Schedule s = gcm(g);
  int innermost = 0, mulsThere = 0;
  for (const BasicBlock& bb : s.blocks) innermost = std::max(innermost, bb.loopDepth);
  CHECK(innermost == 4);
  for (Node* n : liveNodes(g)) {
    int b = s.blockIndexOf(n);
    if (b >= 0 && n->op == Op::Mul && s.blocks[size_t(b)].loopDepth == innermost) mulsThere++;
  }
  CHECK(mulsThere == 0);
}

TEST_CASE("opt/strength_reduce: work grows linearly with the function", "[opt][sr][work]") {
  // One function with m loop nests, each with products of its counters.
  auto program = [](int m) {
    std::string s = "val f = { int[] b, int n -> int s = 0;\n";
    for (int i = 0; i < m; i++) {
      std::string k = "k" + std::to_string(i), j = "j" + std::to_string(i);
      s += "  for (int " + k + " = 0; " + k + " < n; " + k + "++) for (int " + j + " = 0; " + j + " < n; " + j +
           "++) s += b[(" + k + " * n + " + j + " * " + std::to_string(2 * i + 3) + ") % b#] + " + k + " * s;\n";
    }
    return s + "  return s; };";
  };
  auto work = [&](int m) {
    Unit u;
    opttest::parseUpTo(u, program(m), "strength-reduce");
    workCounters() = WorkCounters{};
    int reduced = sontest::onEachFunction(u, [](Graph& g) { return strengthReduce(g); });
    CHECK(reduced == 2 * m);
    CHECK(sontest::verifyText(u) == "");
    return workCounters().loopOptSteps;
  };
  uint64_t small = work(100), large = work(400);
  INFO("loop analysis steps: " << small << " at 100 nests, " << large << " at 400");
  CHECK(small > 0);
  CHECK(double(large) / double(small) < 6.0);
}

TEST_CASE("opt/load_hoist: field loads leave loops, in linear work", "[opt][sr][work]") {
  // m loops in one function, each reading fields the loop does not store.
  auto program = [](int m) {
    std::string s = "struct P { int x; int y; };\nval f = { P p, int[] out -> int s = 0;\n";
    for (int i = 0; i < m; i++) {
      std::string k = "k" + std::to_string(i);
      s += "  for (int " + k + " = 0; " + k + " < out#; " + k + "++) { out[" + k + "] = p.x + " + k +
           "; s += p.y; }\n";
    }
    return s + "  p.x = s; return s; };";
  };
  auto work = [&](int m) {
    Unit u;
    SourceFile file("t.smp", program(m));
    DiagEngine diag(stderr);
    REQUIRE(parseFile(file, diag, u));
    opttest::runPassesBefore(u, "hoist-loads");
    workCounters() = WorkCounters{};
    int moved = sontest::onEachFunction(u, [](Graph& g) { return hoistLoads(g); });
    CHECK(moved >= m);  // p.x and p.y: each loop's reads (loadelim may have merged some)
    CHECK(sontest::verifyText(u) == "");
    return workCounters().loopOptSteps;
  };
  uint64_t small = work(100), large = work(400);
  INFO("loop analysis steps: " << small << " at 100 loops, " << large << " at 400");
  CHECK(small > 0);
  CHECK(double(large) / double(small) < 6.0);
}

TEST_CASE("opt/strength_reduce: a product that bounds a range by a comparison stays", "[opt][sr]") {
  // The inner counter j is bounded by n = -9 * i (typed [0,9]); the new IV
  // would be any int, and j's range would have to widen: reducing it ended
  // in "peepholes did not reach a fixed point" (fuzz seed 8003791), and
  // widening the dependent types instead lost a divisor's non-zero fact
  // (fuzz seed 9002377, golden loops/strength_reduce_widens_ranges).
  opttest::PassResult r = run(
      "val f = { int a -> int c = 0;\n"
      "  for (int i = -1; i != 1; i += 1) { val n = (-9) * i; for (int j = 0; j < n; j++) c++; }\n"
      "  return c; };");
  CHECK(r.before == 1);
  CHECK(r.left == 1);
}

TEST_CASE("opt/strength_reduce: a product that bounds a later loop through other values stays", "[opt][sr]") {
  // i * 9 reaches the bound of the later loop only through s (typed
  // [0,144]): reducing it made s any int and the later counter's range grew
  // one step per peephole visit (fuzz seed 240112, golden
  // loops/strength_reduce_product_bounds_later_loop).
  opttest::PassResult r = run(
      "val f = { int a -> int s = 0;\n"
      "  for (int i = 0; i < 17; i++) { s >>>= 8; s += i * 9; }\n"
      "  int c = 0; for (int j = 0; j < s; j++) c++; return c; };");
  CHECK(r.before == 1);
  CHECK(r.left == 1);
  // Not bounding anything: reduced.
  CHECK(run("val f = { int a -> int s = 0;\n"
            "  for (int i = 0; i < 17; i++) { s >>>= 8; s += i * 9; } return s; };")
            .left == 0);
}

TEST_CASE("opt/strength_reduce: the peepholes after it visit the loop, not the whole function",
          "[opt][sr][work]") {
  // One reducible loop after k lines of straight-line code: the pass's
  // peephole work must not grow with k (a whole round over the function
  // was most of the pass's time in huge functions: script 100k lines).
  uint64_t small = opttest::checkPeepholeStepsFlat(
      "int[] b, int n, int x",
      "  int s = t;\n"
      "  for (int k = 0; k < n; k++) for (int j = 0; j < n; j++) s += b[(k * n + j * 3) % b#] + k * s;\n"
      "  return s; };",
      "strength-reduce", [](Graph& g) { return strengthReduce(g); });
  CHECK(small < 500);  // a whole round would be thousands
}

namespace {

// Loop Phis of integers (the counters and sums of the loops).
int loopIntPhis(const Unit& u) {
  int n = 0;
  for (Node* p : sontest::liveOfKind(u, Op::Phi))
    n += p->in[0]->op == Op::Loop && p->type && p->type->isInt();
  return n;
}

// Strength reduction on src after the passes before it: the loop Phis left,
// and the comparisons it moved to a product.
std::pair<int, uint64_t> phisAndTests(const std::string& src) {
  Unit u;
  opttest::parseUpTo(u, src, "strength-reduce");
  workCounters() = WorkCounters{};
  sontest::onEachFunction(u, [](Graph& g) { return strengthReduce(g); });
  CHECK(sontest::verifyText(u) == "");
  return {loopIntPhis(u), workCounters().testsReplaced};
}

}  // namespace

TEST_CASE("opt/strength_reduce: a counter left only to count and compare is replaced by its product",
          "[opt][sr][lftr]") {
  // i * 7 becomes j (+7 each round); i is then only compared with n % 5000
  // and stepped, so the test becomes j < (n % 5000) * 7 and i goes: the
  // loop keeps two Phis (j and t), not three.
  CHECK(phisAndTests("val f = { int n -> int t = 0;\n"
                     "  for (int i = 0; i < n % 5000; i++) t += i * 7; return t; };") == std::pair<int, uint64_t>{2, 1});
  // <=, the counter on the right, counting down, a factor with a known range.
  CHECK(phisAndTests("val f = { int n -> int t = 0;\n"
                     "  for (int i = 0; n % 100 >= i; i++) t += i * 3; return t; };") == std::pair<int, uint64_t>{2, 1});
  CHECK(phisAndTests("val f = { int n -> int t = 0;\n"
                     "  for (int i = 999; i >= 0; i--) t ^= i * 11; return t; };") == std::pair<int, uint64_t>{2, 1});
  CHECK(phisAndTests("val f = { int n, int m -> int s = m % 9 + 10; int t = 0;\n"
                     "  for (int i = 0; i < n % 5000; i++) t += i * s; return t; };") == std::pair<int, uint64_t>{2, 1});
}

TEST_CASE("opt/strength_reduce: tests that stay on the counter", "[opt][sr][lftr]") {
  // The counter has another use; the limit or the factor could make the
  // product overflow (any int); the factor may be negative or zero.
  CHECK(phisAndTests("val f = { int n -> int t = 0;\n"
                     "  for (int i = 0; i < n % 5000; i++) t += i * 7 + i; return t; };") == std::pair<int, uint64_t>{3, 0});
  CHECK(phisAndTests("val f = { int n -> int t = 0;\n"
                     "  for (int i = 0; i < n; i++) t += i * 7; return t; };") == std::pair<int, uint64_t>{3, 0});
  CHECK(phisAndTests("val f = { int n, int s -> int t = 0;\n"
                     "  for (int i = 0; i < n % 5000; i++) t += i * s; return t; };") == std::pair<int, uint64_t>{3, 0});
  CHECK(phisAndTests("val f = { int n, int m -> int s = m % 9; int t = 0;\n"
                     "  for (int i = 0; i < n % 5000; i++) t += i * s; return t; };") == std::pair<int, uint64_t>{3, 0});
  // The limit m, narrowed in the loop by `i < m`, is compared too: that
  // comparison is not one of i, and it keeps i (through m's Cast) alive.
  CHECK(phisAndTests("val f = { int n -> int t = 0; int m = n % 5000;\n"
                     "  for (int i = 0; i < m; i++) { t += i * 7; if (m < 300) t += 1; } return t; };") ==
        std::pair<int, uint64_t>{3, 0});
}
