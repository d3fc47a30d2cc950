// Duplication of small branch blocks (see branch_duplication.h).
#include "codegen/branch_duplication.h"

namespace simplec {

namespace {

using mir::MInst;
using mir::MOp;
using mir::Opnd;

bool isBlockJump(const MInst& mi, MOp op) {
  return mi.op == op && mi.ops.size() == 1 && mi.ops[0].kind == Opnd::Block;
}

// Is block `h` a compare (or test) and a conditional jump, then either a
// jump or a fall-through into the next block? Its copy, followed by a jump
// to where it falls through, means the same anywhere.
bool isBranchBlock(const mir::MFunction& f, int h) {
  const std::vector<MInst>& insts = f.blocks[size_t(h)].insts;
  if (insts.size() < 2 || insts.size() > kMaxDuplicatedBranchBlock) return false;
  if (insts[0].op != MOp::Cmp && insts[0].op != MOp::Test) return false;
  if (!isBlockJump(insts[1], MOp::Jcc)) return false;
  if (insts.size() == 3) return isBlockJump(insts[2], MOp::Jmp);
  return size_t(h) + 1 < f.blocks.size();  // falls through into h + 1
}

}  // namespace

int duplicateBranchBlocks(mir::MFunction& f) {
  int replaced = 0;
  for (size_t b = 0; b < f.blocks.size(); b++) {
    mir::MBlock& blk = f.blocks[b];
    if (blk.insts.empty() || !isBlockJump(blk.insts.back(), MOp::Jmp)) continue;
    int h = blk.insts.back().ops[0].reg;
    // A jump to the next block is free (the emitter drops it): keep it.
    if (h < 0 || size_t(h) >= f.blocks.size() || size_t(h) == b || size_t(h) == b + 1 || !isBranchBlock(f, h))
      continue;
    const mir::MBlock& head = f.blocks[size_t(h)];
    std::vector<MInst> copy = head.insts;
    if (copy.size() == 2) copy.push_back(MInst(MOp::Jmp, {Opnd::block(h + 1)}));
    blk.insts.pop_back();
    // -g: the copy runs where the head would have started, so the head's
    // entry facts (its Phis' places, its variables' merges) hold there.
    if (blk.dbgTailAt < 0 && (!head.dbgEntry.empty() || !head.dbgAssigns.empty())) {
      blk.dbgTailAt = int(blk.insts.size());
      blk.dbgTailEntry = head.dbgEntry;
      blk.dbgTailAssigns = head.dbgAssigns;
    }
    blk.insts.insert(blk.insts.end(), copy.begin(), copy.end());
    blk.succs = {copy[1].ops[0].reg, copy[2].ops[0].reg};
    replaced++;
  }
  return replaced;
}

}  // namespace simplec
