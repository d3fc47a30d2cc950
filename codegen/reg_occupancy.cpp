// Register occupancy as an ordered map of disjoint ranges (see
// reg_occupancy.h): every query is a few O(log n) lookups per range of the
// interval asked about.
#include "codegen/reg_occupancy.h"

#include "lexer/diag.h"

namespace simplec {

RegOccupancy::Map::const_iterator RegOccupancy::firstEndingAtOrAfter(int pos) const {
  // The last range starting at or before pos may still reach it; if it does
  // not, the next one (which starts after pos) is the first to end after it.
  auto it = held_.upper_bound(pos);
  if (it != held_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.to >= pos) return prev;
  }
  return it;
}

bool RegOccupancy::intersects(const LiveInterval& iv) const {
  for (const LiveRange& r : iv.ranges) {
    auto it = firstEndingAtOrAfter(r.from);
    if (it != held_.end() && it->first <= r.to) return true;
  }
  return false;
}

void RegOccupancy::add(int vreg, const LiveInterval& iv) {
  for (const LiveRange& r : iv.ranges) {
    bool fresh = held_.emplace(r.from, Held{r.to, vreg}).second;
    SIMPLEC_CHECK(fresh, "regalloc", "two values given one register at the same position");
  }
}

void RegOccupancy::remove(const LiveInterval& iv) {
  for (const LiveRange& r : iv.ranges) held_.erase(r.from);
}

void RegOccupancy::expireBefore(int pos) {
  while (!held_.empty() && held_.begin()->second.to < pos) {
    auto it = held_.begin();
    past_.push_back(Past{it->first, it->second.to, it->second.vreg});
    held_.erase(it);
  }
}

}  // namespace simplec
