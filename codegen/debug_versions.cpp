// -g: the dataflow of debug_versions.h. State: for each reassigned
// variable, what it holds: unknown, a debug value (current, or awaited
// until the instruction that computes it), or a constant. Block entries
// meet their reached predecessors' exits, iterated to a fixed point in
// layout order. Cost per pass: the instructions, plus blocks times
// reassigned variables (bounded by kMaxDebugVersionCells).
#include "codegen/debug_versions.h"

#include <algorithm>

#include "codegen/block_dataflow.h"

namespace simplec {

using namespace mir;

namespace {

constexpr int kUnknown = -1;

class Versions {
 public:
  explicit Versions(const MFunction& f) : f_(f), varOf_(f.debugVars.size(), -1) {
    for (size_t v = 0; v < f.debugVars.size(); v++)
      if (f.debugVars[v].var.reassigned) {
        varOf_[v] = int(vars_.size());
        vars_.push_back(int(v));
      }
    nv_ = f.numDebugValues;
    awaiters_.resize(size_t(nv_));
    defStamp_.assign(size_t(nv_), 0);
    for (const MBlock& b : f.blocks)
      for (const auto* as : {&b.dbgAssigns, &b.dbgTailAssigns})
        for (const DebugAssign& a : *as) {
          int t = varOf_[size_t(a.var)];
          if (t < 0) continue;
          if (a.kind == DebugAssign::AtDef && a.value >= 0 && a.value < nv_) {
            std::vector<int>& w = awaiters_[size_t(a.value)];
            if (std::find(w.begin(), w.end(), t) == w.end()) w.push_back(t);
          }
          if (a.kind == DebugAssign::Const) consts_.push_back(a.constBits);
        }
    std::sort(consts_.begin(), consts_.end());
    consts_.erase(std::unique(consts_.begin(), consts_.end()), consts_.end());
  }

  bool tooBig() const { return vars_.size() * f_.blocks.size() > kMaxDebugVersionCells; }

  std::vector<std::vector<DebugRange>> run(const std::vector<std::vector<DebugRange>>& values) {
    std::vector<std::vector<DebugRange>> res(f_.debugVars.size());
    if (vars_.empty() || tooBig()) return res;
    size_t nb = f_.blocks.size();
    BlockStates states = forwardToFixpoint(
        f_,
        [&](size_t b, const std::vector<int>& preds, const std::vector<std::vector<int>>& out,
            const std::vector<char>& reached, std::vector<int>* st) { return entryState(b, preds, out, reached, st); },
        [&](size_t b, std::vector<int>& st) { walk(b, st, nullptr); });
    const std::vector<std::vector<int>>& in = states.in;
    const std::vector<char>& visited = states.reached;
    // Replay each block from its entry state, cutting a variable's interval
    // where what it holds changes.
    std::vector<int> holds(vars_.size(), kUnknown), since(vars_.size(), 0);
    std::vector<std::vector<std::pair<std::pair<int, int>, int>>> intervals(vars_.size());
    int pos = 0;
    Recorder rec{holds, since, intervals, pos};
    for (size_t b = 0; b < nb; b++) {
      std::vector<int> st = visited[b] ? in[b] : std::vector<int>(vars_.size(), kUnknown);
      for (size_t t = 0; t < vars_.size(); t++) rec.note(int(t), st[t]);
      walk(b, st, &rec);
    }
    for (size_t t = 0; t < vars_.size(); t++) rec.note(int(t), kUnknown);
    for (size_t t = 0; t < vars_.size(); t++) res[size_t(vars_[t])] = placesOf(intervals[t], values);
    return res;
  }

 private:
  // Cuts intervals as the replay goes: (begin, end) and what was held.
  struct Recorder {
    std::vector<int>& holds;
    std::vector<int>& since;
    std::vector<std::vector<std::pair<std::pair<int, int>, int>>>& intervals;
    int& pos;
    void note(int t, int now) {
      if (holds[size_t(t)] == now) return;
      if (holds[size_t(t)] >= 0 && since[size_t(t)] < pos)
        intervals[size_t(t)].push_back({{since[size_t(t)], pos}, holds[size_t(t)]});
      holds[size_t(t)] = now;
      since[size_t(t)] = pos;
    }
  };

  bool entryState(size_t b, const std::vector<int>& preds, const std::vector<std::vector<int>>& out,
                  const std::vector<char>& visited, std::vector<int>* res) const {
    std::vector<int>& st = *res;
    st.assign(vars_.size(), kUnknown);
    bool reached = b == 0;
    for (int p : preds) {
      if (!visited[size_t(p)]) continue;
      const std::vector<int>& o = out[size_t(p)];
      for (size_t t = 0; t < st.size(); t++) {
        if (!reached) st[t] = o[t];
        else if (st[t] != o[t]) st[t] = kUnknown;
      }
      reached = true;
    }
    if (b == 0) std::fill(st.begin(), st.end(), kUnknown);  // nothing assigned before the entry
    return reached;
  }

  static bool firesAtStart(const DebugAssign& a) { return !a.passAt.valid() || a.passAt.file != kMainFile; }

  int constCode(int64_t bits) const {
    auto it = std::lower_bound(consts_.begin(), consts_.end(), bits);
    return nv_ + int(it - consts_.begin());
  }

  void fire(const DebugAssign& a, std::vector<int>& st, Recorder* rec) const {
    int t = varOf_[size_t(a.var)];
    if (t < 0) return;
    int now = kUnknown;
    switch (a.kind) {
      case DebugAssign::Ready: now = a.value >= 0 ? a.value : kUnknown; break;
      case DebugAssign::Const: now = constCode(a.constBits); break;
      case DebugAssign::AtDef:
        if (a.value >= 0 && a.value < nv_)
          now = defStamp_[size_t(a.value)] == stamp_ ? a.value : -2 - a.value;  // awaited
        break;
      case DebugAssign::Gone: break;
    }
    st[size_t(t)] = now;
    if (rec) rec->note(t, now);
  }

  // One stretch of a block with its own assignments: the block itself, or
  // the copy of another block's compare and branch at its end.
  void walkSegment(const MBlock& blk, size_t from, size_t to, const std::vector<DebugAssign>& assigns,
                   std::vector<int>& st, Recorder* rec) {
    std::vector<const DebugAssign*> pending;
    for (const DebugAssign& a : assigns) {
      if (firesAtStart(a)) fire(a, st, rec);
      else pending.push_back(&a);
    }
    size_t next = 0;
    for (size_t i = from; i < to; i++) {
      const MInst& mi = blk.insts[i];
      SrcPos now = sourcePosition(f_, mi);
      while (next < pending.size() && sourcePassed(pending[next]->passAt, now)) fire(*pending[next++], st, rec);
      if (rec) rec->pos++;  // what follows holds after mi
      if (mi.dbgValue) {
        int v = int(mi.dbgValue) - 1;
        if (v < nv_) {
          defStamp_[size_t(v)] = stamp_;
          for (int t : awaiters_[size_t(v)])
            if (st[size_t(t)] == -2 - v) {
              st[size_t(t)] = v;
              if (rec) rec->note(t, v);
            }
        }
      }
    }
    for (; next < pending.size(); next++) fire(*pending[next], st, rec);
  }

  void walk(size_t b, std::vector<int>& st, Recorder* rec) {
    const MBlock& blk = f_.blocks[b];
    stamp_++;
    size_t n = blk.insts.size();
    size_t tail = blk.dbgTailAt >= 0 && size_t(blk.dbgTailAt) <= n ? size_t(blk.dbgTailAt) : n;
    walkSegment(blk, 0, tail, blk.dbgAssigns, st, rec);
    if (tail < n) walkSegment(blk, tail, n, blk.dbgTailAssigns, st, rec);
  }

  // The intervals of one variable as places: where its current value is
  // (the value's own ranges, clipped), or the constant it holds.
  std::vector<DebugRange> placesOf(const std::vector<std::pair<std::pair<int, int>, int>>& iv,
                                   const std::vector<std::vector<DebugRange>>& values) const {
    std::vector<DebugRange> res;
    auto add = [&](int b, int e, const DebugPlace& p) {
      if (b >= e) return;
      if (!res.empty() && res.back().end == b && res.back().place == p) res.back().end = e;
      else res.push_back({b, e, p});
    };
    for (const auto& [range, code] : iv) {
      auto [b, e] = range;
      if (code >= nv_) {
        DebugPlace p;
        p.isConst = true;
        p.bits = consts_[size_t(code - nv_)];
        add(b, e, p);
        continue;
      }
      if (size_t(code) >= values.size()) continue;
      const std::vector<DebugRange>& rs = values[size_t(code)];
      auto it = std::lower_bound(rs.begin(), rs.end(), b, [](const DebugRange& r, int x) { return r.end <= x; });
      for (; it != rs.end() && it->begin < e; ++it) add(std::max(b, it->begin), std::min(e, it->end), it->place);
    }
    return res;
  }

  const MFunction& f_;
  std::vector<int> varOf_;  // debugVars index -> tracked index (-1: not reassigned)
  std::vector<int> vars_;   // tracked index -> debugVars index
  int nv_ = 0;
  std::vector<std::vector<int>> awaiters_;  // value -> tracked variables that may await it
  std::vector<int64_t> consts_;             // constants, sorted (code nv_ + k)
  std::vector<uint32_t> defStamp_;          // value -> stamp_ of the block walk that computed it
  uint32_t stamp_ = 0;
};

}  // namespace

SrcPos sourcePosition(const MFunction& f, const MInst& mi) {
  if (mi.line == 0) return SrcPos{};
  if (mi.site < 0) return SrcPos{mi.line, mi.col};
  auto it = std::lower_bound(f.dbgSiteCalls.begin(), f.dbgSiteCalls.end(), mi.site,
                             [](const auto& e, int32_t s) { return e.first < s; });
  return it != f.dbgSiteCalls.end() && it->first == mi.site ? it->second : SrcPos{};
}

bool sourcePassed(const SrcPos& at, const SrcPos& now) {
  return now.valid() && (at.line < now.line || (at.line == now.line && at.col <= now.col));
}

std::vector<std::vector<DebugRange>> debugVersionRanges(const MFunction& f,
                                                        const std::vector<std::vector<DebugRange>>& values) {
  return Versions(f).run(values);
}

}  // namespace simplec
