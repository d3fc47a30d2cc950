// Parallel-move sequentialization: repeatedly emit a move whose destination
// no pending move still reads; when none is left every pending move sits on a
// cycle, so one destination is saved in a scratch register and its readers
// read the scratch instead, which unblocks the cycle.
#include "codegen/parallel_move.h"

#include <limits>

#include "lexer/diag.h"

namespace simplec {

using namespace mir;

namespace {

bool isMemLike(const Opnd& o) {
  return o.kind == Opnd::Mem || o.kind == Opnd::Slot || o.kind == Opnd::InArg;
}

bool fitsImm32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
}

// Same storage location (registers, slots, incoming args, equal memory).
bool sameLoc(const Opnd& a, const Opnd& b) {
  if (a.kind == Opnd::Imm || b.kind == Opnd::Imm) return false;
  return a == b;
}

bool isScratch(int r) {
  return r == kScratch || r == kScratch2 || r == kXmmScratch || r == kXmmScratch2;
}

bool namesScratch(const Opnd& o) {
  if (o.kind == Opnd::PReg) return isScratch(o.reg);
  if (o.kind == Opnd::Mem)
    return (o.base >= 0 && !o.baseVirt && isScratch(o.base)) ||
           (o.index >= 0 && !o.indexVirt && isScratch(o.index));
  return false;
}

bool memUsesReg(const Opnd& m, int r) {
  return m.kind == Opnd::Mem && ((m.base == r && !m.baseVirt) || (m.index == r && !m.indexVirt));
}

MInst mov(const Opnd& d, const Opnd& s) { return MInst(MOp::Mov, {d, s}); }

[[noreturn]] void fail(const std::string& msg) {
  throw InternalError("regalloc", "parallel move: " + msg);
}

}  // namespace

void emitMove(const Opnd& dst, const Opnd& src, std::vector<MInst>* out) {
  if (sameLoc(dst, src)) return;
  bool viaScratch = false;
  if (isMemLike(dst)) {
    viaScratch = isMemLike(src) || (src.kind == Opnd::Imm && !fitsImm32(src.imm));
  } else if (dst.kind == Opnd::PReg && isXmm(dst.reg)) {
    viaScratch = src.kind == Opnd::Imm;  // there is no mov xmm, imm
  }
  if (viaScratch) {
    out->push_back(mov(Opnd::preg(kScratch2), src));
    out->push_back(mov(dst, Opnd::preg(kScratch2)));
  } else {
    out->push_back(mov(dst, src));
  }
}

std::vector<MInst> sequentializeMoves(const std::vector<MoveOp>& moves) {
  std::vector<MoveOp> pending;
  for (const MoveOp& m : moves) {
    if (m.dst.kind != Opnd::PReg && m.dst.kind != Opnd::Slot && m.dst.kind != Opnd::Mem)
      fail("bad destination");
    if (m.src.kind != Opnd::PReg && m.src.kind != Opnd::Slot && m.src.kind != Opnd::Mem &&
        m.src.kind != Opnd::InArg && m.src.kind != Opnd::Imm)
      fail("bad source");
    if (namesScratch(m.dst) || namesScratch(m.src)) fail("operand names a scratch register");
    if (!sameLoc(m.dst, m.src)) pending.push_back(m);
  }
  for (size_t i = 0; i < moves.size(); ++i)
    for (size_t j = i + 1; j < moves.size(); ++j)
      if (sameLoc(moves[i].dst, moves[j].dst)) fail("two moves write the same destination");
  for (const MoveOp& m : moves)
    for (const MoveOp& d : moves)
      if (d.dst.kind == Opnd::PReg &&
          (memUsesReg(m.src, d.dst.reg) || memUsesReg(m.dst, d.dst.reg)))
        fail("a memory operand's address register is also a destination");

  std::vector<MInst> out;
  // Does some pending move other than `except` read location `loc`?
  auto isRead = [&](const Opnd& loc, size_t except) {
    for (size_t i = 0; i < pending.size(); ++i)
      if (i != except && sameLoc(pending[i].src, loc)) return true;
    return false;
  };
  bool scratchBusy[2] = {false, false};  // kScratch, kXmmScratch hold a saved value
  while (!pending.empty()) {
    bool progress = false;
    for (size_t i = 0; i < pending.size();) {
      if (isRead(pending[i].dst, i)) {
        ++i;
        continue;
      }
      const MoveOp m = pending[i];
      pending.erase(pending.begin() + long(i));
      emitMove(m.dst, m.src, &out);
      progress = true;
      for (int k = 0; k < 2; ++k)
        if (scratchBusy[k] && !isRead(Opnd::preg(k == 0 ? kScratch : kXmmScratch), SIZE_MAX))
          scratchBusy[k] = false;
    }
    if (progress) continue;
    // Every pending destination is read by another pending move: the moves
    // form disjoint cycles. Save one destination, preferring a register (so
    // an xmm cycle is saved in an xmm scratch), and redirect its reader.
    size_t pick = 0;
    for (size_t i = 0; i < pending.size(); ++i)
      if (pending[i].dst.kind == Opnd::PReg) {
        pick = i;
        break;
      }
    Opnd d = pending[pick].dst;
    bool xmm = d.kind == Opnd::PReg && isXmm(d.reg);
    int k = xmm ? 1 : 0;
    if (scratchBusy[k]) fail("cycle scratch register still in use");
    Opnd scratch = Opnd::preg(xmm ? kXmmScratch : kScratch);
    out.push_back(mov(scratch, d));
    scratchBusy[k] = true;
    for (MoveOp& m : pending)
      if (sameLoc(m.src, d)) m.src = scratch;
  }
  return out;
}

}  // namespace simplec
