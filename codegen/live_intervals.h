// Live intervals for linear-scan register allocation: instruction i (in
// block layout order) reads its operands at position 2i and writes at 2i+1.
// Invariant: if a register holds a value still needed at position p, or is
// written at p, then p lies in its interval; so two registers whose
// intervals do not intersect can share a physical register.
#pragma once
#include <vector>

#include "codegen/liveness.h"
#include "codegen/mir.h"
#include "son/small_vec.h"

namespace simplec {

struct LiveRange {
  int from, to;  // inclusive positions
};

// Sorted disjoint position ranges, with holes where the register is dead.
// Most vregs live in one or two ranges, kept inline (no allocation per vreg).
struct LiveInterval {
  SmallVec<LiveRange, 2> ranges;  // sorted by `from`, disjoint, not adjacent

  bool empty() const { return ranges.empty(); }
  int start() const { return ranges.front().from; }
  int end() const { return ranges.back().to; }
  bool covers(int pos) const;
  bool intersects(const LiveInterval& o) const;
  // Sorts and merges overlapping or adjacent ranges.
  void normalize();
};

// A register a vreg would like to share because a Mov or ParMove copies
// between them: a physical register, or another vreg (whatever it gets).
struct RegHint {
  bool virt;
  int reg;
};

// The hints of every vreg in one array (grouped by vreg): one allocation
// per function instead of one per vreg that is copied.
class HintTable {
 public:
  struct List {
    const RegHint* first;
    const RegHint* last;
    const RegHint* begin() const { return first; }
    const RegHint* end() const { return last; }
    size_t size() const { return size_t(last - first); }
    const RegHint& operator[](size_t i) const { return first[i]; }
  };
  // hints[k] belongs to vregs[k]; a vreg's hints keep their order.
  HintTable(int numVRegs, const std::vector<int>& vregs, const std::vector<RegHint>& hints);
  HintTable() = default;
  List operator[](size_t v) const { return {all_.data() + start_[v], all_.data() + start_[v + 1]}; }

 private:
  std::vector<int> start_{0};  // by vreg: index of its first hint; one more entry at the end
  std::vector<RegHint> all_;
};

struct LiveIntervals {
  std::vector<int> blockFirstInst;      // global index of each block's first instruction
  int numInsts = 0;
  std::vector<LiveInterval> vregs;      // by vreg number
  std::vector<LiveInterval> fixed;      // by physical register (32)
  HintTable hints;                      // by vreg, most important first
  std::vector<int> callPositions;       // write positions (2i+1) of calls
  // By vreg: the cost of spilling it, the number of its reads and writes
  // weighted by 8^loop depth (a guess at how often they execute).
  std::vector<double> spillCost;
  // By vreg: the same reads and writes weighted by blockWeights, which
  // tells an if's arms from code run every time (call_saves.h).
  std::vector<double> accessCost;
  std::vector<double> blockWeights;     // by block: blockWeights(f)
};

// A guess at how often block b runs per entry to the function: 8 per loop
// level (as spill costs count accesses), and half of that for a block
// entered only from a conditional branch (one arm of an if: probably not
// every iteration). Not so for a branch that leaves a loop (the loop's
// test: the body runs every iteration) or goes to a runtime error.
std::vector<double> blockWeights(const mir::MFunction& f);

// Builds intervals from the liveness sets. Physical registers named by
// instructions (argument set-up, rax/rdx of SDivRem, rcx of shifts, results)
// and call clobbers become fixed intervals. SDivRem also blocks rdx at its
// read position because the emitter sign-extends rax into rdx (cqo) before
// dividing, so its divisor must not live in rdx.
LiveIntervals buildLiveIntervals(const mir::MFunction& f, const Liveness& lv);

}  // namespace simplec
