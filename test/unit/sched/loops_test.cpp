// Tests for loop nesting and the loop-contiguous layout: depths and parents
// of nested loops, a loop whose blocks are not contiguous in reverse
// post-order, an irreducible "loop" rejected, and loop depths gcm reports.
#include "sched/loops.h"

#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "test/unit/sched/sched_builder.h"

using namespace simplec;
using simplec::test::blockOfHead;
using simplec::test::checkedGcm;
using simplec::test::FunBuilder;

TEST_CASE("nested loops: depth, parent, body", "[sched][loops]") {
  // 0 -> 1 (outer) -> 2 -> 3 (inner) -> 4 -> 3; 3 -> 5 -> 1; 1 -> 6
  std::vector<std::vector<int>> preds{{}, {0, 5}, {1}, {2, 4}, {3}, {3}, {1}};
  DomTree dom(computeIdoms(preds));
  LoopNest nest = findLoops(preds, dom, {{1, 5}, {3, 4}});
  REQUIRE(nest.loops.size() == 2);
  CHECK(nest.loops[0].parent == -1);
  CHECK(nest.loops[0].depth == 1);
  CHECK(nest.loops[1].parent == 0);
  CHECK(nest.loops[1].depth == 2);
  CHECK(nest.depth == std::vector<int>{0, 1, 1, 2, 2, 1, 0});
  CHECK(nest.innermost == std::vector<int>{-1, 0, 0, 1, 1, 0, -1});
  CHECK(loopLayout(nest) == std::vector<int>{0, 1, 2, 3, 4, 5, 6});
  // Nearest dominator in a shallower nest: the inner body (3, 4) steps out
  // to 2, the outer body (1, 2, 5) to 0; 0 and the exit 6 have none.
  CHECK(shallowerDominators(dom, nest) == std::vector<int>{-1, 0, 0, 2, 2, 0, -1});
}

TEST_CASE("layout moves a loop's blocks together", "[sched][loops]") {
  // RPO: 0 entry, 1 header, 2 B, 3 exit (from B), 4 after exit, 5 A, 6 latch.
  // Edges: 0->1, 1->2, 1->5, 2->3, 2->6, 3->4, 5->6, 6->1.
  std::vector<std::vector<int>> preds{{}, {0, 6}, {1}, {2}, {3}, {1}, {2, 5}};
  DomTree dom(computeIdoms(preds));
  LoopNest nest = findLoops(preds, dom, {{1, 6}});
  CHECK(nest.depth == std::vector<int>{0, 1, 1, 0, 0, 1, 1});
  CHECK(loopLayout(nest) == std::vector<int>{0, 1, 2, 5, 6, 3, 4});
}

TEST_CASE("sibling loops and a self loop", "[sched][loops]") {
  // 0 -> 1 (self loop) -> 2 (header) -> 3 -> 2; 2 -> 4
  std::vector<std::vector<int>> preds{{}, {0, 1}, {1, 3}, {2}, {2}};
  DomTree dom(computeIdoms(preds));
  LoopNest nest = findLoops(preds, dom, {{1, 1}, {2, 3}});
  CHECK(nest.loops[0].parent == -1);
  CHECK(nest.loops[1].parent == -1);
  CHECK(nest.depth == std::vector<int>{0, 1, 1, 1, 0});
}

TEST_CASE("a back edge its header does not dominate is rejected", "[sched][loops]") {
  // 0 -> 1, 0 -> 2, 1 -> 2, 2 -> 1: two entries into the cycle.
  std::vector<std::vector<int>> preds{{}, {0, 2}, {0, 1}};
  DomTree dom(computeIdoms(preds));
  CHECK_THROWS_AS(findLoops(preds, dom, {{1, 2}}), InternalError);
}

TEST_CASE("gcm: loop depths of three nested loops", "[sched][loops][gcm]") {
  Unit u;
  FunBuilder f(u, "three", 1);
  Graph& g = f.g;
  Node* n = f.parm(0);
  Node* ctrl = f.fun;
  std::vector<Node*> loops, phis;
  std::vector<FunBuilder::Branch> brs;
  for (int k = 0; k < 3; k++) {
    Node* l = f.loop(ctrl);
    Node* i = f.loopPhi(l, f.con(0));
    auto br = f.branch(l, f.cmp(Op::LT, i, n));
    loops.push_back(l);
    phis.push_back(i);
    brs.push_back(br);
    ctrl = br.t;
  }
  f.closeLoop(loops[2], brs[2].t);
  f.setBack(phis[2], f.add(phis[2], f.con(1)));
  for (int k = 2; k > 0; k--) {
    f.closeLoop(loops[size_t(k - 1)], brs[size_t(k)].f);
    f.setBack(phis[size_t(k - 1)], f.add(phis[size_t(k - 1)], f.con(1)));
  }
  f.ret(brs[0].f, f.mem, phis[0]);
  Schedule s = checkedGcm(g);
  for (int k = 0; k < 3; k++) {
    CHECK(s.blocks[size_t(blockOfHead(s, loops[size_t(k)]))].loopDepth == k + 1);
    CHECK(s.blocks[size_t(blockOfHead(s, brs[size_t(k)].t))].loopDepth == k + 1);
    // A loop's exit block belongs to the enclosing loop only.
    CHECK(s.blocks[size_t(blockOfHead(s, brs[size_t(k)].f))].loopDepth == k);
  }
  CHECK(s.blocks[0].loopDepth == 0);
}
