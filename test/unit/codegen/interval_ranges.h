// Test helper: a live interval's ranges as (from, to) pairs, to compare
// with a list written out in a test.
#pragma once
#include <utility>
#include <vector>

#include "codegen/live_intervals.h"

namespace simplec::test {

using Ranges = std::vector<std::pair<int, int>>;

inline Ranges rangesOf(const LiveInterval& iv) {
  Ranges out;
  for (const LiveRange& r : iv.ranges) out.push_back({r.from, r.to});
  return out;
}

}  // namespace simplec::test
