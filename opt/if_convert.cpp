// Diamonds into Selects: see if_convert.h.
#include "opt/if_convert.h"

#include <unordered_map>
#include <vector>

#include "son/compute.h"
#include "son/verify.h"

namespace simplec {

namespace {

// Ops that may run on a path that did not ask for them: no trap, no memory,
// no control input, cheap.
bool speculable(const Node* n) {
  switch (n->op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::And: case Op::Or: case Op::Xor:
    case Op::Shl: case Op::Sar: case Op::Shr: case Op::Neg: case Op::Not:
    case Op::EQ: case Op::NE: case Op::LT: case Op::LE:
      return n->type && n->type->isInt();
    case Op::Select:  // an inner diamond converted before: a cmov
      return n->type && (n->type->isInt() || n->type->isPtr());
    default:
      return false;
  }
}

// Values already computed wherever the diamond is: no cost to use them.
bool available(const Node* n) {
  return n->isConst() || n->op == Op::Parm || n->op == Op::Phi || n->op == Op::Proj || n->out.size() > 1;
}

// How many nodes computing `v` would run on both paths once the arm is gone
// (v and the inputs that feed only it), or -1 when one of them must not, or
// more than `budget` would.
int speculationCost(const Node* v, int budget) {
  if (available(v)) return 0;
  if (budget <= 0 || !speculable(v) || (v->in.size() > 0 && v->in[0])) return -1;
  int cost = 1;
  for (size_t i = 1; i < v->in.size(); i++) {
    if (!v->in[i]) continue;
    int c = speculationCost(v->in[i], budget - cost);
    if (c < 0) return -1;
    cost += c;
  }
  return cost <= budget ? cost : -1;
}

bool selectable(const Type* t) { return t && (t->isInt() || t->isPtr()); }

// Does the condition wait for memory (a load, or a compare or mask of
// one)? A branch on it is predicted and run past; a cmov would make
// everything after it wait for the load, which in an interpreter's
// dispatch (`if (op == 9) pc = arg`) or a search is the loop's critical
// path. x86's cmov conversion in LLVM backs off in the same case.
bool waitsForMemory(const Node* cond, int depth = 2) {
  if (cond->op == Op::Load) return true;
  if (depth == 0 || cond->isConst() || cond->op == Op::Phi || cond->op == Op::Parm) return false;
  for (size_t i = 1; i < cond->in.size(); i++)
    if (cond->in[i] && waitsForMemory(cond->in[i], depth - 1)) return true;
  return false;
}

// The value merged along `arm`, seen through the Casts pinned to the arm: a
// Cast only narrows what the optimizer knows on that path, and the merge's
// type already holds it.
Node* armValue(Node* v, const Node* arm) {
  while (v && v->op == Op::Cast && v->in[0] == arm) v = v->in[1];
  return v;
}

// Does `arm` hold no code of its own? Its users are the Region `r` and
// Casts that only feed r's Phis (at the arm's input) or each other.
bool emptyArm(const Node* arm, const Node* r) {
  size_t slot = r->in[1] == arm ? 1 : 2;
  for (const Node* u : arm->out) {
    if (u == r) continue;
    if (u->op != Op::Cast || u->in[0] != arm) return false;
    for (const Node* w : u->out) {
      bool phiHere = w->op == Op::Phi && w->in[0] == r && w->in.size() == 3 && w->in[slot] == u;
      bool castHere = w->op == Op::Cast && w->in[0] == arm;
      if (!phiHere && !castHere) return false;
    }
  }
  return true;
}

// The If whose two projections are Region r's two inputs, else null.
Node* twoArmedIf(const Node* r) {
  if (r->op != Op::Region || r->in.size() != 3 || r->in[0]) return nullptr;
  const Node* a = r->in[1];
  const Node* b = r->in[2];
  if (!a || !b || a->op != Op::CProj || b->op != Op::CProj || a->in[0] != b->in[0] || a == b) return nullptr;
  Node* iff = a->in[0];
  if (!iff || iff->op != Op::If || iff->out.size() != 2 || !iff->in[0] || !iff->in[1]) return nullptr;
  return iff;
}

// Is every value Phi of r the larger or the smaller of the two values the
// condition compares (`p >= q ? p : q`)? Both are computed already, and
// their order is as unpredictable as the data: gcc and clang make such a
// max or min a cmov whatever feeds it (lcs's `max(prev[j], cur[j - 1])`).
bool minOrMax(const Node* r, const Node* cond) {
  if ((cond->op != Op::LT && cond->op != Op::LE) || cond->in.size() != 3) return false;
  bool any = false;
  for (const Node* u : r->out) {
    if (u->op != Op::Phi) continue;
    if (u->type && u->type == Type::mem()) return false;
    if (u->in.size() != 3) return false;
    const Node* x = armValue(u->in[1], r->in[1]);
    const Node* y = armValue(u->in[2], r->in[2]);
    bool same = (x == cond->in[1] && y == cond->in[2]) || (x == cond->in[2] && y == cond->in[1]);
    if (!same) return false;
    any = true;
  }
  return any;
}

// The If of Region r when r is a diamond this pass converts, else null.
Node* diamondIf(const Node* r) {
  Node* iff = twoArmedIf(r);
  if (!iff) return nullptr;
  const Type* p = iff->in[1]->type;
  if (!p || p->isConst() || !(p->isInt() || p->isPtr())) return nullptr;
  if (waitsForMemory(iff->in[1]) && !minOrMax(r, iff->in[1])) return nullptr;
  if (!emptyArm(r->in[1], r) || !emptyArm(r->in[2], r)) return nullptr;
  bool anyPhi = false;
  for (const Node* u : r->out) {
    if (u->op != Op::Phi) continue;
    anyPhi = true;
    if (u->in.size() != 3 || !u->in[1] || !u->in[2] || !selectable(u->type)) return nullptr;
    Node* vals[2] = {armValue(u->in[1], r->in[1]), armValue(u->in[2], r->in[2])};
    for (Node* v : vals)
      if (!v || !v->type || speculationCost(v, kMaxSpeculated) < 0) return nullptr;
    // The Select is typed by its values, without the arms' Casts: what was
    // typed from the Phi must still hold, so the Phi may not be narrower.
    if (!vals[0]->type->meet(vals[1]->type)->isa(u->type)) return nullptr;
  }
  return anyPhi ? iff : nullptr;
}

// The one Store pinned to `arm` whose memory only Phi `phi` (of the arm's
// Region) takes, when the arm holds nothing else but such Casts as
// emptyArm allows; else null.
Node* loneStore(const Node* arm, const Node* phi, size_t slot) {
  Node* store = phi->in[slot];
  if (!store || store->op != Op::Store || store->in.size() != 5 || store->in[0] != arm || store->out.size() != 1)
    return nullptr;
  for (const Node* u : arm->out)
    if (u != store && u != phi->in[0] && u->op != Op::Cast) return nullptr;
  return store;
}

// Store sinking: when both arms of a diamond hold one store to the same
// address over the same memory (`if (p >= q) c[j] = p; else c[j] = q;`),
// one store of a Phi of the two values at the merge does the same, and
// the arms are left empty for the conversion.
bool sinkStores(Graph& g, Node* r) {
  if (!twoArmedIf(r)) return false;
  Node* memPhi = nullptr;
  for (Node* u : r->out)
    if (u->op == Op::Phi && u->type == Type::mem()) {
      if (memPhi) return false;
      memPhi = u;
    }
  if (!memPhi || memPhi->in.size() != 3) return false;
  Node* s1 = loneStore(r->in[1], memPhi, 1);
  Node* s2 = loneStore(r->in[2], memPhi, 2);
  if (!s1 || !s2 || s1->aux != s2->aux) return false;
  for (size_t i = 1; i <= 3; i++)
    if (s1->in[i] != s2->in[i]) return false;
  Node* v1 = s1->in[4];
  Node* v2 = s2->in[4];
  if (!v1 || !v2 || !v1->type || !v2->type) return false;
  Node* value = g.make(Op::Phi, {r, v1, v2}, v1->type->meet(v2->type));
  Node* store = g.make(Op::Store, {r, s1->in[1], s1->in[2], s1->in[3], value}, s1->type, s1->aux);
  store->pos = s1->pos;
  g.subsume(memPhi, store);  // the arms' stores die with their last use
  return true;
}

// -g: the bindings made under each arm (control node), by their anchors.
using ArmBindings = std::unordered_map<const Node*, std::vector<uint32_t>>;

ArmBindings bindingsUnderArms(const Graph& g) {
  ArmBindings res;
  if (g.debugNames.empty()) return res;
  std::vector<Graph::DebugAnchor> anchors = g.debugAnchors();
  for (uint32_t k = 1; k < anchors.size(); k++)
    if (anchors[k].at && anchors[k].at->op == Op::CProj) res[anchors[k].at].push_back(k);
  return res;
}

bool later(SrcPos a, SrcPos b) { return a.line != b.line ? a.line > b.line : a.col > b.col; }

// -g: the Select takes over the merge's bindings. A merge binds at the start
// of its Region's block, which is gone: the variable now changes where the
// source passes the arm's assignment (the later of the two; without one,
// the If), and shows nothing until the Select is computed, never the old
// value past it.
void rebindMerges(Graph& g, Node* sel, Node* r, const Node* iff, const ArmBindings& arms) {
  std::unordered_map<int, SrcPos> assigned;  // var -> where its arm assignment ends
  for (int k = 1; k <= 2; k++) {
    auto it = arms.find(r->in[size_t(k)]);
    if (it == arms.end()) continue;
    for (uint32_t b : it->second) {
      const DebugName& d = g.debugNames[b];
      auto [pos, fresh] = assigned.emplace(d.var, d.passAt);
      if (!fresh && later(d.passAt, pos->second)) pos->second = d.passAt;
    }
  }
  for (uint32_t k = sel->dbg; k != 0; k = g.debugNames[k].next) {
    DebugName& d = g.debugNames[k];
    if (d.kind != DebugName::Merge) continue;
    auto it = assigned.find(d.var);
    SrcPos at = it != assigned.end() && it->second.valid() ? it->second : iff->pos;
    if (!at.valid()) continue;
    d.kind = DebugName::Assign;
    d.passAt = at;
  }
}

void convert(Graph& g, Node* r, Node* iff, const ArmBindings& arms) {
  Node* cond = iff->in[1];
  // Which Region input is the true arm (CProj 0).
  size_t trueIn = r->in[1]->aux == 0 ? 1 : 2;
  size_t falseIn = 3 - trueIn;
  std::vector<Node*> phis;
  for (Node* u : r->out)
    if (u->op == Op::Phi) phis.push_back(u);
  for (Node* phi : phis) {
    Node* t = armValue(phi->in[trueIn], r->in[trueIn]);
    Node* f = armValue(phi->in[falseIn], r->in[falseIn]);
    // Typed by its inputs: the Phi's type may be narrower, by the Casts.
    Node* sel = g.make(Op::Select, {nullptr, cond, t, f});
    sel->type = compute(sel);
    g.subsume(phi, sel);  // the arms' Casts die with their last use
    rebindMerges(g, sel, r, iff, arms);
  }
  // -g: the Selects carry the merge's bindings; the arms' own assignments
  // no longer happen on one path only.
  g.supersedeControlBindings(r->in[1]);
  g.supersedeControlBindings(r->in[2]);
  // The Region runs exactly when the If's control does: whatever it
  // controls moves up there, and the If and its arms die with it.
  g.subsume(r, iff->in[0]);
}

}  // namespace

int convertIfs(Graph& g) {
  int converted = 0;
  // An inner diamond converted empties the arm of the one around it
  // (`v < lo ? lo : v > hi ? hi : v`): a few rounds, each linear.
  // The Regions, in the order of the walk from Stop: converting makes none
  // and leaves the others reached, so the first walk serves every round.
  std::vector<Node*> regions;
  for (Node* n : liveNodes(g))
    if (n->op == Op::Region) regions.push_back(n);
  for (int round = 0; round < 3; round++) {
    int now = 0;
    // Anew each round: an inner diamond's bindings now sit under its arm.
    ArmBindings arms = bindingsUnderArms(g);
    for (Node* n : regions) {
      if (n->dead) continue;
      if (sinkStores(g, n)) now++;
      if (Node* iff = diamondIf(n)) {
        convert(g, n, iff, arms);
        now++;
      }
    }
    converted += now;
    if (!now) break;
  }
  // Values that only steered a converted branch (a counter tested by it)
  // may now feed nothing.
  if (converted) sweepUnreachable(g);
  return converted;
}

}  // namespace simplec
