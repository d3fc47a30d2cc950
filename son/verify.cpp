// Graph invariant checks and the unreachable-node sweep.
#include "son/verify.h"

#include <algorithm>
#include <unordered_map>

#include "son/compute.h"
#include "son/mem_access.h"
#include "son/merge_mem.h"

namespace simplec {

namespace {
std::string nodeRef(const Node* n) { return "node " + std::to_string(n->id) + " (" + n->label() + ")"; }
bool isRegionLike(const Node* n) { return n->op == Op::Region || n->op == Op::Loop; }
}  // namespace

namespace {
// " (node N (Op) : type)" for a message about a wrong input.
std::string typeOfInput(const Node* d) {
  if (!d) return "";
  return " (" + nodeRef(d) + " : " + (d->type ? d->type->str() : std::string("no type")) + ")";
}
}  // namespace

std::vector<std::string> verify(const Graph& g) {
  std::vector<std::string> errs;
  // Edges stay inside the function: a node of another graph has an id that
  // means something else here, so nothing below may look at it.
  for (const auto& up : g.nodes()) {
    const Node* n = up;
    if (n->dead) continue;
    for (const Node* d : n->in)
      if (d && !g.owns(d)) errs.push_back(nodeRef(n) + " has an input of another function's graph");
    for (const Node* u : n->out)
      if (!g.owns(u)) errs.push_back(nodeRef(n) + " has a use in another function's graph");
  }
  if (!errs.empty()) return errs;
  std::vector<Node*> live = liveNodes(g);
  std::vector<char> reach(g.size(), 0);
  for (Node* n : live) reach[n->id] = 1;
  const FunInfo& info = g.info();
  if (!info.fun || !g.owns(info.fun) || info.fun->dead || info.fun->op != Op::Fun)
    errs.push_back("the function's Fun node is missing or dead");
  if (!info.ret || !g.owns(info.ret) || !reach[info.ret->id] || info.ret->op != Op::Return)
    errs.push_back("the function's Return is missing or unreachable from Stop");

  // Use lists match inputs: every (def, user) edge counted from the inputs
  // must be cancelled by exactly one entry of the def's use list. Linear in
  // the number of edges, however many uses one node has.
  {
    std::unordered_map<uint64_t, long> edges;
    auto key = [](const Node* d, const Node* u) { return (uint64_t(d->id) << 32) | u->id; };
    for (Node* n : live)
      for (Node* d : n->in)
        if (d) edges[key(d, n)]++;
    for (Node* d : live)
      for (Node* u : d->out) {
        auto it = edges.find(key(d, u));
        if (it == edges.end()) {
          if (reach[u->id]) errs.push_back(nodeRef(d) + " lists " + nodeRef(u) + " as a use, but it is no input");
          continue;
        }
        if (it->second == 0) {  // listed more often than u uses d
          errs.push_back(nodeRef(u) + ": use list of " + nodeRef(d) + " out of sync");
          continue;
        }
        it->second--;
      }
    for (Node* n : live)
      for (Node* d : n->in)
        if (d && edges[key(d, n)] != 0) {
          errs.push_back(nodeRef(n) + ": use list of " + nodeRef(d) + " out of sync");
          edges[key(d, n)] = 0;
        }
  }
  // The positions that make removing a use O(1) agree with the lists.
  if (errs.empty())
    for (Node* n : live) {
      bool ok = true;
      for (size_t i = 0; ok && i < n->in.size(); i++) {
        const Node* d = n->in[i];
        ok = !d || (n->in.link(i) < d->out.size() && d->out[n->in.link(i)] == n && d->out.link(n->in.link(i)) == i);
      }
      for (size_t k = 0; ok && k < n->out.size(); k++) {
        const Node* u = n->out[k];
        ok = n->out.link(k) < u->in.size() && u->in[n->out.link(k)] == n && u->in.link(n->out.link(k)) == k;
      }
      if (!ok) errs.push_back(nodeRef(n) + ": edge positions out of sync with its inputs or uses");
    }
  for (Node* n : live) {
    if (n->dead) errs.push_back(nodeRef(n) + " is reachable but marked dead");
    if (n->op == Op::Scope) errs.push_back(nodeRef(n) + ": a parser scope survived");
    // Control structure.
    if (n->isCFG() && n->op != Op::Start && n->op != Op::Stop && !isRegionLike(n)) {
      Node* c = n->in.empty() ? nullptr : n->in[0];
      if (!c || !c->isCFG()) errs.push_back(nodeRef(n) + " has no control input");
    }
    if (isRegionLike(n))
      for (size_t i = 1; i < n->in.size(); i++)
        if (!n->in[i] || !(n->in[i]->isCFG() || (n->in[i]->isConst() && n->in[i]->type->isCtrlLike())))
          errs.push_back(nodeRef(n) + ": predecessor " + std::to_string(i) + " is not control");
    if (n->op == Op::Loop && n->in.size() != 3) errs.push_back(nodeRef(n) + " must have 2 predecessors");
    if (n->op == Op::Phi) {
      Node* r = n->in.empty() ? nullptr : n->in[0];
      if (!r || !isRegionLike(r)) errs.push_back(nodeRef(n) + " is not on a region");
      else if (r->in.size() != n->in.size())
        errs.push_back(nodeRef(n) + " has " + std::to_string(n->in.size() - 1) + " values for " +
                       std::to_string(r->in.size() - 1) + " predecessors");
    }
    if (!n->isCFG() && n->op != Op::Phi && n->op != Op::Con && n->op != Op::Parm &&
        n->op != Op::Proj && !n->in.empty() && n->in[0] && !n->in[0]->isCFG())
      errs.push_back(nodeRef(n) + ": slot 0 must be control or empty");
    // Memory operations read and write memory.
    auto isMem = [](const Node* m) {
      return m && m->type && (m->type->kind() == TKind::Mem || m->type->kind() == TKind::Top);  // TOP: not reached yet
    };
    if (n->op == Op::Load && (n->in.size() != 4 || (n->in[1] && !isMem(n->in[1]))))
      errs.push_back(nodeRef(n) + " must have inputs ctrl, memory or nothing, pointer, offset");
    if (n->op == Op::Store && (n->in.size() != 5 || !isMem(n->in[1])))
      errs.push_back(nodeRef(n) + " must have inputs ctrl, memory, pointer, offset, value");
    if (n->op == Op::New && (n->in.size() != 3 || !isMem(n->in[1])))
      errs.push_back(nodeRef(n) + " must have inputs ctrl, memory, length");
    // Two-lane values come from two-lane kinds and 16-byte loads only.
    auto isVec = [](const Node* m) { return m && m->type && m->type->isVec(); };
    bool wide = (n->op == Op::Load || n->op == Op::Store) && MemAccess::decode(n->aux).size == 16;
    if (wide && n->op == Op::Store && n->in.size() == 5 && !isVec(n->in[4]))
      errs.push_back(nodeRef(n) + ": a 16-byte store of a value that is not f64x2" + typeOfInput(n->in[4]));
    if (n->op == Op::VSplat && (n->in.size() != 2 || !n->in[1] || !n->in[1]->type || !n->in[1]->type->isFlt()))
      errs.push_back(nodeRef(n) + " must have one flt input");
    if (isUnaryVecOp(n->op) && (n->in.size() != 2 || !isVec(n->in[1])))
      errs.push_back(nodeRef(n) + " must have one f64x2 input");
    if (isVecOp(n->op) && n->op != Op::VSplat && !isUnaryVecOp(n->op) &&
        (n->in.size() != 3 || !isVec(n->in[1]) || !isVec(n->in[2])))
      errs.push_back(nodeRef(n) + " must have two f64x2 inputs");
    if (n->op == Op::MergeMem) {
      for (size_t i = 1; i < n->in.size(); i++)
        if (!isMem(n->in[i]))
          errs.push_back(nodeRef(n) + ": input " + std::to_string(i) + " is not memory" + typeOfInput(n->in[i]));
      const std::vector<int>& cs = mergeMemClasses(n);
      if (n->in.size() != 2 + cs.size())
        errs.push_back(nodeRef(n) + " has " + std::to_string(n->in.size()) + " inputs for " +
                       std::to_string(cs.size()) + " classes");
    }
    // Monotone types.
    if (!n->type) {
      errs.push_back(nodeRef(n) + " has no type");
    } else if (n->op != Op::Stop && n->op != Op::Start) {
      const Type* t = compute(n);
      if (!t->isa(n->type))
        errs.push_back(nodeRef(n) + ": type " + n->type->str() + " is more precise than its inputs allow (" +
                       t->str() + ")");
    }
  }
  for (const auto& up : g.nodes()) {
    Node* n = up;
    if (!n->dead && !reach[n->id] && n != g.start())
      errs.push_back(nodeRef(n) + " is live but unreachable from Stop");
  }
  return errs;
}

std::vector<std::string> verify(const Unit& u) {
  std::vector<std::string> errs;
  for (const FunInfo& f : u.funs) {
    if (!f.hasBody()) continue;
    for (std::string& e : verify(*f.graph)) errs.push_back("function '" + f.name + "': " + e);
  }
  return errs;
}

void sweepUnreachable(Graph& g) {
  if (g.swept()) return;
  std::vector<Node*> live = liveNodes(g);
  std::vector<char> reach(g.size(), 0);
  for (Node* n : live) reach[n->id] = 1;
  size_t reached = live.size();
  if (!reach[g.start()->id]) reached++;
  reach[g.start()->id] = 1;
  // Every node the walk reached is alive: garbage exists when fewer were
  // reached than are alive (counted, not looked for node by node).
  if (reached < g.size() - g.deadCount()) {
    // Drop garbage users from the live use lists, then unhook the garbage
    // itself. The walk from Stop is as it was: it never went through the
    // garbage (inputs of live nodes are live).
    g.dropUses(reach);
    g.keepLiveList(std::move(live));
  }
  g.sweptAt = g.editVersion();
}

}  // namespace simplec
