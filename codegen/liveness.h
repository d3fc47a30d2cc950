// Liveness of MIR registers per block: live-in/live-out sets computed by
// iterative backward dataflow to a fixed point (loops need several rounds).
// Invariant: liveIn[b] = uses[b] | (liveOut[b] - defs[b]),
//            liveOut[b] = union of liveIn[s] over the successors s of b.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "codegen/mir.h"

namespace simplec {

// A set of small non-negative integers below a bound, kept as a sorted
// vector: live sets are small, while a function may have tens of thousands
// of blocks and registers, so dense bit sets per block would take memory
// quadratic in the function's size.
class RegSet {
 public:
  RegSet() = default;
  explicit RegSet(int bound) : n_(bound) {}
  // The elements must be sorted and distinct.
  RegSet(int bound, std::vector<int> sorted) : n_(bound), v_(std::move(sorted)) {}
  int size() const { return n_; }  // the bound, not the number of elements
  bool test(int i) const { return std::binary_search(v_.begin(), v_.end(), i); }
  void set(int i);
  void reset(int i);
  // this |= o; returns true if this changed.
  bool unionWith(const RegSet& o);
  void subtract(const RegSet& o);  // this &= ~o
  // Elements in increasing order.
  const std::vector<int>& elements() const { return v_; }
  bool operator==(const RegSet& o) const { return n_ == o.n_ && v_ == o.v_; }

 private:
  int n_ = 0;
  std::vector<int> v_;
};

// The sets cover the virtual registers 0..numVRegs-1 and, after them, the 32
// physical registers (index numVRegs + r), so that the register allocator can
// see physical registers live across block boundaries too.
struct Liveness {
  int numVRegs = 0;
  // Control-flow successors/predecessors of every block: the union of
  // MBlock::succs, the targets of jumps (mir::forEachJumpTarget), and the
  // fall-through to the next block in layout order when the block does not
  // end control (mir::endsControl: a jump, jump table, return or no-return
  // call). A superset of the real edges only makes liveness larger,
  // which stays correct.
  std::vector<std::vector<int>> succs, preds;
  std::vector<RegSet> liveIn, liveOut;

  int size() const { return numVRegs + 32; }
  static int pregIndex(int numVRegs, int r) { return numVRegs + r; }
  bool vregLiveIn(int b, int v) const { return liveIn[size_t(b)].test(v); }
  bool vregLiveOut(int b, int v) const { return liveOut[size_t(b)].test(v); }
};

// The effective successor lists described above; ignores out-of-range targets.
std::vector<std::vector<int>> blockSuccessors(const mir::MFunction& f);

// Index in a Liveness set of a register operand (VReg or PReg), or -1 for
// anything else (including out-of-range register numbers).
int livenessIndex(const mir::MFunction& f, const mir::Opnd& o);

Liveness computeLiveness(const mir::MFunction& f);

}  // namespace simplec
