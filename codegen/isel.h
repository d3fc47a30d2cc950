// Instruction selection: one scheduled function of the graph to MIR over
// virtual registers. Immediates that fit 32 bits (and null, as 0) are folded
// into their uses, a compare (or its negation `!`) feeding only the block's
// If becomes cmp + jcc, an add with a constant (or of two registers, or
// both: (a + b) + k) becomes lea, a Cast is its input's register, and
// calls, parameters and returns follow the System V x86-64 ABI through
// fixed physical registers. Defs nothing reads are dropped (dead_defs.h).
// Phis become one parallel move at the end of each predecessor.
// ZeroChecks branch to out-of-line stubs (cold blocks, laid out last) that
// call the runtime's error reporter with the source position.
#pragma once
#include <cstdint>
#include <set>
#include <string>

#include "codegen/mir.h"
#include "sched/schedule.h"

namespace simplec {

struct IselContext {
  // Rodata labels of the source file names (runtime errors), by SrcFile.
  std::string fileLabels[kNumSrcFiles];
  // Rodata label of the constant string idx.
  static std::string stringLabel(int idx) { return ".Lstr." + std::to_string(idx); }
  // Float constants are loaded from .rodata: isel records the bit patterns
  // it used here, and the caller emits them (8 bytes each, floatLabel).
  // The sign masks for neg/abs are 16-byte items (andpd/xorpd operands).
  mutable std::set<uint64_t> floatConsts;
  mutable bool usesSignMask = false, usesAbsMask = false;
  static std::string floatLabel(uint64_t bits);
  static constexpr const char* kSignMaskLabel = ".Lflt.signmask";
  static constexpr const char* kAbsMaskLabel = ".Lflt.absmask";
  // Adds what another context recorded (a worker thread's own, -j).
  void merge(const IselContext& o) const {
    floatConsts.insert(o.floatConsts.begin(), o.floatConsts.end());
    usesSignMask |= o.usesSignMask;
    usesAbsMask |= o.usesAbsMask;
  }
};

mir::MFunction selectInstructions(const Graph& g, const Schedule& s, const IselContext& cx);

}  // namespace simplec
