// Frame lowering (see frame.h): inserts the prologue at the entry, an
// epilogue before each Ret, and rewrites Slot/InArg operands to rbp-relative
// memory operands; a leaf that needs no frame gets none.
#include "codegen/frame.h"

#include "codegen/liveness.h"

namespace simplec {

using namespace mir;

namespace {

// Makes sure no edge enters block 0, so the prologue there runs only once.
void ensureEntryHasNoPredecessors(MFunction& f) {
  bool targeted = false;
  for (const std::vector<int>& s : blockSuccessors(f))
    for (int t : s) targeted |= t == 0;
  if (!targeted) return;
  std::vector<MBlock> entry(1);
  entry[0].succs.push_back(1);  // falls through into the old entry
  insertBlocksAtEntry(f, std::move(entry));
}

Opnd rbpMem(int64_t disp) { return Opnd::memP(RBP, disp); }

}  // namespace

bool needsNoFrame(const MFunction& f) {
  if (f.numSlots != 0 || f.outArgBytes != 0 || f.numIncomingStackArgs != 0 || !f.usedCalleeSaved.empty())
    return false;
  for (const MBlock& b : f.blocks)
    for (const MInst& mi : b.insts) {
      if (mi.op == MOp::Call || mi.op == MOp::Push || mi.op == MOp::Pop) return false;
      for (const Opnd& o : mi.ops)
        if (o.kind == Opnd::Slot || o.kind == Opnd::InArg) return false;
    }
  return true;
}

void lowerFrame(MFunction& f) {
  if (f.blocks.empty()) f.blocks.emplace_back();
  if (needsNoFrame(f)) {
    f.frameSize = 0;
    return;
  }
  ensureEntryHasNoPredecessors(f);
  int numSaved = int(f.usedCalleeSaved.size());
  int64_t outArgs = (int64_t(f.outArgBytes) + 7) / 8 * 8;
  if (outArgs < 0) outArgs = 0;
  int64_t size = 8 * int64_t(f.numSlots) + outArgs;
  // After `push rbp` rsp is 16-byte aligned; the pushes and the frame
  // together must keep it so.
  if ((8 * numSaved + size) % 16 != 0) size += 8;
  f.frameSize = int(size);

  for (MBlock& b : f.blocks) {
    bool hasRet = false;
    for (MInst& mi : b.insts) {
      for (Opnd& o : mi.ops) {
        if (o.kind == Opnd::Slot) o = rbpMem(slotOffset(numSaved, o.reg));
        else if (o.kind == Opnd::InArg) o = rbpMem(16 + 8 * int64_t(o.reg));
      }
      hasRet |= mi.op == MOp::Ret;
    }
    if (!hasRet) continue;  // most blocks: rewritten in place
    std::vector<MInst> out;
    out.reserve(b.insts.size() + 8);
    for (MInst& mi : b.insts) {
      if (mi.op == MOp::Ret) {
        if (size != 0) {
          if (numSaved == 0)
            out.push_back(MInst(MOp::Mov, {Opnd::preg(RSP), Opnd::preg(RBP)}));
          else
            out.push_back(MInst(MOp::Lea, {Opnd::preg(RSP), rbpMem(-8 * int64_t(numSaved))}));
        }
        for (int k = numSaved - 1; k >= 0; --k)
          out.push_back(MInst(MOp::Pop, {Opnd::preg(f.usedCalleeSaved[size_t(k)])}));
        out.push_back(MInst(MOp::Pop, {Opnd::preg(RBP)}));
      }
      out.push_back(std::move(mi));
    }
    b.insts = std::move(out);
  }

  std::vector<MInst> prologue;
  // Stack probe: touch the lowest byte this frame and the C runtime calls it
  // makes may reach, before anything is pushed. If the stack is exhausted,
  // the fault is at the function's first instruction, so the runtime can
  // name the function (the stack table, see emitter.cpp).
  int64_t reach = 8 + 8 * int64_t(numSaved) + size + kStackProbeReserve;
  prologue.push_back(MInst(MOp::Cmp, {Opnd::preg(RSP), Opnd::memP(RSP, -reach)}));
  prologue.push_back(MInst(MOp::Push, {Opnd::preg(RBP)}));
  prologue.push_back(MInst(MOp::Mov, {Opnd::preg(RBP), Opnd::preg(RSP)}));
  for (int r : f.usedCalleeSaved) prologue.push_back(MInst(MOp::Push, {Opnd::preg(r)}));
  if (size != 0) prologue.push_back(MInst(MOp::Sub, {Opnd::preg(RSP), Opnd::imm64(size)}));
  std::vector<MInst>& entry = f.blocks[0].insts;
  entry.insert(entry.begin(), prologue.begin(), prologue.end());
}

}  // namespace simplec
