// Magic numbers for signed division by constants (see div_magic.h).
#include "codegen/div_magic.h"

namespace simplec {

DivMagic signedDivMagic(int64_t d) {
  // Hacker's Delight, figure 10-1, for 64 bits: the smallest p >= 64 with
  // 2^p > nc * (|d| - 2^p mod |d|), nc the largest value with nc mod |d| = |d| - 1.
  const uint64_t two63 = uint64_t(1) << 63;
  uint64_t ad = d < 0 ? 0 - uint64_t(d) : uint64_t(d);
  uint64_t t = two63 + (uint64_t(d) >> 63);
  uint64_t anc = t - 1 - t % ad;
  int p = 63;
  uint64_t q1 = two63 / anc, r1 = two63 - q1 * anc;
  uint64_t q2 = two63 / ad, r2 = two63 - q2 * ad;
  uint64_t delta;
  do {
    p++;
    q1 *= 2;
    r1 *= 2;
    if (r1 >= anc) {
      q1++;
      r1 -= anc;
    }
    q2 *= 2;
    r2 *= 2;
    if (r2 >= ad) {
      q2++;
      r2 -= ad;
    }
    delta = ad - r2;
  } while (q1 < delta || (q1 == delta && r1 == 0));
  uint64_t m = q2 + 1;
  if (d < 0) m = 0 - m;
  return DivMagic{int64_t(m), p - 64};
}

int64_t divideByMagic(int64_t x, int64_t d, DivMagic m) {
  __int128 wide = __int128(x) * __int128(m.multiplier);
  uint64_t q = uint64_t(int64_t(wide >> 64));
  if (d > 0 && m.multiplier < 0) q += uint64_t(x);
  if (d < 0 && m.multiplier > 0) q -= uint64_t(x);
  int64_t s = int64_t(q) >> m.shift;
  return s + int64_t(uint64_t(s) >> 63);
}

}  // namespace simplec
