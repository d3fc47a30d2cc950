// Tests for the transfer functions (son/compute.h): constant folding of every
// arithmetic and comparison op against a reference written here with
// unsigned arithmetic (wrap-around, MIN / -1, counts mod 64), soundness and
// monotonicity of the range results (seeded property tests), and the typing
// of control nodes, projections and Phis.
#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>
#include <random>

#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;

namespace {

const Op kBinOps[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Mod, Op::And, Op::Or, Op::Xor, Op::Shl,
                      Op::Sar, Op::Shr, Op::EQ,  Op::NE,  Op::LT,  Op::LE};

// The machine's meaning of each op, from unsigned arithmetic only.
int64_t reference(Op op, int64_t a, int64_t b) {
  uint64_t ua = uint64_t(a), ub = uint64_t(b);
  unsigned c = unsigned(ub & 63);
  switch (op) {
    case Op::Add: return int64_t(ua + ub);
    case Op::Sub: return int64_t(ua - ub);
    case Op::Mul: return int64_t(ua * ub);
    case Op::Div:
    case Op::Mod: {
      // Truncating division on magnitudes, signs fixed up after.
      uint64_t ma = a < 0 ? 0 - ua : ua, mb = b < 0 ? 0 - ub : ub;
      uint64_t q = ma / mb, r = ma % mb;
      if (op == Op::Div) return int64_t((a < 0) != (b < 0) ? 0 - q : q);
      return int64_t(a < 0 ? 0 - r : r);
    }
    case Op::And: return int64_t(ua & ub);
    case Op::Or: return int64_t(ua | ub);
    case Op::Xor: return int64_t(ua ^ ub);
    case Op::Shl: return int64_t(ua << c);
    case Op::Shr: return int64_t(ua >> c);
    case Op::Sar: {
      uint64_t r = ua >> c;
      if (a < 0 && c) r |= ~(~uint64_t(0) >> c);  // copy the sign into the vacated bits
      return int64_t(r);
    }
    // Signed order from unsigned order: flip the sign bits.
    case Op::EQ: return ua == ub;
    case Op::NE: return ua != ub;
    case Op::LT: return (ua ^ (1ull << 63)) < (ub ^ (1ull << 63));
    case Op::LE: return (ua ^ (1ull << 63)) <= (ub ^ (1ull << 63));
    case Op::Neg: return int64_t(0 - ua);
    case Op::Not: return ua == 0;
    default: FAIL("no reference for " << opName(op)); return 0;
  }
}

bool traps(Op op, int64_t b) { return (op == Op::Div || op == Op::Mod) && b == 0; }

// A leaf holding a value of type t, as the transfer functions see it.
Node* leaf(Graph& g, SonBuilder& b, const Type* t) { return g.make(Op::Parm, {b.fun}, t, 0); }

const Type* computeBin(Graph& g, SonBuilder& b, Op op, const Type* x, const Type* y) {
  Node* n = g.make(op, {nullptr, leaf(g, b, x), leaf(g, b, y)});
  return compute(n);
}
const Type* computeUn(Graph& g, SonBuilder& b, Op op, const Type* x) {
  Node* n = g.make(op, {nullptr, leaf(g, b, x)});
  return compute(n);
}

// Values that exercise the edges of 64-bit arithmetic.
const int64_t kEdges[] = {0, 1, -1, 2, -2, 3, 7, -7, 63, 64, 65, -64, 100, 1ll << 32,
                          INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1, 0x5555555555555555ll};

}  // namespace

TEST_CASE("son/compute: the reference agrees with hand-computed edge cases", "[son][compute]") {
  // (The reference is what the other tests trust: check it against known answers.)
  CHECK(reference(Op::Div, -7, 2) == -3);
  CHECK(reference(Op::Mod, -7, 2) == -1);
  CHECK(reference(Op::Mod, 7, -2) == 1);
  CHECK(reference(Op::Div, INT64_MIN, -1) == INT64_MIN);
  CHECK(reference(Op::Mod, INT64_MIN, -1) == 0);
  CHECK(reference(Op::Sar, -8, 1) == -4);
  CHECK(reference(Op::Sar, -1, 63) == -1);
  CHECK(reference(Op::LT, -1, 0) == 1);
  CHECK(reference(Op::LT, INT64_MAX, INT64_MIN) == 0);
}

TEST_CASE("son/compute: foldBinary wraps like the machine", "[son][compute]") {
  CHECK(foldBinary(Op::Add, INT64_MAX, 1) == INT64_MIN);
  CHECK(foldBinary(Op::Sub, INT64_MIN, 1) == INT64_MAX);
  CHECK(foldBinary(Op::Mul, INT64_MIN, -1) == INT64_MIN);
  CHECK(foldBinary(Op::Mul, 1ll << 32, 1ll << 32) == 0);
  CHECK(foldBinary(Op::Div, INT64_MIN, -1) == INT64_MIN);
  CHECK(foldBinary(Op::Mod, INT64_MIN, -1) == 0);
  CHECK(foldBinary(Op::Div, -7, 2) == -3);   // truncates toward zero
  CHECK(foldBinary(Op::Mod, -7, 2) == -1);   // sign of the dividend
  CHECK(foldBinary(Op::Mod, 7, -2) == 1);
  CHECK(foldBinary(Op::Shl, 1, 64) == 1);    // counts mod 64
  CHECK(foldBinary(Op::Shl, 1, -1) == INT64_MIN);
  CHECK(foldBinary(Op::Shl, 3, 65) == 6);
  CHECK(foldBinary(Op::Sar, -8, 1) == -4);
  CHECK(foldBinary(Op::Sar, INT64_MIN, 63) == -1);
  CHECK(foldBinary(Op::Sar, -8, 64) == -8);
  CHECK(foldBinary(Op::Shr, -1, 60) == 15);  // >>> shifts in zeros
  CHECK(foldBinary(Op::Shr, -1, 0) == -1);
  CHECK(foldBinary(Op::Shr, INT64_MIN, 63) == 1);
  CHECK(foldBinary(Op::LT, INT64_MIN, INT64_MAX) == 1);
  CHECK(foldBinary(Op::LE, 5, 5) == 1);
  CHECK(foldBinary(Op::EQ, -1, -1) == 1);
  CHECK(foldBinary(Op::NE, -1, -1) == 0);
  for (Op op : kBinOps)
    for (int64_t a : kEdges)
      for (int64_t b : kEdges) {
        if (traps(op, b)) continue;
        INFO(opName(op) << " " << a << ", " << b);
        CHECK(foldBinary(op, a, b) == reference(op, a, b));
      }
}

TEST_CASE("son/compute: constant inputs fold to the constant result", "[son][compute]") {
  Unit u;
  SonBuilder b(u, "f", 0);
  for (Op op : kBinOps)
    for (int64_t x : kEdges)
      for (int64_t y : kEdges) {
        if (traps(op, y)) continue;
        INFO(opName(op) << " " << x << ", " << y);
        CHECK(b.op(op, b.con(x), b.con(y))->type == Type::intConst(reference(op, x, y)));
      }
  for (int64_t x : kEdges) {
    INFO(x);
    CHECK(b.op(Op::Neg, b.con(x))->type == Type::intConst(reference(Op::Neg, x, 0)));
    CHECK(b.op(Op::Not, b.con(x))->type == Type::intConst(reference(Op::Not, x, 0)));
  }
  CHECK(b.op(Op::Neg, b.con(INT64_MIN))->type == Type::intConst(INT64_MIN));
  // A division by a constant zero does not fold (it traps at run time).
  CHECK_FALSE(b.op(Op::Div, b.con(5), b.con(0))->type->isConst());
  CHECK_FALSE(b.op(Op::Mod, b.con(5), b.con(0))->type->isConst());
}

TEST_CASE("son/compute: integer ranges", "[son][compute]") {
  Unit u;
  SonBuilder b(u, "f", 0);
  Graph& g = b.g;
  auto r = [](int64_t lo, int64_t hi) { return Type::intRange(lo, hi); };
  CHECK(computeBin(g, b, Op::Add, r(1, 5), r(10, 20)) == r(11, 25));
  CHECK(computeBin(g, b, Op::Sub, r(1, 5), r(10, 20)) == r(-19, -5));
  CHECK(computeBin(g, b, Op::Mul, r(-2, 3), r(-5, 4)) == r(-15, 12));
  CHECK(computeBin(g, b, Op::Add, r(INT64_MAX - 1, INT64_MAX), r(0, 1)) == Type::intBot());  // may wrap
  CHECK(computeBin(g, b, Op::Div, r(-9, 17), Type::intConst(4)) == r(-2, 4));
  CHECK(computeBin(g, b, Op::Mod, r(0, 100), Type::intConst(7)) == r(0, 6));
  CHECK(computeBin(g, b, Op::Mod, r(0, 3), Type::intConst(7)) == r(0, 3));
  CHECK(computeBin(g, b, Op::Mod, r(-100, -1), Type::intConst(-7)) == r(-6, 0));
  CHECK(computeBin(g, b, Op::And, Type::intBot(), r(0, 255)) == r(0, 255));
  CHECK(computeBin(g, b, Op::Or, r(0, 4), r(0, 9)) == r(0, 15));
  CHECK(computeBin(g, b, Op::Sar, r(-64, 64), Type::intConst(3)) == r(-8, 8));
  CHECK(computeBin(g, b, Op::Shr, r(-1, -1 + 1), Type::intConst(60)) == r(0, 15));
  CHECK(computeBin(g, b, Op::Shl, r(1, 20), Type::intConst(4)) == r(16, 320));
  CHECK(computeBin(g, b, Op::Shl, r(-3, 2), Type::intConst(64 + 1)) == r(-6, 4));  // count mod 64
  CHECK(computeBin(g, b, Op::Shl, r(1, 2), Type::intConst(62)) == Type::intBot());  // 2 << 62 wraps
  CHECK(computeBin(g, b, Op::Shl, r(0, 1), r(0, 3)) == Type::intBot());
  CHECK(computeBin(g, b, Op::LT, r(0, 5), r(6, 9)) == Type::intConst(1));
  CHECK(computeBin(g, b, Op::LT, r(6, 9), r(0, 6)) == Type::intConst(0));
  CHECK(computeBin(g, b, Op::LE, r(0, 6), r(6, 9)) == Type::intConst(1));
  CHECK(computeBin(g, b, Op::LT, r(0, 6), r(6, 9)) == Type::boolType());
  CHECK(computeBin(g, b, Op::EQ, r(0, 5), r(6, 9)) == Type::intConst(0));
  CHECK(computeBin(g, b, Op::NE, r(0, 5), r(6, 9)) == Type::intConst(1));
  CHECK(computeBin(g, b, Op::EQ, r(0, 6), r(6, 9)) == Type::boolType());
  CHECK(computeUn(g, b, Op::Neg, r(-3, 8)) == r(-8, 3));
  CHECK(computeUn(g, b, Op::Neg, r(INT64_MIN, 0)) == Type::intBot());  // -MIN wraps
  CHECK(computeUn(g, b, Op::Not, r(1, 9)) == Type::intConst(0));
  CHECK(computeUn(g, b, Op::Not, r(-9, 9)) == Type::boolType());
  // The empty range (no value yet) stays empty.
  CHECK(computeBin(g, b, Op::Add, Type::intTop(), r(0, 1)) == Type::intTop());
  CHECK(computeUn(g, b, Op::Neg, Type::intTop()) == Type::intTop());
}

// For random ranges A, B and random members a of A and b of B, the concrete
// result op(a, b) lies in compute's range for (A, B); and shrinking A and B
// never widens the result (monotonicity).
TEST_CASE("son/compute: range results are sound and monotone (seeded)", "[son][compute]") {
  Unit u;
  SonBuilder b(u, "f", 0);
  Graph& g = b.g;
  std::mt19937_64 rng(20240607);
  auto value = [&]() -> int64_t {
    switch (rng() % 6) {
      case 0: return int64_t(rng() % 33) - 16;
      case 1: return int64_t(rng() % 130);
      case 2: return INT64_MAX - int64_t(rng() % 8);
      case 3: return INT64_MIN + int64_t(rng() % 8);
      case 4: return int64_t(1ull << (rng() % 64)) * ((rng() & 1) ? 1 : -1);
      default: return int64_t(rng());
    }
  };
  auto range = [&]() {
    int64_t x = value(), y = (rng() % 4 == 0) ? x : value();
    return Type::intRange(std::min(x, y), std::max(x, y));
  };
  // A member of t, often an end point.
  auto member = [&](const Type* t) -> int64_t {
    uint64_t width = uint64_t(t->hi()) - uint64_t(t->lo());
    switch (rng() % 4) {
      case 0: return t->lo();
      case 1: return t->hi();
      default: return width == UINT64_MAX ? int64_t(rng()) : int64_t(uint64_t(t->lo()) + rng() % (width + 1));
    }
  };
  // A sub-range of t.
  auto subRange = [&](const Type* t) {
    int64_t x = member(t), y = member(t);
    return Type::intRange(std::min(x, y), std::max(x, y));
  };
  // Counts (mod 64) are mostly small constants for the shifts: make sure
  // the constant-count paths are exercised too.
  auto shiftRange = [&]() {
    if (rng() % 2) return Type::intConst(int64_t(rng() % 130) - 1);
    return range();
  };

  int checked = 0;
  for (Op op : kBinOps) {
    bool shift = op == Op::Shl || op == Op::Sar || op == Op::Shr;
    bool divides = op == Op::Div || op == Op::Mod;
    for (int i = 0; i < 3000; i++) {
      const Type* A = range();
      const Type* B = shift ? shiftRange() : (divides && rng() % 2) ? Type::intConst(value()) : range();
      const Type* T = computeBin(g, b, op, A, B);
      INFO(opName(op) << " " << A->str() << ", " << B->str() << " -> " << T->str());
      REQUIRE(T->isInt());
      REQUIRE_FALSE(T->isIntTop());
      for (int k = 0; k < 4; k++) {
        int64_t x = member(A), y = member(B);
        if (traps(op, y)) continue;
        int64_t r = reference(op, x, y);
        INFO("a = " << x << ", b = " << y << ", result " << r);
        CHECK(T->lo() <= r);
        CHECK(r <= T->hi());
        checked++;
      }
      const Type* A2 = subRange(A);
      const Type* B2 = subRange(B);
      if (divides && B2->isConst() && B2->value() == 0) continue;
      const Type* T2 = computeBin(g, b, op, A2, B2);
      INFO("narrowed to " << A2->str() << ", " << B2->str() << " -> " << T2->str());
      CHECK(T2->isa(T));
    }
  }
  for (Op op : {Op::Neg, Op::Not}) {
    for (int i = 0; i < 3000; i++) {
      const Type* A = range();
      const Type* T = computeUn(g, b, op, A);
      INFO(opName(op) << " " << A->str() << " -> " << T->str());
      for (int k = 0; k < 4; k++) {
        int64_t x = member(A), r = reference(op, x, 0);
        INFO("a = " << x << ", result " << r);
        CHECK(T->lo() <= r);
        CHECK(r <= T->hi());
        checked++;
      }
      CHECK(computeUn(g, b, op, subRange(A))->isa(T));
    }
  }
  CHECK(checked > 150000);
}

TEST_CASE("son/compute: If, projections, regions and Phis", "[son][compute]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  const Type* tt = Type::tuple({Type::ctrl(), Type::ctrl()});
  const Type* tOnly = Type::tuple({Type::ctrl(), Type::xctrl()});
  const Type* fOnly = Type::tuple({Type::xctrl(), Type::ctrl()});
  auto ifOn = [&](Node* ctrl, const Type* pred) {
    return compute(g.make(Op::If, {ctrl, g.make(Op::Parm, {b.fun}, pred, 0)}));
  };
  SECTION("If follows what the predicate can be") {
    CHECK(ifOn(b.fun, Type::intConst(1)) == tOnly);
    CHECK(ifOn(b.fun, Type::intConst(-3)) == tOnly);
    CHECK(ifOn(b.fun, Type::intRange(1, 9)) == tOnly);
    CHECK(ifOn(b.fun, Type::intRange(-9, -1)) == tOnly);
    CHECK(ifOn(b.fun, Type::intConst(0)) == fOnly);
    CHECK(ifOn(b.fun, Type::boolType()) == tt);
    CHECK(ifOn(b.fun, Type::intBot()) == tt);
    CHECK(ifOn(b.fun, Type::funPtr(0)) == tOnly);  // a function is never null
    CHECK(ifOn(b.dead(), Type::boolType()) == Type::tuple({Type::xctrl(), Type::xctrl()}));
  }
  SECTION("projections read their tuple element") {
    SonBuilder::Branch br = b.branch(b.fun, b.con(0));
    CHECK(br.iff->type == fOnly);
    CHECK(br.t->type == Type::xctrl());
    CHECK(br.f->type == Type::ctrl());
    auto c = b.call(b.fun, b.mem, 0, {b.parm(0)});
    CHECK(c.call->type == Type::ctrl());
    CHECK(c.end->type == Type::tuple({Type::ctrl(), Type::mem(), Type::intBot()}));
    CHECK(c.ctrl->type == Type::ctrl());
    CHECK(c.mem->type == Type::mem());
    CHECK(c.value->type == Type::intBot());
    Node* deadCall = g.make(Op::Call, {b.dead(), b.mem, g.con(Type::funPtr(0))});
    deadCall->type = compute(deadCall);
    CHECK(deadCall->type == Type::xctrl());
    Node* deadEnd = g.make(Op::CallEnd, {deadCall}, Type::tuple({Type::ctrl(), Type::mem(), Type::boolType()}));
    CHECK(compute(deadEnd) == Type::tuple({Type::xctrl(), Type::mem(), Type::boolType()}));
  }
  SECTION("a Region is live when any predecessor is") {
    SonBuilder::Branch br = b.branch(b.fun, b.parm(0));
    CHECK(b.region({br.t, br.f})->type == Type::ctrl());
    CHECK(b.region({b.dead(), br.f})->type == Type::ctrl());
    CHECK(b.region({b.dead(), b.dead()})->type == Type::xctrl());
    CHECK(b.loop(b.dead())->type == Type::ctrl());  // built typed ctrl...
    CHECK(compute(b.loop(b.dead())) == Type::xctrl());  // ...but a dead entry kills it
    CHECK(compute(b.loop(b.fun)) == Type::ctrl());
  }
  SECTION("a Phi meets the values of its live predecessors only") {
    SonBuilder::Branch br = b.branch(b.fun, b.parm(0));
    Node* r = b.region({br.t, br.f});
    CHECK(b.phi(r, {b.con(2), b.con(9)})->type == Type::intRange(2, 9));
    Node* half = b.region({br.t, b.dead()});
    CHECK(b.phi(half, {b.con(2), b.con(9)})->type == Type::intConst(2));
    Node* none = b.region({b.dead(), b.dead()});
    CHECK(b.phi(none, {b.con(2), b.con(9)}, Type::intBot())->type == Type::intBot());
    CHECK(compute(b.phi(none, {b.con(2), b.con(9)}, Type::intBot())) == Type::intTop());
    CHECK(compute(b.phi(r, {b.mem, b.mem}, Type::mem())) == Type::mem());
    // The Phi of a loop whose back edge is not there yet keeps its declared type.
    Node* lp = b.loop(b.fun);
    Node* p = b.loopPhi(lp, b.con(0));
    CHECK(compute(p) == Type::intBot());
    b.closeLoop(lp, br.t);
    g.setDef(p, 2, b.con(5));
    CHECK(compute(p) == Type::intRange(0, 5));
  }
  SECTION("leaves: Parm, Con, Return, ZeroCheck") {
    CHECK(b.mem->type == Type::mem());
    CHECK(compute(b.mem) == Type::mem());
    CHECK(compute(b.parm(0)) == Type::intBot());
    CHECK(compute(g.make(Op::Parm, {b.fun}, Type::boolType(), 1)) == Type::boolType());
    CHECK(compute(b.con(5)) == Type::intConst(5));
    CHECK(compute(g.make(Op::Return, {b.dead(), b.mem, b.con(1)})) == Type::xctrl());
    CHECK(compute(g.make(Op::Return, {b.fun, b.mem, b.con(1)})) == Type::ctrl());
    CHECK(compute(g.make(Op::ZeroCheck, {b.fun, b.parm(0)})) == Type::ctrl());
    CHECK(compute(g.make(Op::ZeroCheck, {b.dead(), b.parm(0)})) == Type::xctrl());
    CHECK(compute(b.fun) == Type::ctrl());
  }
}

// compute.h promises monotonicity for every node kind: a predicate that is
// higher in the lattice (more precise, up to "no value yet") never gives a
// lower If type. Regression: an If on a predicate with no value yet (top,
// int-top, fun-top) used to say both arms were live.
TEST_CASE("son/compute: If is monotone in its predicate", "[son][compute]") {
  Unit u;
  SonBuilder b(u, "f", 0);
  Graph& g = b.g;
  const Type* preds[] = {Type::top(),        Type::intTop(),   Type::intConst(0), Type::intConst(1),
                         Type::intConst(-4), Type::intRange(1, 9), Type::boolType(), Type::intBot(),
                         Type::funPtr(0),    Type::funAny(),   Type::funPtr(Type::kFunTop), Type::bottom()};
  for (const Type* p1 : preds)
    for (const Type* p2 : preds) {
      if (!p1->isa(p2)) continue;
      INFO(p1->str() << " isa " << p2->str());
      const Type* t1 = compute(g.make(Op::If, {b.fun, g.make(Op::Parm, {b.fun}, p1, 0)}));
      const Type* t2 = compute(g.make(Op::If, {b.fun, g.make(Op::Parm, {b.fun}, p2, 0)}));
      INFO(t1->str() << " vs " << t2->str());
      CHECK(t1->isa(t2));
    }
}

