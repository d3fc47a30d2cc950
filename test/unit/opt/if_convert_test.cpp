// Tests for opt/if_convert.h: small diamonds over integers and references
// become Selects that the graph evaluator runs like the branches they
// replace; arms that could trap, touch memory, call, merge floats or cost
// too much stay branches; instruction selection makes a cmov, with the
// compare fused into it.
#include <catch2/catch.hpp>

#include "codegen/lower.h"
#include "opt/if_convert.h"
#include "test/unit/opt/pass_on_program.h"

using namespace simplec;

namespace {

int convertAndCompare(const std::string& src, int64_t argc = 1) {
  Unit g;
  return opttest::passKeepsBehaviour(g, src, convertIfs, argc);
}

int selectsIn(const Unit& u) {
  int n = 0;
  for (const FunInfo& f : u.funs)
    if (f.hasBody())
      for (Node* x : liveNodes(*f.graph)) n += x->op == Op::Select;
  return n;
}

}  // namespace

TEST_CASE("opt/if_convert: diamonds over integers and references become Selects", "[opt][if_convert]") {
  for (int64_t argc = 0; argc < 4; argc++) {
    // Both arms computed: collatz's step, with `x & 1` as the condition.
    CHECK(convertAndCompare("int x = 27 + arg; int n = 0;\n"
                            "while (x != 1) { if (x & 1) x = 3 * x + 1; else x = x >> 1; n++; }\nreturn n;",
                            argc) == 1);
    // A ternary, an if without else, and a swap (two merges, one diamond).
    CHECK(convertAndCompare("int a = arg * 5 - 7; int b = 3 - arg;\n"
                            "int m = a > b ? a : b; if (m < 0) m = -m;\n"
                            "if (a > b) { int t = a; a = b; b = t; }\nsys.io.p(a); sys.io.p(b); return m;",
                            argc) == 3);
    // A clamp: the inner diamond first, then the one around it.
    CHECK(convertAndCompare("int v = arg * 37 - 50; int x = v < 0 ? 0 : v > 20 ? 20 : v; return x;", argc) == 2);
    // References, null included; a reference as the condition.
    CHECK(convertAndCompare("struct S { int v; };\nS? p = arg > 1 ? new S { v = 4; } : null;\n"
                            "S? q = new S { v = 9; };\nS? r = arg == 2 ? p : q;\n"
                            "int k = p ? 1 : 0;\nif (r) return r.v + k; return k;",
                            argc) >= 2);
  }
}

// The evaluator caches computed values and recomputes those that depend on
// a Phi its Region just assigned: a Select depends on all three inputs (a
// differential fuzzer finding, seed 7000158: only the false value changed
// from one iteration to the next, and the Select kept its first value).
TEST_CASE("opt/if_convert: a Select whose false value alone changes in a loop is recomputed", "[opt][if_convert]") {
  for (int64_t argc = 1; argc < 8; argc += 6)
    CHECK(convertAndCompare("int k = arg; int s = 0;\n"
                            "for (int i = 0; i < 10; i++) { int v = k > 5 ? 100 : i * 2; sys.io.p(v); s = s + v; }\n"
                            "return s;",
                            argc) == 1);
}

TEST_CASE("opt/if_convert: arms that trap, touch memory, call, merge floats or cost too much stay",
          "[opt][if_convert]") {
  for (int64_t argc = 0; argc < 3; argc++) {
    // A division by what may be zero must not run on the other path.
    CHECK(convertAndCompare("int d = arg - 1; int q = d != 0 ? 100 / d : 0; return q;", argc) == 0);
    CHECK(convertAndCompare("int[] a = new int[4]; if (arg > 0) a[1] = 5; else a[2] = 6; return a[1] + a[2];",
                            argc) == 0);
    CHECK(convertAndCompare("int x = 0; if (arg > 1) { sys.io.p(1); x = 2; } return x;", argc) == 0);
    CHECK(convertAndCompare("flt f = arg > 1 ? 1.5 : 2.5; return int(f * 2.0);", argc) == 0);
    // Five operations on one side: more than kMaxSpeculated.
    CHECK(convertAndCompare("int a = arg; int x = a > 1 ? ((a * 3 + 1) * 5 - 2) ^ 7 << 1 : a; return x;", argc) == 0);
    // A condition that waits for a load stays a branch (an interpreter's dispatch).
    CHECK(convertAndCompare("int[] a = new int[4]; a[arg & 3] = 5; int x = a[1] > 2 ? 7 : 3; return x;", argc) == 0);
    // Reading memory: a[i] may be out of bounds on the path that did not check it.
    CHECK(convertAndCompare("int[] a = new int[3]; int i = arg; int x = i < 3 ? a[i] : 0; return x;", argc) == 0);
  }
}

TEST_CASE("opt/if_convert: in the -O2 pipeline a select is a cmov after its fused compare", "[opt][if_convert]") {
  Unit g;
  SourceFile file("t.smp", "val f = { int a, int b -> return a < b ? b : a; };");
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
  PassOptions o;
  o.verifyEach = true;
  runPipeline(g, o);
  CHECK(selectsIn(g) == 1);
  LowerOptions lo;
  lo.allocate = false;
  mir::MModule m = lowerUnit(g, "t.smp", lo);
  REQUIRE(m.funcs.size() == 1);
  std::string text = mir::print(m.funcs[0]);
  INFO(text);
  size_t cmp = text.find("cmp");
  size_t cmov = text.find("cmovl");
  CHECK(cmp != std::string::npos);
  CHECK(cmov != std::string::npos);
  CHECK(cmp < cmov);
  CHECK(text.find("set") == std::string::npos);  // the compare's 0/1 is never made
  CHECK(text.find("jl") == std::string::npos);
}

namespace {

// The passes before if-convert (so that in-bounds checks are gone), then
// the pass itself; main must behave the same. Returns the diamonds
// converted; `storesGone`: how many fewer Stores there are.
int convertAfterPipeline(const std::string& src, int64_t argc, Unit& u, int* storesGone) {
  opttest::parseUpTo(u, src, "if-convert");
  EvalResult before = evaluateProgram(u, argc, EvalOptions{});
  int stores = sontest::countLive(u, Op::Store);
  int n = sontest::onEachFunction(u, convertIfs);
  CHECK(sontest::verifyText(u) == "");
  *storesGone = stores - sontest::countLive(u, Op::Store);
  opttest::checkSameRun(before, evaluateProgram(u, argc, EvalOptions{}));
  return n;
}

}  // namespace

TEST_CASE("opt/if_convert: one store in each arm to one address sinks, and a max of loads is a select",
          "[opt][if_convert]") {
  // Arrays of run-time length (not scalar-replaced), indexed below a test
  // that proves the indices in bounds (no check left in the arms).
  const std::string setup =
      "int[] c = new int[2 + arg]; int[] a = new int[3 + arg];\n"
      "for (int i = 0; i < a#; i++) a[i] = (i * 7 + arg * 5) % 11;\n"
      "for (int i = 0; i < c#; i++) c[i] = i;\n"
      "if (c# > 2 && a# > 2) {\n";
  for (int64_t argc = 0; argc < 4; argc++) {
    // lcs's step: both arms store to c[1]; the condition compares the two
    // loaded values the arms store, so it may wait for the loads.
    Unit u;
    int gone = 0;
    CHECK(convertAfterPipeline(setup + "  if (a[1] >= a[2]) c[1] = a[1]; else c[1] = a[2]; }\n"
                                       "sys.io.p(c[1]); return c[0] + c[1];",
                               argc, u, &gone) == 2);  // the store sinks, the max is a select
    CHECK(gone == 1);
    CHECK(selectsIn(u) == 1);
    // Stores to two addresses stay in their arms.
    Unit v;
    CHECK(convertAfterPipeline(setup + "  if (a[1] >= 2) c[1] = 7; else c[2] = 3; }\nreturn c[1] + c[2];", argc, v,
                               &gone) == 0);
    CHECK(gone == 0);
    // The store sinks, but a branch on a load that does not pick one of
    // the compared values stays a branch.
    Unit w;
    CHECK(convertAfterPipeline(setup + "  if (a[1] >= 2) c[2] = 7; else c[2] = 3; }\nreturn c[2];", argc, w,
                               &gone) == 1);
    CHECK(gone == 1);
    CHECK(selectsIn(w) == 0);
  }
}
