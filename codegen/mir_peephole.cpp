// Machine-code peepholes.
#include "codegen/mir_peephole.h"

#include <cstdint>
#include <vector>

namespace simplec {

namespace {

using mir::MInst;
using mir::MOp;
using mir::Opnd;

bool isGpr(const Opnd& o) { return o.kind == Opnd::PReg && o.reg >= 0 && o.reg < 16; }
bool isImm(const Opnd& o, int64_t v) { return o.kind == Opnd::Imm && o.imm == v; }

bool readsFlags(MOp op) { return op == MOp::Jcc || op == MOp::Setcc || op == MOp::Cmov; }
// Sets or destroys the flags without reading them. Shifts are not here: a
// shift by a count of 0 leaves the flags alone.
bool writesFlags(MOp op) {
  switch (op) {
    case MOp::Add: case MOp::Sub: case MOp::And: case MOp::Or: case MOp::Xor: case MOp::Imul:
    case MOp::Neg: case MOp::Cmp: case MOp::Test: case MOp::SDivRem: case MOp::SMulHi:
    case MOp::Call: case MOp::JmpTable:
      return true;
    default:
      return false;
  }
}

// Are the flags dead after instruction i of block b? Flags never live from
// one block into another here (a conditional jump follows its compare in the
// same block), but a block that falls through is treated as reading them.
bool flagsDeadAfter(const mir::MBlock& b, size_t i) {
  for (size_t k = i + 1; k < b.insts.size(); k++) {
    MOp op = b.insts[k].op;
    if (readsFlags(op)) return false;
    if (writesFlags(op) || op == MOp::Jmp || op == MOp::Ret) return true;
  }
  return false;
}

// `mov d, s; imul d, imm` (d and s different registers): x86 multiplies
// by an immediate from one register into another, so the copy goes.
bool fusesIntoImul(const mir::MBlock& b, size_t i) {
  if (i + 1 >= b.insts.size()) return false;
  const MInst& mov = b.insts[i];
  const MInst& mul = b.insts[i + 1];
  return mov.op == MOp::Mov && mov.size == 8 && mov.ops.size() == 2 && isGpr(mov.ops[0]) && isGpr(mov.ops[1]) &&
         mov.ops[0].reg != mov.ops[1].reg && mul.op == MOp::Imul && mul.ops.size() == 2 && mul.ops[0] == mov.ops[0] &&
         mul.ops[1].kind == Opnd::Imm && mul.ops[1].imm >= INT32_MIN && mul.ops[1].imm <= INT32_MAX;
}

// Where control really goes when it enters block `b`: through blocks that
// are empty (fall through) or hold one unconditional jump.
int finalTarget(const mir::MFunction& f, int b) {
  for (size_t steps = 0; steps < f.blocks.size(); steps++) {
    if (b < 0 || size_t(b) >= f.blocks.size()) return b;
    const mir::MBlock& blk = f.blocks[size_t(b)];
    if (blk.insts.empty()) {
      if (size_t(b) + 1 >= f.blocks.size() || blk.succs.size() != 1 || blk.succs[0] != b + 1) return b;
      b = b + 1;
    } else if (blk.insts.size() == 1 && blk.insts[0].op == MOp::Jmp && blk.insts[0].ops.size() == 1 &&
               blk.insts[0].ops[0].kind == Opnd::Block) {
      int next = blk.insts[0].ops[0].reg;
      if (next == b) return b;  // an endless loop of one jump
      b = next;
    } else {
      return b;
    }
  }
  return b;  // a cycle of jump-only blocks: leave it as it is
}

}  // namespace

int peepholeMachineCode(mir::MFunction& f) {
  int changed = 0;
  for (mir::MBlock& b : f.blocks)
    for (size_t i = 0; i < b.insts.size(); i++) {
      MInst& mi = b.insts[i];
      if (mi.op == MOp::Cmp && mi.ops.size() == 2 && isGpr(mi.ops[0]) && isImm(mi.ops[1], 0)) {
        mi = MInst(MOp::Test, {mi.ops[0], mi.ops[0]});
        changed++;
      } else if (mi.op == MOp::Mov && mi.ops.size() == 2 && isGpr(mi.ops[0]) && isImm(mi.ops[1], 0) &&
                 flagsDeadAfter(b, i)) {
        mi = MInst(MOp::Xor, {mi.ops[0], mi.ops[0]});
        changed++;
      }
    }
  for (mir::MBlock& b : f.blocks) {
    // In place: insts[0, kept) are the instructions kept so far.
    size_t kept = 0;
    for (size_t i = 0; i < b.insts.size(); i++) {
      if (fusesIntoImul(b, i)) {
        MInst& mov = b.insts[i];
        MInst& mul = b.insts[++i];
        mul.ops = {mul.ops[0], mov.ops[1], mul.ops[1]};
        if (mul.line == 0) {
          mul.line = mov.line;
          mul.col = mov.col;
          mul.site = mov.site;
        }
        // -g: a fact the move carried for another register still holds.
        if (mov.dbgValue && mov.dbgReg >= 0 && mov.dbgReg != mov.ops[0].reg && mul.dbgValue == 0) {
          mul.dbgValue = mov.dbgValue;
          mul.dbgReg = mov.dbgReg;
        }
        changed++;
      }
      if (kept != i) b.insts[kept] = std::move(b.insts[i]);
      kept++;
    }
    b.insts.erase(b.insts.begin() + ptrdiff_t(kept), b.insts.end());
  }
  for (mir::MBlock& b : f.blocks)
    for (MInst& mi : b.insts)
      mir::forEachJumpTarget(mi, [&](int& target) {
        int from = target;
        int to = finalTarget(f, from);
        if (to == from) return;
        target = to;
        for (int& s : b.succs)
          if (s == from) s = to;
        changed++;
      });
  // A jump table's cases may now share a block: succs lists each once.
  std::vector<char> listed;
  for (mir::MBlock& b : f.blocks)
    if (!b.insts.empty() && b.insts.back().op == MOp::JmpTable) {
      listed.resize(f.blocks.size(), 0);
      std::vector<int> unique;
      for (int s : b.succs)
        if (s >= 0 && size_t(s) < listed.size() && !listed[size_t(s)]) {
          listed[size_t(s)] = 1;
          unique.push_back(s);
        }
      for (int s : unique) listed[size_t(s)] = 0;
      b.succs = std::move(unique);
    }
  return changed;
}

namespace {

bool isBlockJump(const MInst& mi) {
  return (mi.op == MOp::Jmp || mi.op == MOp::Jcc) && mi.ops.size() == 1 && mi.ops[0].kind == Opnd::Block;
}

// Blocks reachable from the entry, by succs, by jump operands and by falling
// through (assumed after anything but a jump or a return: conservative).
std::vector<char> reachableBlocks(const mir::MFunction& f) {
  std::vector<char> seen(f.blocks.size(), 0);
  std::vector<int> work;
  auto reach = [&](int b) {
    if (b >= 0 && size_t(b) < f.blocks.size() && !seen[size_t(b)]) {
      seen[size_t(b)] = 1;
      work.push_back(b);
    }
  };
  reach(0);
  while (!work.empty()) {
    int b = work.back();
    work.pop_back();
    const mir::MBlock& blk = f.blocks[size_t(b)];
    for (int s : blk.succs) reach(s);
    for (const MInst& mi : blk.insts) mir::forEachJumpTarget(mi, reach);
    if (blk.insts.empty() || !mir::endsControl(blk.insts.back())) reach(b + 1);
  }
  return seen;
}

}  // namespace

int tidyBlockLayout(mir::MFunction& f) {
  int changed = 0;
  std::vector<char> keep = reachableBlocks(f);
  std::vector<int> newIndex(f.blocks.size(), -1);
  std::vector<mir::MBlock> blocks;
  for (size_t b = 0; b < f.blocks.size(); b++)
    if (keep[b]) {
      newIndex[b] = int(blocks.size());
      blocks.push_back(std::move(f.blocks[b]));
    } else {
      changed++;
    }
  f.blocks = std::move(blocks);
  for (mir::MBlock& b : f.blocks) {
    for (int& s : b.succs) s = newIndex[size_t(s)];
    for (MInst& mi : b.insts) mir::forEachJumpTarget(mi, [&](int& t) { t = newIndex[size_t(t)]; });
  }
  for (size_t b = 0; b < f.blocks.size(); b++) {
    std::vector<MInst>& insts = f.blocks[b].insts;
    size_t n = insts.size();
    if (n < 2 || !isBlockJump(insts[n - 2]) || insts[n - 2].op != MOp::Jcc || !isBlockJump(insts[n - 1]) ||
        insts[n - 1].op != MOp::Jmp)
      continue;
    int taken = insts[n - 2].ops[0].reg, other = insts[n - 1].ops[0].reg;
    if (taken == int(b + 1)) {
      insts[n - 2].cc = mir::negate(insts[n - 2].cc);
      insts[n - 2].ops[0].reg = other;
      insts.pop_back();
      changed++;
    } else if (other <= int(b) && taken > int(b)) {
      // A latch going round again by its jump (`jg exit; jmp top`, the
      // exit laid out elsewhere): branching back instead runs one jump
      // per iteration, not two.
      insts[n - 2].cc = mir::negate(insts[n - 2].cc);
      insts[n - 2].ops[0].reg = other;
      insts[n - 1].ops[0].reg = taken;
    }
  }
  return changed;
}

}  // namespace simplec
