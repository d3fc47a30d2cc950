// Tests for opt/scalar_replace.h: which allocations go (their fields become
// values: stored values, Phis where paths merge and around loops, zero for
// a fresh object, in every iteration of a loop that makes one) and which
// stay (the reference escapes, an offset varies, the length is unknown),
// with the program computing the same before and after (graph evaluator).
#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "opt/scalar_replace.h"
#include "parser/parser.h"
#include "son/evaluator.h"
#include "test/unit/opt/pass_on_program.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;

namespace {

int liveOps(const Unit& g, Op op) { return sontest::countLive(g, op); }

struct Outcome {
  int removed;
  int newsLeft, loadsLeft, storesLeft;
};

// Runs the pass on the parsed program (main(argc) must behave the same).
Outcome replaceIn(const std::string& src, int64_t argc = 1) {
  Unit g;
  int removed = opttest::passKeepsBehaviour(g, src, scalarReplace, argc);
  return {removed, liveOps(g, Op::New), liveOps(g, Op::Load), liveOps(g, Op::Store)};
}

const char* kPoint = "struct P { int x; int y; };\n";

}  // namespace

TEST_CASE("opt/scalar_replace: fields become stored values and Phis", "[opt][scalar_replace]") {
  // Straight line.
  Outcome o = replaceIn(std::string(kPoint) + "P p = new P { x = arg; y = 4; }; p.x = p.x * p.y; return p.x + p.y;", 3);
  CHECK(o.removed == 1);
  CHECK(o.newsLeft == 0);
  CHECK(o.loadsLeft == 0);
  CHECK(o.storesLeft == 0);
  // Stores on two paths merge in a Phi; a field never stored reads zero.
  for (int64_t a : {1, 9}) {
    o = replaceIn(std::string(kPoint) + "P !p = new P; if (arg > 5) p.y = 3; else p.x = arg; return p.x * 10 + p.y;", a);
    CHECK(o.removed == 1);
    CHECK(o.loadsLeft == 0);
  }
  // A field carried around a loop.
  o = replaceIn(std::string(kPoint) + "P !p = new P; for (int i = 0; i < arg * 10; i++) p.x = p.x + i; return p.x;", 4);
  CHECK(o.removed == 1);
  CHECK(o.loadsLeft == 0);
  // Narrow and float fields read back what the store kept.
  o = replaceIn("struct Q { u8 b; i32 w; f32 f; flt d; bool t; };\n"
                "Q !q = new Q; q.b = arg * 300; q.w = 3000000000 + arg; q.f = 0.1; q.d = 0.1; q.t = 2;\n"
                "sys.io.p(q.b); sys.io.p(q.w); sys.io.p(q.f); sys.io.p(q.d); sys.io.p(q.t); return 0;",
                2);
  CHECK(o.removed == 1);
  CHECK(o.newsLeft == 0);
}

TEST_CASE("opt/scalar_replace: an object made in a loop starts at zero every time", "[opt][scalar_replace]") {
  // Reading q.x before the store must give 0 in each iteration, not the
  // previous iteration's value.
  Outcome o = replaceIn(std::string(kPoint) +
                            "int s = 0;\nfor (int i = 1; i < 6; i++) { P !q = new P; s = s * 10 + q.x; q.x = i; s += q.x; }\n"
                            "sys.io.p(s); return 0;");
  CHECK(o.removed == 1);
  CHECK(o.loadsLeft == 0);
  // A store in an inner loop, read after it, in an outer loop making the object.
  o = replaceIn(std::string(kPoint) +
                "int s = 0;\nfor (int i = 0; i < 4; i++) { P !q = new P { y = i; };\n"
                "  for (int j = 0; j < i; j++) q.x = q.x + q.y; s = s * 7 + q.x; }\nreturn s;");
  CHECK(o.removed == 1);
}

TEST_CASE("opt/scalar_replace: constant-length arrays with constant indices", "[opt][scalar_replace]") {
  Outcome o = replaceIn("int[] t = new int[3]; t[0] = arg; t[2] = t[0] + 1; return t[1] + t[2] + t#;", 5);
  CHECK(o.removed == 1);
  CHECK(o.newsLeft == 0);
  // An index that varies: the array stays, as does one of unknown length.
  o = replaceIn("int[] t = new int[3]; t[arg] = 7; return t[1];", 1);
  CHECK(o.removed == 0);
  o = replaceIn("int[] t = new int[arg]; t[0] = 7; return t[0];", 2);
  CHECK(o.removed == 0);
  // A negative length still fails at run time.
  o = replaceIn("int[] t = new int[-1]; return 0;");
  CHECK(o.removed == 0);
}

TEST_CASE("opt/scalar_replace: a reference that escapes keeps the object", "[opt][scalar_replace]") {
  // Stored into another object, passed to a function, returned, compared.
  Outcome o = replaceIn(std::string(kPoint) + "struct H { P? p; };\nval keep = { H h -> return 1; };\n"
                                                "H h = new H; P p = new P { x = 2; }; h.p = p; return keep(h) + p.x;");
  CHECK(o.removed == 0);
  // An object only stored into another local object goes after it.
  o = replaceIn(std::string(kPoint) + "struct H { P? p; };\nH h = new H; P p = new P { x = 2; }; h.p = p; return p.x;");
  CHECK(o.removed == 2);
  CHECK(o.newsLeft == 0);
  o = replaceIn(std::string(kPoint) + "val get = { P p -> return p.x; };\nP p = new P { x = 5; }; return get(p);");
  CHECK(o.removed == 0);
  o = replaceIn(std::string(kPoint) + "val mk = { int a -> return new P { x = a; }; };\nreturn mk(arg).x;");
  CHECK(o.removed == 0);
  o = replaceIn(std::string(kPoint) + "P p = new P; P q = new P; sys.io.p(p == q); return 0;");
  CHECK(o.removed == 0);
}

TEST_CASE("opt/scalar_replace: in the -O2 pipeline, after inlining", "[opt][scalar_replace]") {
  // A method call on a local object inlines; then the object goes.
  opttest::PassResult r = opttest::runPassOnProgram(
      "struct Acc { int !sum = 0; val add = { int v -> sum = sum + v; return self; }; };\n"
      "Acc !a = new Acc; for (int i = 0; i < arg; i++) a.add(i); return a.sum;",
      "scalar-replace", [](const Unit& g) { return liveOps(g, Op::New); }, scalarReplace);
  CHECK(r.before == 1);
  CHECK(r.left == 0);
}
