// Float folding: the meaning of the float node kinds, as the machine computes them.
#include "son/float_fold.h"

#include <cmath>
#include <cstring>

namespace simplec {

double bitsToDouble(int64_t bits) {
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

int64_t doubleToBits(double v) {
  int64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

double foldFloatBinary(Op op, double a, double b) {
  switch (op) {
    case Op::FAdd: return a + b;
    case Op::FSub: return a - b;
    case Op::FMul: return a * b;
    case Op::FDiv: return a / b;
    case Op::FMin: return a < b ? a : b;  // minsd: NaN or equal gives b
    case Op::FMax: return a > b ? a : b;  // maxsd
    default: return 0;
  }
}

bool foldFloatCompare(Op op, double a, double b) {
  switch (op) {
    case Op::FEQ: return a == b;
    case Op::FNE: return a != b;
    case Op::FLT: return a < b;
    case Op::FLE: return a <= b;
    default: return false;
  }
}

namespace {
// Rounds toward -inf (floor) or +inf (ceil) the way the runtime's
// __simplec_floor/__simplec_ceil do; the sign of a zero result follows a.
double roundToInteger(double a, bool up) {
  if (!(std::fabs(a) < 4503599627370496.0)) return a;  // 2^52: already integral, inf, NaN
  double t = double(int64_t(a));                       // toward zero
  if (!up && t > a) t -= 1.0;
  if (up && t < a) t += 1.0;
  return std::copysign(t, a);
}
}  // namespace

double foldFloatUnary(Op op, double a) {
  switch (op) {
    case Op::FNeg: return bitsToDouble(doubleToBits(a) ^ INT64_MIN);
    case Op::FAbs: return bitsToDouble(doubleToBits(a) & INT64_MAX);
    case Op::FSqrt: return std::sqrt(a);
    case Op::FFloor: return roundToInteger(a, false);
    case Op::FCeil: return roundToInteger(a, true);
    case Op::FToF32: return double(float(a));
    default: return 0;
  }
}

int64_t floatToInt(double a) {
  if (std::isnan(a)) return 0;
  if (a >= 9223372036854775808.0) return INT64_MAX;
  if (a < -9223372036854775808.0) return INT64_MIN;
  return int64_t(a);
}

}  // namespace simplec
