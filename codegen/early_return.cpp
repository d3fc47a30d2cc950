// Shrink-wrapping of an early return (see early_return.h): find the path,
// drop what the copy does not need (backwards), then copy it with the
// registers it must not write renamed (forwards).
#include "codegen/early_return.h"

#include <array>
#include <cstdint>

namespace simplec {

using namespace mir;

namespace {

// The copy stays small: it runs again as the original on the long path.
constexpr size_t kMaxInsts = 16;
constexpr int kMaxBlocks = 6;
constexpr int kNumRegs = 32;
constexpr uint64_t kFlags = uint64_t(1) << kNumRegs;  // the flags, as one more register

uint64_t bit(int r) { return uint64_t(1) << r; }

bool isCalleeSaved(int r) {
  for (int c : kCalleeSaved)
    if (c == r) return true;
  return false;
}

// Registers that may carry an argument in: the original code reads them
// again after the copy's test.
bool isArgReg(int r) {
  for (int a : kIntArgRegs)
    if (a == r) return true;
  return r >= XMM0 && r < XMM0 + 8;
}

// x86 instructions that set the flags; shifts by a count of 0 leave them,
// so they may, but do not surely, replace them.
bool setsFlags(MOp op) {
  switch (op) {
    case MOp::Add: case MOp::Sub: case MOp::And: case MOp::Or: case MOp::Xor: case MOp::Imul:
    case MOp::Neg: case MOp::Cmp: case MOp::Test: case MOp::Ucomisd:
      return true;
    default:
      return false;
  }
}
bool isShift(MOp op) { return op == MOp::Shl || op == MOp::Sar || op == MOp::Shr; }
bool readsFlags(MOp op) { return op == MOp::Jcc || op == MOp::Setcc || op == MOp::Cmov; }

// `xor r, r`: a zero, which reads nothing.
bool isZeroIdiom(const MInst& mi) {
  return mi.op == MOp::Xor && mi.ops.size() == 2 && mi.ops[0].kind == Opnd::PReg && mi.ops[0] == mi.ops[1];
}

// A register-to-register copy within one class (moves between classes convert).
bool isCopy(const MInst& mi) {
  return mi.op == MOp::Mov && mi.ops.size() == 2 && mi.ops[0].kind == Opnd::PReg &&
         mi.ops[1].kind == Opnd::PReg && isXmm(mi.ops[0].reg) == isXmm(mi.ops[1].reg);
}

bool isFrameReg(int r) { return r == RSP || r == RBP; }

// Can the instruction run before the prologue? Register work and loads
// only: no call, no store, no frame, nothing that traps.
bool copyable(const MInst& mi) {
  switch (mi.op) {
    case MOp::Mov: case MOp::MovZX: case MOp::MovSX: case MOp::Lea:
    case MOp::Add: case MOp::Sub: case MOp::And: case MOp::Or: case MOp::Xor: case MOp::Imul:
    case MOp::Neg: case MOp::Not: case MOp::Shl: case MOp::Sar: case MOp::Shr:
    case MOp::Cmp: case MOp::Test: case MOp::Setcc: case MOp::Cmov:
    case MOp::FAdd: case MOp::FSub: case MOp::FMul: case MOp::FDiv: case MOp::FMin: case MOp::FMax:
    case MOp::FAnd: case MOp::FXor: case MOp::FSqrt: case MOp::Ucomisd:
    case MOp::CvtSI2SD: case MOp::CvtTSD2SI: case MOp::RoundF32: case MOp::CvtSD2SS: case MOp::CvtSS2SD:
      break;
    default:
      return false;
  }
  // A load of 1 or 2 bytes into a register keeps the register's other bytes.
  if (mi.op == MOp::Mov && mi.size < 4 && mi.ops.size() == 2 && mi.ops[1].kind == Opnd::Mem) return false;
  for (size_t i = 0; i < mi.ops.size(); i++) {
    const Opnd& o = mi.ops[i];
    switch (o.kind) {
      case Opnd::PReg:
        if (o.reg < 0 || o.reg >= kNumRegs || isFrameReg(o.reg)) return false;
        break;
      case Opnd::Imm:
        break;
      case Opnd::Mem:
        if (operandRole(mi, i) != OpndRole::Use || o.baseVirt || o.indexVirt) return false;
        if ((o.base >= 0 && (o.base >= kNumRegs || isFrameReg(o.base))) ||
            (o.index >= 0 && (o.index >= kNumRegs || isFrameReg(o.index))))
          return false;
        break;
      default:  // virtual registers, slots, stack arguments, blocks, symbols
        return false;
    }
  }
  return true;
}

// The epilogue frame.cpp puts before a Ret: restoring rsp, then pops.
bool isEpilogue(const MInst& mi) {
  if (mi.op == MOp::Pop) return true;
  return (mi.op == MOp::Mov || mi.op == MOp::Lea) && !mi.ops.empty() && mi.ops[0] == Opnd::preg(RSP);
}

// The number of instructions of frame.cpp's prologue at the start of
// block 0, or 0 when the function has none.
size_t prologueLength(const MFunction& f) {
  const std::vector<MInst>& in = f.blocks[0].insts;
  size_t n = 3 + f.usedCalleeSaved.size() + (f.frameSize != 0 ? 1 : 0);
  if (in.size() < n) return 0;
  if (in[0].op != MOp::Cmp || in[0].ops.empty() || !(in[0].ops[0] == Opnd::preg(RSP))) return 0;
  if (in[1].op != MOp::Push || !(in[1].ops[0] == Opnd::preg(RBP))) return 0;
  if (in[2].op != MOp::Mov || !(in[2].ops[0] == Opnd::preg(RBP))) return 0;
  for (size_t k = 0; k < f.usedCalleeSaved.size(); k++)
    if (in[3 + k].op != MOp::Push || !(in[3 + k].ops[0] == Opnd::preg(f.usedCalleeSaved[k]))) return 0;
  if (f.frameSize != 0 && (in[n - 1].op != MOp::Sub || !(in[n - 1].ops[0] == Opnd::preg(RSP)))) return 0;
  return n;
}

struct Path {
  std::vector<const MInst*> insts;  // the test's code, the branch, the return's code, the ret
  size_t branch = 0;                // index of the branch in insts
  Cond toReturn = Cond::E;          // the branch's condition for going to the return
};

// Appends the code of the arm from block b to a `ret`, epilogue left out.
bool returnArm(const MFunction& f, int b, Path* p) {
  for (int steps = 0; steps < kMaxBlocks; steps++) {
    if (b <= 0 || size_t(b) >= f.blocks.size()) return false;
    const MBlock& blk = f.blocks[size_t(b)];
    size_t n = blk.insts.size();
    for (size_t i = 0; i < n; i++) {
      const MInst& mi = blk.insts[i];
      if (mi.op == MOp::Ret) {
        if (i + 1 != n) return false;
        p->insts.push_back(&mi);
        return true;
      }
      if (mi.op == MOp::Jmp && i + 1 == n) break;
      if (isEpilogue(mi)) continue;
      if (!copyable(mi) || p->insts.size() >= 2 * kMaxInsts) return false;
      p->insts.push_back(&mi);
    }
    if (blk.succs.size() != 1) return false;
    b = blk.succs[0];
  }
  return false;
}

// The path from the entry (after `skip` prologue instructions) through its
// first conditional branch to a return.
bool findPath(const MFunction& f, size_t skip, Path* p) {
  int b = 0;
  size_t from = skip;
  std::vector<char> seen(f.blocks.size(), 0);
  for (int steps = 0; steps < kMaxBlocks; steps++) {
    if (seen[size_t(b)]) return false;
    seen[size_t(b)] = 1;
    const MBlock& blk = f.blocks[size_t(b)];
    size_t end = blk.insts.size();
    if (end > from && blk.insts[end - 1].op == MOp::Jmp) --end;
    const MInst* jcc = nullptr;
    if (end > from && blk.insts[end - 1].op == MOp::Jcc) jcc = &blk.insts[--end];
    for (size_t i = from; i < end; i++) {
      if (!copyable(blk.insts[i]) || p->insts.size() >= 2 * kMaxInsts) return false;
      p->insts.push_back(&blk.insts[i]);
    }
    if (!jcc) {
      if (blk.succs.size() != 1 || blk.succs[0] == 0) return false;
      b = blk.succs[0];
      from = 0;
      continue;
    }
    if (blk.succs.size() != 2 || jcc->ops.empty() || jcc->ops[0].kind != Opnd::Block) return false;
    int taken = jcc->ops[0].reg;
    int other = blk.succs[0] == taken ? blk.succs[1] : blk.succs[0];
    if (other == taken) return false;
    p->branch = p->insts.size();
    p->insts.push_back(jcc);
    size_t armStart = p->insts.size();
    for (int arm : {taken, other}) {
      p->insts.resize(armStart);
      if (returnArm(f, arm, p)) {
        p->toReturn = arm == taken ? jcc->cc : negate(jcc->cc);
        return true;
      }
    }
    return false;
  }
  return false;
}

// Which instructions of the path the copy needs: those whose results reach
// the branch or the ret (backwards liveness over straight-line code).
std::vector<char> neededInsts(const Path& p) {
  std::vector<char> keep(p.insts.size(), 0);
  uint64_t live = 0;
  for (size_t i = p.insts.size(); i-- > 0;) {
    const MInst& mi = *p.insts[i];
    if (mi.op == MOp::Ret) {
      for (int r : mi.argRegs) live |= bit(r);
      keep[i] = 1;
      continue;
    }
    if (i == p.branch) {
      live |= kFlags;
      keep[i] = 1;
      continue;
    }
    uint64_t defs = 0, uses = 0;
    forEachDefUse(
        mi, [&](const Opnd& o) { uses |= bit(o.reg); }, [&](const Opnd& o) { defs |= bit(o.reg); },
        [&](int r) { defs |= bit(r); });
    if (isZeroIdiom(mi)) uses = 0;
    bool flagsOut = setsFlags(mi.op) || isShift(mi.op);
    if (!(defs & live) && !(flagsOut && (live & kFlags))) continue;
    keep[i] = 1;
    live &= ~defs;
    if (setsFlags(mi.op)) live &= ~kFlags;
    live |= uses;
    if (readsFlags(mi.op)) live |= kFlags;
  }
  return keep;
}

// Copies the needed instructions with renamed registers: cur[r] is the
// register that holds, in the copy, what r holds in the original.
class Renamer {
 public:
  Renamer(const Path& p, const std::vector<char>& keep) {
    for (int r = 0; r < kNumRegs; r++) cur_[size_t(r)] = r;
    uint64_t used = bit(RSP) | bit(RBP);
    for (size_t i = 0; i < p.insts.size(); i++) {
      if (!keep[i]) continue;
      forEachDefUse(
          *p.insts[i], [&](const Opnd& o) { used |= bit(o.reg); }, [&](const Opnd& o) { used |= bit(o.reg); },
          [&](int r) { used |= bit(r); });
    }
    for (int r : kCallerSaved)
      if (!(used & bit(r))) free_ |= bit(r);
    for (int r = XMM0; r <= XMM15; r++)
      if (!(used & bit(r))) free_ |= bit(r);
  }

  // Appends the copy of mi to out; false if the registers do not suffice
  // or mi would read a register the caller owns.
  bool copy(const MInst& mi, bool beforeBranch, std::vector<MInst>* out) {
    if (isCopy(mi)) {  // the destination becomes a name for the source
      if (!readable(mi.ops[1].reg)) return false;
      cur_[size_t(mi.ops[0].reg)] = cur_[size_t(mi.ops[1].reg)];
      return true;
    }
    MInst c = mi;
    c.dbgValue = 0;
    c.dbgReg = -1;
    c.chain = -1;
    if (isZeroIdiom(mi)) {
      int t = target(mi.ops[0].reg, beforeBranch);
      if (t < 0) return false;
      c.ops[0].reg = c.ops[1].reg = t;
      out->push_back(c);
      cur_[size_t(mi.ops[0].reg)] = t;
      return true;
    }
    int defined = -1, definedIn = -1;  // the register mi writes, and where the copy writes it
    for (size_t i = 0; i < c.ops.size(); i++) {
      Opnd& o = c.ops[i];
      if (o.kind == Opnd::Mem) {
        if (o.base >= 0 && !mapUse(&o.base)) return false;
        if (o.index >= 0 && !mapUse(&o.index)) return false;
        continue;
      }
      if (o.kind != Opnd::PReg) continue;
      OpndRole role = operandRole(c, i);
      if (role == OpndRole::Use) {
        if (!mapUse(&o.reg)) return false;
        continue;
      }
      // The one register this instruction writes (operand 0).
      int r = o.reg;
      int t = target(r, beforeBranch);
      if (t < 0) return false;
      if (role == OpndRole::UseDef) {
        int src = cur_[size_t(r)];
        if (!readable(r)) return false;
        if (src != t) {
          MInst mv(MOp::Mov, {Opnd::preg(t), Opnd::preg(src)});
          mv.line = mi.line;
          mv.col = mi.col;
          mv.site = mi.site;
          out->push_back(mv);
        }
      }
      o.reg = t;
      defined = r;
      definedIn = t;
    }
    // x86 takes a shift count from cl only.
    if (isShift(c.op) && c.ops.size() == 2 && c.ops[1].kind == Opnd::PReg && c.ops[1].reg != RCX) return false;
    out->push_back(c);
    if (defined >= 0) cur_[size_t(defined)] = definedIn;  // after the reads: x86 reads first
    return true;
  }

  // Moves the result into the registers the ret returns it in.
  bool finish(const MInst& ret, std::vector<MInst>* out) {
    if (ret.argRegs.size() > 1) {
      for (int r : ret.argRegs)
        if (cur_[size_t(r)] != r) return false;
    }
    for (int r : ret.argRegs) {
      if (!readable(r)) return false;
      if (cur_[size_t(r)] != r) out->push_back(MInst(MOp::Mov, {Opnd::preg(r), Opnd::preg(cur_[size_t(r)])}));
    }
    out->push_back(ret);
    return true;
  }

 private:
  // A register the original reads: the caller's callee-saved registers
  // are not the function's to read before it writes them.
  bool readable(int r) const { return !(isCalleeSaved(r) && cur_[size_t(r)] == r); }

  bool mapUse(int32_t* reg) {
    if (*reg < 0 || *reg >= kNumRegs || !readable(*reg)) return false;
    *reg = cur_[size_t(*reg)];
    return true;
  }

  // Does a register other than r's copy still read t?
  bool namedByOther(int t, int r) const {
    for (int x = 0; x < kNumRegs; x++)
      if (x != r && cur_[size_t(x)] == t) return true;
    return false;
  }

  // Where the copy puts a new value of r.
  int target(int r, bool beforeBranch) {
    auto writable = [&](int t) { return !isCalleeSaved(t) && !(beforeBranch && isArgReg(t)) && !namedByOther(t, r); };
    if (writable(r)) return r;
    int c = cur_[size_t(r)];
    if (c != r && writable(c)) return c;  // the register that holds r already
    for (int t = 0; t < kNumRegs; t++) {
      if (!(free_ & bit(t)) || isXmm(t) != isXmm(r) || (beforeBranch && isArgReg(t))) continue;
      free_ &= ~bit(t);
      return t;
    }
    return -1;
  }

  std::array<int, kNumRegs> cur_{};
  uint64_t free_ = 0;  // caller-saved registers the path never names
};

}  // namespace

bool wrapEarlyReturn(MFunction& f) {
  if (f.blocks.empty() || f.probeBlock != 0) return false;
  size_t skip = prologueLength(f);
  if (skip == 0) return false;
  Path p;
  if (!findPath(f, skip, &p)) return false;
  std::vector<char> keep = neededInsts(p);
  size_t kept = 0;
  for (char k : keep) kept += k;
  if (kept > kMaxInsts + 2) return false;

  Renamer rn(p, keep);
  MBlock test, ret;
  for (size_t i = 0; i < p.branch; i++)
    if (keep[i] && !rn.copy(*p.insts[i], true, &test.insts)) return false;
  MInst jcc = *p.insts[p.branch];
  jcc.cc = negate(p.toReturn);
  jcc.ops[0] = Opnd::block(2);  // the prologue, once blocks move up by two
  test.insts.push_back(jcc);
  for (size_t i = p.branch + 1; i + 1 < p.insts.size(); i++)
    if (keep[i] && !rn.copy(*p.insts[i], false, &ret.insts)) return false;
  if (!rn.finish(*p.insts.back(), &ret.insts)) return false;
  test.succs = {1, 2};

  std::vector<MBlock> front(2);
  front[0] = std::move(test);
  front[1] = std::move(ret);
  insertBlocksAtEntry(f, std::move(front));
  f.probeBlock = 2;
  // The prologue's row in the line table: the function's own line, not the
  // copy's return laid out before it.
  MInst& probe = f.blocks[2].insts[0];
  if (f.file == kMainFile && f.line != 0 && probe.line == 0) {
    probe.line = f.line;
    probe.col = f.col;
  }
  return true;
}

}  // namespace simplec
