// Saving registers around calls (see call_saves.h).
#include "codegen/call_saves.h"

#include <algorithm>

namespace simplec {

using namespace mir;

bool crossedCalls(const LiveInterval& iv, const LiveIntervals& li, int limit, std::vector<int>* out) {
  // A call at write position c is crossed when a range holds c - 1 (live
  // before it) and c (needed after it): from < c <= to.
  const std::vector<int>& calls = li.callPositions;
  out->clear();
  for (const LiveRange& r : iv.ranges) {
    auto first = std::upper_bound(calls.begin(), calls.end(), r.from);
    auto last = std::upper_bound(first, calls.end(), r.to);
    if (int(out->size()) + int(last - first) > limit) return false;
    for (auto it = first; it != last; ++it) out->push_back(int(it - calls.begin()));
  }
  return true;
}

namespace {

// The block holding instruction `inst`: the last one starting at or before it.
size_t blockOf(const LiveIntervals& li, int inst) {
  auto it = std::upper_bound(li.blockFirstInst.begin(), li.blockFirstInst.end(), inst);
  return size_t(it - li.blockFirstInst.begin()) - 1;
}

bool mentions(const MInst& mi, int v) {
  for (const Opnd& o : mi.ops) {
    if (o.kind == Opnd::VReg && o.reg == v) return true;
    if (o.kind == Opnd::Mem && ((o.baseVirt && o.base == v) || (o.indexVirt && o.index == v))) return true;
  }
  return false;
}

}  // namespace

std::vector<SaveSpan> saveSpans(const MFunction& f, const LiveIntervals& li, int v, const std::vector<int>& calls) {
  std::vector<SaveSpan> spans;
  for (int c : calls) {
    if (!spans.empty()) {
      int from = li.callPositions[size_t(spans.back().last)] / 2, to = li.callPositions[size_t(c)] / 2;
      size_t b = blockOf(li, from);
      bool join = blockOf(li, to) == b;
      const std::vector<MInst>& insts = f.blocks[b].insts;
      int first = li.blockFirstInst[b];
      // Up to the later call itself, which may call through v.
      for (int i = from + 1; join && i <= to; ++i) join = !mentions(insts[size_t(i - first)], v);
      if (join) {
        spans.back().last = c;
        continue;
      }
    }
    spans.push_back({c, c});
  }
  return spans;
}

LiveInterval withHolesAtCalls(const LiveInterval& iv, const LiveIntervals& li, const std::vector<SaveSpan>& spans) {
  LiveInterval out;
  size_t k = 0;  // spans are sorted, as are the ranges, and a span lies in one range
  for (const LiveRange& r : iv.ranges) {
    int from = r.from;
    for (; k < spans.size() && li.callPositions[size_t(spans[k].first)] <= r.to; ++k) {
      int c = li.callPositions[size_t(spans[k].first)];
      if (c - 1 >= from) out.ranges.push_back({from, c - 1});
      from = li.callPositions[size_t(spans[k].last)] + 1;
    }
    if (from <= r.to) out.ranges.push_back({from, r.to});
  }
  return out;
}

double saveCost(const std::vector<SaveSpan>& spans, const LiveIntervals& li, const std::vector<double>& weights) {
  double cost = 0;
  for (const SaveSpan& s : spans) cost += 2 * weights[blockOf(li, li.callPositions[size_t(s.first)] / 2)];
  return cost;
}

double leastSaveCost(const std::vector<int>& calls, const LiveIntervals& li, const std::vector<double>& weights) {
  double cost = 0;
  size_t last = size_t(-1);
  for (int c : calls) {
    size_t b = blockOf(li, li.callPositions[size_t(c)] / 2);
    if (b != last) cost += 2 * weights[b];
    last = b;
  }
  return cost;
}

void insertCallSaves(MFunction& f, std::vector<CallSave> saves) {
  if (saves.empty()) return;
  // By call, then register: the code does not depend on the order found.
  std::sort(saves.begin(), saves.end(), [](const CallSave& a, const CallSave& b) {
    return a.call != b.call ? a.call < b.call : a.after != b.after ? b.after : a.reg < b.reg;
  });
  size_t next = 0;
  int call = 0;
  std::vector<MInst> out;
  for (MBlock& b : f.blocks) {
    if (next == saves.size()) break;
    bool any = false;
    for (const MInst& mi : b.insts) any |= mi.op == MOp::Call;
    if (!any) continue;
    out.clear();
    out.reserve(b.insts.size() + 4);
    for (MInst& mi : b.insts) {
      if (mi.op != MOp::Call) {
        out.push_back(std::move(mi));
        continue;
      }
      for (; next < saves.size() && saves[next].call == call && !saves[next].after; ++next)
        out.push_back(MInst(MOp::Mov, {Opnd::slot(saves[next].slot), Opnd::preg(saves[next].reg)}));
      out.push_back(std::move(mi));
      for (; next < saves.size() && saves[next].call == call; ++next)
        out.push_back(MInst(MOp::Mov, {Opnd::preg(saves[next].reg), Opnd::slot(saves[next].slot)}));
      call++;
    }
    std::swap(b.insts, out);
  }
}

}  // namespace simplec
