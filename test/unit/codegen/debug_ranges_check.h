// Test helper: places and range lists of -g location lists (debug_locations.h),
// and a check that compares two lists entry by entry.
#pragma once
#include <catch2/catch.hpp>

#include <vector>

#include "codegen/debug_locations.h"

namespace simplec::test {

inline DebugPlace regPlace(int r) {
  DebugPlace p;
  p.reg = r;
  return p;
}

inline DebugPlace slotPlace(int64_t disp) {
  DebugPlace p;
  p.disp = disp;
  return p;
}

inline DebugPlace constPlace(int64_t bits) {
  DebugPlace p;
  p.isConst = true;
  p.bits = bits;
  return p;
}

inline void checkRanges(const std::vector<DebugRange>& got, const std::vector<DebugRange>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); i++) {
    CHECK(got[i].begin == want[i].begin);
    CHECK(got[i].end == want[i].end);
    CHECK(got[i].place == want[i].place);
  }
}

}  // namespace simplec::test
