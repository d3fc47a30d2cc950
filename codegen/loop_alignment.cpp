// See loop_alignment.h. One pass over the jumps, then one over the blocks.
#include "codegen/loop_alignment.h"

#include <algorithm>

namespace simplec {

using namespace mir;

namespace {

constexpr size_t kMaxBlocksBack = 2 * size_t(kSmallNestInsts);

// Does the loop of blocks [h, end) leave only from its last block (or to a
// cold runtime-error stub)? A loop with an early exit, such as a search,
// often runs once or twice per entry, and then the padding in front of it
// costs more than the alignment saves.
bool exitsOnlyAtEnd(const MFunction& f, size_t h, size_t end) {
  for (size_t b = h; b + 1 < end; b++)
    for (const MInst& mi : f.blocks[b].insts) {
      bool leaves = false;
      forEachJumpTarget(mi, [&](int target) {
        auto t = size_t(target);
        leaves |= (t < h || t >= end) && !(t < f.blocks.size() && f.blocks[t].cold);
      });
      if (leaves) return false;
    }
  return true;
}

}  // namespace

std::vector<char> alignedLoopHeads(const MFunction& f) {
  size_t n = f.blocks.size();
  // lastBack[h]: the last block jumping back to h (-1: none).
  std::vector<int> lastBack(n, -1);
  for (size_t b = 0; b < n; b++)
    for (const MInst& mi : f.blocks[b].insts)
      forEachJumpTarget(mi, [&](int t) {
        if (t >= 0 && size_t(t) <= b) lastBack[size_t(t)] = std::max(lastBack[size_t(t)], int(b));
      });
  // Instructions before block b, to size a range of blocks.
  std::vector<size_t> before(n + 1, 0);
  for (size_t b = 0; b < n; b++) before[b + 1] = before[b] + f.blocks[b].insts.size();
  auto size = [&](size_t h) { return before[size_t(lastBack[h]) + 1] - before[h]; };
  // Calls: the loop's time is theirs (and a recursive function's loop is
  // entered on every call).
  std::vector<size_t> callsBefore(n + 1, 0);
  for (size_t b = 0; b < n; b++) {
    size_t calls = 0;
    for (const MInst& mi : f.blocks[b].insts) calls += mi.op == MOp::Call && !mi.noReturn;
    callsBefore[b + 1] = callsBefore[b] + calls;
  }
  std::vector<char> heads(n, 0);
  for (size_t h = 0; h < n; h++) {
    if (lastBack[h] < 0 || size(h) > size_t(kSmallNestInsts)) continue;
    size_t end = size_t(lastBack[h]) + 1;
    if (callsBefore[end] != callsBefore[h]) continue;
    bool inner = true;
    for (size_t b = h + 1; b < end && inner; b++) inner = lastBack[b] < 0;
    // Inside another small nest (one that starts before h and jumps back
    // after it)? Only a head at most kSmallNestInsts instructions back (and
    // a few blocks: some may be empty) can start one, so the search stays
    // bounded whatever the size of the function.
    bool outermost = true;
    for (size_t o = h, seen = 0; o-- > 0 && outermost && seen < kMaxBlocksBack; seen++) {
      if (before[h] - before[o] > size_t(kSmallNestInsts)) break;
      outermost = !(lastBack[o] >= 0 && size_t(lastBack[o]) + 1 >= end && size(o) <= size_t(kSmallNestInsts));
    }
    heads[h] = outermost || (inner && size(h) <= size_t(kSmallLoopInsts) && exitsOnlyAtEnd(f, h, end));
  }
  // Dispatch loops: back from a jump table through the blocks that fall
  // through into it, to a loop's head.
  for (size_t t = 0; t < n; t++) {
    const std::vector<MInst>& insts = f.blocks[t].insts;
    if (insts.empty() || insts.back().op != MOp::JmpTable) continue;
    size_t h = t;
    int count = int(insts.size()) - 1 + kJumpTableInsts;
    while (lastBack[h] < 0 && h > 0 && count <= kDispatchInsts) {
      const std::vector<MInst>& prev = f.blocks[h - 1].insts;
      // (A jump to the next block is no instruction: the emitter drops it.)
      bool jumpsHere = !prev.empty() && prev.back().op == MOp::Jmp && prev.back().ops.size() == 1 &&
                       prev.back().ops[0].kind == Opnd::Block && size_t(prev.back().ops[0].reg) == h;
      if (!prev.empty() && endsControl(prev.back()) && !jumpsHere) break;
      count += int(prev.size()) - (jumpsHere ? 1 : 0);
      h--;
    }
    if (lastBack[h] >= 0 && count <= kDispatchInsts) heads[h] = 1;
  }
  return heads;
}

}  // namespace simplec
