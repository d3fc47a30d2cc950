// The positions one physical register is busy with during linear scan: the
// ranges of the vregs given to it, each tagged with its vreg. Answers "could
// this interval join the register?" and "which vregs are in its way?" by
// looking only at the held ranges near each range of the interval, so the
// cost does not grow with the number of vregs the register already holds.
// Invariant: the held ranges are pairwise disjoint (vregs given the same
// register never intersect).
#pragma once
#include <algorithm>
#include <map>
#include <memory_resource>
#include <vector>

#include "codegen/live_intervals.h"

namespace simplec {

class RegOccupancy {
 public:
  // Tree nodes come from `mem`, which must outlive this object.
  explicit RegOccupancy(std::pmr::memory_resource* mem) : held_(mem) {}

  // Does a held range overlap a range of `iv`?
  bool intersects(const LiveInterval& iv) const;

  // Calls fn(vreg) for each held range that overlaps a range of `iv`; a
  // vreg with several such ranges is reported once per range.
  template <typename Fn>
  void forEachConflict(const LiveInterval& iv, Fn fn) const {
    for (const LiveRange& r : iv.ranges)
      for (auto it = firstEndingAtOrAfter(r.from); it != held_.end() && it->first <= r.to; ++it)
        fn(it->second.vreg);
  }

  // `vreg` with interval `iv` now holds the register. Its ranges must not
  // intersect the held ones.
  void add(int vreg, const LiveInterval& iv);
  // Releases the ranges of `iv` (given to add() before) that are still held.
  void remove(const LiveInterval& iv);

  // Moves the held ranges that end before `pos` out of the map into the
  // record of the past: a scan that visits intervals by their start never
  // asks about positions before the current start again, and the map stays
  // as small as what is live now.
  void expireBefore(int pos);
  // After the scan: does a range of `iv` overlap a held range, or an expired
  // one whose vreg `stillHere` (a vreg spilled after its range expired has
  // left the register)?
  template <typename Alive>
  bool intersectsEver(const LiveInterval& iv, Alive stillHere) const {
    if (intersects(iv)) return true;
    for (const LiveRange& r : iv.ranges) {
      // past_ is sorted by start, and so by end (disjoint ranges).
      auto it = std::lower_bound(past_.begin(), past_.end(), r.from,
                                 [](const Past& p, int pos) { return p.to < pos; });
      for (; it != past_.end() && it->from <= r.to; ++it)
        if (stillHere(it->vreg)) return true;
    }
    return false;
  }

 private:
  struct Past {
    int from, to, vreg;
  };
  std::vector<Past> past_;  // expired ranges, by start

  struct Held {
    int to;
    int vreg;
  };
  using Map = std::pmr::map<int, Held>;  // by the range's first position

  // The first held range that ends at or after `pos`. Held ranges are
  // disjoint, so sorted by start they are sorted by end too.
  Map::const_iterator firstEndingAtOrAfter(int pos) const;

  Map held_;
};

}  // namespace simplec
