// Tests for global code motion: loop-invariant code leaves the loop while
// loop-variant code stays; code used in one arm sinks into it; a Div stays
// below its ZeroCheck; Phi inputs go to the predecessors; a constant shared
// by two functions is scheduled in both; dead region edges; and malformed
// functions throw internal errors instead of crashing.
#include "sched/gcm.h"

#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "sched/cfg.h"
#include "test/unit/sched/sched_builder.h"

using namespace simplec;
using simplec::test::blockOfHead;
using simplec::test::checkedGcm;
using simplec::test::FunBuilder;

namespace {
int depthOf(const Schedule& s, const Node* n) { return s.blocks[size_t(s.blockIndexOf(n))].loopDepth; }
}  // namespace

TEST_CASE("loop-invariant code is hoisted, loop-variant code stays", "[sched][gcm]") {
  // s = 0; for (i = 0; i < n; i++) s += i + a * b; return s
  Unit u;
  FunBuilder f(u, "hoist", 3);
  Graph& g = f.g;
  Node *a = f.parm(0), *b = f.parm(1), *n = f.parm(2);
  Node* loop = f.loop(f.fun);
  Node* zero = f.con(0);
  Node* i = f.loopPhi(loop, zero);
  Node* sum = f.loopPhi(loop, zero);
  auto br = f.branch(loop, f.cmp(Op::LT, i, n));
  Node* inv = f.op(Op::Mul, a, b);
  Node* var = f.add(i, inv);
  Node* sum1 = f.add(sum, var);
  Node* one = f.con(1);
  Node* i1 = f.add(i, one);
  f.closeLoop(loop, br.t);
  f.setBack(i, i1);
  f.setBack(sum, sum1);
  f.ret(br.f, f.mem, sum);
  Schedule s = checkedGcm(g);
  CHECK(s.blockIndexOf(inv) == 0);
  CHECK(depthOf(s, one) == 0);
  CHECK(depthOf(s, var) == 1);
  CHECK(depthOf(s, sum1) == 1);
  CHECK(depthOf(s, i1) == 1);
  // Used only along the back edge: the latest block of the loop, its latch.
  CHECK(s.blockIndexOf(sum1) == blockOfHead(s, br.t));
  CHECK(s.blockIndexOf(i) == blockOfHead(s, loop));
}

TEST_CASE("an invariant computed in an inner loop moves to the outer one only", "[sched][gcm]") {
  // for i: for j: use(i * 3 + j): i * 3 is invariant in the inner loop only.
  Unit u;
  FunBuilder f(u, "inner", 1);
  Graph& g = f.g;
  Node* n = f.parm(0);
  Node* outer = f.loop(f.fun);
  Node* i = f.loopPhi(outer, f.con(0));
  Node* acc = f.loopPhi(outer, f.con(0));
  auto ob = f.branch(outer, f.cmp(Op::LT, i, n));
  Node* inner = f.loop(ob.t);
  Node* j = f.loopPhi(inner, f.con(0));
  Node* acc2 = f.loopPhi(inner, acc);
  auto ib = f.branch(inner, f.cmp(Op::LT, j, n));
  Node* i3 = f.op(Op::Mul, i, f.con(3));
  Node* t = f.add(i3, j);
  f.closeLoop(inner, ib.t);
  f.setBack(j, f.add(j, f.con(1)));
  f.setBack(acc2, f.add(acc2, t));
  f.closeLoop(outer, ib.f);
  f.setBack(i, f.add(i, f.con(1)));
  f.setBack(acc, acc2);
  f.ret(ob.f, f.mem, acc);
  Schedule s = checkedGcm(g);
  CHECK(depthOf(s, i3) == 1);
  CHECK(s.blockIndexOf(i3) == blockOfHead(s, ob.t));  // the inner loop's preheader
  CHECK(depthOf(s, t) == 2);
}

TEST_CASE("a value used in one arm only sinks into that arm", "[sched][gcm]") {
  Unit u;
  FunBuilder f(u, "sink", 2);
  Graph& g = f.g;
  Node *a = f.parm(0), *b = f.parm(1);
  Node* x = f.op(Op::Mul, a, b);
  Node* both = f.op(Op::Sub, a, b);
  auto br = f.branch(f.fun, f.cmp(Op::LT, a, b));
  Node* xt = f.add(x, both);
  Node* seven = f.con(7);
  Node* xf = f.add(seven, both);
  Node* r = f.region({br.t, br.f});
  f.ret(r, f.mem, f.phi(r, {xt, xf}));
  Schedule s = checkedGcm(g);
  int t = blockOfHead(s, br.t), e = blockOfHead(s, br.f);
  CHECK(s.blockIndexOf(x) == t);
  CHECK(s.blockIndexOf(xt) == t);
  CHECK(s.blockIndexOf(seven) == e);
  CHECK(s.blockIndexOf(xf) == e);
  CHECK(s.blockIndexOf(both) == 0);  // used in both arms: stays above the If
}

TEST_CASE("a value that ends its inputs' lives moves up to where they are", "[sched][gcm]") {
  // p1 and p2 merge two diamonds; their sum is only needed after a third.
  // Placed late it would keep both alive through the third diamond; the
  // third's merge runs exactly when the second's does, so the sum goes there.
  Unit u;
  FunBuilder f(u, "ends", 2);
  Graph& g = f.g;
  Node *a = f.parm(0), *b = f.parm(1);
  auto diamond = [&](Node* ctrl, Op op, int64_t k) {
    auto br = f.branch(ctrl, f.cmp(op, a, b));
    Node* r = f.region({br.t, br.f});
    Node* p = f.phi(r, {f.op(Op::Mul, a, f.con(k)), f.op(Op::Sub, b, f.con(k))});
    return std::pair<Node*, Node*>{r, p};
  };
  auto [r1, p1] = diamond(f.fun, Op::LT, 3);
  auto [r2, p2] = diamond(r1, Op::EQ, 5);
  Node* sum = f.add(p1, p2);
  auto [r3, p3] = diamond(r2, Op::LE, 7);
  f.ret(r3, f.mem, f.add(sum, p3));
  Schedule s = checkedGcm(g);
  CHECK(s.blockIndexOf(sum) == blockOfHead(s, r2));
}

TEST_CASE("a value whose input lives on around a loop stays where it is used", "[sched][gcm]") {
  // for (i = 0; i < n; i++) { if (i < a) s = s + 1; else s = s - 1; s = s + i * a }:
  // i * a does not end a's life (a is needed in every iteration), and i
  // is read again by the increment at the latch.
  Unit u;
  FunBuilder f(u, "stays", 2);
  Graph& g = f.g;
  Node *a = f.parm(0), *n = f.parm(1);
  Node* loop = f.loop(f.fun);
  Node* zero = f.con(0);
  Node* i = f.loopPhi(loop, zero);
  Node* sum = f.loopPhi(loop, zero);
  auto head = f.branch(loop, f.cmp(Op::LT, i, n));
  auto arm = f.branch(head.t, f.cmp(Op::LT, i, a));
  Node* one = f.con(1);
  Node* merge = f.region({arm.t, arm.f});
  Node* s1 = f.phi(merge, {f.add(sum, one), f.op(Op::Sub, sum, one)});
  Node* ia = f.op(Op::Mul, i, a);
  Node* s2 = f.add(s1, ia);
  f.closeLoop(loop, merge);
  f.setBack(i, f.add(i, one));
  f.setBack(sum, s2);
  f.ret(head.f, f.mem, sum);
  Schedule s = checkedGcm(g);
  CHECK(s.blockIndexOf(ia) == blockOfHead(s, merge));
  CHECK(s.blockIndexOf(s2) == blockOfHead(s, merge));
}

TEST_CASE("Phi inputs are placed in the matching predecessors", "[sched][gcm]") {
  Unit u;
  FunBuilder f(u, "phi", 2);
  Graph& g = f.g;
  Node *a = f.parm(0), *b = f.parm(1);
  auto br = f.branch(f.fun, f.cmp(Op::EQ, a, b));
  Node* x = f.add(a, f.con(1));
  Node* y = f.op(Op::Mul, b, f.con(2));
  Node* r = f.region({br.t, br.f});
  Node* p = f.phi(r, {x, y});
  f.ret(r, f.mem, p);
  Schedule s = checkedGcm(g);
  int j = blockOfHead(s, r);
  CHECK(s.blockIndexOf(x) == s.blocks[size_t(j)].preds[0]);
  CHECK(s.blockIndexOf(y) == s.blocks[size_t(j)].preds[1]);
  CHECK(s.blockIndexOf(p) == j);
  CHECK(s.blocks[size_t(j)].nodes[1] == p);  // right after the head
}

TEST_CASE("a Div stays below its ZeroCheck", "[sched][gcm]") {
  // q = a / b (checked); if (a < 0) return q + 1; return 0
  Unit u;
  FunBuilder f(u, "div", 2);
  Graph& g = f.g;
  Node *a = f.parm(0), *b = f.parm(1);
  Node* zc = f.zeroCheck(f.fun, b);
  Node* q = f.div(zc, a, b);
  auto br = f.branch(zc, f.cmp(Op::LT, a, f.con(0)));
  Node* q1 = f.add(q, f.con(1));
  Node* r = f.region({br.t, br.f});
  f.ret(r, f.mem, f.phi(r, {q1, f.con(0)}));
  Schedule s = checkedGcm(g);
  CHECK(s.blockIndexOf(zc) == 0);
  CHECK(s.blockIndexOf(q) == blockOfHead(s, br.t));  // sinks, still dominated by the check

  // Used right away, it stays in the check's block, after it.
  FunBuilder h(u, "div2", 2);
  Graph& g2 = h.g;
  Node* zc2 = h.zeroCheck(h.fun, h.parm(1));
  Node* pre = h.add(h.parm(0), h.con(5));
  Node* q2 = h.div(zc2, pre, h.parm(1));
  h.ret(zc2, h.mem, q2);
  Schedule s2 = checkedGcm(g2);
  CHECK(s2.blockIndexOf(q2) == 0);
  CHECK(test::posInBlock(s2, q2) > test::posInBlock(s2, zc2));
  CHECK(test::posInBlock(s2, pre) < test::posInBlock(s2, q2));
}

TEST_CASE("a loop-invariant Div is not hoisted above its ZeroCheck in the loop", "[sched][gcm]") {
  Unit u;
  FunBuilder f(u, "divloop", 3);
  Graph& g = f.g;
  Node *a = f.parm(0), *b = f.parm(1), *n = f.parm(2);
  Node* loop = f.loop(f.fun);
  Node* i = f.loopPhi(loop, f.con(0));
  auto br = f.branch(loop, f.cmp(Op::LT, i, n));
  Node* zc = f.zeroCheck(br.t, b);
  Node* q = f.div(zc, a, b);
  Node* free = f.op(Op::Sub, a, b);  // the same inputs, unpinned: leaves the loop
  f.closeLoop(loop, zc);
  f.setBack(i, f.add(f.add(i, q), free));
  f.ret(br.f, f.mem, i);
  Schedule s = checkedGcm(g);
  CHECK(s.blockIndexOf(q) == s.blockIndexOf(zc));
  CHECK(depthOf(s, q) == 1);
  CHECK(depthOf(s, free) == 0);
}

TEST_CASE("an endless loop leaves through its Never", "[sched][gcm]") {
  // for (;;) { i = i + a; 1 / i; }  (the parser adds a Never whose arm 0
  // returns 0; the division's check keeps the loop's values alive)
  Unit u;
  FunBuilder f(u, "endless", 1);
  Graph& g = f.g;
  Node* loop = f.loop(f.fun);
  Node* i = f.loopPhi(loop, f.con(0));
  Node* step = f.add(i, f.parm(0));
  Node* inv = f.op(Op::Mul, f.parm(0), f.con(3));
  Node* zc = f.zeroCheck(loop, step);
  auto nv = f.never(zc);
  f.closeLoop(loop, nv.f);  // arm 1 stays in the loop
  f.setBack(i, f.add(step, inv));
  f.ret(nv.t, f.mem, f.con(0));
  Schedule s = checkedGcm(g);
  int head = blockOfHead(s, loop), out = blockOfHead(s, nv.t), stay = blockOfHead(s, nv.f);
  CHECK(s.blockIndexOf(nv.iff) == head);
  CHECK(s.blocks[size_t(head)].nodes.back() == nv.iff);
  CHECK(s.blocks[size_t(head)].succs == std::vector<int>{out, stay});
  CHECK(s.blocks[size_t(stay)].loopDepth == 1);
  CHECK(s.blocks[size_t(out)].loopDepth == 0);
  CHECK(depthOf(s, step) == 1);
  CHECK(s.blockIndexOf(inv) == 0);
  // The loop's blocks come first, the exit after them.
  CHECK(stay == head + 1);
  CHECK(out == stay + 1);
}

TEST_CASE("a Region input unreachable from the entry is a dead edge", "[sched][gcm]") {
  Unit u;
  FunBuilder f(u, "dead", 1);
  Graph& g = f.g;
  Node* deadCtrl = g.con(Type::xctrl());
  Node* x = f.add(f.parm(0), f.con(1));
  Node* y = f.op(Op::Mul, f.parm(0), f.con(9));  // only along the dead edge
  Node* r = f.region({f.fun, deadCtrl});
  f.ret(r, f.mem, f.phi(r, {x, y}));
  Schedule s = checkedGcm(g);
  int j = blockOfHead(s, r);
  CHECK(s.blocks[size_t(j)].preds == std::vector<int>{0, -1});
  CHECK(s.blockIndexOf(y) == -1);
  CHECK(s.blockIndexOf(x) == 0);
}

TEST_CASE("malformed functions are internal errors", "[sched][gcm]") {
  SECTION("a function with no body, or an external one") {
    Unit u;
    u.funs.emplace_back().name = "empty";
    CHECK_THROWS_AS(gcm(u.newGraph(0)), InternalError);
    u.funs.emplace_back().name = "ext";
    u.funs.back().isExtern = true;
    CHECK_THROWS_AS(gcm(u.newGraph(1)), InternalError);
  }
  SECTION("a dead end: the Fun has no control successor") {
    Unit u;
    FunBuilder f(u, "deadend", 0);
    Graph& g = f.g;
    Node* r = f.region({g.con(Type::xctrl())});
    f.ret(r, f.mem, f.con(0));
    try {
      gcm(g);
      FAIL("no error");
    } catch (const InternalError& e) {
      CHECK(e.pass == "gcm");
      CHECK(std::string(e.what()) == "function 'deadend': " + nodeLabel(f.fun) + " has no control successor");
    }
  }
  SECTION("the Return is unreachable from the Fun (an endless loop)") {
    Unit u;
    FunBuilder f(u, "unreach", 1);
    Graph& g = f.g;
    Node* loop = f.loop(f.fun);
    f.closeLoop(loop, f.zeroCheck(loop, f.parm(0)));
    Node* r = f.region({g.con(Type::xctrl())});
    f.ret(r, f.mem, f.con(0));
    try {
      gcm(g);
      FAIL("no error");
    } catch (const InternalError& e) {
      CHECK(e.pass == "gcm");
      CHECK(std::string(e.what()) == "function 'unreach': its Return is unreachable from its entry");
    }
  }
  SECTION("an If with one arm only") {
    Unit u;
    FunBuilder f(u, "onearm", 1);
    Graph& g = f.g;
    Node* iff = g.make(Op::If, {f.fun, f.parm(0)}, Type::tuple({Type::ctrl(), Type::ctrl()}));
    Node* t = g.make(Op::CProj, {iff}, Type::ctrl(), 0);
    f.ret(t, f.mem, f.parm(0));
    CHECK_THROWS_AS(gcm(g), InternalError);
  }
  SECTION("a value of one arm used in the other") {
    Unit u;
    FunBuilder f(u, "cross", 2);
    Graph& g = f.g;
    auto br = f.branch(f.fun, f.parm(0));
    Node* zc = f.zeroCheck(br.t, f.parm(1));
    Node* q = f.div(zc, f.parm(0), f.parm(1));
    Node* r = f.region({zc, br.f});
    f.ret(r, f.mem, f.phi(r, {f.con(0), f.add(q, f.con(1))}));
    CHECK_THROWS_AS(gcm(g), InternalError);
  }
  SECTION("a Phi whose arity does not match its Region") {
    Unit u;
    FunBuilder f(u, "arity", 1);
    Graph& g = f.g;
    auto br = f.branch(f.fun, f.parm(0));
    Node* r = f.region({br.t, br.f});
    f.ret(r, f.mem, f.phi(r, {f.parm(0)}));
    CHECK_THROWS_AS(gcm(g), InternalError);
  }
  SECTION("a control node with two control successors") {
    Unit u;
    FunBuilder f(u, "fork", 1);
    Graph& g = f.g;
    Node* z1 = f.zeroCheck(f.fun, f.parm(0));
    Node* z2 = f.zeroCheck(f.fun, f.parm(0));
    Node* r = f.region({z1, z2});
    f.ret(r, f.mem, f.parm(0));
    CHECK_THROWS_AS(gcm(g), InternalError);
  }
  SECTION("a data cycle without a Phi") {
    Unit u;
    FunBuilder f(u, "cycle", 1);
    Graph& g = f.g;
    Node* x = f.add(f.parm(0), f.parm(0));
    Node* y = f.add(x, f.parm(0));
    g.setDef(x, 2, y);
    f.ret(f.fun, f.mem, y);
    CHECK_THROWS_AS(gcm(g), InternalError);
  }
}
