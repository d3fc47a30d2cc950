// -g: variables to debug values, and the instructions that define them
// (see debug_values.h). Linear in the function's size.
#include "codegen/debug_values.h"

#include <cstring>
#include <utility>

#include "codegen/spill_rewrite.h"
#include "son/unit.h"

namespace simplec {

using namespace mir;

namespace {

// The constant a variable holds everywhere, when its value is one the
// debugger can show as such (integers, floats, null).
bool constantOf(const Node* n, int64_t* bits) {
  const Type* t = n->type;
  if (!t) return false;
  if (t->isInt() && t->isConst()) {
    *bits = t->value();
    return true;
  }
  if (t->isFltConst()) {
    double d = t->fltValue();
    std::memcpy(bits, &d, sizeof d);
    return true;
  }
  if (t->isNullPtr()) {
    *bits = 0;
    return true;
  }
  return false;
}

// Does the Phi have a use besides itself? Then its register holds it from
// the start of its block (a Phi nothing reads may share its register).
bool phiUsed(const Node* phi) {
  for (const Node* u : phi->out)
    if (u != phi) return true;
  return false;
}

}  // namespace

void tagDebugValues(MFunction& f, const Graph& g, const Schedule& s, const std::vector<int>& vregOfNode,
                    const std::vector<int>& firstBlock) {
  const std::vector<DebugVar>& vars = g.info().debugVars;
  if (vars.empty()) return;
  f.debugVars.clear();
  for (const DebugVar& v : vars) f.debugVars.push_back({v});
  // Debug value of each vreg (-1: none), made for the values of variables
  // that hold one value.
  std::vector<int> valueOfVReg(f.vregs.size(), -1);
  std::vector<char> isParm(f.vregs.size(), 0);
  for (const Node* n : g.nodes()) {
    if (n->dead || n->dbg == 0) continue;
    bool scheduled = s.blockIndexOf(n) >= 0;
    int v = n->id < vregOfNode.size() ? vregOfNode[n->id] : -1;
    for (uint32_t k = n->dbg; k != 0; k = g.debugNames[k].next) {
      DebugVarLoc& dv = f.debugVars[size_t(g.debugNames[k].var)];
      if (dv.var.reassigned) continue;
      if (n->op == Op::Con) {
        dv.isConst = constantOf(n, &dv.constBits);
        continue;
      }
      if (!scheduled || v < 0) continue;
      if (valueOfVReg[size_t(v)] < 0) {
        valueOfVReg[size_t(v)] = f.numDebugValues++;
        isParm[size_t(v)] = n->op == Op::Parm;
        if (n->op == Op::Phi && phiUsed(n))
          f.blocks[size_t(firstBlock[size_t(s.blockIndexOf(n))])].dbgEntry.push_back({v, valueOfVReg[size_t(v)]});
      }
      (n->op == Op::Parm ? dv.value2 : dv.value) = valueOfVReg[size_t(v)];
    }
  }
  // A parameter's own value is its Parm unless it is narrowed.
  for (DebugVarLoc& dv : f.debugVars)
    if (dv.value < 0) std::swap(dv.value, dv.value2);
  // Mark the last instruction writing each value's vreg, when all its
  // writes are in one block (a value is computed in one place; a vreg
  // written in several blocks is a Phi's, placed by dbgEntry instead).
  std::vector<int> defBlock(f.vregs.size(), -1);
  std::vector<std::pair<int, int>> lastDef(f.vregs.size(), {-1, -1});
  std::vector<char> several(f.vregs.size(), 0);
  for (size_t b = 0; b < f.blocks.size(); b++) {
    const std::vector<MInst>& insts = f.blocks[b].insts;
    for (size_t i = 0; i < insts.size(); i++) {
      const MInst& mi = insts[i];
      forEachDefUse(
          mi, [](const Opnd&) {},
          [&](const Opnd& o) {
            if (o.kind != Opnd::VReg || valueOfVReg[size_t(o.reg)] < 0) return;
            size_t v = size_t(o.reg);
            if (defBlock[v] >= 0 && defBlock[v] != int(b)) several[v] = 1;
            if (mi.op == MOp::ParMove) several[v] = 1;
            defBlock[v] = int(b);
            lastDef[v] = {int(b), int(i)};
          },
          [](int) {});
    }
  }
  for (size_t v = 0; v < f.vregs.size(); v++) {
    if (valueOfVReg[v] < 0 || several[v] || lastDef[v].first < 0) continue;
    MInst& mi = f.blocks[size_t(lastDef[v].first)].insts[size_t(lastDef[v].second)];
    // Only a write through operand 0 says where the value is.
    if (mi.ops.empty() || mi.ops[0].kind != Opnd::VReg || size_t(mi.ops[0].reg) != v) continue;
    if (operandRole(mi, 0) == OpndRole::Use) continue;
    mi.dbgValue = uint32_t(valueOfVReg[v] + 1);
    // A parameter copied from its register in the entry block: it is in
    // that register from the function's first instruction.
    if (isParm[v] && lastDef[v].first == 0 && mi.op == MOp::Mov && mi.ops[1].kind == Opnd::PReg)
      f.dbgAtEntry.push_back({mi.ops[1].reg, valueOfVReg[v]});
    if (isParm[v] && lastDef[v].first == 0 && mi.op == MOp::Mov && mi.ops[1].kind == Opnd::InArg && mi.size == 8)
      f.dbgInArgs.push_back({mi.ops[1].reg, valueOfVReg[v]});
  }
}

void locateDebugEntries(MFunction& f, const RegAssignment& a) {
  for (MBlock& b : f.blocks) {
    size_t kept = 0;
    for (auto& [loc, value] : b.dbgEntry) {
      int v = loc;
      if (v < 0 || size_t(v) >= a.reg.size()) continue;
      if (a.reg[size_t(v)] >= 0)
        b.dbgEntry[kept++] = {a.reg[size_t(v)], value};
      else if (a.slot[size_t(v)] >= 0)
        b.dbgEntry[kept++] = {kDebugSlotBase + a.slot[size_t(v)], value};
    }
    b.dbgEntry.resize(kept);
  }
}

}  // namespace simplec
