// Dead virtual-register defs (see the header): a vreg is needed when an
// instruction that must stay reads it, or when a removable def of a needed
// vreg reads it; everything else removable goes.
#include "codegen/dead_defs.h"

#include <vector>

namespace simplec {

using namespace mir;

namespace {

// Writes operand 0, a vreg, and nothing else: no memory, no flags, no
// implicit register.
bool removable(const MInst& mi) {
  if (mi.ops.empty() || mi.ops[0].kind != Opnd::VReg) return false;
  switch (mi.op) {
    case MOp::Mov: case MOp::MovZX: case MOp::MovSX: case MOp::Lea: case MOp::Setcc:
    case MOp::Cmov: case MOp::FSqrt: case MOp::CvtSI2SD: case MOp::CvtTSD2SI:
    case MOp::FAdd: case MOp::FSub: case MOp::FMul: case MOp::FDiv: case MOp::FMin: case MOp::FMax:
    case MOp::FAnd: case MOp::FXor: case MOp::RoundF32: case MOp::CvtSD2SS: case MOp::CvtSS2SD:
    case MOp::VAdd: case MOp::VSub: case MOp::VMul: case MOp::VDiv: case MOp::VSplat:
    case MOp::VMin: case MOp::VMax: case MOp::VSqrt:
      return true;
    default:
      return false;
  }
}

}  // namespace

int removeDeadDefs(MFunction& f) {
  size_t nv = f.vregs.size();
  // Most functions have no unread def at all (a dead chain ends in one):
  // one pass over the reads settles that.
  std::vector<char> read(nv, 0);
  for (const MBlock& b : f.blocks)
    for (const MInst& mi : b.insts)
      forEachDefUse(
          mi, [&](const Opnd& o) { if (o.kind == Opnd::VReg) read[size_t(o.reg)] = 1; }, [](const Opnd&) {},
          [](int) {});
  bool any = false;
  for (const MBlock& b : f.blocks)
    for (const MInst& mi : b.insts) any = any || (removable(mi) && !read[size_t(mi.ops[0].reg)]);
  if (!any) return 0;
  std::vector<char> needed(nv, 0);
  // The removable defs of each vreg, as (block, index) pairs in CSR form.
  std::vector<int> defCount(nv + 1, 0);
  for (const MBlock& b : f.blocks)
    for (const MInst& mi : b.insts)
      if (removable(mi)) defCount[size_t(mi.ops[0].reg) + 1]++;
  for (size_t v = 0; v < nv; v++) defCount[v + 1] += defCount[v];
  std::vector<std::pair<int, int>> defs(size_t(defCount[nv]));
  std::vector<int> fill(defCount.begin(), defCount.end() - 1);
  std::vector<int> work;
  auto need = [&](const Opnd& o) {
    if (o.kind != Opnd::VReg || needed[size_t(o.reg)]) return;
    needed[size_t(o.reg)] = 1;
    work.push_back(o.reg);
  };
  for (size_t b = 0; b < f.blocks.size(); b++)
    for (size_t i = 0; i < f.blocks[b].insts.size(); i++) {
      const MInst& mi = f.blocks[b].insts[i];
      if (removable(mi)) {
        defs[size_t(fill[size_t(mi.ops[0].reg)]++)] = {int(b), int(i)};
        continue;
      }
      forEachDefUse(mi, need, [](const Opnd&) {}, [](int) {});
    }
  // A needed vreg needs what its removable defs read.
  while (!work.empty()) {
    size_t v = size_t(work.back());
    work.pop_back();
    for (int k = defCount[v]; k < defCount[v + 1]; k++) {
      const MInst& mi = f.blocks[size_t(defs[size_t(k)].first)].insts[size_t(defs[size_t(k)].second)];
      forEachDefUse(mi, need, [](const Opnd&) {}, [](int) {});
    }
  }
  int removed = 0;
  for (MBlock& b : f.blocks) {
    size_t kept = 0;
    for (size_t i = 0; i < b.insts.size(); i++) {
      MInst& mi = b.insts[i];
      if (removable(mi) && !needed[size_t(mi.ops[0].reg)]) {
        removed++;
        continue;
      }
      if (kept != i) b.insts[kept] = std::move(mi);
      kept++;
    }
    b.insts.erase(b.insts.begin() + long(kept), b.insts.end());
  }
  return removed;
}

}  // namespace simplec
