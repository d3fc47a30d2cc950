// Tests for opt/narrow.h and the Cast transfer function: below a branch the
// tested values are narrowed, so the analysis folds comparisons and the
// peepholes drop ZeroChecks; uses that are not below the branch keep the
// plain value.
#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "opt/narrow.h"
#include "opt/pipeline.h"
#include "parser/parser.h"
#include "test/unit/optimized_program.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;

namespace {

struct Counts {
  int casts = 0, ifs = 0, checks = 0;
};

Counts count(const Unit& g) {
  Counts c;
  c.casts = sontest::countLive(g, Op::Cast);
  // A test left in the code: a branch, or a select (if-convert.h) where the
  // arms were small enough to compute both.
  c.ifs = sontest::countLive(g, Op::If) + sontest::countLive(g, Op::Select);
  c.checks = sontest::countLive(g, Op::ZeroCheck);
  return c;
}

// The graph of `src` after the -O2 pipeline (verified after every pass).
Counts optimized(const std::string& src, int* inserted = nullptr) {
  Unit g;
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
  if (inserted) {
    *inserted = sontest::onEachFunction(g, insertNarrowingCasts);
    REQUIRE(sontest::verifyText(g) == "");
  }
  PassOptions o;
  o.verifyEach = true;
  o.checkFixedPoint = true;
  runPipeline(g, o);
  return count(g);
}

}  // namespace

TEST_CASE("opt/narrow: a divisor tested positive keeps no ZeroCheck", "[opt][narrow]") {
  CHECK(optimized("int d = arg - 1; int x = 0; if (d > 0) x = 100 / d; return x;").checks == 0);
  CHECK(optimized("int d = arg - 1; int x = 0; if (d < 0) x = 100 / d; return x;").checks == 0);
  CHECK(optimized("int d = arg - 1; int x = 0; if (d >= 1) x = 100 / d; else x = 5; return x;").checks == 0);
  // The false arm: d <= 0 says nothing about zero.
  CHECK(optimized("int d = arg - 1; int x = 0; if (d > 0) x = 1; else x = 100 / d; return x;").checks == 1);
  // A divisor in [0, ...] tested against 0 on the right arm.
  CHECK(optimized("int d = arg & 15; int x = 0; if (d != 0) x = 100 / d; return x;").checks == 0);
  // Only the arm that divides is narrowed: the division after the merge keeps its check.
  CHECK(optimized("int d = arg - 1; int x = 0; if (d > 0) x = 1; return x + 100 / d;").checks == 1);
}

TEST_CASE("opt/narrow: comparisons decided by a dominating test fold", "[opt][narrow]") {
  // Two Ifs without narrowing: the loop test and `i < 20`.
  CHECK(optimized("int s = 0; for (int i = 0; i < 10; i++) { if (i < 20) s += i; } return s;").ifs == 1);
  CHECK(optimized("int s = 0; for (int i = 0; i < 10; i++) { if (i >= 0) s += 1000 / (i + 1); } return s;")
            .checks == 0);
  // The false arm: arg >= 10 there, so arg > 5 holds.
  CHECK(optimized("int r = 0; if (arg < 10) r = 1; else { if (arg > 5) r = 2; else r = 3; } return r;").ifs == 1);
  // Equality pins the value to the constant.
  CHECK(optimized("int r = 0; if (arg == 3) { if (arg + 1 == 4) r = 2; else r = 3; } return r;").ifs == 1);
  // Nothing known: both tests stay.
  CHECK(optimized("int r = 0; if (arg < 10) r = 1; if (arg > 5) r = r + 2; return r;").ifs == 2);
}

TEST_CASE("opt/narrow: only uses below the arm are rewired", "[opt][narrow]") {
  int inserted = -1;
  // x is used only after the merge: nothing to narrow.
  optimized("int x = arg; int y = 0; if (x < 5) y = 1; return x + y;", &inserted);
  CHECK(inserted == 0);
  // Used on both arms: a Cast for each.
  optimized("int x = arg; int y = 0; if (x < 5) y = x + 1; else y = x - 1; return y;", &inserted);
  CHECK(inserted == 2);
}

TEST_CASE("opt/narrow: the Cast transfer function", "[opt][narrow]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Graph& g = b.g;
  Node* v = b.parm(0);
  auto cast = [&](CastRel rel, Node* bound, const Type* vt = Type::intBot()) {
    v->type = vt;
    Node* c = g.make(Op::Cast, {b.fun, v, bound}, nullptr, int64_t(rel));
    return compute(c);
  };
  Node* ten = b.con(10);
  CHECK(cast(CastRel::LT, ten) == Type::intRange(INT64_MIN, 9));
  CHECK(cast(CastRel::LE, ten) == Type::intRange(INT64_MIN, 10));
  CHECK(cast(CastRel::GT, ten) == Type::intRange(11, INT64_MAX));
  CHECK(cast(CastRel::GE, ten) == Type::intRange(10, INT64_MAX));
  CHECK(cast(CastRel::EQ, ten) == Type::intConst(10));
  CHECK(cast(CastRel::NE, ten) == Type::intBot());
  CHECK(cast(CastRel::NE, ten, Type::intRange(10, 20)) == Type::intRange(11, 20));
  CHECK(cast(CastRel::NE, ten, Type::intRange(0, 10)) == Type::intRange(0, 9));
  CHECK(cast(CastRel::LT, ten, Type::intRange(0, 100)) == Type::intRange(0, 9));
  // A bound that is a range: the weakest end of it.
  Node* range = b.parm(1);
  range->type = Type::intRange(5, 8);
  CHECK(cast(CastRel::LT, range) == Type::intRange(INT64_MIN, 7));
  CHECK(cast(CastRel::GT, range) == Type::intRange(6, INT64_MAX));
  // Impossible facts: the arm is never taken.
  CHECK(cast(CastRel::LT, b.con(INT64_MIN)) == Type::intTop());
  CHECK(cast(CastRel::GT, ten, Type::intRange(0, 10)) == Type::intTop());
  // Below dead control nothing is known yet.
  Node* dead = b.dead();
  Node* c = g.make(Op::Cast, {dead, v, ten}, Type::intBot(), int64_t(CastRel::LT));
  CHECK(compute(c) == Type::intTop());
}

TEST_CASE("opt/narrow: an idle Cast that guards a division stays", "[opt][narrow]") {
  // The zero check went because of the Cast below `!= 0`; once types settle
  // the Cast narrows nothing more than its value, but it still keeps the
  // division (which has no control of its own) below the test.
  Unit g;
  test::optimizeProgram(g,
                        "val f = { i8 p -> if ((p >> 1) != 0) p += 0 / (p >> 1); sys.io.p(p); };\n"
                        "val main = { int arg -> for (int i = 0; i < 3; i++) for (int k = 0; k < 1; k++) f(i * 10); };");
  int divisions = 0;
  for (Node* d : sontest::liveOfKind(g, Op::Div)) {
    if (d->in[0]) continue;  // pinned by its own control
    divisions++;
    Node* divisor = d->in[2];
    bool nonZeroConst = divisor->op == Op::Con && divisor->type->isConst() && divisor->type->value() != 0;
    CHECK((divisor->op == Op::Cast || nonZeroConst));
  }
  CHECK(divisions >= 1);
}
