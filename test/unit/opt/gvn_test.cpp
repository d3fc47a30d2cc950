// Tests for global value numbering (opt/gvn.h): equal pure nodes merge,
// different ones (other kind, other inputs or input order, other constant)
// do not; nodes with identity (Parm, Proj, control, a Phi of an open loop)
// are never merged; a stale table entry never gives a wrong match. Through
// the peephole, a commutative node with a constant is found in either order.
#include <catch2/catch.hpp>

#include "opt/gvn.h"
#include "opt/peephole.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;

TEST_CASE("opt/gvn: equal nodes merge, different ones do not", "[opt][gvn]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Graph& g = b.g;
  Gvn gvn;
  Node* x = b.parm(0);
  Node* y = b.parm(1);
  Node* a1 = b.add(x, y);
  Node* a2 = b.add(x, y);
  CHECK(gvn.findOrInsert(a1) == a1);
  CHECK(gvn.findOrInsert(a1) == a1);  // finding itself
  CHECK(gvn.findOrInsert(a2) == a1);
  CHECK(gvn.findOrInsert(b.op(Op::Sub, x, y)) != a1);  // other kind
  Node* swapped = b.add(y, x);
  CHECK(gvn.findOrInsert(swapped) == swapped);  // inputs compared in order
  Node* other = b.add(x, x);
  CHECK(gvn.findOrInsert(other) == other);
  // Constants are equal by value.
  Node* c3 = b.con(3);
  Node* c3b = b.con(3);
  Node* c4 = b.con(4);
  CHECK(gvn.findOrInsert(c3) == c3);
  CHECK(gvn.findOrInsert(c3b) == c3);
  CHECK(gvn.findOrInsert(c4) == c4);
  Node* f0 = g.con(Type::funPtr(0));
  CHECK(gvn.findOrInsert(f0) == f0);
  CHECK(gvn.findOrInsert(g.con(Type::funPtr(0))) == f0);
  CHECK(gvn.findOrInsert(g.con(Type::funPtr(1))) != f0);
  // Equal inputs but another aux.
  Node* a3 = b.add(x, y);
  a3->aux = 1;
  CHECK(gvn.findOrInsert(a3) == a3);
  // clear() forgets everything.
  gvn.clear();
  CHECK(gvn.findOrInsert(a2) == a2);
}

TEST_CASE("opt/gvn: nodes with identity are never merged", "[opt][gvn]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Gvn gvn;
  // Two Parms of the same index (one is a duplicate a pass might create).
  Node* p2 = g.make(Op::Parm, {b.fun}, Type::intBot(), 0);
  CHECK_FALSE(Gvn::eligible(b.parm(0)));
  CHECK(gvn.findOrInsert(b.parm(0)) == b.parm(0));
  CHECK(gvn.findOrInsert(p2) == p2);
  // Control nodes.
  SonBuilder::Branch br1 = b.branch(b.fun, b.parm(0));
  SonBuilder::Branch br2 = b.branch(b.fun, b.parm(0));
  CHECK_FALSE(Gvn::eligible(br1.iff));
  CHECK(gvn.findOrInsert(br1.iff) == br1.iff);
  CHECK(gvn.findOrInsert(br2.iff) == br2.iff);
  CHECK(gvn.findOrInsert(br2.t) == br2.t);
  // Projections of a call.
  auto c = b.call(b.fun, b.mem, 0, {});
  Node* proj2 = g.make(Op::Proj, {c.end}, Type::intBot(), 2);
  CHECK(gvn.findOrInsert(c.value) == c.value);
  CHECK(gvn.findOrInsert(proj2) == proj2);
  // Phis of a loop still open (they will gain a back-edge input).
  Node* lp = b.loop(b.fun);
  Node* ph1 = b.loopPhi(lp, b.parm(0));
  Node* ph2 = b.loopPhi(lp, b.parm(0));
  CHECK_FALSE(Gvn::eligible(ph1));
  CHECK(gvn.findOrInsert(ph1) == ph1);
  CHECK(gvn.findOrInsert(ph2) == ph2);
  // ...but Phis of a closed loop or of a Region are values like any other.
  b.closeLoop(lp, br1.t);
  g.setDef(ph1, 2, b.parm(0));
  g.setDef(ph2, 2, b.parm(0));
  CHECK(Gvn::eligible(ph1));
  CHECK(gvn.findOrInsert(ph1) == ph1);
  CHECK(gvn.findOrInsert(ph2) == ph1);
  // Dead nodes are not eligible.
  Node* d = b.add(b.parm(0), b.parm(0));
  g.kill(d);
  CHECK_FALSE(Gvn::eligible(d));
}

TEST_CASE("opt/gvn: a memory Phi and a value Phi with the same inputs stay apart", "[opt][gvn]") {
  // A Region whose predecessors all died leaves Phis with no values: a
  // memory Phi (top) and an int Phi (int-top) then look alike. Merging
  // them once put an int Phi into a MergeMem (a differential fuzzer
  // finding: program seed 2000829, worklist order --seed 899153).
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Gvn gvn;
  Node* dead = g.make(Op::Region, {nullptr}, Type::xctrl());
  Node* memPhi = g.make(Op::Phi, {dead}, Type::top());
  Node* intPhi = g.make(Op::Phi, {dead}, Type::intTop());
  CHECK(gvn.findOrInsert(memPhi) == memPhi);
  CHECK(gvn.findOrInsert(intPhi) == intPhi);
  Node* intPhi2 = g.make(Op::Phi, {dead}, Type::intTop());
  CHECK(gvn.findOrInsert(intPhi2) == intPhi);  // the same kind still merges
}

TEST_CASE("opt/gvn: a stale entry never gives a wrong match", "[opt][gvn]") {
  Unit u;
  SonBuilder b(u, "f", 3);
  Graph& g = b.g;
  Gvn gvn;
  Node* x = b.parm(0);
  Node* y = b.parm(1);
  Node* z = b.parm(2);
  Node* a = b.add(x, y);
  a->keep = 1;
  CHECK(gvn.findOrInsert(a) == a);
  Node* fresh = b.add(x, y);
  // `a` changes after it was recorded under the hash of Add(x, y).
  g.setDef(a, 2, z);
  CHECK(gvn.findOrInsert(fresh) == fresh);  // not `a`, which is Add(x, z) now
  // A node equal to a's new form may miss it (stale hash) but is never wrong.
  Node* likeA = b.add(x, z);
  Node* found = gvn.findOrInsert(likeA);
  CHECK((found == likeA || found == a));
  CHECK(found->in == likeA->in);
}

// A node whose inputs keep changing is recorded again under each new hash;
// the old entries must not pile up (the peephole revisits nodes millions of
// times on a big function), and of two equal recorded nodes the first one
// recorded answers, whatever the memory layout.
TEST_CASE("opt/gvn: stale entries are dropped as the table grows; the first equal node recorded answers",
          "[opt][gvn]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Graph& g = b.g;
  Gvn gvn;
  Node* x = b.parm(0);
  Node* y = b.parm(1);
  Node* a = b.add(x, y);
  a->keep = 1;
  std::vector<Node*> cons;
  for (int i = 0; i < 2000; i++) cons.push_back(b.con(i));
  for (int i = 0; i < 2000; i++) {
    g.setDef(a, 2, cons[size_t(i)]);
    CHECK(gvn.findOrInsert(a) == a);
  }
  CHECK(gvn.recorded() < 100);  // the current entry and a few stale ones, not 2000
  // Two equal nodes under one hash: s is recorded as Add(x, x), changes, lets
  // t be recorded as Add(x, x), then changes back. The first recorded, s,
  // answers for Add(x, x).
  Node* s1 = b.add(x, x);
  s1->keep = 1;
  CHECK(gvn.findOrInsert(s1) == s1);
  g.setDef(s1, 2, y);
  Node* t = b.add(x, x);
  t->keep = 1;
  CHECK(gvn.findOrInsert(t) == t);
  g.setDef(s1, 2, x);
  CHECK(gvn.findOrInsert(b.add(x, x)) == s1);
  CHECK(gvn.findOrInsert(t) == s1);  // t too: it merges into the first
}

TEST_CASE("opt/gvn: the peephole value-numbers, with commutative constants canonical", "[opt][gvn]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Graph& g = b.g;
  Peephole peep(g);
  Node* x = b.parm(0);
  Node* y = b.parm(1);
  // Equal constants are one node.
  Node* c2 = peep.run(b.con(2));
  CHECK(peep.run(b.con(2)) == c2);
  CHECK(peep.run(b.con(7)) != c2);
  Node* a1 = peep.run(b.add(x, c2));
  Node* a2 = peep.run(b.add(c2, x));
  CHECK(a1 == a2);
  CHECK(a1->in[1] == x);
  CHECK(a1->in[2] == c2);
  CHECK(peep.run(b.add(peep.run(b.con(3)), x)) != a1);
  // Equal subexpressions built twice are one node.
  Node* m1 = peep.run(b.op(Op::Mul, x, y));
  Node* m2 = peep.run(b.op(Op::Mul, x, y));
  CHECK(m1 == m2);
  CHECK(peep.run(b.op(Op::Sub, x, y)) != peep.run(b.op(Op::Sub, y, x)));
}
