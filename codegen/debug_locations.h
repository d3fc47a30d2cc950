// -g: where each debug value of a finished function lives, instruction by
// instruction: a forward dataflow over the final machine code (registers
// and rbp-relative frame slots) that starts a value where its defining
// instruction (MInst::dbgValue) or its block (MBlock::dbgEntry) puts it,
// follows copies (moves, spills, reloads) and ends it at anything else that
// writes the place. A place is only reported while it certainly holds the
// value on every path, so the debugger never shows another value.
#pragma once
#include <cstdint>
#include <vector>

#include "codegen/mir.h"

namespace simplec {

// A register (0..31, mir::PReg numbering) or, when reg < 0, the frame
// slot at [rbp + disp]; or, when isConst, no place: the value is `bits`
// (an integer, or a double's bits).
struct DebugPlace {
  int reg = -1;
  int64_t disp = 0;
  bool isConst = false;
  int64_t bits = 0;
  bool operator==(const DebugPlace& o) const {
    return reg == o.reg && disp == o.disp && isConst == o.isConst && bits == o.bits;
  }
};

// The value is in `place` from before instruction `begin` to before
// instruction `end`: indices count f's instructions in layout order, and
// the index one past the last instruction is the function's end.
struct DebugRange {
  int begin, end;
  DebugPlace place;
};

// The ranges of `first`, and those of `second` where `first` has none.
// Both sorted and disjoint; so is the result (adjacent equal places joined).
std::vector<DebugRange> preferRanges(const std::vector<DebugRange>& first, const std::vector<DebugRange>& second);

// By debug value (0 .. f.numDebugValues - 1): its ranges, in order.
// Precondition: f is final (allocated, frame lowered, laid out).
std::vector<std::vector<DebugRange>> debugLocations(const mir::MFunction& f);

}  // namespace simplec
