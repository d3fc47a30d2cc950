// Tests for son/small_vec.h (inline storage, growth to the heap, copies
// and moves in both states) and codegen/symbol.h (interning).
#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "son/small_vec.h"
#include "codegen/symbol.h"

using namespace simplec;

TEST_CASE("small vector: inline, then on the heap", "[mir]") {
  SmallVec<int, 2> v;
  CHECK(v.empty());
  v.push_back(1);
  v.push_back(2);
  CHECK(v.capacity() == 2);  // still inline
  v.push_back(3);
  CHECK(v.capacity() > 2);
  CHECK(std::vector<int>(v.begin(), v.end()) == std::vector<int>{1, 2, 3});
  v.pop_back();
  CHECK(v.size() == 2);
  CHECK(v.back() == 2);
}

TEST_CASE("small vector: the heap pointer takes the inline buffer's place", "[mir][son]") {
  // A Node holds four of these: a separate data pointer cost 8 bytes each.
  CHECK(sizeof(SmallVec<void*, 3>) == 4 * sizeof(void*));
  CHECK(sizeof(SmallVec<void*, 2>) == 3 * sizeof(void*));
  CHECK(sizeof(SmallVec<uint32_t, 2>) == 16);
  // Growing by reserve past N, then shrinking in size, stays on the heap
  // with the elements intact.
  SmallVec<int, 3> v{7, 8};
  v.reserve(4);
  CHECK(v.capacity() >= 4);
  CHECK(std::vector<int>(v) == std::vector<int>{7, 8});
  v.pop_back();
  v.push_back(9);
  CHECK(std::vector<int>(v) == std::vector<int>{7, 9});
  SmallVec<int, 3> w = std::move(v);
  CHECK(std::vector<int>(w) == std::vector<int>{7, 9});
  CHECK(v.empty());
  CHECK(v.capacity() == 3);
  v.push_back(1);  // the moved-from one is inline and usable
  CHECK(std::vector<int>(v) == std::vector<int>{1});
}

TEST_CASE("small vector: pushing one of its own elements while it grows", "[mir][son]") {
  // The growth from inline to heap storage writes the heap pointer where
  // the first inline element was.
  SmallVec<uint64_t, 2> v{0x1111111111111111, 0x2222222222222222};
  v.push_back(v[0]);
  CHECK(std::vector<uint64_t>(v) == std::vector<uint64_t>{0x1111111111111111, 0x2222222222222222, 0x1111111111111111});
  // and from heap to a larger heap (the old block is freed).
  v.push_back(v[1]);
  v.push_back(v[2]);
  CHECK(v.size() == 5);
  CHECK(v[3] == 0x2222222222222222);
  CHECK(v[4] == 0x1111111111111111);
}

TEST_CASE("small vector: copies and moves keep the elements", "[mir]") {
  for (int n : {0, 1, 2, 3, 17}) {
    SmallVec<int, 2> a;
    for (int i = 0; i < n; ++i) a.push_back(i * 10);
    SmallVec<int, 2> copy(a);
    CHECK(copy == a);
    SmallVec<int, 2> assigned = {7, 8, 9};
    assigned = a;
    CHECK(assigned == a);
    SmallVec<int, 2> moved(std::move(copy));
    CHECK(moved == a);
    CHECK(copy.empty());
    SmallVec<int, 2> moveAssigned = {5};
    moveAssigned = std::move(moved);
    CHECK(moveAssigned == a);
    moveAssigned.push_back(99);  // still usable after a move
    CHECK(moveAssigned.size() == uint32_t(n + 1));
  }
}

TEST_CASE("symbols: equal names share one id", "[mir]") {
  mir::Symbol a("puts"), b(std::string("pu") + "ts"), c("putchar");
  CHECK(a == b);
  CHECK(a != c);
  CHECK(a.str() == "puts");
  CHECK(mir::Symbol().empty());
  CHECK(mir::Symbol("").empty());
  CHECK(mir::Symbol::idBound() > c.id());
}
