// -g: the dataflow of debug_locations.h. State: for each place, the debug
// value it holds (or none). Block entries meet their predecessors' exits
// (a place keeps a value only if every predecessor agrees), iterated to a
// fixed point in layout order. Cost per pass: instructions times the few
// places each touches (a call: the caller-saved registers), plus blocks
// times places (registers and the frame slots that are ever written).
#include "codegen/debug_locations.h"

#include <algorithm>
#include <unordered_map>

#include "codegen/block_dataflow.h"
#include "codegen/frame.h"
#include "codegen/debug_values.h"
#include "codegen/liveness.h"

namespace simplec {

using namespace mir;

namespace {

constexpr int kNumRegs = 32;
constexpr int kNone = -1;

class Flow {
 public:
  explicit Flow(const MFunction& f) : f_(f) {
    numSaved_ = int(f.usedCalleeSaved.size());
    for (const auto& [k, value] : f.dbgInArgs) slotKey(inArgDisp(k));
    for (const MBlock& b : f.blocks) {
      for (const auto* facts : {&b.dbgEntry, &b.dbgTailEntry})
        for (const auto& [loc, value] : *facts)
          if (loc >= kDebugSlotBase) slotKey(slotOffset(numSaved_, loc - kDebugSlotBase));
      for (const MInst& mi : b.insts)
        for (const Opnd& o : mi.ops)
          if (isFrameSlot(o)) slotKey(o.imm);
    }
  }

  std::vector<std::vector<DebugRange>> run() {
    BlockStates states = forwardToFixpoint(
        f_,
        [&](size_t b, const std::vector<int>& preds, const std::vector<std::vector<int>>& out,
            const std::vector<char>& reached, std::vector<int>* st) { return entryState(b, preds, out, reached, st); },
        [&](size_t b, std::vector<int>& st) {
          const MBlock& blk = f_.blocks[b];
          for (size_t i = 0; i < blk.insts.size(); i++) {
            if (int(i) == blk.dbgTailAt) applyEntry(blk.dbgTailEntry, st, nullptr);
            apply(blk.insts[i], st, nullptr);
          }
        });
    return ranges(states.in, states.reached);
  }

 private:
  static bool isFrameSlot(const Opnd& o) {
    return o.kind == Opnd::Mem && o.base == RBP && o.index < 0 && o.sym.empty() && !o.baseVirt;
  }
  static int64_t inArgDisp(int k) { return 16 + 8 * int64_t(k); }  // frame.h
  size_t numKeys() const { return kNumRegs + slotDisp_.size(); }
  int keyOfDisp(int64_t disp) const {
    auto it = slotIndex_.find(disp);
    return it == slotIndex_.end() ? -1 : kNumRegs + it->second;
  }
  int slotKey(int64_t disp) {
    auto [it, added] = slotIndex_.try_emplace(disp, int(slotDisp_.size()));
    if (added) slotDisp_.push_back(disp);
    return kNumRegs + it->second;
  }
  int keyOf(const Opnd& o) const {
    if (o.kind == Opnd::PReg && o.reg >= 0 && o.reg < kNumRegs) return o.reg;
    if (isFrameSlot(o)) {
      auto it = slotIndex_.find(o.imm);
      if (it != slotIndex_.end()) return kNumRegs + it->second;
    }
    return -1;
  }
  static bool sameClass(int a, int b) {
    auto cls = [](int k) { return k < 16 ? 0 : k < kNumRegs ? 1 : 2; };
    return cls(a) == cls(b) || cls(a) == 2 || cls(b) == 2;
  }

  // Meet of the visited predecessors' exits (false: none is visited yet);
  // then the block's own entry facts.
  bool entryState(size_t b, const std::vector<int>& preds, const std::vector<std::vector<int>>& out,
                  const std::vector<char>& visited, std::vector<int>* res) {
    size_t nk = numKeys();
    std::vector<int>& st = *res;
    bool reached = b == 0;
    st.assign(nk, kNone);
    for (int p : preds) {
      if (!visited[size_t(p)]) continue;
      const std::vector<int>& o = out[size_t(p)];
      for (size_t k = 0; k < nk; k++) {
        if (!reached) st[k] = o[k];
        else if (st[k] != o[k]) st[k] = kNone;
      }
      reached = true;
    }
    if (!reached) return false;
    if (b == 0) {  // the function's entry: only the parameters are known
      std::fill(st.begin(), st.end(), kNone);
      for (const auto& [r, value] : f_.dbgAtEntry)
        if (r >= 0 && r < kNumRegs) st[size_t(r)] = value;
    }
    applyEntry(f_.blocks[b].dbgEntry, st, nullptr);
    return true;
  }

  // A change of one place: its key and what it held before.
  struct Change {
    int key, old;
  };
  // A block's entry facts (MBlock::dbgEntry): values in their places.
  void applyEntry(const std::vector<std::pair<int, int>>& facts, std::vector<int>& st,
                  std::vector<Change>* changes) const {
    for (const auto& [loc, value] : facts) {
      int k = loc < kDebugSlotBase ? loc : keyOfDisp(slotOffset(numSaved_, loc - kDebugSlotBase));
      if (k >= 0 && size_t(k) < st.size()) set(st, k, value, changes);
    }
  }
  void set(std::vector<int>& st, int k, int v, std::vector<Change>* changes) const {
    if (st[size_t(k)] == v) return;
    if (changes) changes->push_back({k, st[size_t(k)]});
    st[size_t(k)] = v;
  }

  // The state after mi, from the state before it; `changes` (if given)
  // gets the places it changed.
  void apply(const MInst& mi, std::vector<int>& st, std::vector<Change>* changes) const {
    int copied = kNone, dst = -1;
    if (mi.op == MOp::Mov && mi.ops.size() == 2) {
      dst = keyOf(mi.ops[0]);
      int src = keyOf(mi.ops[1]);
      bool whole = mi.size == 8 || (mi.ops[0].kind == Opnd::PReg && mi.ops[1].kind == Opnd::PReg);
      if (dst >= 0 && src >= 0 && whole && sameClass(dst, src)) copied = st[size_t(src)];
    }
    forEachDefUse(
        mi, [](const Opnd&) {},
        [&](const Opnd& o) {
          if (o.kind != Opnd::PReg || o.reg < 0 || o.reg >= kNumRegs) return;
          set(st, o.reg, kNone, changes);
          if (o.reg == RBP)  // slots are rbp-relative: gone with the frame
            for (size_t k = kNumRegs; k < st.size(); k++) set(st, int(k), kNone, changes);
        },
        [&](int r) {
          if (r >= 0 && r < kNumRegs) set(st, r, kNone, changes);
        });
    // Memory written through operand 0 (a store to a slot).
    if (!mi.ops.empty() && mi.ops[0].kind == Opnd::Mem && operandRole(mi, 0) != OpndRole::Use) {
      int k = keyOf(mi.ops[0]);
      if (k >= 0) set(st, k, kNone, changes);
    }
    if (dst >= 0) set(st, dst, copied, changes);
    // The prologue's `mov rbp, rsp`: from here the incoming stack arguments
    // are at [rbp + 16 + 8k], and the function never writes them.
    if (mi.op == MOp::Mov && mi.ops.size() == 2 && mi.ops[0] == Opnd::preg(RBP) && mi.ops[1] == Opnd::preg(RSP))
      for (const auto& [k, value] : f_.dbgInArgs) set(st, keyOfDisp(inArgDisp(k)), value, changes);
    if (mi.dbgValue) {
      int k = mi.dbgReg >= 0 ? mi.dbgReg
              : !mi.ops.empty() && operandRole(mi, 0) != OpndRole::Use ? keyOf(mi.ops[0])
                                                                        : -1;
      if (k >= 0 && k < kNumRegs + int(slotDisp_.size())) set(st, k, int(mi.dbgValue) - 1, changes);
    }
  }

  DebugPlace placeOf(int key) const {
    DebugPlace p;
    if (key < kNumRegs) p.reg = key;
    else p.disp = slotDisp_[size_t(key - kNumRegs)];
    return p;
  }

  // Replays each block from its entry state, choosing one place per value
  // (the lowest key: registers before slots) and cutting ranges where the
  // choice changes.
  std::vector<std::vector<DebugRange>> ranges(const std::vector<std::vector<int>>& in,
                                               const std::vector<char>& visited) const {
    size_t nv = size_t(f_.numDebugValues);
    std::vector<std::vector<DebugRange>> res(nv);
    std::vector<int> chosen(nv, -1), since(nv, 0);
    std::vector<int> st(numKeys(), kNone);
    int pos = 0;
    auto choose = [&](int v) {
      int best = -1;
      for (size_t k = 0; k < st.size(); k++)
        if (st[k] == v) {
          best = int(k);
          break;
        }
      if (best == chosen[size_t(v)]) return;
      if (chosen[size_t(v)] >= 0 && since[size_t(v)] < pos)
        res[size_t(v)].push_back({since[size_t(v)], pos, placeOf(chosen[size_t(v)])});
      chosen[size_t(v)] = best;
      since[size_t(v)] = pos;
    };
    std::vector<Change> changes;
    auto update = [&]() {
      for (const Change& c : changes) {
        if (c.old >= 0) choose(c.old);
        int now = st[size_t(c.key)];
        if (now >= 0) choose(now);
      }
      changes.clear();
    };
    for (size_t b = 0; b < f_.blocks.size(); b++) {
      if (visited[b]) {
        for (size_t k = 0; k < st.size(); k++) set(st, int(k), in[b][k], &changes);
      } else {
        for (size_t k = 0; k < st.size(); k++) set(st, int(k), kNone, &changes);  // dead code: nothing known
      }
      update();
      const MBlock& blk = f_.blocks[b];
      for (size_t i = 0; i < blk.insts.size(); i++) {
        const MInst& mi = blk.insts[i];
        if (int(i) == blk.dbgTailAt) {
          applyEntry(blk.dbgTailEntry, st, &changes);
          update();
        }
        // A caller's frame is at its return address minus one, inside the
        // call: what the callee may clobber counts as gone there already.
        if (mi.op == MOp::Call) {
          forEachDefUse(
              mi, [](const Opnd&) {}, [](const Opnd&) {},
              [&](int r) {
                if (r >= 0 && r < kNumRegs) set(st, r, kNone, &changes);
              });
          update();
        }
        apply(mi, st, &changes);
        pos++;
        update();
      }
    }
    for (size_t v = 0; v < nv; v++)
      if (chosen[v] >= 0 && since[v] < pos) res[v].push_back({since[v], pos, placeOf(chosen[v])});
    return res;
  }

  const MFunction& f_;
  int numSaved_ = 0;
  std::vector<int64_t> slotDisp_;
  std::unordered_map<int64_t, int> slotIndex_;
};

}  // namespace

std::vector<DebugRange> preferRanges(const std::vector<DebugRange>& first, const std::vector<DebugRange>& second) {
  std::vector<DebugRange> res;
  auto add = [&](int b, int e, const DebugPlace& p) {
    if (b >= e) return;
    if (!res.empty() && res.back().end == b && res.back().place == p) res.back().end = e;
    else res.push_back({b, e, p});
  };
  size_t i = 0;  // first[i] is the next range of `first` not yet passed
  int at = 0;    // everything before `at` is done
  for (const DebugRange& r : second) {
    at = std::max(at, r.begin);
    // The ranges of `first` up to the end of r, and r in their gaps.
    while (at < r.end) {
      while (i < first.size() && first[i].end <= at) add(first[i].begin, first[i].end, first[i].place), i++;
      if (i < first.size() && first[i].begin <= at) {
        add(first[i].begin, first[i].end, first[i].place);
        at = first[i].end;
        i++;
        continue;
      }
      int stop = i < first.size() ? std::min(r.end, first[i].begin) : r.end;
      add(at, stop, r.place);
      at = stop;
    }
  }
  for (; i < first.size(); i++) add(first[i].begin, first[i].end, first[i].place);
  return res;
}

std::vector<std::vector<DebugRange>> debugLocations(const MFunction& f) {
  if (f.numDebugValues == 0) return {};
  return Flow(f).run();
}

}  // namespace simplec
