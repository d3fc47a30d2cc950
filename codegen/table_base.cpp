// See table_base.h. Per table: two walks for its loop, one scan of the
// loop's instructions; liveness once, and again after each change.
#include "codegen/table_base.h"

#include <array>

#include "codegen/liveness.h"

namespace simplec {

namespace {

using mir::MBlock;
using mir::MFunction;
using mir::MInst;
using mir::MOp;
using mir::Opnd;
namespace J = mir::JumpTableOpnd;

// r10 first: the jump used it anyway. r11 is the jump's index.
constexpr std::array<int, 8> kCandidates = {mir::R10, mir::RAX, mir::RCX, mir::RDX,
                                            mir::RSI, mir::RDI, mir::R8,  mir::R9};

bool endsWithTable(const MBlock& b) { return !b.insts.empty() && b.insts.back().op == MOp::JmpTable; }

bool anyDebugFacts(const MFunction& f) {
  for (const MBlock& b : f.blocks) {
    if (mir::hasDebugFacts(b)) return true;
    for (const MInst& mi : b.insts)
      if (mi.dbgValue != 0) return true;
  }
  return false;
}

// Blocks reachable from `from` along `edges` without passing through a
// block in `avoid` (from itself only through a cycle).
std::vector<char> reachable(const std::vector<std::vector<int>>& edges, int from, const std::vector<char>& avoid) {
  std::vector<char> seen(edges.size(), 0);
  std::vector<int> work(edges[size_t(from)].begin(), edges[size_t(from)].end());
  while (!work.empty()) {
    int b = work.back();
    work.pop_back();
    if (seen[size_t(b)] || avoid[size_t(b)]) continue;
    seen[size_t(b)] = 1;
    for (int s : edges[size_t(b)])
      if (!seen[size_t(s)]) work.push_back(s);
  }
  return seen;
}

// Where a TableAddr goes in block b: before the jumps that end it (a lea
// leaves the flags of a compare before them alone).
size_t insertionPoint(const MBlock& b) {
  size_t i = b.insts.size();
  while (i > 0 && (b.insts[i - 1].op == MOp::Jcc || b.insts[i - 1].op == MOp::Jmp)) i--;
  return i;
}

// Gives the table ending block t a base register; returns false if none
// can be found. `calls` marks the blocks that make a call (they destroy
// every caller-saved register): the loop is the largest one around t
// without them.
bool hoistOne(MFunction& f, const Liveness& lv, const std::vector<char>& calls, int t) {
  if (calls[size_t(t)]) return false;
  std::vector<char> inLoop = reachable(lv.succs, t, calls);
  if (!inLoop[size_t(t)]) return false;  // not in a loop
  std::vector<char> reaching = reachable(lv.preds, t, calls);
  for (size_t b = 0; b < inLoop.size(); b++) inLoop[b] &= reaching[b];
  if (inLoop[0]) return false;  // entered at the function's start: no edge to put it on

  // Registers the loop touches. The jump's own clobber of r10 goes away.
  std::array<bool, 32> touched{};
  auto mark = [&](int r) {
    if (r >= 0 && r < 32) touched[size_t(r)] = true;
  };
  for (size_t b = 0; b < inLoop.size(); b++) {
    if (!inLoop[b]) continue;
    const std::vector<MInst>& insts = f.blocks[b].insts;
    for (size_t i = 0; i < insts.size(); i++) {
      bool self = int(b) == t && i + 1 == insts.size();
      mir::forEachDefUse(
          insts[i], [&](const Opnd& o) { if (o.kind == Opnd::PReg) mark(o.reg); },
          [&](const Opnd& o) { if (o.kind == Opnd::PReg) mark(o.reg); },
          [&](int r) { if (!self || r != mir::kScratch2) mark(r); });
    }
  }

  // The edges into the loop, by the blocks they leave.
  std::vector<int> entries;
  for (size_t b = 0; b < inLoop.size(); b++) {
    if (!inLoop[b]) continue;
    for (int p : lv.preds[b])
      if (!inLoop[size_t(p)]) entries.push_back(p);
  }
  if (entries.empty()) return false;

  for (int r : kCandidates) {
    if (touched[size_t(r)]) continue;
    int at = Liveness::pregIndex(lv.numVRegs, r);
    bool free = true;
    for (size_t b = 0; b < inLoop.size() && free; b++)
      if (inLoop[b] && lv.liveIn[b].test(at)) free = false;
    for (int p : entries)
      if (lv.liveOut[size_t(p)].test(at) || endsWithTable(f.blocks[size_t(p)])) free = false;
    if (!free) continue;

    MInst& jump = f.blocks[size_t(t)].insts.back();
    jump.ops[J::kBase] = Opnd::preg(r);
    for (int p : entries) {
      MBlock& blk = f.blocks[size_t(p)];
      // A block with several edges into the loop gets one.
      size_t i = insertionPoint(blk);
      if (i > 0 && blk.insts[i - 1].op == MOp::TableAddr && blk.insts[i - 1].ops[0] == Opnd::preg(r)) continue;
      blk.insts.insert(blk.insts.begin() + ptrdiff_t(i), MInst(MOp::TableAddr, {Opnd::preg(r), jump.ops[J::kTable]}));
    }
    return true;
  }
  return false;
}

}  // namespace

int hoistTableBases(MFunction& f) {
  std::vector<int> tables;
  for (size_t b = 0; b < f.blocks.size() && tables.size() < size_t(kMaxTableBaseTries); b++)
    if (endsWithTable(f.blocks[b]) && f.blocks[b].insts.back().ops.size() > J::kFirstCase &&
        f.blocks[b].insts.back().ops[J::kBase].kind == Opnd::None)
      tables.push_back(int(b));
  if (tables.empty() || anyDebugFacts(f)) return 0;
  std::vector<char> calls(f.blocks.size(), 0);
  for (size_t b = 0; b < f.blocks.size(); b++)
    for (const MInst& mi : f.blocks[b].insts) calls[b] |= mi.op == MOp::Call;
  int made = 0;
  Liveness lv = computeLiveness(f);
  for (size_t k = 0; k < tables.size(); k++) {
    if (!hoistOne(f, lv, calls, tables[k])) continue;
    made++;
    if (k + 1 < tables.size()) lv = computeLiveness(f);
  }
  return made;
}

}  // namespace simplec
