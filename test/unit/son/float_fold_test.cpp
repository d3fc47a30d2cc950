// Tests for the float semantics shared by constant folding and the graph
// evaluator (son/float_fold.h): they must be what the SSE2 code computes.
#include <catch2/catch.hpp>

#include <climits>
#include <cmath>
#include <limits>

#include "son/float_fold.h"

using namespace simplec;

namespace {
const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
bool sameBits(double a, double b) { return doubleToBits(a) == doubleToBits(b); }
}  // namespace

TEST_CASE("son/float_fold: float to int truncates, saturates, NaN is 0", "[son][float]") {
  CHECK(floatToInt(2.9) == 2);
  CHECK(floatToInt(-2.9) == -2);
  CHECK(floatToInt(-0.0) == 0);
  CHECK(floatToInt(kNan) == 0);
  CHECK(floatToInt(kInf) == INT64_MAX);
  CHECK(floatToInt(-kInf) == INT64_MIN);
  CHECK(floatToInt(9223372036854775808.0) == INT64_MAX);        // 2^63
  CHECK(floatToInt(-9223372036854775808.0) == INT64_MIN);       // -2^63 fits
  CHECK(floatToInt(9223372036854774784.0) == 9223372036854774784);  // largest below 2^63
  CHECK(floatToInt(1e300) == INT64_MAX);
  CHECK(floatToInt(-1e300) == INT64_MIN);
}

TEST_CASE("son/float_fold: IEEE comparisons with NaN and signed zeros", "[son][float]") {
  CHECK_FALSE(foldFloatCompare(Op::FEQ, kNan, kNan));
  CHECK(foldFloatCompare(Op::FNE, kNan, kNan));
  CHECK_FALSE(foldFloatCompare(Op::FLT, kNan, 1));
  CHECK_FALSE(foldFloatCompare(Op::FLE, 1, kNan));
  CHECK(foldFloatCompare(Op::FEQ, -0.0, 0.0));
  CHECK_FALSE(foldFloatCompare(Op::FLT, -0.0, 0.0));
  CHECK(foldFloatCompare(Op::FLE, -kInf, -1e308));
}

TEST_CASE("son/float_fold: min and max are minsd and maxsd", "[son][float]") {
  // a < b ? a : b: NaN or a tie gives b.
  CHECK(foldFloatBinary(Op::FMin, 1, 2) == 1);
  CHECK(foldFloatBinary(Op::FMax, 1, 2) == 2);
  CHECK(std::isnan(foldFloatBinary(Op::FMin, 1, kNan)));
  CHECK(foldFloatBinary(Op::FMin, kNan, 1) == 1);
  CHECK(std::isnan(foldFloatBinary(Op::FMax, 1, kNan)));
  CHECK(sameBits(foldFloatBinary(Op::FMin, 0.0, -0.0), -0.0));
  CHECK(sameBits(foldFloatBinary(Op::FMin, -0.0, 0.0), 0.0));
  CHECK(sameBits(foldFloatBinary(Op::FMax, 0.0, -0.0), -0.0));
}

TEST_CASE("son/float_fold: unary operations keep signs and NaNs right", "[son][float]") {
  CHECK(sameBits(foldFloatUnary(Op::FNeg, 0.0), -0.0));
  CHECK(sameBits(foldFloatUnary(Op::FNeg, -0.0), 0.0));
  CHECK(std::isnan(foldFloatUnary(Op::FNeg, kNan)));
  CHECK(sameBits(foldFloatUnary(Op::FAbs, -0.0), 0.0));
  CHECK(foldFloatUnary(Op::FAbs, -kInf) == kInf);
  CHECK(foldFloatUnary(Op::FSqrt, 2) == 1.4142135623730951);
  CHECK(sameBits(foldFloatUnary(Op::FSqrt, -0.0), -0.0));
  CHECK(std::isnan(foldFloatUnary(Op::FSqrt, -1)));
  CHECK(foldFloatUnary(Op::FToF32, 0.1) == 0.10000000149011612);
  CHECK(foldFloatUnary(Op::FToF32, 16777217) == 16777216);
  CHECK(foldFloatUnary(Op::FToF32, 1e39) == kInf);
}

TEST_CASE("son/float_fold: floor and ceil, with the sign of a zero result", "[son][float]") {
  CHECK(foldFloatUnary(Op::FFloor, 2.5) == 2);
  CHECK(foldFloatUnary(Op::FFloor, -2.5) == -3);
  CHECK(foldFloatUnary(Op::FCeil, 2.5) == 3);
  CHECK(foldFloatUnary(Op::FCeil, -2.5) == -2);
  CHECK(sameBits(foldFloatUnary(Op::FCeil, -0.5), -0.0));
  CHECK(sameBits(foldFloatUnary(Op::FFloor, 0.5), 0.0));
  CHECK(sameBits(foldFloatUnary(Op::FFloor, -0.0), -0.0));
  CHECK(foldFloatUnary(Op::FFloor, -0.5) == -1);
  CHECK(foldFloatUnary(Op::FCeil, 4503599627370495.5) == 4503599627370496.0);
  CHECK(foldFloatUnary(Op::FFloor, 1e300) == 1e300);
  CHECK(foldFloatUnary(Op::FFloor, -kInf) == -kInf);
  CHECK(std::isnan(foldFloatUnary(Op::FCeil, kNan)));
}
