// Signed 64-bit division by a constant without a division instruction
// (Granlund and Montgomery; Hacker's Delight, chapter 10): x / d is the high
// half of x * multiplier, corrected by x when the multiplier's sign differs
// from d's, shifted right arithmetically by `shift`, plus one when that is
// negative (rounding toward zero). idiv takes 40-90 cycles, this about 5.
#pragma once
#include <cstdint>

namespace simplec {

struct DivMagic {
  int64_t multiplier;
  int shift;
};

// Pre: 2 <= |d| and d is not INT64_MIN (the powers of two take a shift; the
// caller may still pass them). Post: for every 64-bit x,
// divideByMagic(x, d, signedDivMagic(d)) == x / d, rounded toward zero.
DivMagic signedDivMagic(int64_t d);

// The quotient the instruction sequence computes (for tests and the docs).
int64_t divideByMagic(int64_t x, int64_t d, DivMagic m);

}  // namespace simplec
