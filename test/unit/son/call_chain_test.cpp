// Tests for son/call_chain.h: the frames a position of inlined code stands
// for, and where the function's own code stands meanwhile.
#include <catch2/catch.hpp>

#include "son/call_chain.h"

using namespace simplec;

TEST_CASE("son/call_chain: inlined code expands to its calls, outermost last", "[son][call_chain]") {
  Unit u;
  u.funs.resize(3);  // 0 calls 1 (site 0 at 5:3), which calls 2 (site 1 at 9:7)
  u.inlineSites.push_back({1, SrcPos{5, 3, kMainFile, -1}});
  u.inlineSites.push_back({2, SrcPos{9, 7, kMainFile, 0}});
  SrcPos deep{12, 1, kMainFile, 1};
  std::vector<SourceFrame> frames = expandChain(u, 0, deep);
  REQUIRE(frames.size() == 3);
  CHECK(frames[0].fun == 2);
  CHECK(frames[1].fun == 1);
  CHECK(frames[1].pos.line == 9);
  CHECK(frames[2].fun == 0);
  CHECK(frames[2].pos.line == 5);
  SrcPos outer = outermostPosition(u, deep);
  CHECK(outer.line == 5);
  CHECK(outer.col == 3);
  CHECK(outer.site == -1);
  // The function's own code stands where it is.
  CHECK(outermostPosition(u, SrcPos{4, 2, kMainFile, -1}).line == 4);
}
