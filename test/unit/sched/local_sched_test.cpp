// Tests for the in-block order: Parms after the Fun, a compare used only by
// the block's If right before it, call arguments before the Call, a CallEnd's
// Projs right after it, values needed only after a call computed after it,
// and every dependence respected (the checker runs on each schedule).
#include "sched/local_sched.h"

#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "sched/cfg.h"
#include "sched/gcm.h"
#include "test/unit/optimized_program.h"
#include "test/unit/sched/sched_builder.h"

using namespace simplec;
using simplec::test::blockOfHead;
using simplec::test::checkedGcm;
using simplec::test::FunBuilder;
using simplec::test::posInBlock;

namespace {

// A function `id` that returns its argument: the callee of the calls below.
int identity(Unit& u) {
  FunBuilder callee(u, "id", 1);
  callee.ret(callee.fun, callee.mem, callee.parm(0));
  return callee.index;
}

}  // namespace

TEST_CASE("Parms follow the Fun, memory first", "[sched][local]") {
  Unit u;
  FunBuilder f(u, "parms", 3);
  Graph& g = f.g;
  Node* x = f.add(f.parm(2), f.parm(0));
  Node* y = f.op(Op::Mul, x, f.parm(1));
  f.ret(f.fun, f.mem, y);
  Schedule s = checkedGcm(g);
  const std::vector<Node*>& ns = s.blocks[0].nodes;
  REQUIRE(ns.size() >= 5);
  CHECK(ns[0] == f.fun);
  CHECK(ns[1] == f.mem);
  CHECK(ns[2] == f.parm(0));
  CHECK(ns[3] == f.parm(1));
  CHECK(ns[4] == f.parm(2));
  CHECK(ns.back()->op == Op::Return);
}

TEST_CASE("a compare used only by the If goes right before it", "[sched][local]") {
  Unit u;
  FunBuilder f(u, "fuse", 2);
  Graph& g = f.g;
  Node *a = f.parm(0), *b = f.parm(1);
  Node* c = f.cmp(Op::LE, a, b);
  Node* both = f.op(Op::Mul, a, b);  // live out of the block, into both arms
  auto br = f.branch(f.fun, c);
  Node* r = f.region({br.t, br.f});
  f.ret(r, f.mem, f.phi(r, {f.add(both, a), f.add(both, b)}));
  Schedule s = checkedGcm(g);
  const std::vector<Node*>& ns = s.blocks[0].nodes;
  REQUIRE(ns.size() >= 2);
  CHECK(ns.back() == br.iff);
  CHECK(ns[ns.size() - 2] == c);
  CHECK(posInBlock(s, both) < posInBlock(s, c));
}

TEST_CASE("a compare with another use is not glued to the If", "[sched][local]") {
  Unit u;
  FunBuilder f(u, "nofuse", 2);
  Graph& g = f.g;
  Node* c = f.cmp(Op::EQ, f.parm(0), f.parm(1));
  auto br = f.branch(f.fun, c);
  Node* r = f.region({br.t, br.f});
  f.ret(r, f.mem, f.phi(r, {c, f.con(5)}));
  Schedule s = checkedGcm(g);
  CHECK(s.blockIndexOf(c) == 0);
  CHECK(s.blocks[0].nodes.back() == br.iff);
}

TEST_CASE("calls: arguments before, Projs right after, later values after", "[sched][local]") {
  Unit u;
  FunBuilder callee(u, "callee", 1);
  callee.ret(callee.fun, callee.mem, callee.parm(0));
  FunBuilder f(u, "caller", 2);
  Graph& g = f.g;
  Node *a = f.parm(0), *b = f.parm(1);
  Node* arg = f.op(Op::Mul, a, b);
  Node* after = f.op(Op::Sub, a, b);  // needed only after the call
  auto c = f.call(f.fun, f.mem, callee.index, {arg});
  Node* res = f.add(c.value, after);
  f.ret(c.ctrl, c.mem, res);
  Schedule s = checkedGcm(g);
  REQUIRE(s.blocks.size() == 1);
  CHECK(posInBlock(s, arg) < posInBlock(s, c.call));
  CHECK(posInBlock(s, c.end) == posInBlock(s, c.call) + 1);
  // Projs glued to the CallEnd, memory first.
  CHECK(posInBlock(s, c.mem) == posInBlock(s, c.end) + 1);
  CHECK(posInBlock(s, c.value) == posInBlock(s, c.end) + 2);
  CHECK(posInBlock(s, after) > posInBlock(s, c.end));
  CHECK(posInBlock(s, c.ctrl) > posInBlock(s, c.end));
  CHECK(s.blocks[0].nodes.back()->op == Op::Return);
}

TEST_CASE("two calls in a row keep their control order", "[sched][local]") {
  Unit u;
  int id = identity(u);
  FunBuilder f(u, "twice", 1);
  Graph& g = f.g;
  auto c1 = f.call(f.fun, f.mem, id, {f.parm(0)});
  auto c2 = f.call(c1.ctrl, c1.mem, id, {f.add(c1.value, f.con(1))});
  // A value computed from a parameter but used only after the second call.
  Node* late = f.op(Op::Mul, f.parm(0), f.con(3));
  f.ret(c2.ctrl, c2.mem, f.add(c2.value, late));
  Schedule s = checkedGcm(g);
  CHECK(posInBlock(s, c1.ctrl) < posInBlock(s, c2.call));
  CHECK(posInBlock(s, late) > posInBlock(s, c2.end));
}

TEST_CASE("results of calls summed are added as each call returns", "[sched][local]") {
  // sum = (r1 * 1000003 + r2) * 1000003 + r3: demand alone placed the whole
  // sum before its one use, after the last call, with every result alive
  // across the calls after it. Each step that ends values goes as soon as
  // its inputs are there, but not between a Call and its CallEnd.
  Unit u;
  int id = identity(u);
  FunBuilder f(u, "sums", 1);
  Graph& g = f.g;
  // c2's argument is read again after it (its last use, ready once c2 is
  // placed): that step too waits for c2's CallEnd.
  Node* arg = f.add(f.parm(0), f.con(5));
  auto c1 = f.call(f.fun, f.mem, id, {f.parm(0)});
  auto c2 = f.call(c1.ctrl, c1.mem, id, {arg});
  auto c3 = f.call(c2.ctrl, c2.mem, id, {f.parm(0)});
  Node* k = f.con(1000003);
  Node* m1 = f.op(Op::Mul, c1.value, k);
  Node* s2 = f.add(m1, c2.value);
  Node* m2 = f.op(Op::Mul, s2, k);
  Node* s3 = f.add(m2, c3.value);
  Node* again = f.op(Op::Mul, arg, f.con(3));
  f.ret(c3.ctrl, c3.mem, f.add(s3, again));
  Schedule s = checkedGcm(g);
  CHECK(posInBlock(s, again) > posInBlock(s, c2.end));
  CHECK(posInBlock(s, m1) < posInBlock(s, c2.call));
  CHECK(posInBlock(s, s2) > posInBlock(s, c2.end));
  CHECK(posInBlock(s, s2) < posInBlock(s, c3.call));
  CHECK(posInBlock(s, m2) < posInBlock(s, c3.call));
  CHECK(posInBlock(s, c1.end) == posInBlock(s, c1.call) + 1);
  CHECK(posInBlock(s, c2.end) == posInBlock(s, c2.call) + 1);
}

TEST_CASE("every block of a loop with a call orders its dependences", "[sched][local]") {
  Unit u;
  FunBuilder callee(u, "k", 1);
  callee.ret(callee.fun, callee.mem, callee.parm(0));
  FunBuilder f(u, "loopcall", 1);
  Graph& g = f.g;
  Node* loop = f.loop(f.fun);
  Node* i = f.loopPhi(loop, f.con(0));
  Node* m = g.make(Op::Phi, {loop, f.mem, nullptr}, Type::mem());
  auto br = f.branch(loop, f.cmp(Op::LT, i, f.parm(0)));
  auto c = f.call(br.t, m, callee.index, {i});
  Node* zc = f.zeroCheck(c.ctrl, c.value);
  Node* q = f.div(zc, f.parm(0), c.value);
  f.closeLoop(loop, zc);
  f.setBack(i, f.add(i, q));
  g.setDef(m, 2, c.mem);
  f.ret(br.f, m, i);
  Schedule s = checkedGcm(g);
  int body = blockOfHead(s, br.t);
  CHECK(s.blockIndexOf(q) == body);
  CHECK(posInBlock(s, q) > posInBlock(s, zc));
  CHECK(posInBlock(s, zc) > posInBlock(s, c.end));
  CHECK(s.blocks[size_t(body)].loopDepth == 1);
}

TEST_CASE("scheduleBlock rejects a dependence cycle inside a block", "[sched][local]") {
  Unit u;
  FunBuilder f(u, "cycle", 0);
  Graph& g = f.g;
  Node* fun = g.make(Op::Fun, {g.start()}, Type::ctrl());
  Node* x = g.make(Op::Add, {nullptr, nullptr, nullptr}, Type::intBot());
  Node* y = g.make(Op::Add, {nullptr, x, x}, Type::intBot());
  g.setDef(x, 1, y);
  MemoryIndex mem(g, {fun, x, y});
  LocalScheduler local(g, mem);
  CHECK_THROWS_AS(local.schedule({fun}, {x, y}, {0, 1}, 0), InternalError);
}

TEST_CASE("a loop variable's next value comes after the variable's other uses", "[sched][local]") {
  // i + 1, made before the store of a[k] (k = i) in the source and in the
  // graph, is placed after it, so the old and the new i can share a
  // register (strbuild's digit loop).
  Unit u;
  simplec::test::optimizeProgram(u,
                                 "val f = { int[] a, int n ->\n"
                                 "  int i = 0;\n"
                                 "  while (i < n) { int k = i; i = i + 1; a[k] = k ^ n; }\n"
                                 "  return 0;\n"
                                 "};");
  Graph& g = *u.graph(simplec::test::functionIndex(u, "f"));
  Schedule s = checkedGcm(g);
  int steps = 0;
  for (const BasicBlock& bb : s.blocks)
    for (size_t k = 0; k < bb.nodes.size(); k++) {
      const Node* n = bb.nodes[k];
      // An integer Add by 1 feeding a Phi: a step of i or c.
      bool step = n->op == Op::Add && n->in[2]->op == Op::Con && n->in[2]->type->isConst() &&
                  n->in[2]->type->value() == 1;
      bool feedsPhi = false;
      for (const Node* w : n->out) feedsPhi = feedsPhi || (w && w->op == Op::Phi);
      if (!step || !feedsPhi) continue;
      steps++;
      const Node* v = n->in[1];
      while (v->op == Op::Cast) v = v->in[1];
      // Nothing after it in the block reads the variable it steps.
      for (size_t later = k + 1; later < bb.nodes.size(); later++)
        for (const Node* in : bb.nodes[later]->in) {
          const Node* w = in;
          while (w && w->op == Op::Cast) w = w->in[1];
          INFO(nodeLabel(n) << " before " << nodeLabel(bb.nodes[later]));
          CHECK((w != v || bb.nodes[later]->op == Op::Phi));
        }
    }
  CHECK(steps >= 1);
}
