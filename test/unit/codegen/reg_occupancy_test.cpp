// Tests for codegen/reg_occupancy.cpp: intersection and conflict queries
// against the held ranges of one register, including lifetime holes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory_resource>
#include <random>

#include "codegen/reg_occupancy.h"

using namespace simplec;

namespace {

LiveInterval interval(std::vector<LiveRange> ranges) {
  LiveInterval iv;
  iv.ranges.assign(ranges.begin(), ranges.end());
  iv.normalize();
  return iv;
}

std::vector<int> conflicts(const RegOccupancy& occ, const LiveInterval& iv) {
  std::vector<int> out;
  occ.forEachConflict(iv, [&](int w) { out.push_back(w); });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

TEST_CASE("register occupancy: ranges with holes", "[regalloc]") {
  std::pmr::unsynchronized_pool_resource pool;
  RegOccupancy occ(&pool);
  LiveInterval a = interval({{1, 4}, {100, 101}});  // lives far away too
  LiveInterval b = interval({{10, 20}});
  occ.add(0, a);
  occ.add(1, b);
  CHECK(occ.intersects(interval({{4, 6}})));
  CHECK_FALSE(occ.intersects(interval({{5, 9}})));
  CHECK_FALSE(occ.intersects(interval({{21, 99}, {102, 200}})));
  CHECK(occ.intersects(interval({{21, 99}, {101, 200}})));
  CHECK(occ.intersects(interval({{0, 1000}})));
  CHECK(conflicts(occ, interval({{0, 1000}})) == std::vector<int>{0, 1});
  CHECK(conflicts(occ, interval({{15, 15}, {90, 100}})) == std::vector<int>{0, 1});
  CHECK(conflicts(occ, interval({{5, 9}})).empty());
  occ.remove(a);
  CHECK_FALSE(occ.intersects(interval({{100, 100}})));
  CHECK(conflicts(occ, interval({{0, 1000}})) == std::vector<int>{1});
}

TEST_CASE("register occupancy: agrees with pairwise interval intersection", "[regalloc]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::pmr::unsynchronized_pool_resource pool;
    RegOccupancy occ(&pool);
    std::vector<LiveInterval> held;
    std::vector<int> heldVregs;
    for (int v = 0; v < 40; ++v) {
      std::vector<LiveRange> rs;
      int n = 1 + int(rng() % 4);
      for (int k = 0; k < n; ++k) {
        int from = int(rng() % 400);
        rs.push_back({from, from + int(rng() % 12)});
      }
      LiveInterval iv = interval(rs);
      bool expect = false;
      std::vector<int> expectConflicts;
      for (size_t h = 0; h < held.size(); ++h)
        if (held[h].intersects(iv)) {
          expect = true;
          expectConflicts.push_back(heldVregs[h]);
        }
      std::sort(expectConflicts.begin(), expectConflicts.end());
      REQUIRE(occ.intersects(iv) == expect);
      REQUIRE(conflicts(occ, iv) == expectConflicts);
      if (!expect) {
        occ.add(v, iv);
        held.push_back(iv);
        heldVregs.push_back(v);
      } else if (rng() % 3 == 0 && !held.empty()) {
        size_t h = rng() % held.size();
        occ.remove(held[h]);
        held.erase(held.begin() + long(h));
        heldVregs.erase(heldVregs.begin() + long(h));
      }
    }
  }
}

TEST_CASE("register occupancy: expired ranges leave the map but are still known after the scan",
          "[regalloc]") {
  std::pmr::unsynchronized_pool_resource pool;
  RegOccupancy occ(&pool);
  occ.add(0, interval({{1, 4}, {30, 40}}));
  occ.add(1, interval({{6, 9}}));
  occ.add(2, interval({{12, 20}}));
  occ.expireBefore(10);  // [1,4] and [6,9] end before 10; [12,20] and [30,40] stay
  // The scan's queries see only what is held now.
  CHECK_FALSE(occ.intersects(interval({{2, 3}})));
  CHECK(occ.intersects(interval({{35, 35}})));
  CHECK(conflicts(occ, interval({{0, 100}})) == std::vector<int>{0, 2});
  // After it, a question about any position sees the expired ranges too,
  // unless their vreg has left the register (spilled).
  auto all = [](int) { return true; };
  CHECK(occ.intersectsEver(interval({{2, 3}}), all));
  CHECK(occ.intersectsEver(interval({{9, 11}}), all));
  CHECK_FALSE(occ.intersectsEver(interval({{5, 5}, {10, 11}, {21, 29}}), all));
  CHECK_FALSE(occ.intersectsEver(interval({{6, 9}}), [](int v) { return v != 1; }));
  CHECK(occ.intersectsEver(interval({{6, 9}}), [](int v) { return v != 0; }));
  // Removing a vreg drops what is still held of it.
  occ.remove(interval({{1, 4}, {30, 40}}));
  CHECK_FALSE(occ.intersects(interval({{35, 35}})));
}
