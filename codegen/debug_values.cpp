// -g: variables to debug values, the instructions that define them, and
// the assignments of reassigned variables (see debug_values.h). Linear in
// the function's size.
#include "codegen/debug_values.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "codegen/debug_versions.h"
#include "codegen/spill_rewrite.h"
#include "son/call_chain.h"
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

// Dominance between schedule blocks in O(1): intervals of a DFS over the
// dominator tree.
class BlockDominance {
 public:
  explicit BlockDominance(const Schedule& s) : pre_(s.blocks.size(), -1), post_(s.blocks.size(), -1) {
    size_t nb = s.blocks.size();
    std::vector<std::vector<int>> kids(nb);
    for (size_t b = 1; b < nb; b++)
      if (s.blocks[b].idom >= 0) kids[size_t(s.blocks[b].idom)].push_back(int(b));
    if (nb == 0) return;
    int clock = 0;
    std::vector<std::pair<int, size_t>> stack{{0, 0}};
    pre_[0] = clock++;
    while (!stack.empty()) {
      auto& [b, i] = stack.back();
      if (i < kids[size_t(b)].size()) {
        int k = kids[size_t(b)][i++];
        pre_[size_t(k)] = clock++;
        stack.push_back({k, 0});
      } else {
        post_[size_t(b)] = clock++;
        stack.pop_back();
      }
    }
  }
  // Does block a dominate block b (a == b included)?
  bool dominates(int a, int b) const {
    return pre_[size_t(a)] >= 0 && pre_[size_t(b)] >= 0 && pre_[size_t(a)] <= pre_[size_t(b)] &&
           post_[size_t(b)] <= post_[size_t(a)];
  }

 private:
  std::vector<int> pre_, post_;
};

// The DebugAssigns of the reassigned variables, from their bindings
// (son/debug_info.h); values get debug ids in valueOfVReg as they are met.
std::vector<std::vector<DebugAssign>> tagAssignments(MFunction& f, const Graph& g, const Schedule& s,
                                                     const std::vector<int>& vregOfNode,
                                                     const std::vector<int>& firstBlock,
                                                     std::vector<int>& valueOfVReg, std::vector<char>& isParm) {
  std::vector<std::vector<DebugAssign>> res(s.blocks.size());
  bool any = false;
  for (const DebugVarLoc& dv : f.debugVars) any |= dv.var.reassigned;
  if (!any) return res;
  std::vector<Graph::DebugAnchor> anchors = g.debugAnchors();
  BlockDominance dom(s);
  std::vector<char> dropped(f.debugVars.size(), 0);
  auto bind = [&](uint32_t k, const Node* n) {
    const DebugName& d = g.debugNames[k];
    if (d.var < 0 || size_t(d.var) >= f.debugVars.size() || !f.debugVars[size_t(d.var)].var.reassigned) return;
    const Node* at = anchors[k].at;
    // A merge whose Region collapsed into straight-line control (an arm
    // folded away) merges nothing: the surviving arm's own assignments say
    // where the variable changed. Bound at the start of that control's
    // block, it would show the arm's value before the arm runs.
    if (d.kind == DebugName::Merge && at && !at->isRegion()) return;
    int b = at ? s.blockIndexOf(at) : -1;
    bool live = n && !n->dead && (s.blockIndexOf(n) >= 0 || n->op == Op::Con);
    if (b < 0) {
      // A merge that is gone: where its paths still meet, their values
      // differ or agree without it (the meet says which). Where an
      // assignment happened is lost when its control was rewired: then the
      // variable's values cannot be told apart any more. An assignment in
      // code that was removed as unreachable never happens.
      if (d.kind != DebugName::Merge && !anchors[k].unreachable) dropped[size_t(d.var)] = 1;
      return;
    }
    DebugAssign a;
    a.var = d.var;
    a.seq = d.seq;
    a.passAt = d.passAt;
    if (live && n->op == Op::Con) {
      if (constantOf(n, &a.constBits)) a.kind = DebugAssign::Const;
    } else if (live) {
      int nb = s.blockIndexOf(n);
      int v = n->id < vregOfNode.size() ? vregOfNode[n->id] : -1;
      if (v >= 0) {
        if (valueOfVReg[size_t(v)] < 0) {
          valueOfVReg[size_t(v)] = f.numDebugValues++;
          isParm[size_t(v)] = n->op == Op::Parm;
          if (n->op == Op::Phi && phiUsed(n))
            f.blocks[size_t(firstBlock[size_t(nb)])].dbgEntry.push_back({v, valueOfVReg[size_t(v)]});
        }
        a.value = valueOfVReg[size_t(v)];
        bool before = nb != b && dom.dominates(nb, b);
        if (n->op == Op::Phi) a.kind = before || nb == b ? DebugAssign::Ready : DebugAssign::Gone;
        else if (n->op == Op::Parm || before) a.kind = DebugAssign::Ready;
        else a.kind = DebugAssign::AtDef;
      }
    }
    res[size_t(b)].push_back(a);
  };
  for (const Node* n : g.nodes())
    for (uint32_t k = n->dbg; k != 0; k = g.debugNames[k].next) bind(k, n->dead ? nullptr : n);
  for (uint32_t k : g.orphanedDebugNames()) bind(k, nullptr);
  for (std::vector<DebugAssign>& as : res) {
    as.erase(std::remove_if(as.begin(), as.end(), [&](const DebugAssign& a) { return dropped[size_t(a.var)]; }),
             as.end());
    std::sort(as.begin(), as.end(), [](const DebugAssign& x, const DebugAssign& y) { return x.seq < y.seq; });
  }
  for (size_t v = 0; v < dropped.size(); v++)
    if (dropped[v]) f.debugVars[v].var.reassigned = false;  // and no value: no location
  return res;
}

// Where inlined code's outermost call is, for the positions of its
// instructions (the source stands at that call while it runs).
void resolveSiteCalls(MFunction& f, const Unit& u) {
  for (const MBlock& b : f.blocks)
    for (const MInst& mi : b.insts)
      if (mi.site >= 0 && size_t(mi.site) < u.inlineSites.size()) f.dbgSiteCalls.push_back({mi.site, SrcPos{}});
  std::sort(f.dbgSiteCalls.begin(), f.dbgSiteCalls.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  f.dbgSiteCalls.erase(std::unique(f.dbgSiteCalls.begin(), f.dbgSiteCalls.end(),
                                   [](const auto& x, const auto& y) { return x.first == y.first; }),
                       f.dbgSiteCalls.end());
  // Any position in a site's code leads out through the same calls.
  for (auto& [site, call] : f.dbgSiteCalls) call = outermostPosition(u, SrcPos{1, 1, kMainFile, site});
}

// Each assignment goes to the MIR block of its schedule block's chain where
// the source passes it (the last block when no instruction says so). A
// value computed by an earlier block of the chain is ready there.
void placeAssignments(MFunction& f, const std::vector<std::vector<int>>& chains,
                      std::vector<std::vector<DebugAssign>>& bySchedBlock) {
  std::vector<char> computed(size_t(f.numDebugValues), 0);
  for (size_t sb = 0; sb < bySchedBlock.size(); sb++) {
    std::vector<DebugAssign>& as = bySchedBlock[sb];
    if (as.empty() || chains[sb].empty()) continue;
    const std::vector<int>& chain = chains[sb];
    std::vector<int> seen;  // values computed so far in the chain
    size_t k = 0, i = 0;    // chain[k].insts[i]: the next instruction to look at
    for (DebugAssign& a : as) {
      bool atStart = !a.passAt.valid() || a.passAt.file != kMainFile;  // a merge, a parameter
      if (!atStart) {
        for (; k < chain.size(); k++, i = 0) {
          const std::vector<MInst>& insts = f.blocks[size_t(chain[k])].insts;
          bool found = false;
          for (; i < insts.size(); i++) {
            if (sourcePassed(a.passAt, sourcePosition(f, insts[i]))) {
              found = true;
              break;
            }
            if (insts[i].dbgValue && !computed[insts[i].dbgValue - 1]) {
              computed[insts[i].dbgValue - 1] = 1;
              seen.push_back(int(insts[i].dbgValue) - 1);
            }
          }
          if (found) break;
          if (k + 1 == chain.size()) break;  // fires at the end of the last block
        }
      }
      size_t at = atStart ? 0 : std::min(k, chain.size() - 1);
      // Computed before the source passes the assignment (in this block or
      // an earlier one of the chain): the new value is there.
      if (!atStart && a.kind == DebugAssign::AtDef && a.value >= 0 && computed[size_t(a.value)])
        a.kind = DebugAssign::Ready;
      f.blocks[size_t(chain[at])].dbgAssigns.push_back(a);
    }
    for (int v : seen) computed[size_t(v)] = 0;
  }
}

}  // namespace

void tagDebugValues(MFunction& f, const Graph& g, const Schedule& s, const std::vector<int>& vregOfNode,
                    const std::vector<std::vector<int>>& chains) {
  std::vector<int> firstBlock(chains.size(), -1);
  for (size_t b = 0; b < chains.size(); b++) firstBlock[b] = chains[b].empty() ? -1 : chains[b][0];
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
      // A reassigned variable's values are placed by tagAssignments.
      if (dv.var.reassigned || g.debugNames[k].kind != DebugName::Declare) continue;
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
  std::vector<std::vector<DebugAssign>> assigns =
      tagAssignments(f, g, s, vregOfNode, firstBlock, valueOfVReg, isParm);
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
  resolveSiteCalls(f, g.unit());
  placeAssignments(f, chains, assigns);
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
