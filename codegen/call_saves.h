// Saving registers around calls (the allocator's second chance for spilled
// values). The linear scan spills a value that lives across a call when no
// callee-saved register is free: from then on every read reloads it and
// every write stores it, in the hot code too. When the calls it crosses run
// less often than it is read and written (a call in a rarely taken branch
// of a loop: printing, an allocation, a slow path), it is cheaper to keep
// the value in a caller-saved register, store it to its slot just before
// each of those calls and load it back just after. In interval terms the
// value's interval gets a hole at each call's clobber position, where the
// register may be clobbered; the register only has to be free elsewhere.
// The save and the reload sit right next to the call, so the argument
// registers (set up before the call, read by it) and the result register
// (written by it) keep their fixed intervals and never meet the value.
#pragma once
#include <vector>

#include "codegen/live_intervals.h"
#include "codegen/mir.h"

namespace simplec {

// The calls interval `iv` lives across (it is live before the call and
// still needed after it), as indices into li.callPositions, into `out`;
// false when there are more than `limit`.
bool crossedCalls(const LiveInterval& iv, const LiveIntervals& li, int limit, std::vector<int>* out);

// Calls one save and one reload can cover: crossed calls of one block
// with no read or write of the value between them (a print of a value and
// of a newline) share them. first and last index li.callPositions.
struct SaveSpan {
  int first, last;
};
// `calls` (sorted, from crossedCalls) joined into spans for vreg v.
std::vector<SaveSpan> saveSpans(const mir::MFunction& f, const LiveIntervals& li, int v, const std::vector<int>& calls);

// `iv` without the positions from each span's first call's clobber to its
// last call's: there the register may hold anything.
LiveInterval withHolesAtCalls(const LiveInterval& iv, const LiveIntervals& li, const std::vector<SaveSpan>& spans);

// The cost of a save and a reload around each span (blockWeights).
double saveCost(const std::vector<SaveSpan>& spans, const LiveIntervals& li, const std::vector<double>& weights);
// A bound below saveCost of any spans of `calls`: one span per block.
double leastSaveCost(const std::vector<int>& calls, const LiveIntervals& li, const std::vector<double>& weights);

// A register to store to `slot` before call number `call` (in layout
// order, as in LiveIntervals::callPositions), or to load back after it.
struct CallSave {
  int call;
  bool after;  // a reload after the call, else a store before it
  int reg;
  int slot;
};

// Inserts the saves and reloads. The calls are counted in layout order, so
// instructions added since the intervals were built do not matter as long
// as no call was added or removed.
void insertCallSaves(mir::MFunction& f, std::vector<CallSave> saves);

}  // namespace simplec
