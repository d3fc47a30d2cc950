// Tests for opt/index_facts.h on hand-built graphs: what a branch arm and a
// passed bounds check establish, chains of facts, constant offsets, ranges
// refined by facts, induction variables, and the claims it must refuse.
#include <catch2/catch.hpp>

#include "opt/index_facts.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;

namespace {

// x < y as a branch; the walk stands on one of its arms.
struct Arm {
  SonBuilder::Branch br;
  Node* arm(bool taken) const { return taken ? br.t : br.f; }
};

Node* cast(Graph& g, Node* arm, Node* v, CastRel rel, Node* bound) {
  Node* c = g.make(Op::Cast, {arm, v, bound}, nullptr, int64_t(rel));
  c->type = compute(c);
  return c;
}

}  // namespace

TEST_CASE("opt/index_facts: the arms of a comparison", "[opt][bounds]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Node *x = b.parm(0), *y = b.parm(1);
  auto br = b.branch(b.fun, b.op(Op::LT, x, y));
  {
    IndexFacts f;
    f.enter(b.fun);
    f.enter(br.iff);
    f.enter(br.t);
    CHECK(f.provesLess(x, y, true));
    CHECK(f.provesLess(x, y, false));
    CHECK_FALSE(f.provesLess(y, x, false));
    f.leave();
    // Left the arm: nothing is known any more.
    CHECK_FALSE(f.provesLess(x, y, false));
    f.enter(br.f);
    CHECK(f.provesLess(y, x, false));
    CHECK_FALSE(f.provesLess(y, x, true));
    CHECK_FALSE(f.provesLess(x, y, false));
  }
  // `!(x <= y)` on its true arm: y < x.
  auto nb = b.branch(b.fun, b.op(Op::Not, b.op(Op::LE, x, y)));
  IndexFacts f;
  f.enter(b.fun);
  f.enter(nb.iff);
  f.enter(nb.t);
  CHECK(f.provesLess(y, x, true));
}

TEST_CASE("opt/index_facts: a passed bounds check, chains and offsets", "[opt][bounds]") {
  Unit u;
  SonBuilder b(u, "f", 3);
  Graph& g = b.g;
  Node *i = b.parm(0), *n = b.parm(1), *len = b.parm(2);
  // if (n <= len) { if (i < n) ... }
  auto outer = b.branch(b.fun, b.op(Op::LE, n, len));
  auto inner = b.branch(outer.t, b.op(Op::LT, i, n));
  IndexFacts f;
  f.enter(b.fun);
  f.enter(outer.iff);
  f.enter(outer.t);
  f.enter(inner.iff);
  f.enter(inner.t);
  CHECK(f.provesLess(i, len, true));                       // i < n <= len
  CHECK_FALSE(f.provesLess(b.add(i, b.con(1)), len, true));
  CHECK_FALSE(f.provesInBounds(i, len));                   // i may be negative
  Node* bc = g.make(Op::BoundsCheck, {inner.t, i, n}, Type::ctrl());
  f.enter(bc);
  CHECK(f.provesInBounds(i, len));                         // the check said 0 <= i
  CHECK(f.provesLess(nullptr, i, false));
}

TEST_CASE("opt/index_facts: i - 1 is only below i when it cannot wrap around", "[opt][bounds]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Graph& g = b.g;
  Node *i = b.parm(0), *len = b.parm(1);
  auto br = b.branch(b.fun, b.op(Op::LT, i, len));
  IndexFacts f;
  f.enter(b.fun);
  f.enter(br.iff);
  f.enter(br.t);
  // i may be INT64_MIN, and i - 1 then the largest int: unproven.
  CHECK_FALSE(f.provesLess(b.add(i, b.con(-1)), len, true));
  // With i >= 0 known (a Cast from a branch) it is proven.
  auto nonNeg = b.branch(br.t, b.op(Op::LE, b.con(0), i));
  f.enter(nonNeg.iff);
  f.enter(nonNeg.t);
  Node* ci = cast(g, nonNeg.t, i, CastRel::GE, b.con(0));
  CHECK(f.provesLess(b.add(ci, b.con(-1)), len, true));
}

TEST_CASE("opt/index_facts: ranges refined by the facts (matmul's i * n + j)", "[opt][bounds]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Node *i = b.parm(0), *j = b.parm(1);
  Node* zero = b.con(0);
  Node* n = b.con(400);
  auto i0 = b.branch(b.fun, b.op(Op::LE, zero, i));
  auto i1 = b.branch(i0.t, b.op(Op::LT, i, n));
  auto j0 = b.branch(i1.t, b.op(Op::LE, zero, j));
  auto j1 = b.branch(j0.t, b.op(Op::LT, j, n));
  Node* index = b.add(b.op(Op::Mul, i, n), j);
  IndexFacts f;
  for (Node* c : {b.fun, i0.iff, i0.t, i1.iff, i1.t, j0.iff, j0.t, j1.iff, j1.t}) f.enter(c);
  CHECK(f.provesInBounds(index, b.con(160000)));
  CHECK_FALSE(f.provesInBounds(index, b.con(159999)));
  // Shifted: (i << 2) + 3 < 1600 + 3.
  Node* shifted = b.add(b.op(Op::Shl, i, b.con(2)), b.con(3));
  CHECK(f.provesLess(shifted, b.con(1599), false));
  CHECK_FALSE(f.provesLess(shifted, b.con(1599), true));
}

namespace {

// for (p = start; 0 <= p; p = p + step) { here }: a counting-down loop
// whose Phi is p, walked to the body. `bound` must be a node outside the loop.
struct DownLoop {
  Node* loop;
  Node* phi;
  Node* body;
  std::vector<Node*> path;
};

DownLoop downLoop(Graph& g, SonBuilder& b, Node* start, int64_t step, Node* entry = nullptr) {
  DownLoop d;
  d.loop = b.loop(entry ? entry : b.fun);
  d.phi = b.loopPhi(d.loop, start);
  auto test = b.branch(d.loop, b.op(Op::LE, b.con(0), d.phi));
  d.body = test.t;
  Node* cp = cast(g, test.t, d.phi, CastRel::GE, b.con(0));
  Node* next = b.add(cp, b.con(step));
  g.setDef(d.phi, 2, next);
  b.closeLoop(d.loop, test.t);
  b.ret(test.f, b.con(0));
  d.path = {b.fun};
  if (entry) d.path.insert(d.path.end(), {entry->in[0], entry});  // the New the loop follows, its control
  for (Node* c : {d.loop, test.iff, test.t}) d.path.push_back(c);
  return d;
}

}  // namespace

TEST_CASE("opt/index_facts: a counter that starts below the length and goes down stays below",
          "[opt][bounds]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* len = b.parm(0);
  // The length is never negative: a header load.
  auto nw = b.newArray(b.fun, b.mem, len, 8);
  Node* alen = b.load(nullptr, nullptr, nw.ptr, b.con(0), 0);
  DownLoop d = downLoop(g, b, b.add(alen, b.con(-1)), -1, nw.ctrl);
  IndexFacts f;
  for (Node* c : d.path) f.enter(c);
  CHECK(f.provesLess(d.phi, alen, true));
  CHECK(f.provesInBounds(cast(g, d.body, d.phi, CastRel::GE, b.con(0)), alen));
}

TEST_CASE("opt/index_facts: induction needs a start below, no growth and an invariant bound",
          "[opt][bounds]") {
  SECTION("starts at the length") {
    Unit u;
    SonBuilder b(u, "f", 1);
    Graph& g = b.g;
    Node* len = b.parm(0);
    DownLoop d = downLoop(g, b, len, -1);
    IndexFacts f;
    for (Node* c : d.path) f.enter(c);
    CHECK_FALSE(f.provesLess(d.phi, len, true));
    CHECK(f.provesLess(d.phi, len, false));
  }
  SECTION("grows") {
    Unit u;
    SonBuilder b(u, "f", 1);
    Graph& g = b.g;
    Node* len = b.parm(0);
    DownLoop d = downLoop(g, b, b.add(len, b.con(-1)), 1);
    IndexFacts f;
    for (Node* c : d.path) f.enter(c);
    CHECK_FALSE(f.provesLess(d.phi, len, false));
  }
  SECTION("the bound changes in the loop") {
    Unit u;
    SonBuilder b(u, "f", 1);
    Graph& g = b.g;
    Node* len = b.parm(0);
    DownLoop d = downLoop(g, b, b.add(len, b.con(-1)), -1);
    // A second Phi of the same loop: len, len + 1, ... never a fixed bound.
    Node* moving = b.loopPhi(d.loop, len);
    g.setDef(moving, 2, b.add(moving, b.con(-5)));
    IndexFacts f;
    for (Node* c : d.path) f.enter(c);
    CHECK_FALSE(f.provesLess(d.phi, moving, true));
  }
  SECTION("the start is known only inside the loop") {
    Unit u;
    SonBuilder b(u, "f", 2);
    Graph& g = b.g;
    Node *start = b.parm(0), *len = b.parm(1);
    DownLoop d = downLoop(g, b, start, -1);
    auto known = b.branch(d.body, b.op(Op::LT, start, len));
    IndexFacts f;
    for (Node* c : d.path) f.enter(c);
    CHECK_FALSE(f.provesLess(d.phi, len, true));
    f.enter(known.iff);
    f.enter(known.t);
    // The start is fixed while the loop runs: p <= start < len.
    CHECK(f.provesLess(start, len, true));
    CHECK(f.provesLess(d.phi, len, true));
  }
}
