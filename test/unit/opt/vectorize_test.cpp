// Tests for opt/vectorize.h: which loops get a two-lane copy, that the
// program behaves the same (lengths odd and even, arrays that are one
// array at every distance, values and memory after the loop), and linear
// work in the function.
#include <catch2/catch.hpp>

#include "lexer/work_counters.h"
#include "opt/vectorize.h"
#include "son/mem_access.h"
#include "test/unit/opt/pass_on_program.h"

using namespace simplec;

namespace {

// Live 16-byte loads and stores.
int wideAccesses(const Unit& u) {
  int n = 0;
  for (const FunInfo& f : u.funs)
    if (f.hasBody())
      for (const Node* x : liveNodes(*f.graph))
        if ((x->op == Op::Load || x->op == Op::Store) && MemAccess::decode(x->aux).size == 16) n++;
  return n;
}

struct Vectorized {
  int loops = 0;
  int wide = 0;  // 16-byte accesses after
};

// Parses src, runs the passes before vectorize, then the pass; the graph
// must verify and main must behave the same for every argc in `args`.
Vectorized vectorize(const std::string& src, std::initializer_list<int64_t> args = {1}) {
  Unit u;
  opttest::parseUpTo(u, src, "vectorize");
  std::vector<EvalResult> before;
  for (int64_t a : args) before.push_back(evaluateProgram(u, a, EvalOptions{}));
  Vectorized v;
  v.loops = sontest::onEachFunction(u, [](Graph& g) { return vectorizeLoops(g); });
  CHECK(sontest::verifyText(u) == "");
  v.wide = wideAccesses(u);
  size_t i = 0;
  for (int64_t a : args) {
    INFO("argc " << a);
    EvalResult now = evaluateProgram(u, a, EvalOptions{});
    CHECK(now.complete());
    opttest::checkSameRun(before[i], now);
    i++;
  }
  return v;
}

// f is called from main with lengths 0 .. 8 + argc, so both copies run
// and the one left over is seen for odd and even lengths.
std::string withMain(const std::string& f, const std::string& call) {
  return f +
         "\nfor (int n = 0; n < 9 + arg; n++) {\n"
         "  var x = new flt[n + 2];\n"
         "  var y = new flt[n + 2];\n"
         "  for (int j = 0; j < n + 2; j++) { x[j] = j * 0.5 + 1; y[j] = 7 - j; }\n"
         "  " + call + ";\n"
         "  for (int j = 0; j < n + 2; j++) { sys.io.p(x[j]); sys.io.p(\" \"); sys.io.p(y[j]); sys.io.p(\" \"); }\n"
         "  sys.io.p(\"\\n\");\n"
         "}\n"
         "return 0;\n";
}

}  // namespace

TEST_CASE("opt/vectorize: y[j] += s * x[j] runs two at a time", "[opt][vectorize]") {
  Vectorized v = vectorize(withMain("val f = { flt[] y, flt[] x, flt s, int n ->\n"
                                    "  for (int j = 0; j < n; j++) y[j] += s * x[j]; return 0; };",
                                    "f(y, x, 1.5, n)"),
                           {1, 2, 3});
  CHECK(v.loops >= 1);
  CHECK(v.wide >= 3);  // two loads, one store
}

TEST_CASE("opt/vectorize: a constant trip count of 16 or more", "[opt][vectorize]") {
  std::string src =
      "val f = { flt[] y, flt[] x -> for (int j = 0; j < 16; j++) y[j] = x[j] * 2.0 + y[j]; return 0; };\n"
      "var a = new flt[16 + arg]; var b = new flt[16 + arg];\n"
      "for (int i = 0; i < 16; i++) { a[i] = i; b[i] = 16 - i; }\n"
      "f(a, b); f(b, a);\n"
      "for (int i = 0; i < 16; i++) { sys.io.p(a[i]); sys.io.p(\" \"); sys.io.p(b[i]); sys.io.p(\" \"); }\n"
      "return 0;\n";
  CHECK(vectorize(src, {1, 2}).loops >= 1);
}

TEST_CASE("opt/vectorize: the other shapes it takes", "[opt][vectorize]") {
  // `<=`, offsets on both sides of j, -, / and invariants on either side.
  CHECK(vectorize(withMain("val f = { flt[] y, flt[] x, flt s, int n ->\n"
                           "  for (int j = 1; j <= n; j++) y[j] = (x[j - 1] - x[j + 1]) / s + (s - x[j]); return 0; };",
                           "f(y, x, 3.0, n)"),
                  {1, 2})
            .loops >= 1);
  // min, max, -x, abs and sqrt (a NaN and -0.0 among the values).
  CHECK(vectorize(withMain("val f = { flt[] y, flt[] x, int n -> for (int j = 0; j < n; j++)\n"
                           "  y[j] = sys.math.min(x[j], y[j]) - sys.math.max(-x[j], sys.math.sqrt(sys.math.abs(y[j])));\n"
                           "  return 0; };",
                           "x[0] = 0.0 / (n - n); y[1] = -0.0; f(y, x, n)"),
                  {1, 2})
            .loops >= 1);
  // A store of an invariant.
  CHECK(vectorize(withMain("val f = { flt[] y, flt s, int n -> for (int j = 0; j < n; j++) y[j] = s; return 0; };",
                           "f(y, 2.5, n)"),
                  {1, 2})
            .loops >= 1);
  // The counter's final value after the loop (from the loop as written).
  CHECK(vectorize(withMain("val f = { flt[] y, flt[] x, int n -> int j = 0;\n"
                           "  for (j = 0; j < n; j++) y[j] = x[j] * x[j]; sys.io.p(j); return j; };",
                           "f(y, x, n)"),
                  {1, 2})
            .loops >= 1);
}

TEST_CASE("opt/vectorize: one array at every distance", "[opt][vectorize]") {
  // dst and src are one array for every call; d runs from -3 to 3, so the
  // test before the copy must send d = 1 and d = -1 (and only those) to
  // the loop as written: the copy would read what iteration j stores.
  std::string src =
      "val shift = { flt[] dst, flt[] src, int d, int lo, int hi ->\n"
      "  for (int j = lo; j < hi; j++) dst[j] = src[j - d] + 0.5; return 0; };\n"
      "for (int d = -3; d <= 3; d++) {\n"
      "  var a = new flt[8 + arg];\n"
      "  for (int j = 0; j < a#; j++) a[j] = j;\n"
      "  int lo = 0; int hi = a#;\n"
      "  if (d > 0) lo = d;\n"
      "  if (d < 0) hi = a# + d;\n"
      "  shift(a, a, d, lo, hi);\n"
      "  for (int j = 0; j < a#; j++) { sys.io.p(a[j]); sys.io.p(\" \"); }\n"
      "  sys.io.p(\"\\n\");\n"
      "}\n"
      "return 0;\n";
  Vectorized v = vectorize(src, {1, 2});
  CHECK(v.loops >= 1);
}

TEST_CASE("opt/vectorize: loops it leaves alone", "[opt][vectorize]") {
  auto none = [](const std::string& f, const std::string& call) {
    return vectorize(withMain(f, call), {1, 2}).loops == 0;
  };
  // A sum: adding the lanes apart would round differently.
  CHECK(none("val f = { flt[] y, flt[] x, int n -> flt s = 0.0; for (int j = 0; j < n; j++) s += x[j];\n"
             "  y[0] = s; return 0; };",
             "f(y, x, n)"));
  // Integers.
  CHECK(none("val f = { int[] y, int n -> for (int j = 0; j < n; j++) y[j] = y[j] * 3; return 0; };",
             "f(new int[n], n)"));
  // j itself as a value.
  CHECK(none("val f = { flt[] y, int n -> for (int j = 0; j < n; j++) y[j] = j; return 0; };", "f(y, n)"));
  // One array, the store an element after the load: always collides.
  CHECK(none("val f = { flt[] y, int n -> for (int j = 0; j < n; j++) y[j + 1] = y[j] * 2.0; return 0; };",
             "f(y, n)"));
  // A call in the body.
  CHECK(none("val f = { flt[] y, int n -> for (int j = 0; j < n; j++) { y[j] = y[j] * 2.0; sys.io.p(j); } return 0; };",
             "f(y, n)"));
  // Steps of 2, and a branch left in the body.
  CHECK(none("val f = { flt[] y, int n -> for (int j = 0; j < n; j += 2) y[j] = y[j] * 2.0; return 0; };",
             "f(y, n)"));
  CHECK(none("val f = { flt[] y, flt[] x, int n -> for (int j = 0; j < n; j++) if (x[j] < 3.0) y[j] = x[j] / y[j];\n"
             "  return 0; };",
             "f(y, x, n)"));
  // At most 5 iterations: a round of the copy would gain nothing, and its
  // wide loads would wait for the narrow stores before them.
  CHECK(none("val f = { flt[] y, flt[] x, int n -> for (int j = 0; j < 5; j++) y[j] = x[j] * 2.0; return 0; };",
             "f(y, x, n)"));
  // Bounds checks left (no loop-version copy without them: the offset
  // is not a constant nor invariant).
  CHECK(none("val f = { flt[] y, flt[] x, int n -> for (int j = 0; j < n; j++) y[j] = x[j * 2 % 3]; return 0; };",
             "f(y, x, n)"));
}

TEST_CASE("opt/vectorize: work grows linearly with the function", "[opt][vectorize][work]") {
  // One function with m loops over arrays of run-time length.
  auto program = [](int m) {
    std::string s = "val f = { flt[] a, flt[] b, int n, flt s ->\n";
    for (int i = 0; i < m; i++) {
      std::string j = "j" + std::to_string(i);
      s += "  for (int " + j + " = 0; " + j + " < n; " + j + "++) b[" + j + "] = a[" + j + "] * s + " +
           std::to_string(i) + ".0;\n";
    }
    return s + "  return 0; };";
  };
  auto work = [&](int m) {
    return opttest::loopPassWork(program(m), "vectorize", [](Graph& g) { return vectorizeLoops(g); }, m);
  };
  uint64_t small = work(50), large = work(200);
  INFO("work: " << small << " at 50 loops, " << large << " at 200");
  CHECK(small > 0);
  CHECK(double(large) / double(small) < 5.0);
}

TEST_CASE("opt/vectorize: -g names the copy's values too", "[opt][vectorize]") {
  // j and t are bound in the loop; the copy binds them to its own j and
  // to the two-lane product (lane 0 is iteration j's value).
  Unit u;
  u.debugInfo = true;
  opttest::parseUpTo(u,
                     "val f = { flt[] y, flt[] x, int n -> for (int j = 0; j < n; j++) { flt t = x[j] * 2.0; y[j] = t; }\n"
                     "  return 0; };\n"
                     "var a = new flt[4 + arg]; var b = new flt[4 + arg]; f(a, b, 4); f(b, a, 3); return 0;\n",
                     "vectorize");
  int f = -1;
  for (size_t i = 0; i < u.funs.size(); i++)
    if (u.funs[i].name == "f") f = int(i);
  REQUIRE(f >= 0);
  Graph& g = *u.graph(f);
  auto named = [&](bool vector) {
    int n = 0;
    for (Node* x : liveNodes(g))
      if (x->dbg != 0 && (x->type && x->type->isVec()) == vector) n++;
    return n;
  };
  // j: bound on the Phi of each loop (loop-version made two of them).
  auto phis = [&]() {
    int n = 0;
    for (Node* x : liveNodes(g))
      if (x->op == Op::Phi && x->in[0]->op == Op::Loop && x->dbg != 0) n++;
    return n;
  };
  REQUIRE(named(false) > 0);
  CHECK(named(true) == 0);
  int before = phis();
  CHECK(vectorizeLoops(g) == 1);
  CHECK(sontest::verifyText(u) == "");
  CHECK(named(true) == 1);  // t, on the VMul
  CHECK(phis() == before + 1);
}

TEST_CASE("opt/vectorize: the peepholes after it visit the copy, not the whole function",
          "[opt][vectorize][work]") {
  // One loop it vectorizes after k lines of straight-line code: the
  // peephole work of the pass must not grow with k.
  opttest::checkPeepholeStepsFlat("flt[] a, flt[] b, int n, int x, flt c",
                                  "  for (int j = 0; j < n; j++) b[j] = a[j] * c + 1.0;\n  return t; };", "vectorize",
                                  [](Graph& g) { return vectorizeLoops(g); });
}
