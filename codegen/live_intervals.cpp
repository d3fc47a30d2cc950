// Builds live intervals block by block, walking each block backwards from its
// live-out set (Wimmer & Franz, "Linear Scan Register Allocation on SSA
// Form", adapted to registers with several definitions: a definition closes
// the range opened by a later use or by liveness at the block end).
#include "codegen/live_intervals.h"

#include <algorithm>
#include <iterator>

namespace simplec {

using namespace mir;

bool LiveInterval::covers(int pos) const {
  // First range that ends at or after pos.
  auto it = std::lower_bound(ranges.begin(), ranges.end(), pos,
                             [](const LiveRange& r, int p) { return r.to < p; });
  return it != ranges.end() && it->from <= pos;
}

bool LiveInterval::intersects(const LiveInterval& o) const {
  if (empty() || o.empty() || end() < o.start() || o.end() < start()) return false;
  // Walk the shorter list and binary-search the longer one: a vreg's
  // interval has few ranges, a fixed interval (rax, say) may have thousands.
  const auto& few = ranges.size() <= o.ranges.size() ? ranges : o.ranges;
  const auto& many = ranges.size() <= o.ranges.size() ? o.ranges : ranges;
  auto it = many.begin();
  for (const LiveRange& r : few) {
    // First range of `many` that ends at or after r begins.
    it = std::lower_bound(it, many.end(), r.from,
                          [](const LiveRange& m, int p) { return m.to < p; });
    if (it == many.end()) return false;
    if (it->from <= r.to) return true;
  }
  return false;
}

void LiveInterval::normalize() {
  if (ranges.empty()) return;
  auto before = [](const LiveRange& a, const LiveRange& b) {
    return a.from != b.from ? a.from < b.from : a.to < b.to;
  };
  // Built backwards, the ranges usually arrive in exactly reverse order.
  if (std::is_sorted(ranges.begin(), ranges.end(), [&](const LiveRange& a, const LiveRange& b) { return before(b, a); }))
    std::reverse(ranges.begin(), ranges.end());
  else if (!std::is_sorted(ranges.begin(), ranges.end(), before))
    std::sort(ranges.begin(), ranges.end(), before);
  // Merge in place: ranges[0, kept) are final.
  size_t kept = 0;
  for (const LiveRange& r : ranges) {
    // Positions are integers, so [a, b] and [b + 1, c] leave no hole.
    if (kept > 0 && r.from <= ranges[kept - 1].to + 1) {
      ranges[kept - 1].to = std::max(ranges[kept - 1].to, r.to);
    } else {
      ranges[kept++] = r;
    }
  }
  ranges.resize(uint32_t(kept));
}

HintTable::HintTable(int numVRegs, const std::vector<int>& vregs, const std::vector<RegHint>& hints)
    : start_(size_t(numVRegs) + 1, 0), all_(hints.size()) {
  for (int v : vregs) start_[size_t(v) + 1]++;
  for (size_t v = 0; v < size_t(numVRegs); ++v) start_[v + 1] += start_[v];
  std::vector<int> next(start_.begin(), start_.end() - 1);
  for (size_t k = 0; k < hints.size(); ++k) all_[size_t(next[size_t(vregs[k])]++)] = hints[k];
}

std::vector<double> blockWeights(const MFunction& f) {
  std::vector<int> preds(f.blocks.size(), 0);
  for (const MBlock& b : f.blocks)
    for (int s : b.succs)
      if (s >= 0 && size_t(s) < preds.size()) preds[size_t(s)]++;
  std::vector<int> onlyPred(f.blocks.size(), -1);
  for (size_t b = 0; b < f.blocks.size(); ++b)
    for (int s : f.blocks[b].succs)
      if (s >= 0 && size_t(s) < preds.size() && preds[size_t(s)] == 1) onlyPred[size_t(s)] = int(b);
  std::vector<double> w(f.blocks.size(), 1);
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    for (int d = 0; d < f.blocks[b].loopDepth && d < 6; ++d) w[b] *= 8;
    // Not a branch that leaves a loop (its exit runs once per entry to the
    // loop, the other side every iteration) or goes to a runtime error.
    int p = onlyPred[b];
    if (p < 0 || f.blocks[size_t(p)].succs.size() < 2) continue;
    bool exitOrError = false;
    for (int s : f.blocks[size_t(p)].succs)
      exitOrError |= s < 0 || size_t(s) >= f.blocks.size() || f.blocks[size_t(s)].cold ||
                     f.blocks[size_t(s)].loopDepth < f.blocks[size_t(p)].loopDepth;
    if (!exitOrError) w[b] /= 2;
  }
  return w;
}

namespace {

// Hints found so far: hintVRegs[k] would like hintRegs[k].
struct HintList {
  std::vector<int> vregs;
  std::vector<RegHint> regs;
};

void addHint(HintList& hl, const MFunction& f, const Opnd& a, const Opnd& b) {
  if (a.kind != Opnd::VReg || !b.isReg()) return;
  if (a.reg < 0 || a.reg >= int(f.vregs.size())) return;
  bool aXmm = inXmm(f.vregs[size_t(a.reg)]);
  bool bXmm = b.kind == Opnd::PReg ? isXmm(b.reg)
              : (b.reg >= 0 && b.reg < int(f.vregs.size()) &&
                 inXmm(f.vregs[size_t(b.reg)]));
  if (aXmm != bXmm) return;
  if (b.kind == Opnd::VReg && (b.reg == a.reg || b.reg < 0 || b.reg >= int(f.vregs.size())))
    return;
  hl.vregs.push_back(a.reg);
  hl.regs.push_back(RegHint{b.kind == Opnd::VReg, b.reg});
}

}  // namespace

LiveIntervals buildLiveIntervals(const MFunction& f, const Liveness& lv) {
  LiveIntervals li;
  int nv = int(f.vregs.size());
  int sz = lv.size();
  int nb = int(f.blocks.size());
  li.blockFirstInst.resize(size_t(nb));
  int count = 0;
  for (int b = 0; b < nb; ++b) {
    li.blockFirstInst[size_t(b)] = count;
    count += int(f.blocks[size_t(b)].insts.size());
  }
  li.numInsts = count;
  std::vector<LiveInterval> all(static_cast<size_t>(sz));
  HintList hl;
  li.spillCost.assign(size_t(nv), 0.0);
  li.accessCost.assign(size_t(nv), 0.0);
  li.blockWeights = blockWeights(f);

  std::vector<int> openEnd(size_t(sz), -1);  // end of the range being built, or -1
  std::vector<int> openList;
  auto idx = [&](const Opnd& o) { return livenessIndex(f, o); };
  // Ranges are found from the end of the function backwards, so a new range
  // usually ends right where the last one added begins: extend that one.
  auto addRange = [&](int r, int from, int to) {
    auto& rs = all[size_t(r)].ranges;
    if (!rs.empty() && rs.back().from <= to + 1 && rs.back().from >= from) {
      rs.back().from = from;
      rs.back().to = std::max(rs.back().to, to);
    } else {
      rs.push_back({from, to});
    }
  };
  for (int b = nb - 1; b >= 0; --b) {
    const MBlock& blk = f.blocks[size_t(b)];
    if (blk.insts.empty()) continue;  // no position: nothing can happen there
    int first = li.blockFirstInst[size_t(b)];
    int blockStart = 2 * first;
    int blockEnd = 2 * (first + int(blk.insts.size())) - 1;
    openList.clear();
    for (int r : lv.liveOut[size_t(b)].elements()) {
      openEnd[size_t(r)] = blockEnd;
      openList.push_back(r);
    }
    // Spill costs weigh each access by 8^loop depth (a guess at how often it runs).
    double freq = 1;
    for (int d = 0; d < blk.loopDepth && d < 6; ++d) freq *= 8;
    for (int k = int(blk.insts.size()) - 1; k >= 0; --k) {
      const MInst& mi = blk.insts[size_t(k)];
      int i = first + k;
      int rd = 2 * i, wr = 2 * i + 1;
      auto countAccess = [&](const Opnd& o) {
        if (o.kind == Opnd::VReg && o.reg >= 0 && o.reg < nv) {
          li.spillCost[size_t(o.reg)] += freq;
          li.accessCost[size_t(o.reg)] += li.blockWeights[size_t(b)];
        }
      };
      auto def = [&](int r) {
        if (r < 0) return;
        if (openEnd[size_t(r)] >= 0) {
          addRange(r, wr, openEnd[size_t(r)]);
          openEnd[size_t(r)] = -1;
        } else {
          addRange(r, wr, wr);
        }
      };
      // Writes first (they close the ranges that later reads opened), then
      // reads: a register both read and written gets a new range ending here.
      forEachDefUse(
          mi, [](const Opnd&) {},
          [&](const Opnd& d) {
            countAccess(d);
            def(idx(d));
          },
          [&](int r) { def(idx(Opnd::preg(r))); });
      if (mi.op == MOp::Call) li.callPositions.push_back(wr);
      if (mi.op == MOp::SDivRem) addRange(nv + RDX, rd, wr);
      forEachDefUse(
          mi,
          [&](const Opnd& u) {
            countAccess(u);
            int r = idx(u);
            if (r >= 0 && openEnd[size_t(r)] < 0) {
              openEnd[size_t(r)] = rd;
              openList.push_back(r);
            }
          },
          [](const Opnd&) {}, [](int) {});
      // Copies: try to give both sides the same register.
      if (mi.op == MOp::Mov && mi.size == 8 && mi.ops.size() == 2) {
        addHint(hl, f, mi.ops[0], mi.ops[1]);
        addHint(hl, f, mi.ops[1], mi.ops[0]);
      } else if (mi.op == MOp::ParMove) {
        for (size_t p = 0; p + 1 < mi.ops.size(); p += 2) {
          addHint(hl, f, mi.ops[p], mi.ops[p + 1]);
          addHint(hl, f, mi.ops[p + 1], mi.ops[p]);
        }
      }
    }
    for (int r : openList) {
      if (openEnd[size_t(r)] >= 0) {
        addRange(r, blockStart, openEnd[size_t(r)]);
        openEnd[size_t(r)] = -1;
      }
    }
  }
  for (LiveInterval& iv : all) iv.normalize();
  std::sort(li.callPositions.begin(), li.callPositions.end());
  // Hints were collected walking backwards; the first copy in program order
  // is the most useful one (it usually defines the value).
  std::reverse(hl.vregs.begin(), hl.vregs.end());
  std::reverse(hl.regs.begin(), hl.regs.end());
  li.hints = HintTable(nv, hl.vregs, hl.regs);
  li.vregs.assign(std::make_move_iterator(all.begin()), std::make_move_iterator(all.begin() + nv));
  li.fixed.assign(std::make_move_iterator(all.begin() + nv), std::make_move_iterator(all.end()));
  return li;
}

}  // namespace simplec
