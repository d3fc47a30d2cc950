// Iterative liveness over MIR blocks (see liveness.h). Each block's
// upward-exposed uses and definitions come from forEachDefUse(); call clobbers count
// as definitions of the physical registers they destroy.
#include "codegen/liveness.h"

#include <algorithm>
#include <iterator>

#include "lexer/work_counters.h"

namespace simplec {

using namespace mir;

void RegSet::set(int i) {
  auto it = std::lower_bound(v_.begin(), v_.end(), i);
  if (it == v_.end() || *it != i) v_.insert(it, i);
}

void RegSet::reset(int i) {
  auto it = std::lower_bound(v_.begin(), v_.end(), i);
  if (it != v_.end() && *it == i) v_.erase(it);
}

bool RegSet::unionWith(const RegSet& o) {
  // Most unions in the dataflow add nothing (the successor's live-in was
  // merged before): check that without touching memory, then merge in place
  // from the back, so no temporary set is built.
  size_t extra = 0;
  for (size_t i = 0, j = 0; j < o.v_.size();) {
    if (i == v_.size() || o.v_[j] < v_[i]) {
      ++extra;
      ++j;
    } else {
      if (o.v_[j] == v_[i]) ++j;
      ++i;
    }
  }
  if (extra == 0) return false;
  size_t n = v_.size();
  v_.resize(n + extra);
  // Merge v_[0, n) and o.v_ into v_[0, n + extra), largest first.
  auto out = v_.end();
  auto a = v_.begin() + long(n);
  auto b = o.v_.end();
  while (b != o.v_.begin()) {
    if (a != v_.begin() && *(a - 1) >= *(b - 1)) {
      if (*(a - 1) == *(b - 1)) --b;
      *--out = *--a;
    } else {
      *--out = *--b;
    }
  }
  return true;
}

void RegSet::subtract(const RegSet& o) {
  if (o.v_.empty() || v_.empty()) return;
  auto b = o.v_.begin();
  auto keep = v_.begin();
  for (int x : v_) {
    while (b != o.v_.end() && *b < x) ++b;
    if (b == o.v_.end() || *b != x) *keep++ = x;
  }
  v_.erase(keep, v_.end());
}

std::vector<std::vector<int>> blockSuccessors(const MFunction& f) {
  int n = int(f.blocks.size());
  std::vector<std::vector<int>> succs(static_cast<size_t>(n));
  for (int b = 0; b < n; ++b) {
    const MBlock& blk = f.blocks[size_t(b)];
    std::vector<int>& out = succs[size_t(b)];
    auto add = [&](int t) {
      if (t >= 0 && t < n && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    };
    for (int t : blk.succs) add(t);
    for (const MInst& mi : blk.insts) forEachJumpTarget(mi, add);
    if (blk.insts.empty() || !endsControl(blk.insts.back())) add(b + 1);
  }
  return succs;
}

namespace {

// Postorder of an iterative depth-first walk from block 0; blocks it does
// not reach follow in layout order.
std::vector<int> postorder(const std::vector<std::vector<int>>& succs, int n) {
  std::vector<int> order;
  std::vector<bool> seen(size_t(n), false);
  std::vector<std::pair<int, size_t>> stack;  // block, next successor to visit
  for (int root = 0; root < n; ++root) {
    if (seen[size_t(root)]) continue;
    seen[size_t(root)] = true;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [b, next] = stack.back();
      if (next < succs[size_t(b)].size()) {
        int s = succs[size_t(b)][next++];
        if (!seen[size_t(s)]) {
          seen[size_t(s)] = true;
          stack.push_back({s, 0});
        }
      } else {
        order.push_back(b);
        stack.pop_back();
      }
    }
  }
  return order;
}

}  // namespace

int livenessIndex(const MFunction& f, const Opnd& o) {
  int nv = int(f.vregs.size());
  if (o.kind == Opnd::VReg) return o.reg >= 0 && o.reg < nv ? o.reg : -1;
  if (o.kind == Opnd::PReg) return o.reg >= 0 && o.reg < 32 ? nv + o.reg : -1;
  return -1;
}

Liveness computeLiveness(const MFunction& f) {
  Liveness lv;
  lv.numVRegs = int(f.vregs.size());
  int n = int(f.blocks.size());
  int sz = lv.size();
  lv.succs = blockSuccessors(f);
  lv.preds.assign(size_t(n), {});
  for (int b = 0; b < n; ++b)
    for (int s : lv.succs[size_t(b)]) lv.preds[size_t(s)].push_back(b);

  // gen = upward-exposed uses, kill = registers written in the block. The
  // stamps say in which block a register was last read or written, so each
  // is collected once per block, then sorted.
  std::vector<RegSet> gen, kill;
  gen.reserve(size_t(n));
  kill.reserve(size_t(n));
  std::vector<int> genStamp(size_t(sz), -1), killStamp(size_t(sz), -1);
  std::vector<int> g, k;
  for (int b = 0; b < n; ++b) {
    g.clear();
    k.clear();
    auto write = [&](int i) {
      if (i < 0 || killStamp[size_t(i)] == b) return;
      killStamp[size_t(i)] = b;
      k.push_back(i);
    };
    for (const MInst& mi : f.blocks[size_t(b)].insts) {
      // All reads happen before any write: `parmove a <- b, b <- a` reads b.
      forEachDefUse(
          mi,
          [&](const Opnd& u) {
            int i = livenessIndex(f, u);
            if (i < 0 || killStamp[size_t(i)] == b || genStamp[size_t(i)] == b) return;
            genStamp[size_t(i)] = b;
            g.push_back(i);
          },
          [](const Opnd&) {}, [](int) {});
      forEachDefUse(
          mi, [](const Opnd&) {}, [&](const Opnd& d) { write(livenessIndex(f, d)); },
          [&](int r) { write(livenessIndex(f, Opnd::preg(r))); });
    }
    std::sort(g.begin(), g.end());
    std::sort(k.begin(), k.end());
    gen.emplace_back(sz, g);
    kill.emplace_back(sz, k);
  }

  lv.liveIn.assign(size_t(n), RegSet(sz));
  lv.liveOut.assign(size_t(n), RegSet(sz));
  // Sweeps in postorder of a depth-first walk from the entry (successors
  // before predecessors, so one sweep settles acyclic code), each sweep
  // visiting only the blocks whose successors' live-in sets grew since
  // their last visit. Sets only grow, so this reaches the least fixed point.
  std::vector<int> order = postorder(lv.succs, n);
  std::vector<bool> dirty(size_t(n), true);
  RegSet in(sz);
  bool changed = true;
  while (changed) {
    changed = false;
    for (int b : order) {
      if (!dirty[size_t(b)]) continue;
      dirty[size_t(b)] = false;
      RegSet& out = lv.liveOut[size_t(b)];
      for (int s : lv.succs[size_t(b)]) out.unionWith(lv.liveIn[size_t(s)]);
      in = out;
      in.subtract(kill[size_t(b)]);
      in.unionWith(gen[size_t(b)]);
      if (lv.liveIn[size_t(b)].unionWith(in)) {
        changed = true;
        for (int p : lv.preds[size_t(b)]) dirty[size_t(p)] = true;
      }
    }
  }
  uint64_t entries = 0;
  for (int b = 0; b < n; ++b)
    entries += lv.liveIn[size_t(b)].elements().size() + lv.liveOut[size_t(b)].elements().size();
  workCounters().liveSetEntries += entries;
  return lv;
}

}  // namespace simplec
