// Tests for codegen/div_magic.h: the multiply-and-shift quotient equals
// C++'s truncating division for many divisors and dividends, extremes
// included, and the known magic numbers of small divisors come out.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "codegen/div_magic.h"

using namespace simplec;

TEST_CASE("codegen/div_magic: known magic numbers", "[codegen][div_magic]") {
  // From Hacker's Delight's table for 64 bits (and gcc's output).
  CHECK(signedDivMagic(3).multiplier == 0x5555555555555556);
  CHECK(signedDivMagic(3).shift == 0);
  CHECK(signedDivMagic(7).multiplier == int64_t(0x4924924924924925));
  CHECK(signedDivMagic(7).shift == 1);
  CHECK(signedDivMagic(10).multiplier == 0x6666666666666667);
  CHECK(signedDivMagic(10).shift == 2);
}

TEST_CASE("codegen/div_magic: the quotient is x / d for every kind of divisor", "[codegen][div_magic]") {
  std::vector<int64_t> divisors = {2, 3, 5, 6, 7, 9, 10, 11, 12, 25, 100, 125, 641, 1000, 1000003, 6700417,
                                   (int64_t(1) << 32) + 1, INT64_MAX, INT64_MAX - 1, int64_t(1) << 62,
                                   (int64_t(1) << 62) + 1, 3037000499, 0x5555555555555555};
  size_t n = divisors.size();
  for (size_t i = 0; i < n; i++) divisors.push_back(-divisors[i]);
  std::vector<int64_t> xs = {0, 1, -1, 2, -2, 9, -9, 10, -10, 11, 99, -99, 1000002, INT64_MAX, INT64_MIN,
                             INT64_MIN + 1, INT64_MAX - 1, int64_t(1) << 62, -(int64_t(1) << 62)};
  std::mt19937_64 rng(42);
  for (int i = 0; i < 2000; i++) xs.push_back(int64_t(rng()) >> (rng() % 64));
  for (int64_t d : divisors) {
    DivMagic m = signedDivMagic(d);
    CHECK(m.shift >= 0);
    CHECK(m.shift < 64);
    for (int64_t x : xs) {
      int64_t want = x / d;
      if (divideByMagic(x, d, m) != want) FAIL(x << " / " << d << " gave " << divideByMagic(x, d, m));
    }
  }
  for (int i = 0; i < 20000; i++) {
    int64_t d = int64_t(rng()) >> (rng() % 63);
    if (d == 0 || d == 1 || d == -1 || d == INT64_MIN) continue;
    int64_t x = int64_t(rng()) >> (rng() % 64);
    if (divideByMagic(x, d, signedDivMagic(d)) != x / d) FAIL(x << " / " << d);
  }
}
