// Rewrites allocated MIR (see spill_rewrite.h). Each instruction is handled
// on its own: its spilled vregs get a memory operand in place or a scratch
// register, with loads before and stores after the instruction. x86 reads
// every source before writing the destination, so a vreg that is only
// written may share r11 with a value read by the same instruction.
#include "codegen/spill_rewrite.h"

#include <limits>
#include <string>

#include "codegen/parallel_move.h"
#include "lexer/diag.h"

namespace simplec {

using namespace mir;

namespace {

[[noreturn]] void fail(const std::string& msg) { throw InternalError("regalloc", msg); }

bool isMemLike(const Opnd& o) {
  return o.kind == Opnd::Mem || o.kind == Opnd::Slot || o.kind == Opnd::InArg;
}

bool fitsImm32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
}

// One spilled vreg occurring in the instruction being rewritten. An
// instruction other than a ParMove names at most three (`mov [a + b*8], c`).
struct SpillRef {
  int v = -1;
  bool read = false, write = false, inMem = false;
  int regOccurrences = 0;  // as a whole register operand
  Opnd repl;               // scratch PReg or Slot, once decided
};

using SpillRefs = SmallVec<SpillRef, 4>;

class Rewriter {
 public:
  Rewriter(const MFunction& f, const RegAssignment& a) : f_(f), a_(a) {}

  // Appends the rewritten form of `in` to `out`.
  void rewrite(const MInst& in, std::vector<MInst>* out);
  // -g: (register, debug value) facts for the start of the block being
  // rewritten (see append).
  std::vector<std::pair<int, int>> entryFacts;

 private:
  void checkVReg(int v) const {
    if (v < 0 || v >= int(f_.vregs.size()) || size_t(v) >= a_.reg.size() ||
        size_t(v) >= a_.slot.size())
      fail("virtual register v" + std::to_string(v) + " out of range");
    if (a_.reg[size_t(v)] < 0 && a_.slot[size_t(v)] < 0)
      fail("virtual register v" + std::to_string(v) + " has no location");
  }
  bool spilled(int v) const {
    checkVReg(v);
    return a_.reg[size_t(v)] < 0;
  }
  bool xmmClass(int v) const { return inXmm(f_.vregs[size_t(v)]); }
  bool vecClass(int v) const { return f_.vregs[size_t(v)] == RegClass::Vec; }
  Opnd slotOf(int v) const { return Opnd::slot(a_.slot[size_t(v)]); }
  // The replacement of vreg v: its register, or the decision in `refs`.
  Opnd replacement(int v, const SpillRefs& refs) const;
  void rewriteParMove(const MInst& in, std::vector<MInst>* out);
  // Substitutes every vreg of `mi` (its register, or its decision in `refs`).
  void substitute(MInst& mi, const SpillRefs& refs) const;
  // Appends `mi` unless it is a register copy to itself.
  void append(MInst&& mi, std::vector<MInst>* out);

  const MFunction& f_;
  const RegAssignment& a_;
  // Per-instruction scratch, kept to reuse its storage.
  std::vector<MInst> pre_, post_;
  std::vector<MoveOp> moves_;
};

Opnd Rewriter::replacement(int v, const SpillRefs& refs) const {
  if (!spilled(v)) return Opnd::preg(a_.reg[size_t(v)]);
  for (const SpillRef& r : refs)
    if (r.v == v) return r.repl;
  fail("spilled register without replacement");
}

void Rewriter::rewriteParMove(const MInst& in, std::vector<MInst>* out) {
  if (in.ops.size() % 2 != 0) fail("parmove with an odd number of operands");
  std::vector<MoveOp>& moves = moves_;
  moves.clear();
  auto lower = [&](const Opnd& o) {
    // Vectors never meet at a Phi (opt/vectorize.h), so no move of 16
    // bytes is sequentialized here.
    if (o.kind == Opnd::VReg && vecClass(o.reg)) fail("a vector in a parallel move");
    if (o.kind == Opnd::VReg) {
      return spilled(o.reg) ? slotOf(o.reg) : Opnd::preg(a_.reg[size_t(o.reg)]);
    }
    Opnd r = o;
    if (o.kind == Opnd::Mem) {
      for (int* field : {&r.base, &r.index}) {
        bool virt = field == &r.base ? r.baseVirt : r.indexVirt;
        if (*field < 0 || !virt) continue;
        if (spilled(*field)) fail("parmove memory operand with a spilled address register");
        *field = a_.reg[size_t(*field)];
      }
      r.baseVirt = r.indexVirt = false;
    }
    return r;
  };
  for (size_t i = 0; i < in.ops.size(); i += 2)
    moves.push_back({lower(in.ops[i]), lower(in.ops[i + 1])});
  for (MInst& mi : sequentializeMoves(moves)) out->push_back(std::move(mi));
}

void Rewriter::rewrite(const MInst& in, std::vector<MInst>* out) {
  if (in.op == MOp::ParMove) {
    rewriteParMove(in, out);
    return;
  }
  // A spilled copy's move to or from its parent (spill_split.h) shares
  // the parent's slot: a move of the slot to itself.
  if (in.op == MOp::Mov && in.size == 8 && in.ops.size() == 2 && in.ops[0].kind == Opnd::VReg &&
      in.ops[1].kind == Opnd::VReg && spilled(in.ops[0].reg) && spilled(in.ops[1].reg) &&
      a_.slot[size_t(in.ops[0].reg)] == a_.slot[size_t(in.ops[1].reg)] && in.dbgValue == 0)
    return;
  // 1. Find the spilled vregs and how the instruction uses them.
  SpillRefs refs;
  auto refOf = [&](int v) -> SpillRef& {
    for (SpillRef& r : refs)
      if (r.v == v) return r;
    SpillRef r;
    r.v = v;
    refs.push_back(r);
    return refs.back();
  };
  int memOperands = 0;
  for (size_t i = 0; i < in.ops.size(); ++i) {
    const Opnd& o = in.ops[i];
    if (isMemLike(o)) ++memOperands;
    if (o.kind == Opnd::VReg && spilled(o.reg)) {
      OpndRole role = operandRole(in, i);
      SpillRef& r = refOf(o.reg);
      r.read |= role != OpndRole::Def;
      r.write |= role != OpndRole::Use;
      r.regOccurrences++;
    } else if (o.kind == Opnd::Mem) {
      if (o.base >= 0 && o.baseVirt && spilled(o.base)) {
        SpillRef& r = refOf(o.base);
        r.read = r.inMem = true;
      }
      if (o.index >= 0 && o.indexVirt && spilled(o.index)) {
        SpillRef& r = refOf(o.index);
        r.read = r.inMem = true;
      }
    }
  }

  MInst mi = in;
  if (refs.empty()) {  // the common case: registers only
    substitute(mi, refs);
    append(std::move(mi), out);
    return;
  }
  std::vector<MInst>& pre = pre_;
  std::vector<MInst>& post = post_;
  pre.clear();
  post.clear();
  // 2. A spilled operand used in place as a memory operand.
  int direct = -1;
  if (!refs.empty() && memOperands == 0 && mi.ops.size() == 2) {
    auto canUse = [&](size_t p) {
      const Opnd& o = mi.ops[p];
      // A vector's 16 bytes are moved by their own reloads and spills.
      if (o.kind != Opnd::VReg || !spilled(o.reg) || vecClass(o.reg)) return false;
      const SpillRef& r = refOf(o.reg);
      return r.regOccurrences == 1 && !r.inMem;
    };
    const Opnd& o0 = mi.ops[0];
    const Opnd& o1 = mi.ops[1];
    switch (mi.op) {
      case MOp::Mov:
        if (mi.size != 8) break;
        if (canUse(1) && o0.isReg()) direct = o1.reg;
        else if (canUse(0) && (o1.isReg() || (o1.kind == Opnd::Imm && fitsImm32(o1.imm))))
          direct = o0.reg;
        break;
      case MOp::Add: case MOp::Sub: case MOp::And: case MOp::Or: case MOp::Xor: case MOp::Imul:
      case MOp::Cmp:
        if (mi.size == 8 && canUse(1) && o0.isReg()) direct = o1.reg;
        break;
      case MOp::MovZX: case MOp::MovSX:
        if (canUse(1) && o0.isReg()) direct = o1.reg;
        break;
      default:
        break;
    }
    if (direct >= 0) refOf(direct).repl = slotOf(direct);
  }

  // 3. Scratch registers for the others: distinct ones for values read,
  // and r11 (xmm15) for a value that is only written.
  SmallVec<SpillRef*, 4> gprReads, xmmReads;
  for (SpillRef& r : refs) {
    if (r.v == direct || !r.read) continue;
    (xmmClass(r.v) && !r.inMem ? xmmReads : gprReads).push_back(&r);
  }
  if (xmmReads.size() > 2) fail("too many spilled xmm operands in one instruction");
  int gprPool[2] = {kScratch, kScratch2};
  size_t nextGpr = 0;
  if (gprReads.size() > 2) {
    // Three spilled values read (e.g. `mov [a + b*8], c`): compute the
    // address of the memory operand whose base and index are both spilled
    // into r11 first, which frees r10 for the third.
    int m = -1;
    for (size_t i = 0; i < mi.ops.size(); ++i) {
      const Opnd& o = mi.ops[i];
      if (o.kind == Opnd::Mem && o.base >= 0 && o.baseVirt && o.index >= 0 && o.indexVirt &&
          o.base != o.index && spilled(o.base) && spilled(o.index))
        m = int(i);
    }
    if (m < 0 || gprReads.size() > 3) fail("too many spilled operands in one instruction");
    Opnd& mem = mi.ops[size_t(m)];
    pre.push_back(MInst(MOp::Mov, {Opnd::preg(kScratch), slotOf(mem.base)}));
    pre.push_back(MInst(MOp::Mov, {Opnd::preg(kScratch2), slotOf(mem.index)}));
    Opnd addr = Opnd::memP(kScratch, mem.imm);
    addr.index = kScratch2;
    addr.scale = mem.scale;
    pre.push_back(MInst(MOp::Lea, {Opnd::preg(kScratch), addr}));
    int folded[2] = {mem.base, mem.index};
    mem = Opnd::memP(kScratch, 0);
    for (int v : folded) {
      SpillRef& r = refOf(v);
      if (r.regOccurrences != 0 || r.write) fail("spilled address register also used elsewhere");
      r.read = false;  // no separate load
    }
    SmallVec<SpillRef*, 4> rest;
    for (SpillRef* r : gprReads)
      if (r->v != folded[0] && r->v != folded[1]) rest.push_back(r);
    gprReads = rest;
    nextGpr = 1;
  }
  for (SpillRef* r : gprReads) r->repl = Opnd::preg(gprPool[nextGpr++]);
  for (size_t k = 0; k < xmmReads.size(); ++k)
    xmmReads[k]->repl = Opnd::preg(k == 0 ? kXmmScratch : kXmmScratch2);
  for (SpillRef& r : refs) {
    if (r.v == direct) continue;
    uint8_t size = vecClass(r.v) ? 16 : 8;
    if (r.read) {
      pre.push_back(MInst(MOp::Mov, {r.repl, slotOf(r.v)}));
      pre.back().size = size;
    } else if (r.write) {
      r.repl = Opnd::preg(xmmClass(r.v) ? kXmmScratch : kScratch);
    }
    if (r.write) {
      post.push_back(MInst(MOp::Mov, {slotOf(r.v), r.repl}));
      post.back().size = size;
    }
  }

  // 4. Substitute every vreg.
  substitute(mi, refs);
  for (MInst& p : pre) out->push_back(std::move(p));
  append(std::move(mi), out);
  for (MInst& p : post) out->push_back(std::move(p));
}

void Rewriter::substitute(MInst& mi, const SpillRefs& refs) const {
  for (Opnd& o : mi.ops) {
    if (o.kind == Opnd::VReg) {
      o = replacement(o.reg, refs);
    } else if (o.kind == Opnd::Mem) {
      if (o.base >= 0 && o.baseVirt) {
        Opnd r = replacement(o.base, refs);
        if (r.kind != Opnd::PReg) fail("memory operand base is not a register");
        o.base = r.reg;
        o.baseVirt = false;
      }
      if (o.index >= 0 && o.indexVirt) {
        Opnd r = replacement(o.index, refs);
        if (r.kind != Opnd::PReg) fail("memory operand index is not a register");
        o.index = r.reg;
        o.indexVirt = false;
      }
    }
  }
}

void Rewriter::append(MInst&& mi, std::vector<MInst>* out) {
  bool identity = mi.op == MOp::Mov && mi.size == 8 && mi.ops.size() == 2 &&
                  mi.ops[0].kind == Opnd::PReg && mi.ops[0] == mi.ops[1];
  if (!identity) {
    out->push_back(std::move(mi));
    return;
  }
  // -g: the dropped move would have put a value in its register; after the
  // instruction before it (or at the block's start) the register holds it.
  if (mi.dbgValue == 0) return;
  if (out->empty())
    entryFacts.push_back({mi.ops[0].reg, int(mi.dbgValue) - 1});
  else if (out->back().dbgValue == 0) {
    out->back().dbgValue = mi.dbgValue;
    out->back().dbgReg = int8_t(mi.ops[0].reg);
  }
}

// Drops a reload `mov r, [slot]` when r still holds the slot's value (it
// was loaded from or stored to the slot earlier in the block, and neither
// changed since), and likewise a store of that value back; a reload from a
// slot whose value another register holds becomes a register copy. Only spill
// slots are tracked: nothing else can write them, as their address is
// never taken, while a local slot may be written through a pointer.
void dropRedundantSpillMoves(MBlock& b, const std::vector<bool>& isSpillSlot) {
  auto spillSlot = [&](const Opnd& o) {
    return o.kind == Opnd::Slot && o.reg >= 0 && size_t(o.reg) < isSpillSlot.size() &&
           isSpillSlot[size_t(o.reg)];
  };
  int holds[32];  // slot whose value each register holds, or -1
  for (int& h : holds) h = -1;
  // Compacts the block in place: insts[0, kept) are the ones to keep.
  std::vector<MInst>& insts = b.insts;
  size_t kept = 0;
  auto keep = [&](MInst& mi) {
    if (&insts[kept] != &mi) insts[kept] = std::move(mi);
    ++kept;
  };
  for (MInst& mi : insts) {
    bool plainMov = mi.op == MOp::Mov && mi.size == 8 && mi.ops.size() == 2;
    if (plainMov && mi.ops[0].kind == Opnd::PReg && spillSlot(mi.ops[1])) {
      int r = mi.ops[0].reg, s = mi.ops[1].reg;
      if (holds[r] == s) continue;  // reload of the value r still holds
      // Another register of the same class holding the value: copy it.
      for (int q = 0; q < 32; ++q)
        if (holds[q] == s && isXmm(q) == isXmm(r)) {
          mi.ops[1] = Opnd::preg(q);
          break;
        }
      holds[r] = s;
      keep(mi);
      continue;
    }
    if (plainMov && spillSlot(mi.ops[0]) && mi.ops[1].kind == Opnd::PReg) {
      int r = mi.ops[1].reg, s = mi.ops[0].reg;
      if (holds[r] == s) continue;  // the slot already holds this value
      for (int& h : holds)
        if (h == s) h = -1;
      holds[r] = s;
      keep(mi);
      continue;
    }
    forEachDefUse(
        mi, [](const Opnd&) {},
        [&](const Opnd& d) {
          if (d.kind == Opnd::PReg) holds[d.reg] = -1;
        },
        [&](int r) { holds[r] = -1; });
    for (size_t i = 0; i < mi.ops.size(); ++i)
      if (spillSlot(mi.ops[i]) && operandRole(mi, i) != OpndRole::Use)
        for (int& h : holds)
          if (h == mi.ops[i].reg) h = -1;
    keep(mi);
  }
  insts.erase(insts.begin() + long(kept), insts.end());
}

}  // namespace

void rewriteAllocated(MFunction& f, const RegAssignment& a) {
  Rewriter rw(f, a);
  std::vector<bool> isSpillSlot;
  for (int s : a.slot) {
    if (s < 0) continue;
    if (size_t(s) >= isSpillSlot.size()) isSpillSlot.resize(size_t(s) + 1, false);
    isSpillSlot[size_t(s)] = true;
  }
  std::vector<MInst> out;  // a block's rewritten form; its storage is reused
  for (MBlock& b : f.blocks) {
    out.clear();
    out.reserve(b.insts.size());
    for (const MInst& mi : b.insts) rw.rewrite(mi, &out);
    std::swap(b.insts, out);
    if (!rw.entryFacts.empty()) {
      b.dbgEntry.insert(b.dbgEntry.end(), rw.entryFacts.begin(), rw.entryFacts.end());
      rw.entryFacts.clear();
    }
    dropRedundantSpillMoves(b, isSpillSlot);
  }
}

}  // namespace simplec
