// Tests for the graph's edge editing (son/graph.h): setDef/addDef/delDef/
// subsume keep use lists exact (multiplicity included), kill removes unused
// inputs recursively but spares kept and still-used nodes, deferKills only
// unhooks, and liveNodes lists definitions before uses.
#include <catch2/catch.hpp>

#include <algorithm>

#include "lexer/diag.h"
#include "lexer/work_counters.h"
#include "son/control_flow.h"
#include "son/verify.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;
using simplec::sontest::useListsExact;
using simplec::sontest::verifyText;

namespace {
long uses(const Node* d, const Node* user) { return std::count(d->out.begin(), d->out.end(), user); }
}  // namespace

TEST_CASE("son/graph: a new graph has Start and Stop", "[son][graph]") {
  Unit u;
  u.funs.emplace_back();
  Graph& g = u.newGraph(0);
  REQUIRE(g.size() == 2);
  CHECK(g.start()->op == Op::Start);
  CHECK(g.stop()->op == Op::Stop);
  CHECK(g.start()->type == Type::ctrl());
  CHECK(g.node(0) == g.start());
  CHECK(g.node(1) == g.stop());
  Node* c = g.con(Type::intConst(3));
  CHECK(c->op == Op::Con);
  CHECK(c->in == std::vector<Node*>{g.start()});
  CHECK(c->type == Type::intConst(3));
  CHECK(c->id == 2);
  CHECK(uses(g.start(), c) == 1);
  // make() records every input's use, once per slot.
  Node* a = g.make(Op::Add, {nullptr, c, c});
  CHECK(uses(c, a) == 2);
  CHECK(a->type == nullptr);
  CHECK(useListsExact(g));
}

TEST_CASE("son/graph: setDef, addDef, delDef keep use lists exact", "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Graph& g = b.g;
  Node* x = b.parm(0);
  Node* y = b.parm(1);
  Node* add = b.add(x, y);
  Node* ret = b.ret(b.fun, add);
  REQUIRE(verifyText(g) == "");

  SECTION("setDef moves one use") {
    g.setDef(add, 2, x);  // Add(x, x)
    CHECK(add->in[1] == x);
    CHECK(add->in[2] == x);
    CHECK(uses(x, add) == 2);
    CHECK(uses(y, add) == 0);
    CHECK(y->dead);  // lost its last use: killed
    CHECK(useListsExact(g));
  }
  SECTION("setDef with the same node changes nothing") {
    g.setDef(add, 1, x);
    CHECK(uses(x, add) == 1);
    CHECK(useListsExact(g));
    CHECK(verifyText(g) == "");
  }
  SECTION("setDef to null drops the use; the old input dies when unused") {
    Node* k = b.con(5);
    Node* m = b.op(Op::Mul, x, k);
    g.setDef(ret, 2, m);  // add is now unused: killed
    CHECK(add->dead);
    CHECK(add->in.empty());
    CHECK(uses(x, add) == 0);
    CHECK(uses(y, add) == 0);
    g.setDef(m, 2, nullptr);
    CHECK(m->in[2] == nullptr);
    CHECK(k->dead);  // lost its only use
    CHECK(useListsExact(g));
  }
  SECTION("addDef appends, delDef shifts later inputs down") {
    Node* r = b.region({b.fun});
    Node* p = b.phi(r, {x});
    g.addDef(r, b.fun);
    g.addDef(p, y);
    CHECK(r->in.size() == 3);
    CHECK(uses(b.fun, r) == 2);
    CHECK(p->in == std::vector<Node*>{r, x, y});
    CHECK(useListsExact(g));
    p->keep++;  // keep p alive while it has no uses
    g.delDef(p, 1);
    CHECK(p->in == std::vector<Node*>{r, y});
    CHECK(uses(x, p) == 0);
    CHECK_FALSE(x->dead);  // still used by add
    g.delDef(r, 1);
    CHECK(r->in.size() == 2);
    CHECK(uses(b.fun, r) == 1);
    CHECK(useListsExact(g));
    // addDef of null is allowed (an empty slot).
    g.addDef(p, nullptr);
    CHECK(p->in.size() == 3);
    CHECK(useListsExact(g));
  }
}

TEST_CASE("son/graph: subsume moves every use, then kills the old node", "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Graph& g = b.g;
  Node* x = b.parm(0);
  Node* y = b.parm(1);
  Node* add = b.add(x, y);
  Node* twice = b.op(Op::Mul, add, add);  // add used twice by one node
  Node* neg = b.op(Op::Neg, add);
  Node* sum = b.add(twice, neg);
  b.ret(b.fun, sum);
  REQUIRE(verifyText(g) == "");

  SECTION("by an unrelated node") {
    Node* sub = b.op(Op::Sub, x, y);
    g.subsume(add, sub);
    CHECK(add->dead);
    CHECK(twice->in[1] == sub);
    CHECK(twice->in[2] == sub);
    CHECK(neg->in[1] == sub);
    CHECK(uses(sub, twice) == 2);
    CHECK(uses(sub, neg) == 1);
    CHECK(sub->out.size() == 3);
    CHECK(uses(x, add) == 0);
    CHECK_FALSE(x->dead);  // still used by sub
    CHECK(useListsExact(g));
    CHECK(verifyText(g) == "");
  }
  SECTION("by one of its own inputs") {
    g.subsume(add, x);
    CHECK(add->dead);
    CHECK_FALSE(x->dead);  // the old node's input survives as its replacement
    CHECK(twice->in[1] == x);
    CHECK(uses(x, twice) == 2);
    CHECK(x->keep == 0);
    CHECK(useListsExact(g));
    CHECK(verifyText(g) == "");
  }
  SECTION("a node kept by the parser loses its keep") {
    add->keep = 1;
    g.subsume(add, y);
    CHECK(add->dead);
    CHECK(add->keep == 0);
    CHECK(useListsExact(g));
  }
  SECTION("subsuming a node by itself is an internal error") {
    CHECK_THROWS_AS(g.subsume(add, add), InternalError);
  }
}

TEST_CASE("son/graph: kill removes unused inputs recursively", "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* x = b.parm(0);
  Node* c1 = b.con(1);
  Node* c2 = b.con(2);
  Node* a = b.add(x, c1);       // a, m die with top
  Node* m = b.op(Op::Mul, a, c2);
  Node* shared = b.op(Op::Neg, x);
  Node* top = b.add(m, shared);
  Node* keepMe = b.op(Op::Neg, shared);  // keeps `shared` used
  b.ret(b.fun, keepMe);

  SECTION("through chains of now-unused inputs") {
    g.kill(top);
    CHECK(top->dead);
    CHECK(m->dead);
    CHECK(a->dead);
    CHECK(c1->dead);
    CHECK(c2->dead);
    CHECK_FALSE(shared->dead);  // still used by keepMe
    CHECK_FALSE(x->dead);
    CHECK_FALSE(g.start()->dead);
    for (Node* n : {top, m, a, c1, c2}) {
      CHECK(n->in.empty());
      CHECK(n->out.empty());
    }
    CHECK(useListsExact(g));
    CHECK(verifyText(g) == "");
  }
  SECTION("but not through kept nodes") {
    a->keep = 1;
    g.kill(top);
    CHECK(top->dead);
    CHECK(m->dead);
    CHECK(c2->dead);
    CHECK_FALSE(a->dead);
    CHECK_FALSE(c1->dead);
    CHECK(a->out.empty());
    CHECK(useListsExact(g));
  }
  SECTION("a node with uses is not killed") {
    g.kill(shared);
    CHECK_FALSE(shared->dead);
    CHECK(shared->in == std::vector<Node*>{nullptr, x});
    g.killIfUnused(shared);
    CHECK_FALSE(shared->dead);
  }
  SECTION("Start and Stop are never killed") {
    g.kill(g.start());
    g.kill(g.stop());
    CHECK_FALSE(g.start()->dead);
    CHECK_FALSE(g.stop()->dead);
  }
  SECTION("killing a dead node again is harmless") {
    g.kill(top);
    g.kill(top);
    CHECK(useListsExact(g));
  }
}

TEST_CASE("son/graph: with deferKills, lost uses do not kill and kill only unhooks", "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* x = b.parm(0);
  Node* c1 = b.con(1);
  Node* a = b.add(x, c1);
  Node* n = b.op(Op::Neg, a);
  Node* ret = b.ret(b.fun, n);
  g.deferKills = true;
  g.setDef(ret, 2, x);  // n loses its only use
  CHECK_FALSE(n->dead);
  CHECK(n->out.empty());
  g.killIfUnused(n);    // deferred: nothing happens
  CHECK_FALSE(n->dead);
  g.kill(n);            // unhooks n alone
  CHECK(n->dead);
  CHECK(n->in.empty());
  CHECK_FALSE(a->dead);  // left unused for a later sweep
  CHECK(a->out.empty());
  CHECK_FALSE(c1->dead);
  CHECK(useListsExact(g));
  // The leftovers are unreachable: the verifier sees them, the sweep collects them.
  CHECK(verifyText(g).find("unreachable from Stop") != std::string::npos);
  g.deferKills = false;
  sweepUnreachable(g);
  CHECK(a->dead);
  CHECK(c1->dead);
  CHECK_FALSE(x->dead);
  CHECK(useListsExact(g));
  CHECK(verifyText(g) == "");
}

TEST_CASE("son/graph: liveNodes puts definitions before uses", "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* x = b.parm(0);
  Node* lp = b.loop(b.fun);
  Node* phi = b.loopPhi(lp, b.con(0));
  Node* inc = b.add(phi, b.con(1));
  g.setDef(phi, 2, inc);
  SonBuilder::Branch br = b.branch(lp, b.op(Op::LT, inc, x));
  b.closeLoop(lp, br.t);
  b.ret(br.f, phi);
  Node* orphan = b.con(99);  // not reachable from Stop
  std::vector<Node*> live = liveNodes(g);
  auto at = [&](const Node* n) { return std::find(live.begin(), live.end(), n) - live.begin(); };
  // Does `from` reach `to` through inputs?
  auto reaches = [&](Node* from, const Node* to) {
    std::vector<Node*> work{from};
    std::vector<char> seen(g.size(), 0);
    while (!work.empty()) {
      Node* n = work.back();
      work.pop_back();
      if (n == to) return true;
      if (seen[n->id]++) continue;
      for (Node* d : n->in)
        if (d) work.push_back(d);
    }
    return false;
  };
  CHECK(std::find(live.begin(), live.end(), orphan) == live.end());
  CHECK(live.back() == g.stop());
  // Stop, Return, 2 CProjs, If, Loop, Fun, Start, LT, Add, Phi, 2 Cons, x, mem.
  CHECK(live.size() == 15);
  for (Node* n : live) {
    CHECK(std::count(live.begin(), live.end(), n) == 1);
    // Every input comes first, except on a cycle (around a loop's back edge).
    for (Node* d : n->in)
      if (d && at(d) > at(n)) {
        INFO(n->label() << " is listed before its input " << d->label());
        CHECK(reaches(d, n));
      }
  }
}

TEST_CASE("son/graph: liveNodes answers again from its cache only while nothing changed", "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Graph& g = b.g;
  Node* sum = b.add(b.parm(0), b.parm(1));
  Node* ret = b.ret(b.fun, sum);
  Node* spare = b.con(7);  // not used yet
  std::vector<Node*> first = liveNodes(g);
  CHECK(liveNodes(g) == first);
  auto has = [](const std::vector<Node*>& v, const Node* n) { return std::find(v.begin(), v.end(), n) != v.end(); };
  CHECK_FALSE(has(first, spare));
  // An input edited: the new input is live, the old one is gone.
  g.setDef(ret, 2, spare);
  std::vector<Node*> second = liveNodes(g);
  CHECK(has(second, spare));
  CHECK_FALSE(has(second, sum));
  // Swapped inputs change the order (definitions in input order).
  Node* mul = b.op(Op::Mul, b.parm(0), b.parm(1));
  g.setDef(ret, 2, mul);
  std::vector<Node*> before = liveNodes(g);
  g.swapInputs(mul, 1, 2);
  std::vector<Node*> after = liveNodes(g);
  auto at = [](const std::vector<Node*>& v, const Node* n) { return std::find(v.begin(), v.end(), n) - v.begin(); };
  CHECK(at(before, b.parm(0)) < at(before, b.parm(1)));
  CHECK(at(after, b.parm(1)) < at(after, b.parm(0)));
  // A node killed is not listed, and compact() keeps the answer right.
  g.setDef(ret, 2, b.con(1));
  g.compact();
  std::vector<Node*> last = liveNodes(g);
  CHECK_FALSE(has(last, mul));
  for (Node* n : last) CHECK(g.owns(n));
}

TEST_CASE("son/graph: a sweep right after a sweep has nothing to do, but sees what was made since",
          "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  b.ret(b.fun, b.add(b.parm(0), b.con(1)));
  Node* orphan = b.add(b.parm(0), b.con(2));  // unreachable from Stop
  sweepUnreachable(g);
  CHECK(orphan->dead);
  uint64_t swept = g.editVersion();
  sweepUnreachable(g);
  CHECK(g.editVersion() == swept);  // nothing done, nothing edited
  // Garbage made after the sweep, without inputs and with.
  Node* bare = g.make(Op::Region, {}, Type::ctrl());
  sweepUnreachable(g);
  CHECK(bare->dead);
  Node* later = b.op(Op::Mul, b.parm(0), b.parm(0));
  sweepUnreachable(g);
  CHECK(later->dead);
  CHECK(verifyText(u) == "");
}

TEST_CASE("son/graph: a sweep and compact() keep liveNodes' answer; liveNodesOf scans a swept graph",
          "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* x = b.add(b.parm(0), b.con(1));
  Node* y = b.op(Op::Mul, x, b.con(3));
  b.ret(b.fun, b.add(y, x));
  Node* orphan = b.op(Op::Mul, b.parm(0), b.con(2));  // unreachable from Stop
  // Not swept: the walk from Stop finds the two live Adds (by id), not the orphan's Mul.
  CHECK(liveNodesOf(g, Op::Mul) == std::vector<Node*>{y});
  sweepUnreachable(g);
  REQUIRE(orphan->dead);
  // The sweep's walk is the answer, through compact() too (ids change,
  // the walk from Stop does not): no visit counted.
  uint64_t visits = workCounters().liveNodeVisits;
  std::vector<Node*> live = liveNodes(g);
  g.compact();
  CHECK(liveNodes(g) == live);
  CHECK(workCounters().liveNodeVisits == visits);
  // Swept: the scan in id order gives what the walk gives, sorted by id.
  std::vector<Node*> adds = liveNodesOf(g, Op::Add);
  CHECK(workCounters().liveNodeVisits == visits);
  CHECK(adds.size() == 2);
  CHECK(adds[0]->id < adds[1]->id);
  // An edit makes it walk again (a new orphan is not listed).
  Node* later = b.add(b.parm(0), b.con(5));
  CHECK(liveNodesOf(g, Op::Add) == adds);
  CHECK(workCounters().liveNodeVisits > visits);
  CHECK_FALSE(later->dead);
}

TEST_CASE("son/graph: -g bindings follow their control node to what took its place", "[son][graph]") {
  Unit u;
  u.funs.emplace_back();
  Graph& g = u.newGraph(0);
  Node* x = g.con(Type::intConst(1));
  x->keep++;
  // Straight-line control (a check): killed, its code is in its input's block.
  Node* check = g.make(Op::ZeroCheck, {g.start(), x}, Type::ctrl());
  g.addDebugName(x, 0, DebugName::Assign, check);
  // Subsumed control: the replacement.
  Node* region = g.make(Op::Region, {nullptr, g.start()}, Type::ctrl());
  Node* other = g.make(Op::Region, {nullptr, g.start()}, Type::ctrl());
  other->keep++;
  g.addDebugName(x, 0, DebugName::Assign, region);
  // Dead control: the assignment never runs.
  Node* dead = g.make(Op::Region, {nullptr, g.start()}, Type::xctrl());
  g.addDebugName(x, 0, DebugName::Assign, dead);
  // A live block head killed with nothing in its place: lost.
  Node* lost = g.make(Op::Region, {nullptr, g.start()}, Type::ctrl());
  g.addDebugName(x, 0, DebugName::Assign, lost);
  g.kill(check);
  g.subsume(region, other);
  g.kill(dead);
  g.kill(lost);
  auto check4 = [&](const std::vector<Graph::DebugAnchor>& a) {
    REQUIRE(a.size() == 5);  // entry 0 is unused
    CHECK(a[1].at == g.start());
    CHECK(a[2].at == other);
    CHECK(a[3].at == nullptr);
    CHECK(a[3].unreachable);
    CHECK(a[4].at == nullptr);
    CHECK(!a[4].unreachable);
  };
  check4(g.debugAnchors());
  // compact() frees the dead nodes: the bindings keep what they resolved to.
  g.compact();
  check4(g.debugAnchors());
  // A killed value's bindings are kept: the variable still changed there.
  Node* v = g.make(Op::Add, {nullptr, x, x});
  g.addDebugName(v, 1, DebugName::Assign, other);
  g.kill(v);
  g.compact();
  REQUIRE(g.orphanedDebugNames().size() == 1);
  CHECK(g.debugNames[g.orphanedDebugNames()[0]].var == 1);
}

TEST_CASE("son/graph: settle() gives back the id slack and the cached analyses", "[son][graph]") {
  // A unit keeps every graph until code generation: a graph that had many
  // more ids than it keeps must not hold on to room for them.
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* x = b.parm(0);
  for (int i = 0; i < 1000; i++) b.op(Op::Neg, x);  // garbage: no uses
  b.ret(b.fun, b.op(Op::Not, x));
  CHECK(liveNodes(g).size() < 20);
  sweepUnreachable(g);
  controlFlow(g);
  g.settle();
  CHECK(cachedControlFlowBytes(g) == 0);
  CHECK(g.deadCount() == 0);
  CHECK(g.size() < 20);
  CHECK(g.nodes().capacity() <= g.size() + g.size() / 4 + 16);
  CHECK(liveNodes(g).size() == g.size());  // computed afresh, by the new ids
}

TEST_CASE("son/graph: serials are kept only when the unit asks", "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Node* x = b.parm(0);
  b.ret(b.fun, b.op(Op::Not, x));
  CHECK_THROWS_AS(b.g.serial(x), InternalError);
}

TEST_CASE("son/graph: serials survive compact() and are never reused", "[son][graph]") {
  Unit u;
  u.keepSerials = true;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* x = b.parm(0);
  Node* dead = b.op(Op::Neg, x);
  Node* live = b.op(Op::Not, x);
  b.ret(b.fun, live);
  uint32_t liveSerial = g.serial(live), xSerial = g.serial(x), deadSerial = g.serial(dead);
  CHECK(liveSerial != xSerial);
  g.kill(dead);
  g.compact();
  CHECK(g.serial(live) == liveSerial);  // its id moved down, its serial did not
  CHECK(g.serial(x) == xSerial);
  // The freed slot goes to the next node, which gets a serial of its own.
  Node* fresh = b.op(Op::Neg, x);
  CHECK(g.serial(fresh) != deadSerial);
  CHECK(g.serial(fresh) > liveSerial);
  // Serials are unique across the unit's graphs.
  u.funs.emplace_back();
  Graph& h = u.newGraph(int(u.funs.size()) - 1);
  CHECK(h.serial(h.start()) > g.serial(fresh));
}

TEST_CASE("son/graph: a sweep filters only the use lists of the garbage's inputs, keeping their order",
          "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Graph& g = b.g;
  // parm 0 has many live users; the garbage cycle reads parm 1 only.
  Node* sum = b.parm(0);
  for (int i = 0; i < 1000; i++) sum = b.add(sum, b.parm(0));
  Node* lp = b.loop(b.fun);
  Node* p = b.loopPhi(lp, b.parm(1));
  Node* inc = b.add(p, b.parm(1));
  g.setDef(p, 2, inc);
  Node* keepA = b.add(b.parm(1), b.con(1));
  Node* keepB = b.add(b.parm(1), b.con(2));
  b.ret(b.fun, b.add(sum, b.add(keepA, keepB)));
  std::vector<Node*> before;
  for (Node* x : b.parm(1)->out)
    if (x != p && x != inc) before.push_back(x);
  uint64_t scans = workCounters().useScans;
  sweepUnreachable(g);
  CHECK(p->dead);
  CHECK(inc->dead);
  CHECK(lp->dead);
  CHECK(workCounters().useScans - scans < 20);  // not parm 0's thousand
  CHECK(std::vector<Node*>(b.parm(1)->out.begin(), b.parm(1)->out.end()) == before);
  CHECK(useListsExact(g));
  CHECK(verifyText(u) == "");
}

TEST_CASE("son/graph: loops() lists the Loops not killed, through compact()", "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* first = b.loop(b.fun);
  Node* orphan = b.add(b.parm(0), b.con(5));  // garbage, to renumber the nodes after it
  Node* second = b.loop(b.fun);
  CHECK(g.loops() == std::vector<Node*>{first, second});
  g.kill(first);
  REQUIRE(first->dead);
  CHECK(g.loops() == std::vector<Node*>{second});
  g.kill(orphan);
  g.compact();
  REQUIRE(g.loops() == std::vector<Node*>{second});
  CHECK(g.node(second->id) == second);
}

TEST_CASE("son/graph: the kinds by id follow made, killed and compacted nodes", "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* x = b.add(b.parm(0), b.con(1));
  Node* orphan = b.op(Op::Mul, b.parm(0), b.con(2));  // garbage: not dead until killed
  Node* y = b.op(Op::Mul, x, b.con(3));
  b.ret(b.fun, y);
  CHECK(g.opAt(x->id) == Op::Add);
  CHECK(g.nodesOf(Op::Mul) == std::vector<Node*>{orphan, y});
  g.kill(orphan);
  CHECK(g.deadAt(orphan->id));
  CHECK(g.nodesOf(Op::Mul) == std::vector<Node*>{y});
  // Renumbered: each id still tells its node's kind, and none is dead.
  g.compact();
  for (size_t id = 0; id < g.size(); id++) {
    INFO("id " << id);
    CHECK_FALSE(g.deadAt(id));
    CHECK(g.opAt(id) == g.node(uint32_t(id))->op);
  }
  CHECK(g.nodesOf(Op::Mul) == std::vector<Node*>{y});
}

TEST_CASE("son/graph: funPtrConstants lists the function constants not killed, through compact()", "[son][graph]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* first = g.con(Type::funPtr(0));
  Node* orphan = b.add(b.parm(0), b.con(5));  // garbage, to renumber the nodes after it
  Node* second = g.con(Type::funPtr(1));
  b.con(7);  // an int constant is not listed
  CHECK(g.funPtrConstants() == std::vector<Node*>{first, second});
  g.kill(first);
  g.kill(orphan);
  g.compact();
  REQUIRE(g.funPtrConstants() == std::vector<Node*>{second});
  CHECK(g.node(second->id) == second);
}
