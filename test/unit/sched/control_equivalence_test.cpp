// Tests for control-equivalence classes: the merge of a diamond joins the
// block before it, an arm does not; an early return breaks the class; the
// block after a loop joins the block before the loop, while the loop's own
// blocks stay apart; an endless loop with no way out leaves every block alone.
#include "sched/control_equivalence.h"

#include <catch2/catch.hpp>

using namespace simplec;

namespace {

std::vector<int> topsOf(const std::vector<std::vector<int>>& succs,
                        const std::vector<std::pair<int, int>>& backEdges = {}) {
  std::vector<std::vector<int>> preds(succs.size());
  for (size_t b = 0; b < succs.size(); b++)
    for (int s : succs[b]) preds[size_t(s)].push_back(int(b));
  DomTree dom(computeIdoms(preds));
  LoopNest nest = findLoops(preds, dom, backEdges);
  return controlEquivalenceTops(succs, dom, nest, shallowerDominators(dom, nest));
}

}  // namespace

TEST_CASE("control equivalence: a diamond's merge joins the block before it", "[sched][gcm]") {
  // 0 -> 1, 2 -> 3 -> 4 (two diamonds in a row: 3 -> 4, 5 -> 6)
  CHECK(topsOf({{1, 2}, {3}, {3}, {4, 5}, {6}, {6}, {}}) == std::vector<int>{0, 1, 2, 0, 4, 5, 0});
}

TEST_CASE("control equivalence: an early return breaks the class", "[sched][gcm]") {
  // 0 -> 1 (returns), 0 -> 2 -> 3: 2 does not run whenever 0 does; 3 does whenever 2 does.
  CHECK(topsOf({{1, 2}, {}, {3}, {}}) == std::vector<int>{0, 1, 2, 2});
}

TEST_CASE("control equivalence: the block after a loop joins the one before it", "[sched][gcm]") {
  // 0 -> 1 (header) -> 2 (body, back to 1) ; 1 -> 3 (exit) -> 4
  CHECK(topsOf({{1}, {2, 3}, {1}, {4}, {}}, {{1, 2}}) == std::vector<int>{0, 1, 2, 0, 0});
  // A diamond in the body: its merge joins the block that branches, inside
  // the loop. 0 -> 1 (header) -> 2 -> 3, 4 -> 5 (merge, back to 1); 1 -> 6
  CHECK(topsOf({{1}, {2, 6}, {3, 4}, {5}, {5}, {1}, {}}, {{1, 5}}) == std::vector<int>{0, 1, 2, 3, 4, 2, 0});
}

TEST_CASE("control equivalence: blocks that never reach an exit are left alone", "[sched][gcm]") {
  // 0 -> 1 -> 2 -> 1 (no exit at all)
  CHECK(topsOf({{1}, {2}, {1}}, {{1, 2}}) == std::vector<int>{0, 1, 2});
}
