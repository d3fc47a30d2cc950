// Tests for the peephole rules (opt/peephole.h), one hand-built graph per
// rule: algebraic identities, constant folding with wrap-around, constant
// reassociation, strength reduction, dead If arms, Regions losing dead
// predecessors (with their Phi inputs), single-input Phis, and ZeroChecks
// removed when the divisor cannot be zero (the division then floats).
// After each rewrite the graph must verify.
#include <catch2/catch.hpp>

#include <climits>

#include "opt/peephole.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;
using simplec::sontest::verifyText;

namespace {

// A function f(x, y) and a peephole over its graph.
struct Fixture {
  Unit u;
  SonBuilder b{u, "f", 2};
  Graph& g = b.g;
  Peephole peep{g};
  Node* x() { return b.parm(0); }
  Node* y() { return b.parm(1); }
  // Runs n's peephole and replaces n by the result, as the iterative pass does.
  Node* rewrite(Node* n) {
    Node* r = peep.run(n);
    if (r != n && !n->dead) g.subsume(n, r);
    return r;
  }
  // Returns `v` from f, rewrites `n`, and checks the graph (garbage swept).
  Node* rewriteReturned(Node* v, Node* n) {
    b.ret(b.fun, v);
    Node* r = rewrite(n);
    sweepUnreachable(g);
    CHECK(verifyText(g) == "");
    return r;
  }
  Node* rewriteReturned(Node* n) { return rewriteReturned(n, n); }
  bool isCon(const Node* n, int64_t v) { return n->op == Op::Con && n->type == Type::intConst(v); }
};

}  // namespace

TEST_CASE("opt/peephole: additive identities", "[opt][peephole]") {
  Fixture f;
  SECTION("x + 0 is x") { CHECK(f.rewriteReturned(f.b.add(f.x(), f.b.con(0))) == f.x()); }
  SECTION("0 + x is x (the constant is moved right first)") {
    CHECK(f.rewriteReturned(f.b.add(f.b.con(0), f.x())) == f.x());
  }
  SECTION("x - 0 is x") { CHECK(f.rewriteReturned(f.b.op(Op::Sub, f.x(), f.b.con(0))) == f.x()); }
  SECTION("x - x is 0") { CHECK(f.isCon(f.rewriteReturned(f.b.op(Op::Sub, f.x(), f.x())), 0)); }
  SECTION("x + x is x << 1") {
    Node* r = f.rewriteReturned(f.b.add(f.x(), f.x()));
    CHECK(r->op == Op::Shl);
    CHECK(r->in[1] == f.x());
    CHECK(f.isCon(r->in[2], 1));
  }
  SECTION("x - c is x + (-c)") {
    Node* r = f.rewriteReturned(f.b.op(Op::Sub, f.x(), f.b.con(5)));
    CHECK(r->op == Op::Add);
    CHECK(r->in[1] == f.x());
    CHECK(f.isCon(r->in[2], -5));
  }
  SECTION("x - MIN stays (-MIN does not exist)") {
    Node* n = f.b.op(Op::Sub, f.x(), f.b.con(INT64_MIN));
    CHECK(f.rewriteReturned(n) == n);
    CHECK(n->op == Op::Sub);
  }
  SECTION("0 - x is -x") {
    Node* r = f.rewriteReturned(f.b.op(Op::Sub, f.b.con(0), f.x()));
    CHECK(r->op == Op::Neg);
    CHECK(r->in[1] == f.x());
  }
  SECTION("(x + c1) + c2 is x + (c1 + c2)") {
    Node* r = f.rewriteReturned(f.b.add(f.b.add(f.x(), f.b.con(3)), f.b.con(4)));
    CHECK(r->op == Op::Add);
    CHECK(r->in[1] == f.x());
    CHECK(f.isCon(r->in[2], 7));
    CHECK(printGraph(f.g) ==
          "fun f:\n"
          "  %1 = Fun f Start : ctrl\n"
          "  %2 = Parm mem %1 : mem\n"
          "  %3 = Parm 0 %1 : int\n"
          "  %4 = Con 7 Start\n"
          "  %5 = Add _, %3, %4 : int\n"
          "  %6 = Return %1, %2, %5 : ctrl\n");
  }
  SECTION("(x + c1) + c2 wraps around") {
    Node* r = f.rewriteReturned(f.b.add(f.b.add(f.x(), f.b.con(INT64_MAX)), f.b.con(1)));
    CHECK(r->op == Op::Add);
    CHECK(f.isCon(r->in[2], INT64_MIN));
  }
  SECTION("x + y has no rewrite") {
    Node* n = f.b.add(f.x(), f.y());
    CHECK(f.rewriteReturned(n) == n);
    CHECK(n->in[1] == f.x());
    CHECK(n->in[2] == f.y());
  }
}

TEST_CASE("opt/peephole: constant folding", "[opt][peephole]") {
  Fixture f;
  SECTION("1 + 2 * 3") {
    Node* m = f.b.op(Op::Mul, f.b.con(2), f.b.con(3));
    Node* a = f.b.add(f.b.con(1), m);
    f.b.ret(f.b.fun, a);
    f.rewrite(m);
    Node* r = f.rewrite(a);
    sweepUnreachable(f.g);
    CHECK(f.isCon(r, 7));
    CHECK(printGraph(f.g) ==
          "fun f:\n"
          "  %1 = Fun f Start : ctrl\n"
          "  %2 = Parm mem %1 : mem\n"
          "  %3 = Con 7 Start\n"
          "  %4 = Return %1, %2, %3 : ctrl\n");
    CHECK(verifyText(f.g) == "");
  }
  SECTION("INT64_MAX + 1 wraps around") {
    CHECK(f.isCon(f.rewriteReturned(f.b.add(f.b.con(INT64_MAX), f.b.con(1))), INT64_MIN));
  }
  SECTION("MIN / -1") {
    Node* d = f.b.div(Op::Div, nullptr, f.b.con(INT64_MIN), f.b.con(-1));
    CHECK(f.isCon(f.rewriteReturned(d), INT64_MIN));
  }
  SECTION("MIN % -1") {
    Node* d = f.b.div(Op::Mod, nullptr, f.b.con(INT64_MIN), f.b.con(-1));
    CHECK(f.isCon(f.rewriteReturned(d), 0));
  }
  SECTION("a comparison decided by ranges") {
    Node* masked = f.b.op(Op::And, f.x(), f.b.con(15));  // [0, 15]
    Node* lt = f.b.op(Op::LT, masked, f.b.con(16));
    CHECK(f.isCon(f.rewriteReturned(lt), 1));
  }
  SECTION("a division by constant zero is left to trap") {
    Node* d = f.b.div(Op::Div, f.b.fun, f.b.con(1), f.b.con(0));
    Node* r = f.rewriteReturned(d);
    CHECK(r == d);
    CHECK(r->in[0] == f.b.fun);
  }
}

TEST_CASE("opt/peephole: multiplicative and bitwise identities", "[opt][peephole]") {
  Fixture f;
  SECTION("x * 1 is x") { CHECK(f.rewriteReturned(f.b.op(Op::Mul, f.x(), f.b.con(1))) == f.x()); }
  SECTION("1 * x is x") { CHECK(f.rewriteReturned(f.b.op(Op::Mul, f.b.con(1), f.x())) == f.x()); }
  SECTION("x * -1 is -x") {
    Node* r = f.rewriteReturned(f.b.op(Op::Mul, f.x(), f.b.con(-1)));
    CHECK(r->op == Op::Neg);
    CHECK(r->in[1] == f.x());
  }
  SECTION("x * 2^k is x << k") {
    for (int k : {1, 3, 62}) {
      Fixture g;
      Node* r = g.rewriteReturned(g.b.op(Op::Mul, g.x(), g.b.con(int64_t(1) << k)));
      INFO("k = " << k);
      CHECK(r->op == Op::Shl);
      CHECK(r->in[1] == g.x());
      CHECK(g.isCon(r->in[2], k));
    }
  }
  SECTION("a node a rule makes takes the position of the one it replaces") {
    // (-g line tables: `t = s * 2` stayed on the line before it.)
    Node* n = f.b.op(Op::Mul, f.x(), f.b.con(2));
    n->pos = SrcPos{5, 11};
    Node* r = f.rewriteReturned(n);
    REQUIRE(r->op == Op::Shl);
    CHECK(r->pos.line == 5);
    CHECK(r->pos.col == 11);
  }
  SECTION("x * 6 and x * MIN stay multiplications") {
    Node* n = f.b.op(Op::Mul, f.x(), f.b.con(6));
    CHECK(f.rewrite(n) == n);
    Node* m = f.b.op(Op::Mul, f.x(), f.b.con(INT64_MIN));
    CHECK(f.rewrite(m) == m);
    CHECK(m->op == Op::Mul);
  }
  SECTION("x / 1 is x") {
    Node* d = f.b.div(Op::Div, nullptr, f.x(), f.b.con(1));
    CHECK(f.rewriteReturned(d) == f.x());
  }
  SECTION("x % 1 is 0") {
    Node* d = f.b.div(Op::Mod, nullptr, f.x(), f.b.con(1));
    CHECK(f.isCon(f.rewriteReturned(d), 0));
  }
  SECTION("x & x, x | x, x & -1, x | 0, x ^ 0 are x; x ^ x is 0") {
    CHECK(f.rewrite(f.b.op(Op::And, f.x(), f.x())) == f.x());
    CHECK(f.rewrite(f.b.op(Op::Or, f.x(), f.x())) == f.x());
    CHECK(f.rewrite(f.b.op(Op::And, f.x(), f.b.con(-1))) == f.x());
    CHECK(f.rewrite(f.b.op(Op::Or, f.b.con(0), f.x())) == f.x());
    CHECK(f.rewrite(f.b.op(Op::Xor, f.x(), f.b.con(0))) == f.x());
    CHECK(f.isCon(f.rewrite(f.b.op(Op::Xor, f.x(), f.x())), 0));
    CHECK(f.isCon(f.rewrite(f.b.op(Op::And, f.x(), f.b.con(0))), 0));
  }
  SECTION("shifts by a multiple of 64 are no shift") {
    CHECK(f.rewrite(f.b.op(Op::Shl, f.x(), f.b.con(0))) == f.x());
    CHECK(f.rewrite(f.b.op(Op::Sar, f.x(), f.b.con(64))) == f.x());
    CHECK(f.rewrite(f.b.op(Op::Shr, f.x(), f.b.con(-128))) == f.x());
    Node* s = f.b.op(Op::Shl, f.x(), f.b.con(65));
    CHECK(f.rewrite(s) == s);
  }
}

TEST_CASE("opt/peephole: negation, logical not, self-comparison", "[opt][peephole]") {
  Fixture f;
  SECTION("-(-x) is x") {
    CHECK(f.rewriteReturned(f.b.op(Op::Neg, f.b.op(Op::Neg, f.x()))) == f.x());
  }
  SECTION("!!b is b for a boolean b") {
    Node* b = f.b.op(Op::LT, f.x(), f.y());
    CHECK(f.rewriteReturned(f.b.op(Op::Not, f.b.op(Op::Not, b))) == b);
  }
  SECTION("!!x stays for an integer x (it normalizes to 0/1)") {
    Node* inner = f.b.op(Op::Not, f.x());
    Node* n = f.b.op(Op::Not, inner);
    CHECK(f.rewriteReturned(n) == n);
    CHECK(n->in[1] == inner);
    CHECK(n->type == Type::boolType());
  }
  SECTION("x == x, x <= x are 1; x != x, x < x are 0") {
    CHECK(f.isCon(f.rewrite(f.b.op(Op::EQ, f.x(), f.x())), 1));
    CHECK(f.isCon(f.rewrite(f.b.op(Op::LE, f.x(), f.x())), 1));
    CHECK(f.isCon(f.rewrite(f.b.op(Op::NE, f.x(), f.x())), 0));
    CHECK(f.isCon(f.rewrite(f.b.op(Op::LT, f.x(), f.x())), 0));
    Node* lt = f.b.op(Op::LT, f.x(), f.y());
    CHECK(f.rewrite(lt) == lt);
  }
  SECTION("a constant operand of a commutative op moves right, in place") {
    Node* c = f.b.con(9);
    Node* n = f.b.op(Op::EQ, c, f.x());
    CHECK(f.rewriteReturned(n) == n);
    CHECK(n->in[1] == f.x());
    CHECK(n->in[2] == c);
    // Not for a non-commutative op.
    Node* s = f.b.op(Op::LT, f.b.con(9), f.x());
    CHECK(f.rewrite(s) == s);
    CHECK(s->in[2] == f.x());
  }
}

TEST_CASE("opt/peephole: control", "[opt][peephole]") {
  Fixture f;
  SECTION("the live arm of an If with a constant predicate is the If's control") {
    SonBuilder::Branch br = f.b.branch(f.b.fun, f.b.con(1));
    Node* r = f.b.region({br.t, br.f});
    f.b.ret(r, f.x());
    CHECK(br.f->type == Type::xctrl());
    CHECK(f.rewrite(br.t) == f.b.fun);
    CHECK(r->in[1] == f.b.fun);
    CHECK(f.rewrite(br.f) == br.f);  // the dead arm stays until its region drops it
    Node* nr = f.rewrite(r);         // ...which it does, then collapses
    CHECK(nr == f.b.fun);
    CHECK(f.b.retNode()->in[0] == f.b.fun);
    sweepUnreachable(f.g);
    CHECK(verifyText(f.g) == "");
    CHECK(printGraph(f.g) ==
          "fun f:\n"
          "  %1 = Fun f Start : ctrl\n"
          "  %2 = Parm mem %1 : mem\n"
          "  %3 = Parm 0 %1 : int\n"
          "  %4 = Return %1, %2, %3 : ctrl\n");
  }
  SECTION("an If on a live predicate keeps both arms") {
    SonBuilder::Branch br = f.b.branch(f.b.fun, f.x());
    CHECK(f.rewrite(br.t) == br.t);
    CHECK(f.rewrite(br.f) == br.f);
  }
  SECTION("a Region drops a dead predecessor and the matching Phi inputs") {
    SonBuilder::Branch br = f.b.branch(f.b.fun, f.x());
    Node* dead = f.b.dead();
    Node* r = f.b.region({br.t, dead, br.f});
    Node* c1 = f.b.con(1);
    Node* c3 = f.b.con(3);
    Node* phi = f.b.phi(r, {c1, f.b.con(2), c3});
    f.b.ret(r, phi);
    CHECK(f.rewrite(r) == r);  // changed in place
    CHECK(r->in == std::vector<Node*>{nullptr, br.t, br.f});
    CHECK(phi->in == std::vector<Node*>{r, c1, c3});
    Node* p2 = f.rewrite(phi);
    CHECK(p2 == phi);
    CHECK(phi->type == Type::intRange(1, 3));
    sweepUnreachable(f.g);
    CHECK(verifyText(f.g) == "");
  }
  SECTION("a Region left with one predecessor is that predecessor; its Phis their value") {
    SonBuilder::Branch br = f.b.branch(f.b.fun, f.x());
    Node* r = f.b.region({br.t, f.b.dead()});
    Node* phi = f.b.phi(r, {f.y(), f.b.con(2)});
    Node* use = f.b.add(phi, f.x());
    f.b.ret(r, use);
    CHECK(f.rewrite(r) == br.t);
    CHECK(phi->dead);
    CHECK(use->in[1] == f.y());
    CHECK(f.b.retNode()->in[0] == br.t);
    sweepUnreachable(f.g);
    CHECK(verifyText(f.g) == "");
  }
  SECTION("a Loop whose back edge is dead becomes a Region") {
    Node* lp = f.b.loop(f.b.fun);
    Node* phi = f.b.loopPhi(lp, f.x());
    f.g.setDef(phi, 2, f.b.add(phi, f.b.con(1)));
    f.b.closeLoop(lp, f.b.dead());
    f.b.ret(lp, phi);
    f.rewrite(lp);
    CHECK(lp->dead);
    // Its Phi is now the entry value; the single-entry Region that replaced
    // the Loop folds to the entry control when it is visited.
    CHECK(f.b.retNode()->in[2] == f.x());
    Node* r = f.b.retNode()->in[0];
    REQUIRE(r->op == Op::Region);
    CHECK(r->in == std::vector<Node*>{nullptr, f.b.fun});
    CHECK(f.rewrite(r) == f.b.fun);
    CHECK(f.b.retNode()->in[0] == f.b.fun);
    sweepUnreachable(f.g);
    CHECK(verifyText(f.g) == "");
  }
  SECTION("a Loop whose entry is dead is left alone") {
    Node* lp = f.b.loop(f.b.dead());
    f.b.closeLoop(lp, lp);
    CHECK(f.rewrite(lp) == lp);
    CHECK(lp->in.size() == 3);
  }
}

TEST_CASE("opt/peephole: Phis", "[opt][peephole]") {
  Fixture f;
  SonBuilder::Branch br = f.b.branch(f.b.fun, f.x());
  Node* r = f.b.region({br.t, br.f});
  SECTION("all inputs the same") {
    Node* phi = f.b.phi(r, {f.y(), f.y()});
    CHECK(f.rewriteReturned(phi) == f.y());
  }
  SECTION("different inputs stay") {
    Node* phi = f.b.phi(r, {f.y(), f.x()});
    CHECK(f.rewriteReturned(phi) == phi);
  }
  SECTION("equal constants fold through the type") {
    Node* phi = f.b.phi(r, {f.b.con(4), f.b.con(4)});
    CHECK(f.isCon(f.rewriteReturned(phi), 4));
  }
  SECTION("a loop Phi that only feeds itself is its entry value") {
    Node* lp = f.b.loop(r);
    Node* phi = f.b.loopPhi(lp, f.y());
    f.g.setDef(phi, 2, phi);
    SonBuilder::Branch lb = f.b.branch(lp, f.x());
    f.b.closeLoop(lp, lb.t);
    f.b.ret(lb.f, phi);
    CHECK(f.rewrite(phi) == f.y());
    sweepUnreachable(f.g);
    CHECK(verifyText(f.g) == "");
  }
  SECTION("the Phi of a loop still being parsed is left alone") {
    Node* lp = f.b.loop(r);
    Node* phi = f.b.loopPhi(lp, f.y());
    CHECK(f.peep.run(phi) == phi);
    CHECK(phi->type == Type::intBot());
  }
}

TEST_CASE("opt/peephole: division guards", "[opt][peephole]") {
  Fixture f;
  SECTION("a divisor that cannot be zero needs no ZeroCheck, and the Div floats") {
    Node* divisor = f.b.add(f.b.op(Op::And, f.y(), f.b.con(7)), f.b.con(1));  // [1, 8]
    REQUIRE(divisor->type == Type::intRange(1, 8));
    Node* zc = f.b.zeroCheck(f.b.fun, divisor);
    Node* div = f.b.div(Op::Div, zc, f.x(), divisor);
    f.b.ret(zc, div);
    CHECK(f.rewrite(zc) == f.b.fun);
    CHECK(zc->dead);
    CHECK(f.b.retNode()->in[0] == f.b.fun);
    CHECK(div->in[0] == f.b.fun);  // moved up with the uses of the check...
    CHECK(f.rewrite(div) == div);
    CHECK(div->in[0] == nullptr);  // ...then un-pinned
    sweepUnreachable(f.g);
    CHECK(verifyText(f.g) == "");
  }
  SECTION("a negative divisor range also cannot be zero") {
    Node* divisor = f.b.op(Op::Sub, f.b.op(Op::Neg, f.b.op(Op::And, f.y(), f.b.con(3))), f.b.con(1));
    REQUIRE(divisor->type == Type::intRange(-4, -1));
    Node* div = f.b.div(Op::Mod, f.b.fun, f.x(), divisor);
    f.b.ret(f.b.fun, div);
    CHECK(f.rewrite(div) == div);
    CHECK(div->in[0] == nullptr);
  }
  SECTION("a divisor that may be zero keeps its guard") {
    Node* zc = f.b.zeroCheck(f.b.fun, f.y());
    Node* div = f.b.div(Op::Div, zc, f.x(), f.y());
    f.b.ret(zc, div);
    CHECK(f.rewrite(zc) == zc);
    CHECK(f.rewrite(div) == div);
    CHECK(div->in[0] == zc);
    CHECK(verifyText(f.g) == "");
  }
}

TEST_CASE("opt/peephole: disabled, only types are computed", "[opt][peephole]") {
  Fixture f;
  f.peep.enabled = false;
  Node* n = f.b.add(f.b.con(2), f.b.con(3));
  n->type = Type::intBot();
  CHECK(f.peep.run(n) == n);
  CHECK(n->type == Type::intConst(5));
  CHECK(n->in[1]->type == Type::intConst(2));  // not canonicalized either
}

TEST_CASE("opt/peephole: truncations of values that already fit go", "[opt][peephole]") {
  Fixture f;
  SECTION("(x & 255) & 255 is x & 255") {
    Node* m = f.b.op(Op::And, f.x(), f.b.con(255));
    CHECK(f.rewriteReturned(f.b.op(Op::And, m, f.b.con(255))) == m);
  }
  SECTION("(x & 15) & 255 is x & 15") {
    Node* m = f.b.op(Op::And, f.x(), f.b.con(15));
    CHECK(f.rewriteReturned(f.b.op(Op::And, m, f.b.con(255))) == m);
  }
  SECTION("(x & 255) & 15 stays: the mask cuts bits") {
    Node* m = f.b.op(Op::And, f.x(), f.b.con(255));
    Node* n = f.b.op(Op::And, m, f.b.con(15));
    CHECK(f.rewriteReturned(n) == n);
  }
  SECTION("(x & 200) & 255 is x & 200 (the range [0, 200] fits)") {
    Node* m = f.b.op(Op::And, f.x(), f.b.con(200));
    CHECK(f.rewriteReturned(f.b.op(Op::And, m, f.b.con(255))) == m);
  }
  SECTION("sign extension of an i8 value to i16 goes") {
    Node* i8 = f.b.op(Op::Sar, f.b.op(Op::Shl, f.x(), f.b.con(56)), f.b.con(56));
    Node* i16 = f.b.op(Op::Sar, f.b.op(Op::Shl, i8, f.b.con(48)), f.b.con(48));
    CHECK(f.rewriteReturned(i16) == i8);
  }
  SECTION("sign extension of an i16 value to i8 stays") {
    Node* i16 = f.b.op(Op::Sar, f.b.op(Op::Shl, f.x(), f.b.con(48)), f.b.con(48));
    Node* i8 = f.b.op(Op::Sar, f.b.op(Op::Shl, i16, f.b.con(56)), f.b.con(56));
    CHECK(f.rewriteReturned(i8) == i8);
  }
  SECTION("sign extension of a u8 value to i16 goes; to i8 stays") {
    Node* u8 = f.b.op(Op::And, f.x(), f.b.con(255));
    Node* i16 = f.b.op(Op::Sar, f.b.op(Op::Shl, u8, f.b.con(48)), f.b.con(48));
    CHECK(f.rewriteReturned(i16) == u8);
  }
  SECTION("shifts by different amounts stay") {
    // (x & 0xFFFF) << 48 may reach the sign bit: the result is not a constant.
    Node* n = f.b.op(Op::Sar, f.b.op(Op::Shl, f.b.op(Op::And, f.x(), f.b.con(0xFFFF)), f.b.con(48)), f.b.con(56));
    CHECK(f.rewriteReturned(n) == n);
  }
}
