// Loads of loop-invariant fields tied to the control before the loop.
#include "opt/load_hoist.h"

#include <memory>
#include <unordered_map>

#include "lexer/work_counters.h"
#include "opt/iterate.h"
#include "opt/loop_invariance.h"
#include "son/mem_access.h"
#include "son/unit.h"

namespace simplec {

namespace {

constexpr int kWalk = 64;  // dominators looked at above each load

// A load that cannot trap: a field of a struct through a never-null reference.
bool safeFieldLoad(const Graph& g, const Node* n) {
  if (n->op != Op::Load || n->in.size() != 4 || !n->in[0] || !n->in[1] || !n->in[2] || !n->in[3]) return false;
  MemAccess m = MemAccess::decode(n->aux);
  const std::vector<std::string>& names = g.unit().aliases;
  if (m.alias <= 0 || size_t(m.alias) >= names.size()) return false;
  const std::string& name = names[size_t(m.alias)];
  if (name.empty() || name[0] == '[' || name.find('.') == std::string::npos) return false;
  const Node* off = n->in[3];
  return off->op == Op::Con && off->type->isInt() && off->type->isConst() && n->in[2]->type &&
         n->in[2]->type->isNonNullPtr();
}

}  // namespace

int hoistLoads(Graph& g, uint64_t seed) {
  if (g.loops().empty()) return 0;  // nothing to hoist out of; and no walk or control-flow analysis
  auto cf = controlFlow(g);
  std::unordered_map<Node*, std::unique_ptr<LoopInvariance>> byLoop;
  auto invariantIn = [&](Node* loop, Node* load) {
    auto& inv = byLoop[loop];
    if (!inv) inv = std::make_unique<LoopInvariance>(*cf, loop);
    return inv->invariant(load->in[1]) && inv->invariant(load->in[2]) && inv->invariant(load->in[3]);
  };
  std::vector<Node*> loads;
  for (Node* n : liveNodes(g))
    if (safeFieldLoad(g, n) && cf->reached(n->in[0])) loads.push_back(n);
  int moved = 0;
  for (Node* n : loads) {
    // The outermost enclosing loop with a live back edge that leaves the
    // load's inputs alone, found up the dominator tree.
    Node* target = nullptr;
    int steps = 0;
    for (Node* c = n->in[0]; c && steps < kWalk; c = cf->idom(c), steps++) {
      workCounters().loopOptSteps++;
      if (c->op != Op::Loop || c->in.size() != 3 || !c->in[1] || !c->in[2] || !cf->reached(c->in[2])) continue;
      if (!invariantIn(c, n)) break;
      target = c->in[1];
    }
    if (!target) continue;
    g.setDef(n, 0, target);
    moved++;
  }
  // Loads of one field now under one control are one value.
  if (moved) iterPeeps(g, seed);
  return moved;
}

}  // namespace simplec
