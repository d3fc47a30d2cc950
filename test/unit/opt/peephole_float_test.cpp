// Tests for the float peephole rules (opt/peephole.cpp): only rewrites that
// are exact for every input, -0.0 and NaN included, apply.
#include <catch2/catch.hpp>

#include "opt/peephole.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;
using simplec::sontest::verifyText;

namespace {

// A function f(x) with x converted to a float, and a peephole over its graph.
struct Fixture {
  Unit u;
  SonBuilder b{u, "f", 1};
  Graph& g = b.g;
  Peephole peep{g};
  Node* x = b.op(Op::IToF, b.parm(0));
  Node* fc(double v) { return g.con(Type::fltConst(v)); }
  Node* rewriteReturned(Node* n) {
    b.ret(b.fun, n);
    Node* r = peep.run(n);
    if (r != n && !n->dead) g.subsume(n, r);
    sweepUnreachable(g);
    CHECK(verifyText(g) == "");
    return r;
  }
};

}  // namespace

TEST_CASE("opt/peephole: exact float identities", "[opt][peephole][float]") {
  Fixture f;
  SECTION("x + -0.0 is x") { CHECK(f.rewriteReturned(f.b.op(Op::FAdd, f.x, f.fc(-0.0))) == f.x); }
  SECTION("-0.0 + x is x (the constant moves right)") {
    CHECK(f.rewriteReturned(f.b.op(Op::FAdd, f.fc(-0.0), f.x)) == f.x);
  }
  SECTION("x - 0.0 is x") { CHECK(f.rewriteReturned(f.b.op(Op::FSub, f.x, f.fc(0.0))) == f.x); }
  SECTION("x * 1.0 is x") { CHECK(f.rewriteReturned(f.b.op(Op::FMul, f.x, f.fc(1.0))) == f.x); }
  SECTION("x / 1.0 is x") { CHECK(f.rewriteReturned(f.b.op(Op::FDiv, f.x, f.fc(1.0))) == f.x); }
  SECTION("--x is x") { CHECK(f.rewriteReturned(f.b.op(Op::FNeg, f.b.op(Op::FNeg, f.x))) == f.x); }
  SECTION("rounding to f32 twice is rounding once") {
    Node* once = f.b.op(Op::FToF32, f.x);
    CHECK(f.rewriteReturned(f.b.op(Op::FToF32, once)) == once);
  }
}

TEST_CASE("opt/peephole: float rewrites that would be wrong are not made", "[opt][peephole][float]") {
  Fixture f;
  // x + 0.0 is 0.0 for x = -0.0; x - x and x * 0.0 are NaN for x = NaN or
  // inf (and x * 0.0 is -0.0 for negative x); x == x is false for NaN.
  SECTION("x + 0.0 stays") {
    Node* n = f.b.op(Op::FAdd, f.x, f.fc(0.0));
    CHECK(f.rewriteReturned(n)->op == Op::FAdd);
  }
  SECTION("x - x stays") {
    Node* n = f.b.op(Op::FSub, f.x, f.x);
    CHECK(f.rewriteReturned(n)->op == Op::FSub);
  }
  SECTION("x * 0.0 stays") {
    Node* n = f.b.op(Op::FMul, f.x, f.fc(0.0));
    CHECK(f.rewriteReturned(n)->op == Op::FMul);
  }
  SECTION("x == x stays") {
    Node* n = f.b.op(Op::FEQ, f.x, f.x);
    CHECK(f.rewriteReturned(n)->op == Op::FEQ);
  }
  SECTION("x < x stays") {
    Node* n = f.b.op(Op::FLT, f.x, f.x);
    CHECK(f.rewriteReturned(n)->op == Op::FLT);
  }
}
