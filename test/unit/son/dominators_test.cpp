// Tests for the dominator computation and the dominator tree: hand-made
// CFGs (diamond, nested loops, a long chain), then the idoms gcm reports for
// a diamond and for nested loops built as Sea-of-Nodes graphs.
#include "son/dominators.h"

#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "test/unit/sched/sched_builder.h"

using namespace simplec;
using simplec::test::blockOfHead;
using simplec::test::checkedGcm;
using simplec::test::FunBuilder;

TEST_CASE("idoms of a diamond", "[sched][dom]") {
  // 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3
  std::vector<std::vector<int>> preds{{}, {0}, {0}, {1, 2}};
  std::vector<int> idom = computeIdoms(preds);
  CHECK(idom == std::vector<int>{-1, 0, 0, 0});
  DomTree t(idom);
  CHECK(t.dominates(0, 3));
  CHECK_FALSE(t.dominates(1, 3));
  CHECK(t.dominates(3, 3));
  CHECK(t.lca(1, 2) == 0);
  CHECK(t.lca(3, -1) == 3);
  CHECK(t.depth(3) == 1);
}

TEST_CASE("idoms of nested loops, dead edges ignored", "[sched][dom]") {
  // 0 -> 1 (outer header) -> 2 -> 3 (inner header) -> 4 -> 3 (inner back edge)
  // 3 -> 5 -> 1 (outer back edge); 1 -> 6 (exit). Block 6 also lists a dead edge.
  std::vector<std::vector<int>> preds{{}, {0, 5}, {1}, {2, 4}, {3}, {3}, {1, -1}};
  std::vector<int> idom = computeIdoms(preds);
  CHECK(idom == std::vector<int>{-1, 0, 1, 2, 3, 3, 1});
  DomTree t(idom);
  CHECK(t.lca(4, 5) == 3);
  CHECK(t.lca(4, 6) == 1);
  CHECK(t.dominates(1, 5));
  CHECK_FALSE(t.dominates(5, 4));
  CHECK(t.depth(4) == 4);
}

TEST_CASE("lca and depth on a deep chain use no recursion", "[sched][dom]") {
  const int n = 300000;
  std::vector<std::vector<int>> preds(n);
  for (int b = 1; b < n; b++) preds[size_t(b)] = {b - 1};
  DomTree t(computeIdoms(preds));
  CHECK(t.depth(n - 1) == n - 1);
  CHECK(t.lca(n - 1, 12345) == 12345);
  CHECK(t.dominates(7, n - 1));
  CHECK_FALSE(t.dominates(n - 1, 7));
}

TEST_CASE("an unreachable block is an internal error", "[sched][dom]") {
  std::vector<std::vector<int>> preds{{}, {0}, {-1}};
  CHECK_THROWS_AS(computeIdoms(preds), InternalError);
}

TEST_CASE("gcm: blocks and idoms of an if/else diamond", "[sched][dom][gcm]") {
  Unit u;
  FunBuilder f(u, "diamond", 2);
  Graph& g = f.g;
  auto br = f.branch(f.fun, f.cmp(Op::LT, f.parm(0), f.parm(1)));
  Node* x = f.add(f.parm(0), f.con(1));
  Node* y = f.add(f.parm(1), f.con(2));
  Node* r = f.region({br.t, br.f});
  Node* p = f.phi(r, {x, y});
  f.ret(r, f.mem, p);
  Schedule s = checkedGcm(g);
  REQUIRE(s.blocks.size() == 4);
  int t = blockOfHead(s, br.t), e = blockOfHead(s, br.f), j = blockOfHead(s, r);
  // Layout: entry, true arm (the fall-through), false arm, join.
  CHECK(t == 1);
  CHECK(e == 2);
  CHECK(j == 3);
  CHECK(s.blockIndexOf(br.iff) == 0);
  CHECK(s.blocks[0].succs == std::vector<int>{t, e});
  CHECK(s.blocks[size_t(t)].idom == 0);
  CHECK(s.blocks[size_t(e)].idom == 0);
  CHECK(s.blocks[size_t(j)].idom == 0);
  CHECK(s.blocks[size_t(j)].preds == std::vector<int>{t, e});
  CHECK(s.blocks[size_t(t)].succs == std::vector<int>{j});
  for (const BasicBlock& b : s.blocks) CHECK(b.loopDepth == 0);
}

TEST_CASE("gcm: idoms of two nested loops", "[sched][dom][gcm]") {
  Unit u;
  FunBuilder f(u, "nest", 1);
  Graph& g = f.g;
  Node* n = f.parm(0);
  Node* outer = f.loop(f.fun);
  Node* i = f.loopPhi(outer, f.con(0));
  auto ob = f.branch(outer, f.cmp(Op::LT, i, n));
  Node* inner = f.loop(ob.t);
  Node* j = f.loopPhi(inner, f.con(0));
  auto ib = f.branch(inner, f.cmp(Op::LT, j, n));
  f.closeLoop(inner, ib.t);
  f.setBack(j, f.add(j, f.con(1)));
  f.closeLoop(outer, ib.f);
  f.setBack(i, f.add(i, f.con(1)));
  f.ret(ob.f, f.mem, i);
  Schedule s = checkedGcm(g);
  REQUIRE(s.blocks.size() == 7);
  int bo = blockOfHead(s, outer), bot = blockOfHead(s, ob.t), bi = blockOfHead(s, inner);
  int bit = blockOfHead(s, ib.t), bif = blockOfHead(s, ib.f), bof = blockOfHead(s, ob.f);
  CHECK(s.blocks[size_t(bo)].idom == 0);
  CHECK(s.blocks[size_t(bot)].idom == bo);
  CHECK(s.blocks[size_t(bi)].idom == bot);
  CHECK(s.blocks[size_t(bit)].idom == bi);
  CHECK(s.blocks[size_t(bif)].idom == bi);
  CHECK(s.blocks[size_t(bof)].idom == bo);
  // The loop headers list entry first, then the back edge.
  CHECK(s.blocks[size_t(bo)].preds == std::vector<int>{0, bif});
  CHECK(s.blocks[size_t(bi)].preds == std::vector<int>{bot, bit});
  // Each loop is contiguous after its header; the exit comes last.
  CHECK(std::vector<int>{bo, bot, bi, bit, bif, bof} == std::vector<int>{1, 2, 3, 4, 5, 6});
}
