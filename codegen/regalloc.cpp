// Linear-scan register allocation (see regalloc.h). Intervals are visited in
// order of their start; a register is free for an interval when neither its
// fixed interval nor any interval already given to it intersects it (a
// lookup in the register's occupancy, reg_occupancy.h: values with long
// lifetime holes, such as those the cold error stubs at the function's end
// read, would make a list of the register's values grow without bound). When no
// register is free, the cheapest choice (loop-weighted use counts; ties as
// Poletto & Sarkar) is spilled whole, reloaded at each use (spill_rewrite),
// unless saving a caller-saved register around the calls it crosses costs
// less (call_saves.h). With splitting, the spilled values get a second
// chance after the scan, and their copies between calls (spill_split.h)
// then take registers the scan left free over their short lives.
#include "codegen/regalloc.h"

#include <algorithm>
#include <array>
#include <memory_resource>
#include <queue>
#include <set>

#include "codegen/call_saves.h"
#include "codegen/debug_values.h"
#include "codegen/live_intervals.h"
#include "codegen/liveness.h"
#include "codegen/reg_occupancy.h"
#include "codegen/spill_rewrite.h"
#include "codegen/spill_split.h"
#include "lexer/diag.h"

namespace simplec {

using namespace mir;

const int kAllocatableGprs[12] = {RAX, RCX, RDX, RSI, RDI, R8, R9,
                                  RBX, R12, R13, R14, R15};
const int kAllocatableXmms[14] = {XMM0,      XMM0 + 1,  XMM0 + 2,  XMM0 + 3, XMM0 + 4,
                                  XMM0 + 5,  XMM0 + 6,  XMM0 + 7,  XMM0 + 8, XMM0 + 9,
                                  XMM0 + 10, XMM0 + 11, XMM0 + 12, XMM0 + 13};

namespace {

[[noreturn]] void fail(const std::string& msg) { throw InternalError("regalloc", msg); }

bool isCalleeSaved(int r) {
  for (int c : kCalleeSaved)
    if (c == r) return true;
  return false;
}

// Every register number in `f` must be in range before anything indexes
// tables with it.
void checkOperands(const MFunction& f) {
  int nv = int(f.vregs.size());
  auto ok = [&](int r, bool virt) { return virt ? r >= 0 && r < nv : r >= 0 && r < 32; };
  for (const MBlock& b : f.blocks)
    for (const MInst& mi : b.insts) {
      bool good = true;
      for (const Opnd& o : mi.ops) {
        if (o.kind == Opnd::VReg || o.kind == Opnd::PReg) good &= ok(o.reg, o.kind == Opnd::VReg);
        if (o.kind == Opnd::Mem) {
          if (o.base >= 0) good &= ok(o.base, o.baseVirt);
          if (o.index >= 0) good &= ok(o.index, o.indexVirt);
        }
      }
      for (int r : mi.argRegs) good &= ok(r, false);
      if (!good)
        fail(std::string("register number out of range in ") + mopName(mi.op) + " in " + f.name);
    }
}

class LinearScan {
 public:
  // Optimizing: a value that would be spilled may take a caller-saved
  // register saved around the calls it crosses (call_saves.h), and copy
  // groups in loops choose their register together (allocateGroup).
  LinearScan(const MFunction& f, const LiveIntervals& li, bool optimizing)
      : f_(f), li_(li), reg_(f.vregs.size(), -1), spilled_(f.vregs.size(), false),
        seen_(f.vregs.size(), 0), savedAt_(f.vregs.size(), -1), neverSaved_(f.vregs.size(), false) {
    occupied_.reserve(32);
    for (int r = 0; r < 32; ++r) occupied_.emplace_back(&pool_);
    callSaves_ = optimizing && !li.callPositions.empty();
    groupsFirst_ = optimizing;
  }

  void run();
  const std::vector<int>& regs() const { return reg_; }
  const std::vector<bool>& spilled() const { return spilled_; }
  // After run(): a register of the class free over all of `iv` (a copy's
  // life, spill_split.h), now holding vreg `copy`; or -1. A callee-saved
  // register counts only when the scan already used it (no new save).
  int takeFreeRegister(int copy, const LiveInterval& iv, bool xmm);
  // After run(), the second chance of the spilled values, most costly
  // first: a register free over a value's whole interval (evictions may
  // have freed one since it was spilled), else a caller-saved one saved
  // around the calls it crosses, as allocate() would have given it had the
  // register been free then. The value is then no longer spilled.
  void reviveSpilled();
  // The values in caller-saved registers across calls, and where to save
  // them (v < 0: the value was spilled after all).
  struct Saved {
    int v;
    std::vector<SaveSpan> spans;
    LiveInterval held;  // its interval with holes at the spans
  };
  const std::vector<Saved>& saved() const { return saved_; }

 private:
  const LiveInterval& iv(int v) const { return li_.vregs[size_t(v)]; }
  // After the scan: is r free over all of `iv`, ranges that expired
  // included (a spilled value has left its register)?
  bool freeEver(int r, const LiveInterval& iv) const {
    return !occupied_[size_t(r)].intersectsEver(iv, [&](int w) { return !spilled_[size_t(w)]; }) &&
           !li_.fixed[size_t(r)].intersects(iv);
  }
  // The registers the scan gave out, once it is done: a callee-saved one
  // not among them would cost a save in the prologue.
  void noteScanUsed() {
    if (scanUsedKnown_) return;
    for (int r : reg_)
      if (r >= 0) scanUsed_ |= 1u << r;
    scanUsedKnown_ = true;
  }
  bool usedByScan(int r) const { return (scanUsed_ >> r) & 1u; }
  bool isFree(int r, int v) const {
    return !li_.fixed[size_t(r)].intersects(iv(v)) && !occupied_[size_t(r)].intersects(iv(v));
  }
  void assign(int v, int r) { assign(v, r, iv(v)); }
  // v holds r over `held`: its interval, or that with holes at calls.
  void assign(int v, int r, const LiveInterval& held) {
    reg_[size_t(v)] = r;
    occupied_[size_t(r)].add(v, held);
    std::array<int8_t, kGroupRegs>& taken = groupRegs_[size_t(group(v))];
    for (int8_t& t : taken) {
      if (t == r) break;
      if (t < 0) {
        t = int8_t(r);
        break;
      }
    }
  }
  // Copy groups: vregs joined by copies (moves, phi moves), transitively.
  // A loop variable's Phi, the value merged into it and the value that
  // computes the next one form a group; given one register they need no
  // move (sieve's `count++` in one arm of an if cost a mov into a temporary
  // and one back at the merge).
  int group(int v) {
    while (parent_[size_t(v)] != v) {
      parent_[size_t(v)] = parent_[size_t(parent_[size_t(v)])];
      v = parent_[size_t(v)];
    }
    return v;
  }
  void join(const Opnd& a, const Opnd& b) {
    if (a.kind != Opnd::VReg || b.kind != Opnd::VReg || f_.vregs[size_t(a.reg)] != f_.vregs[size_t(b.reg)]) return;
    int x = group(a.reg), y = group(b.reg);
    if (x != y) parent_[size_t(std::max(x, y))] = std::min(x, y);
  }
  void findCopyGroups() {
    parent_.resize(f_.vregs.size());
    for (size_t v = 0; v < parent_.size(); v++) parent_[v] = int(v);
    std::array<int8_t, kGroupRegs> none;
    none.fill(-1);
    groupRegs_.assign(f_.vregs.size(), none);
    std::vector<char> copiedInLoop(f_.vregs.size(), 0);
    auto joinCopy = [&](const MBlock& b, const Opnd& a, const Opnd& c) {
      join(a, c);
      if (b.loopDepth > 0 && a.kind == Opnd::VReg) copiedInLoop[size_t(a.reg)] = 1;
    };
    for (const MBlock& b : f_.blocks)
      for (const MInst& mi : b.insts) {
        if (mi.op == MOp::Mov && mi.size == 8 && mi.ops.size() == 2) joinCopy(b, mi.ops[0], mi.ops[1]);
        if (mi.op == MOp::ParMove)
          for (size_t p = 0; p + 1 < mi.ops.size(); p += 2) joinCopy(b, mi.ops[p], mi.ops[p + 1]);
      }
    groupInLoop_.assign(f_.vregs.size(), 0);
    for (size_t v = 0; v < copiedInLoop.size(); v++)
      if (copiedInLoop[v]) groupInLoop_[size_t(group(int(v)))] = 1;
  }
  // The members of each copy group in a loop, in the scan's order, as
  // linked lists (by vreg: the next member, -1 at the end).
  void listGroupMembers(const std::vector<int>& order) {
    firstMember_.assign(f_.vregs.size(), -1);
    nextMember_.assign(f_.vregs.size(), -1);
    std::vector<int> lastMember(f_.vregs.size(), -1);
    for (int v : order) {
      int g = group(v);
      if (!groupInLoop_[size_t(g)]) continue;
      if (lastMember[size_t(g)] < 0)
        firstMember_[size_t(g)] = v;
      else
        nextMember_[size_t(lastMember[size_t(g)])] = v;
      lastMember[size_t(g)] = v;
    }
  }
  bool allocateGroup(int v);
  void spill(int v) {
    spilled_[size_t(v)] = true;
    int r = reg_[size_t(v)];
    reg_[size_t(v)] = -1;
    int k = savedAt_[size_t(v)];
    if (r >= 0) occupied_[size_t(r)].remove(k >= 0 ? saved_[size_t(k)].held : iv(v));
    if (k >= 0) {
      saved_[size_t(k)].v = -1;
      savedAt_[size_t(v)] = -1;
    }
  }
  // Registers to try for v, each once: those of its copies' other sides
  // and of its copy group first (no move then), then the rest of its class
  // in order of preference.
  int candidatesFor(int v, int* out) {
    bool xmm = inXmm(f_.vregs[size_t(v)]);
    const int* cands = xmm ? kAllocatableXmms : kAllocatableGprs;
    int numCands = xmm ? 14 : 12;
    uint32_t allowed = 0, listed = 0;
    for (int k = 0; k < numCands; ++k) allowed |= 1u << cands[k];
    int n = 0;
    auto add = [&](int r) {
      if (r < 0 || !((allowed >> r) & 1u) || ((listed >> r) & 1u)) return;
      listed |= 1u << r;
      out[n++] = r;
    };
    int hints = 0;
    for (const RegHint& h : li_.hints[size_t(v)])
      if (hints++ < int(kGroupRegs)) add(h.virt ? reg_[size_t(h.reg)] : h.reg);
    for (int r : groupRegs_[size_t(group(v))]) add(r);
    for (int k = 0; k < numCands; ++k) add(cands[k]);
    return n;
  }
  static constexpr int kMaxCandidates = 14;
  // A caller-saved register for v free outside the calls it crosses, when
  // saving around them costs less than v's reads and writes from its slot
  // (both weighed by blockWeights); or -1. Fills `out`.
  int callSaveOption(int v, Saved* out, double* cost);
  void assignSaved(Saved&& sv, int r) {
    int v = sv.v;
    savedAt_[size_t(v)] = int(saved_.size());
    saved_.push_back(std::move(sv));
    assign(v, r, saved_.back().held);
  }
  // Calls fn(w) once for each vreg on register r whose interval intersects v's.
  template <typename Fn>
  void forEachConflict(int r, int v, Fn fn) {
    ++stamp_;
    occupied_[size_t(r)].forEachConflict(iv(v), [&](int w) {
      if (seen_[size_t(w)] == stamp_) return;
      seen_[size_t(w)] = stamp_;
      fn(w);
    });
  }
  void allocate(int v);

  const MFunction& f_;
  const LiveIntervals& li_;
  std::vector<int> reg_;
  std::vector<bool> spilled_;
  // By physical register: the ranges of the vregs given to it. The pool
  // holds their tree nodes and is freed with the function's allocation.
  std::pmr::unsynchronized_pool_resource pool_;
  std::vector<RegOccupancy> occupied_;
  // forEachConflict's "already reported" marks: seen_[w] == stamp_.
  std::vector<unsigned> seen_;
  unsigned stamp_ = 0;
  std::vector<int> parent_;                  // union-find of copy groups
  // Optimizing: allocateGroup. Not at -O0, where a variable is to stay
  // visible in the debugger while it is in scope: sharing a register with
  // the next value of its copy group (`t = s * 2` computed in s's
  // register) would end it early.
  bool groupsFirst_ = false;
  std::vector<char> groupInLoop_;            // by group root: a copy in a loop (and allocateGroup not run)
  std::vector<int> firstMember_, nextMember_;  // listGroupMembers
  bool callSaves_ = false;                   // saves around calls allowed (and calls to save around)
  std::vector<Saved> saved_;
  std::vector<int> savedAt_;                 // by vreg: index into saved_, or -1
  std::vector<bool> neverSaved_;             // by vreg: saves around calls would not pay
  uint32_t scanUsed_ = 0;                    // registers the scan gave out (takeFreeRegister)
  bool scanUsedKnown_ = false;
  // By group root: the first registers its members got (-1: none yet).
  static constexpr size_t kGroupRegs = 4;
  std::vector<std::array<int8_t, kGroupRegs>> groupRegs_;
};

void LinearScan::allocate(int v) {
  const LiveInterval& cur = iv(v);
  bool xmm = inXmm(f_.vregs[size_t(v)]);
  const int* cands = xmm ? kAllocatableXmms : kAllocatableGprs;
  int numCands = xmm ? 14 : 12;
  auto allocatable = [&](int r) {
    for (int k = 0; k < numCands; ++k)
      if (cands[k] == r) return true;
    return false;
  };

  // A copy's other side, if its register is free for the whole interval.
  // Among several, the one its copy group got first: in a loop that is
  // the loop variable's Phi at the head, so the values merged into it
  // along the body agree with it and the back edge needs no move (an
  // if-else chain merges `pc = pc + 2` from most arms and `pc = arg` from
  // one: taking arg's register put a move on every iteration).
  const std::array<int8_t, kGroupRegs>& groupRegs = groupRegs_[size_t(group(v))];
  int bestHint = -1;
  size_t bestRank = kGroupRegs + 1;
  for (const RegHint& h : li_.hints[size_t(v)]) {
    int r = h.virt ? reg_[size_t(h.reg)] : h.reg;
    if (r < 0 || !allocatable(r) || !isFree(r, v)) continue;
    size_t rank = size_t(std::find(groupRegs.begin(), groupRegs.end(), int8_t(r)) - groupRegs.begin());
    if (rank < bestRank) {
      bestHint = r;
      bestRank = rank;
    }
  }
  if (bestHint >= 0) {
    assign(v, bestHint);
    return;
  }
  // Else a register another member of its copy group got.
  for (int r : groupRegs)
    if (r >= 0 && allocatable(r) && isFree(r, v)) {
      assign(v, r);
      return;
    }
  if (groupsFirst_ && groupRegs[0] < 0 && allocateGroup(v)) return;
  for (int k = 0; k < numCands; ++k)
    if (isFree(cands[k], v)) {
      assign(v, cands[k]);
      return;
    }

  // Nothing free. For each register the fixed interval allows, the
  // intervals on it that overlap this one would all have to be spilled.
  // Take the register where that costs least (reads and writes weighted by
  // loop depth), and spill its intervals if that is cheaper than spilling
  // this one. Ties go to Poletto & Sarkar's rule: spill what ends furthest
  // away. (Pure furthest-end spilling often evicts a loop's own variables,
  // which live past the loop; on random programs the weighted choice
  // executes 13-40% fewer spill loads and stores.) Costs are sums of powers
  // of 8, exact in a double, so the order they are added in cannot matter.
  int best = -1;
  double bestCost = 0;
  int bestEnd = -1;  // earliest end among the intervals to spill
  for (int k = 0; k < numCands; ++k) {
    int r = cands[k];
    if (li_.fixed[size_t(r)].intersects(cur)) continue;
    double cost = 0;
    int minEnd = -1;
    forEachConflict(r, v, [&](int w) {
      cost += li_.spillCost[size_t(w)];
      minEnd = minEnd < 0 ? iv(w).end() : std::min(minEnd, iv(w).end());
    });
    if (best < 0 || cost < bestCost || (cost == bestCost && minEnd > bestEnd)) {
      best = r;
      bestCost = cost;
      bestEnd = minEnd;
    }
  }
  double curCost = li_.spillCost[size_t(v)];
  bool evict = best >= 0 && (bestCost < curCost || (bestCost == curCost && bestEnd > cur.end()));
  // Saving around calls costs no other value its register.
  Saved sv;
  double savesCost = 0;
  int saveReg = callSaveOption(v, &sv, &savesCost);
  if (saveReg >= 0 && (!evict || savesCost <= bestCost)) {
    assignSaved(std::move(sv), saveReg);
    return;
  }
  if (evict) {
    std::vector<int> victims;
    forEachConflict(best, v, [&](int w) { victims.push_back(w); });
    for (int w : victims) spill(w);
    assign(v, best);
  } else {
    spill(v);
  }
}

int LinearScan::takeFreeRegister(int copy, const LiveInterval& iv, bool xmm) {
  noteScanUsed();
  const int* cands = xmm ? kAllocatableXmms : kAllocatableGprs;
  int numCands = xmm ? 14 : 12;
  for (int k = 0; k < numCands; ++k) {
    int r = cands[k];
    if (isCalleeSaved(r) && !usedByScan(r)) continue;
    if (!freeEver(r, iv)) continue;
    occupied_[size_t(r)].add(copy, iv);
    return r;
  }
  return -1;
}

int LinearScan::callSaveOption(int v, Saved* out, double* cost) {
  if (!callSaves_ || f_.vregs[size_t(v)] == RegClass::Vec || neverSaved_[size_t(v)]) return -1;
  // Whether saves could pay depends on v and the code only: decided once.
  neverSaved_[size_t(v)] = true;
  // Past 32 calls the saves are unlikely to pay, and the search would
  // grow with the function.
  std::vector<int> calls;
  if (!crossedCalls(iv(v), li_, 32, &calls) || calls.empty()) return -1;
  // By a margin: moves between the value's register and the calls'
  // argument and result registers, which a slot operand often saves, are
  // not counted (tak: a result kept across the next call, read once on
  // either side of a branch, came out even and took two more moves).
  double limit = li_.accessCost[size_t(v)] / 1.1;
  if (leastSaveCost(calls, li_, li_.blockWeights) >= limit) return -1;
  std::vector<SaveSpan> spans = saveSpans(f_, li_, v, calls);
  *cost = saveCost(spans, li_, li_.blockWeights);
  if (*cost >= limit) return -1;
  neverSaved_[size_t(v)] = false;
  LiveInterval held = withHolesAtCalls(iv(v), li_, spans);
  int cands[kMaxCandidates];
  int n = candidatesFor(v, cands);
  for (int k = 0; k < n; ++k) {
    int r = cands[k];
    if (isCalleeSaved(r) || occupied_[size_t(r)].intersects(held) || li_.fixed[size_t(r)].intersects(held))
      continue;
    *out = Saved{v, std::move(spans), std::move(held)};
    return r;
  }
  return -1;
}

void LinearScan::reviveSpilled() {
  std::vector<int> order;
  for (int v = 0; v < int(f_.vregs.size()); ++v)
    if (spilled_[size_t(v)] && f_.vregs[size_t(v)] != RegClass::Vec) order.push_back(v);
  if (order.empty()) return;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return li_.spillCost[size_t(a)] > li_.spillCost[size_t(b)]; });
  noteScanUsed();
  for (int v : order) {
    int cands[kMaxCandidates];
    int n = candidatesFor(v, cands);
    int whole = -1;
    for (int k = 0; k < n && whole < 0; ++k) {
      int r = cands[k];
      if ((!isCalleeSaved(r) || usedByScan(r)) && freeEver(r, iv(v))) whole = r;
    }
    if (whole >= 0) {
      spilled_[size_t(v)] = false;
      assign(v, whole);
      continue;
    }
    Saved sv;
    double cost = 0;
    int r = callSaveOption(v, &sv, &cost);
    // The scan has moved on: check the expired ranges too.
    if (r >= 0 && freeEver(r, sv.held)) {
      spilled_[size_t(v)] = false;
      assignSaved(std::move(sv), r);
    }
  }
}

// The first member of a copy group with copies in a loop to be allocated:
// the register free for it and for the most of the group's later members
// that do not overlap it, which then find it among the group's registers.
// The register v alone would take may not suit the rest: a loop counter's
// Phi took rax, its increment (live across a division) could not, and the
// back edge copied one into the other on every iteration. The members are
// not given the register ahead of their turn: that would override their
// own copies (a two-address `sub` lost its source's register).
bool LinearScan::allocateGroup(int v) {
  int g = group(v);
  // Once per group: a group whose members all spill would otherwise be
  // searched again for each of them.
  if (!groupInLoop_[size_t(g)] || (firstMember_[size_t(g)] == v && nextMember_[size_t(v)] < 0)) return false;
  groupInLoop_[size_t(g)] = 0;
  auto waiting = [&](int w) {
    return w != v && reg_[size_t(w)] < 0 && !spilled_[size_t(w)] && !iv(w).intersects(iv(v));
  };
  bool xmm = inXmm(f_.vregs[size_t(v)]);
  const int* cands = xmm ? kAllocatableXmms : kAllocatableGprs;
  int numCands = xmm ? 14 : 12;
  int best = -1, bestCount = 0;
  for (int k = 0; k < numCands; ++k) {
    int r = cands[k];
    if (!isFree(r, v)) continue;
    int count = 0;
    for (int w = firstMember_[size_t(g)]; w >= 0; w = nextMember_[size_t(w)])
      if (waiting(w) && isFree(r, w)) count++;
    if (count > bestCount) {
      best = r;
      bestCount = count;
    }
  }
  if (best < 0) return false;
  assign(v, best);
  return true;
}

void LinearScan::run() {
  findCopyGroups();
  std::vector<int> order;
  for (int v = 0; v < int(f_.vregs.size()); ++v)
    if (!iv(v).empty()) order.push_back(v);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return iv(a).start() < iv(b).start(); });
  listGroupMembers(order);
  for (size_t k = 0; k < order.size(); ++k) {
    int v = order[k];
    // What ended before v starts can meet neither v nor anything after it:
    // out of the maps every 64 intervals (small functions never need it).
    if (k % 64 == 63)
      for (RegOccupancy& o : occupied_) o.expireBefore(iv(v).start());
    allocate(v);
  }
}

// Spill slots: a linear scan over the spilled intervals, where a slot is
// reused once the interval in it has ended (lowest free slot first, for
// determinism).
std::vector<int> assignSpillSlots(MFunction& f, const LiveIntervals& li,
                                  const std::vector<bool>& spilled) {
  std::vector<int> slot(f.vregs.size(), -1);
  std::vector<int> order;
  for (int v = 0; v < int(f.vregs.size()); ++v)
    if (spilled[size_t(v)]) order.push_back(v);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return li.vregs[size_t(a)].start() < li.vregs[size_t(b)].start();
  });
  using Busy = std::pair<int, int>;  // end of the interval in the slot, slot
  std::priority_queue<Busy, std::vector<Busy>, std::greater<Busy>> busy;
  std::set<int> free;
  for (int v : order) {
    const LiveInterval& cur = li.vregs[size_t(v)];
    while (!busy.empty() && busy.top().first < cur.start()) {
      free.insert(busy.top().second);
      busy.pop();
    }
    int s;
    if (f.vregs[size_t(v)] == RegClass::Vec) {
      // 16 bytes: two fresh slots, named by the lower one (slot k + 1 lies
      // 8 bytes below slot k). Rare enough not to reuse.
      f.newSlot();
      slot[size_t(v)] = f.newSlot();
      continue;
    }
    if (free.empty()) {
      s = f.newSlot();
    } else {
      s = *free.begin();
      free.erase(free.begin());
    }
    slot[size_t(v)] = s;
    busy.push({cur.end(), s});
  }
  return slot;
}

}  // namespace

void allocateRegisters(MFunction& f, bool splitSpilledValues) {
  checkOperands(f);
  RegAssignment a;
  std::vector<CallSave> saves;
  {
    // Liveness sets, intervals and the scan's state go before the rewrite
    // makes its copy of the code: in one huge function the sets alone can
    // be larger than the code (script 50k lines: 76 MB).
    LiveIntervals li = buildLiveIntervals(f, computeLiveness(f));
    LinearScan scan(f, li, splitSpilledValues);
    scan.run();
    if (splitSpilledValues) scan.reviveSpilled();
    a.reg = scan.regs();
    // A value saved around calls keeps a slot for them, for its whole life.
    std::vector<bool> inSlot = scan.spilled();
    for (const LinearScan::Saved& s : scan.saved())
      if (s.v >= 0) inSlot[size_t(s.v)] = true;
    a.slot = assignSpillSlots(f, li, inSlot);
    for (const LinearScan::Saved& s : scan.saved())
      for (const SaveSpan& sp : s.spans) {
        if (s.v < 0) break;
        saves.push_back({sp.first, false, a.reg[size_t(s.v)], a.slot[size_t(s.v)]});
        saves.push_back({sp.last, true, a.reg[size_t(s.v)], a.slot[size_t(s.v)]});
      }
    const std::vector<bool>& spilled = scan.spilled();
    if (splitSpilledValues && std::find(spilled.begin(), spilled.end(), true) != spilled.end()) {
      // Copies of the spilled values, each in a register free over its
      // life (positions of the code before the copies were added), or in
      // its parent's slot: the first scan's assignment stands as it is.
      SpilledCopies c = splitSpilled(f, spilled, li.blockFirstInst);
      a.reg.resize(f.vregs.size(), -1);
      a.slot.resize(f.vregs.size(), -1);
      for (size_t k = 0; k < c.parent.size(); ++k) {
        int t = c.first + int(k);
        LiveInterval life;
        life.ranges.push_back(c.life[k]);
        int r = scan.takeFreeRegister(t, life, inXmm(f.vregs[size_t(t)]));
        a.reg[size_t(t)] = r;
        if (r < 0) a.slot[size_t(t)] = a.slot[size_t(c.parent[k])];
      }
    }
  }
  // Calls are counted in layout order: the copies above added none.
  insertCallSaves(f, std::move(saves));

  // Callee-saved registers written by the function: those given to values
  // and those instructions name explicitly.
  std::vector<bool> used(32, false);
  for (int r : a.reg)
    if (r >= 0) used[size_t(r)] = true;
  for (const MBlock& b : f.blocks)
    for (const MInst& mi : b.insts)
      forEachDefUse(
          mi, [](const Opnd&) {},
          [&](const Opnd& d) {
            if (d.kind == Opnd::PReg) used[size_t(d.reg)] = true;
          },
          [](int) {});
  f.usedCalleeSaved.clear();
  for (int r : kCalleeSaved)
    if (used[size_t(r)] && isCalleeSaved(r)) f.usedCalleeSaved.push_back(r);

  if (f.numDebugValues) locateDebugEntries(f, a);
  rewriteAllocated(f, a);
}

std::string findVirtualRegisters(const MFunction& f) {
  for (size_t b = 0; b < f.blocks.size(); ++b)
    for (const MInst& mi : f.blocks[b].insts) {
      std::string where = f.name + " b" + std::to_string(b) + ": " + mopName(mi.op);
      if (mi.op == MOp::ParMove) return "parmove left in " + where;
      for (const Opnd& o : mi.ops) {
        if (o.kind == Opnd::VReg) return "virtual register left in " + where;
        if (o.kind == Opnd::Mem && ((o.base >= 0 && o.baseVirt) || (o.index >= 0 && o.indexVirt)))
          return "virtual address register left in " + where;
      }
    }
  return "";
}

}  // namespace simplec
