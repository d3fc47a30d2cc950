// Float semantics shared by constant folding and the graph evaluator, written
// to give bit for bit what the SSE2 code simplec emits computes (C++ doubles
// on x86-64 are SSE2 doubles, so the arithmetic itself needs no care; the
// conversions, min/max and floor/ceil spell out the machine's rules).
#pragma once
#include <cstdint>

#include "son/node.h"

namespace simplec {

double bitsToDouble(int64_t bits);
int64_t doubleToBits(double v);

// FAdd FSub FMul FDiv FMin FMax of two doubles.
double foldFloatBinary(Op op, double a, double b);
// FEQ FNE FLT FLE: IEEE comparisons (NaN unordered: false except FNE).
bool foldFloatCompare(Op op, double a, double b);
// FNeg FSqrt FAbs FFloor FCeil FToF32 of a double.
double foldFloatUnary(Op op, double a);
// FToI: toward zero; NaN gives 0; beyond the int64 range saturates.
int64_t floatToInt(double a);
// IToF: to the nearest double.
inline double intToFloat(int64_t a) { return double(a); }

}  // namespace simplec
