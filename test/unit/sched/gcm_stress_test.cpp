// Stress tests: gcm must not recurse deeply nor go quadratic. A 200k-node
// data chain in one block, 200 nested loops, and 30k diamonds in a row that
// all use one floating value (a deep dominator tree with many LCA queries).
// Every schedule also passes the independent checker.
#include <catch2/catch.hpp>

#include "test/unit/sched/sched_builder.h"

using namespace simplec;
using simplec::test::blockOfHead;
using simplec::test::checkedGcm;
using simplec::test::FunBuilder;

TEST_CASE("a chain of 200k nodes", "[sched][stress]") {
  Unit u;
  FunBuilder f(u, "chain", 2);
  Graph& g = f.g;
  Node* x = f.parm(0);
  for (int k = 0; k < 200000; k++) x = f.op(k % 3 ? Op::Add : Op::Xor, x, k % 2 ? f.parm(1) : f.parm(0));
  f.ret(f.fun, f.mem, x);
  Schedule s = checkedGcm(g, /*verifyGraph=*/false);
  REQUIRE(s.blocks.size() == 1);
  CHECK(s.blocks[0].nodes.size() == 200000 + 5);
  CHECK(s.blocks[0].nodes[s.blocks[0].nodes.size() - 2] == x);
}

TEST_CASE("200 nested loops", "[sched][stress]") {
  const int depth = 200;
  Unit u;
  FunBuilder f(u, "deep", 3);
  Graph& g = f.g;
  Node *n = f.parm(0), *a = f.parm(1), *b = f.parm(2);
  Node* ctrl = f.fun;
  std::vector<Node*> loops, phis;
  std::vector<FunBuilder::Branch> brs;
  for (int k = 0; k < depth; k++) {
    Node* l = f.loop(ctrl);
    Node* i = f.loopPhi(l, f.con(0));
    auto br = f.branch(l, f.cmp(Op::LT, i, n));
    loops.push_back(l);
    phis.push_back(i);
    brs.push_back(br);
    ctrl = br.t;
  }
  // The innermost body uses an invariant of everything (a * b) and one of
  // all loops but the outermost (i0 * 7).
  Node* inv = f.op(Op::Mul, a, b);
  Node* outerInv = f.op(Op::Mul, phis[0], f.con(7));
  Node* last = phis[depth - 1];
  f.closeLoop(loops[depth - 1], brs[depth - 1].t);
  f.setBack(last, f.add(f.add(last, inv), outerInv));
  for (int k = depth - 1; k > 0; k--) {
    f.closeLoop(loops[size_t(k - 1)], brs[size_t(k)].f);
    f.setBack(phis[size_t(k - 1)], f.add(phis[size_t(k - 1)], f.con(1)));
  }
  f.ret(brs[0].f, f.mem, phis[0]);
  Schedule s = checkedGcm(g);
  for (int k = 0; k < depth; k++) CHECK(s.blocks[size_t(blockOfHead(s, loops[size_t(k)]))].loopDepth == k + 1);
  CHECK(s.blockIndexOf(inv) == 0);
  CHECK(s.blocks[size_t(s.blockIndexOf(outerInv))].loopDepth == 1);
  CHECK(s.blockIndexOf(outerInv) == blockOfHead(s, brs[0].t));
}

TEST_CASE("30k diamonds in a row share one floating value", "[sched][stress]") {
  Unit u;
  FunBuilder f(u, "diamonds", 2);
  Graph& g = f.g;
  Node *a = f.parm(0), *b = f.parm(1);
  Node* shared = f.op(Op::Mul, a, b);
  Node* ctrl = f.fun;
  Node* acc = a;
  for (int k = 0; k < 30000; k++) {
    auto br = f.branch(ctrl, f.cmp(Op::LT, acc, b));
    Node* r = f.region({br.t, br.f});
    acc = f.phi(r, {f.add(acc, shared), f.op(Op::Sub, acc, b)});
    ctrl = r;
  }
  f.ret(ctrl, f.mem, acc);
  Schedule s = checkedGcm(g, /*verifyGraph=*/false);
  CHECK(s.blocks.size() == 1 + 3 * 30000);
  CHECK(s.blockIndexOf(shared) == 0);
}
