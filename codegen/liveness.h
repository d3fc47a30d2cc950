// Liveness of MIR registers per block: live-in/live-out sets computed by
// iterative backward dataflow to a fixed point (loops need several rounds).
// Invariant: liveIn[b] = uses[b] | (liveOut[b] - defs[b]),
//            liveOut[b] = union of liveIn[s] over the successors s of b.
#pragma once
#include <cstdint>
#include <vector>

#include "codegen/mir.h"

namespace simplec {

// A fixed-size set of small non-negative integers.
class BitSet {
 public:
  BitSet() = default;
  explicit BitSet(int n) : n_(n), words_((size_t(n) + 63) / 64, 0) {}
  int size() const { return n_; }
  bool test(int i) const { return (words_[size_t(i) >> 6] >> (i & 63)) & 1; }
  void set(int i) { words_[size_t(i) >> 6] |= uint64_t(1) << (i & 63); }
  void reset(int i) { words_[size_t(i) >> 6] &= ~(uint64_t(1) << (i & 63)); }
  // this |= o; returns true if this changed.
  bool unionWith(const BitSet& o);
  void subtract(const BitSet& o);  // this &= ~o
  // Elements in increasing order.
  std::vector<int> elements() const;
  bool operator==(const BitSet& o) const { return n_ == o.n_ && words_ == o.words_; }

 private:
  int n_ = 0;
  std::vector<uint64_t> words_;
};

// The sets cover the virtual registers 0..numVRegs-1 and, after them, the 32
// physical registers (index numVRegs + r), so that the register allocator can
// see physical registers live across block boundaries too.
struct Liveness {
  int numVRegs = 0;
  // Control-flow successors/predecessors of every block: the union of
  // MBlock::succs, the targets of Jmp/Jcc, and the fall-through to the next
  // block in layout order when the block does not end in Jmp, Ret or a
  // no-return call. A superset of the real edges only makes liveness larger,
  // which stays correct.
  std::vector<std::vector<int>> succs, preds;
  std::vector<BitSet> liveIn, liveOut;

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
