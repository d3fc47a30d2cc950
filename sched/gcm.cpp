// Global code motion (Click, PLDI'95) for one function: blocks, dominators
// and loops, then schedule early, schedule late, and the choice of the block
// with the shallowest loop depth between the two, then values that end
// their inputs' lives moved up within their control-equivalence class; then
// the layout and the local schedule of each block. Works on reverse
// post-order block numbers and renumbers to the layout order only when
// building the Schedule.
#include "sched/gcm.h"

#include <string>

#include "lexer/diag.h"
#include "son/unit.h"
#include "sched/cfg.h"
#include "sched/control_equivalence.h"
#include "sched/overwriters.h"
#include "son/dominators.h"
#include "sched/local_sched.h"
#include "sched/loops.h"
#include "son/mem_access.h"

namespace simplec {

namespace {

class Placer {
 public:
  Placer(const Graph& g, const FunctionCfg& cfg, const DomTree& dom, const LoopNest& nest, const MemoryIndex& mem,
         const std::vector<int>& shallower, const std::vector<int>& equivalenceTop)
      : g_(g), cfg_(cfg), dom_(dom), nest_(nest), mem_(mem), up_(shallower), equivalenceTop_(equivalenceTop) {}

  // The block (RPO number) of every node of cfg.nodes, by index.
  std::vector<int> place() {
    const std::vector<Node*>& nodes = cfg_.nodes;
    size_t n = nodes.size();
    block_.assign(n, -1);
    floating_.assign(n, 0);
    for (size_t i = 0; i < n; i++) pin(i);
    scheduleEarly();
    scheduleLate();
    hoistLastUses();
    return std::move(block_);
  }

 private:
  int blockOfCtrl(const Node* c) const {
    int b = cfg_.blockOfCtrl(c);
    if (b < 0) internalError("gcm", nodeLabel(c) + " is not a reachable control node");
    return b;
  }

  // Control nodes, Phis, Parms and CallEnd projections have a fixed block;
  // every other node floats (a control input only bounds it from above).
  void pin(size_t i) {
    Node* n = cfg_.nodes[i];
    Node* c = n->in.empty() ? nullptr : n->in[0];
    if (n->isCFG()) {
      block_[i] = blockOfCtrl(n);
    } else if (n->op == Op::Phi) {
      if (!c || !c->isRegion()) internalError("gcm", nodeLabel(n) + " is not on a Region or Loop");
      if (c->in.size() != n->in.size())
        internalError("gcm", nodeLabel(n) + " has " + std::to_string(n->in.size() - 1) + " values for " +
                                 std::to_string(c->in.size() - 1) + " predecessors");
      block_[i] = blockOfCtrl(c);
    } else if (n->op == Op::Parm) {
      if (c != cfg_.fun->fun) internalError("gcm", nodeLabel(n) + " is not a parameter of this function");
      block_[i] = 0;
    } else if (n->op == Op::Proj && c && c->isCFG()) {
      block_[i] = blockOfCtrl(c);
    } else if (n->op == Op::Store) {
      // A store stays where the program put it; loads are kept above it.
      if (!c || !c->isCFG()) internalError("gcm", nodeLabel(n) + " has no control input");
      block_[i] = blockOfCtrl(c);
    } else {
      floating_[i] = 1;
    }
  }

  int indexOf(const Node* user, const Node* d) const {
    int i = cfg_.indexOf(d);
    if (i < 0) internalError("gcm", nodeLabel(user) + " uses " + nodeLabel(d) + ", which is not in the function");
    return i;
  }

  // The deeper of two blocks on one dominator chain.
  int deeper(const Node* n, int a, int b) const {
    if (dom_.dominates(a, b)) return b;
    if (dom_.dominates(b, a)) return a;
    internalError("gcm", "the inputs of " + nodeLabel(n) + " come from blocks " + std::to_string(a) + " and " +
                             std::to_string(b) + ", neither of which dominates the other");
  }

  // Topological order of the floating nodes (inputs first); each one's
  // earliest block is the deepest of its inputs' blocks.
  void scheduleEarly() {
    const std::vector<Node*>& nodes = cfg_.nodes;
    early_.assign(nodes.size(), 0);
    std::vector<char> state(nodes.size(), 0);
    std::vector<std::pair<int, size_t>> stack;
    for (size_t root = 0; root < nodes.size(); root++) {
      if (!floating_[root] || state[root]) continue;
      state[root] = 1;
      stack.push_back({int(root), 0});
      while (!stack.empty()) {
        auto& [i, k] = stack.back();
        Node* n = nodes[size_t(i)];
        if (k < n->in.size()) {
          Node* d = n->in[k++];
          if (!d || d == g_.start()) continue;
          int j = indexOf(n, d);
          if (!floating_[size_t(j)] || state[size_t(j)] == 2) continue;
          if (state[size_t(j)] == 1) internalError("gcm", "data cycle without a Phi through " + nodeLabel(d));
          state[size_t(j)] = 1;
          stack.push_back({j, 0});
          continue;
        }
        int e = 0;
        for (Node* d : n->in) {
          if (!d || d == g_.start()) continue;
          int j = cfg_.indexOf(d);
          e = deeper(n, e, floating_[size_t(j)] ? early_[size_t(j)] : block_[size_t(j)]);
        }
        early_[size_t(i)] = e;
        state[size_t(i)] = 2;
        topo_.push_back(i);
        stack.pop_back();
      }
    }
  }

  // Uses before definitions: the LCA of the uses is the latest legal block;
  // then the shallowest loop depth on the way up to the earliest block.
  // Uses are pushed from the user to its inputs once the user's block is
  // known (each edge once).
  void scheduleLate() {
    const std::vector<Node*>& nodes = cfg_.nodes;
    lca_.assign(nodes.size(), -1);
    for (size_t i = 0; i < nodes.size(); i++)
      if (!floating_[i]) useInputs(i);
    for (auto it = topo_.rbegin(); it != topo_.rend(); ++it) {
      int i = *it;
      Node* n = nodes[size_t(i)];
      int early = early_[size_t(i)];
      int lca = lca_[size_t(i)];
      if (lca < 0) lca = early;  // no use: cannot happen for a node of the function
      if (n->op == Op::Load && n->in[1]) lca = antiDependences(n, early, lca);
      if (!dom_.dominates(early, lca))
        internalError("gcm", nodeLabel(n) + ": its inputs (block " + std::to_string(early) +
                                 ") do not dominate its uses (block " + std::to_string(lca) + ")");
      int best = lca;
      while (up_[size_t(best)] != -1 && dom_.depth(up_[size_t(best)]) >= dom_.depth(early))
        best = up_[size_t(best)];
      block_[size_t(i)] = best;
      useInputs(size_t(i));
    }
  }

  // A value that is the last use of two or more inputs (constants aside)
  // ends their lives where it is computed: moved up to the earliest block
  // where its inputs are and that runs exactly when its block runs (its
  // control-equivalence class), it holds one register where they held
  // several. Placed as late as possible, a sum of many calls' results kept
  // every result alive to the end of the function (register allocation
  // quadratic in its size). Inputs first, so an input that moved up is
  // where it ends; a value only moves up, so it still dominates its users.
  // Compares stay by the branch that fuses them; loads stay late.
  void hoistLastUses() {
    const std::vector<Node*>& nodes = cfg_.nodes;
    for (int i : topo_) {
      const Node* n = nodes[size_t(i)];
      if (n->op == Op::Load || n->op == Op::Con || isCompareOp(n->op) || !n->type ||
          !(n->type->isInt() || n->type->isFlt()))
        continue;
      int at = block_[size_t(i)];
      int from = 0;  // the deepest block of the inputs (a control input too; constants follow it)
      for (const Node* d : n->in)
        if (d && d != g_.start() && d->op != Op::Con) from = deeper(n, from, block_[size_t(cfg_.indexOf(d))]);
      int top = equivalenceTop_[size_t(at)];
      int to = dom_.depth(top) >= dom_.depth(from) ? top
               : nest_.innermost[size_t(from)] == nest_.innermost[size_t(at)] ? from : pastLoopOf(from, at, top);
      if (to == at) continue;
      int ending = 0, inputs = 0;
      for (size_t k = 1; k < n->in.size(); k++) {
        const Node* d = n->in[k];
        if (!d || d == g_.start() || d->op == Op::Con) continue;
        inputs++;
        if (endsAt(d, n, to)) ending++;
      }
      // One input it ends (x * 3), outside loops: no more registers, and
      // what uses it can move up too (the next sum's step). (In a loop, such
      // a step is often its variable's next value: left by the back edge.)
      bool neutral = ending == 1 && inputs == 1 && nest_.innermost[size_t(at)] == -1;
      if (!(ending >= 2 || neutral)) continue;
      block_[size_t(i)] = to;
      // A constant placed by its uses below goes up with this one (it
      // dominates them still: `to` dominates `at`).
      for (const Node* d : n->in)
        if (d && d->op == Op::Con) {
          int& cb = block_[size_t(cfg_.indexOf(d))];
          if (!dom_.dominates(cb, to)) cb = dom_.lca(cb, to);
        }
    }
  }
  // Inputs made in a loop that `at` is not in (a result computed from the
  // loop's values): the first block past that loop (past the outermost loop
  // holding `from` but not `at`) on the way to `at`, when it is in `at`'s
  // control-equivalence class; else `at`. A loop's exits are the children
  // of its header in the dominator tree outside it (a few).
  int pastLoopOf(int from, int at, int top) {
    int l = nest_.innermost[size_t(from)];
    int outer = nest_.innermost[size_t(at)];
    while (l != -1 && nest_.loops[size_t(l)].parent != outer) l = nest_.loops[size_t(l)].parent;
    if (l == -1) return at;
    for (int c : loopExits(l))
      if (dom_.dominates(c, at) && dom_.dominates(from, c) && equivalenceTop_[size_t(c)] == top &&
          nest_.innermost[size_t(c)] == outer)
        return c;
    return at;
  }
  const std::vector<int>& loopExits(int l) {
    if (exits_.empty()) {
      exits_.resize(nest_.loops.size());
      std::vector<int> headerOf(size_t(dom_.size()), -1);
      for (size_t k = 0; k < nest_.loops.size(); k++) headerOf[size_t(nest_.loops[k].header)] = int(k);
      for (int b = 0; b < dom_.size(); b++) {
        int h = dom_.idom(b);
        if (h < 0 || h == b || headerOf[size_t(h)] < 0) continue;
        int loop = headerOf[size_t(h)], in = nest_.innermost[size_t(b)];
        while (in != -1 && in != loop) in = nest_.loops[size_t(in)].parent;
        if (in == -1) exits_[size_t(loop)].push_back(b);
      }
    }
    return exits_[size_t(l)];
  }

  // Is n the last reader of d when placed in block `to`? d is made inside
  // every loop that holds `to` (else it is needed around it), and its other
  // users (a few at most: the check stays cheap) read it in `to` or in
  // blocks before it in reverse post-order (a Phi: its merge, but not along
  // a back edge). No path from `to` reaches those without passing a back
  // edge of a loop that holds `to`, and so d's definition again.
  bool endsAt(const Node* d, const Node* n, int to) const {
    if (d->out.size() > 8) return false;
    int toLoop = nest_.innermost[size_t(to)];
    if (toLoop != -1) {
      int l = nest_.innermost[size_t(block_[size_t(cfg_.indexOf(d))])];
      while (l != -1 && l != toLoop) l = nest_.loops[size_t(l)].parent;
      if (l != toLoop) return false;
    }
    for (const Node* u : d->out) {
      if (u == n) continue;
      int ui = cfg_.indexOf(u);
      if (ui < 0) continue;  // not in the function: never placed, never read
      if (block_[size_t(ui)] > to) return false;
      if (u->op == Op::Phi && u->in[0]->op == Op::Loop && u->in.size() > 2 && u->in[2] == d) return false;
    }
    return true;
  }
  static bool isCompareOp(Op op) {
    return op == Op::EQ || op == Op::NE || op == Op::LT || op == Op::LE || op == Op::FLT || op == Op::FLE ||
           op == Op::Not;
  }

  // A load must run before anything that may overwrite what it reads: stores
  // to the same memory (unless they provably touch other bytes), calls that
  // take it, and the ends of the blocks whose edges carry it into a Phi (the
  // next loop iteration). Of those, only the ones on the load's path from
  // its earliest to its latest block matter (Click's anti-dependences): the
  // latest block is raised to the deepest block of that path that dominates
  // the overwriter, their common ancestor in the dominator tree. Memory made
  // in a block the latest one dominates raises nothing: the walk stops there.
  int antiDependences(const Node* load, int early, int lca) {
    int earlyDepth = dom_.depth(early);
    auto raise = [&](int x) {
      int y = dom_.lca(lca, x);
      if (dom_.depth(y) >= earlyDepth) lca = y;
    };
    auto blockOfMemory = [&](const Node* m) {
      // Pinned memory (stores, projections of calls and allocations, Phis,
      // Parms): placed already. A MergeMem floats: not known yet.
      int i = cfg_.indexOf(m);
      return i < 0 || floating_[size_t(i)] ? -1 : block_[size_t(i)];
    };
    mem_.forEachOverwriter(
        load,
        [&](const Node* w) {
          int b = blockOfMemory(w);
          if (b >= 0) raise(b);
        },
        // The memory flows on into a loop or a join: the load must come
        // before the ends of the blocks whose edges carry it.
        [&](const Node* phi, const Node* value) {
          const Node* r = phi->in[0];
          for (size_t k = 1; k < phi->in.size(); k++) {
            if (phi->in[k] != value || k >= r->in.size() || !r->in[k]) continue;
            int pb = cfg_.blockOfCtrl(r->in[k]);
            if (pb >= 0) raise(pb);
          }
        },
        [&](const Node* m) {
          int b = blockOfMemory(m);
          return b >= 0 && dom_.dominates(lca, b);
        });
    return lca;
  }

  // Node i is placed: it uses each floating input at its block, or, for a
  // Phi, at the end of the matching live predecessor.
  void useInputs(size_t i) {
    Node* u = cfg_.nodes[i];
    if (u->isRegion()) return;  // control inputs only
    for (size_t k = 0; k < u->in.size(); k++) {
      Node* d = u->in[k];
      if (!d || d == g_.start()) continue;
      int di = cfg_.indexOf(d);
      if (di < 0 || !floating_[size_t(di)]) continue;
      int at = block_[i];
      if (u->op == Op::Phi && k > 0) {
        at = u->in[0]->in[k] ? cfg_.blockOfCtrl(u->in[0]->in[k]) : -1;
        if (at < 0) continue;  // dead edge: never read
      }
      int& l = lca_[size_t(di)];
      l = dom_.lca(l, at);
    }
  }

  const Graph& g_;
  const FunctionCfg& cfg_;
  const DomTree& dom_;
  const LoopNest& nest_;
  const MemoryIndex& mem_;
  std::vector<std::vector<int>> exits_;  // per loop, made on first need (loopExits)
  const std::vector<int>& up_;  // shallowerDominators: walked from `late`, at most the loop depth
  const std::vector<int>& equivalenceTop_;
  std::vector<int> block_, early_, lca_, topo_;
  std::vector<char> floating_;
};

Schedule runGcm(const Graph& g) {
  FunctionCfg cfg = buildCfg(g);
  size_t nb = cfg.blocks.size();
  std::vector<std::vector<int>> preds(nb);
  for (size_t b = 0; b < nb; b++) preds[b] = cfg.blocks[b].preds;
  DomTree dom(computeIdoms(preds));

  std::vector<std::pair<int, int>> backEdges;
  for (size_t b = 0; b < nb; b++)
    if (cfg.blocks[b].ctrl[0]->op == Op::Loop && preds[b].size() == 2 && preds[b][1] >= 0)
      backEdges.push_back({int(b), preds[b][1]});
  LoopNest nest = findLoops(preds, dom, backEdges);

  MemoryIndex mem(g, cfg.nodes);
  std::vector<std::vector<int>> succs(nb);
  for (size_t b = 0; b < nb; b++) succs[b] = cfg.blocks[b].succs;
  std::vector<int> shallower = shallowerDominators(dom, nest);
  std::vector<int> equivalenceTop = controlEquivalenceTops(succs, dom, nest, shallower);
  std::vector<int> placed = Placer(g, cfg, dom, nest, mem, shallower, equivalenceTop).place();

  // Renumber to the layout order.
  std::vector<int> order = loopLayout(nest);
  std::vector<int> pos(nb);
  for (size_t k = 0; k < nb; k++) pos[size_t(order[k])] = int(k);
  Schedule s;
  s.funIndex = g.funIndex();
  s.blocks.resize(nb);
  for (size_t b = 0; b < nb; b++) {
    BasicBlock& bb = s.blocks[size_t(pos[b])];
    bb.head = cfg.blocks[b].ctrl[0];
    for (int p : cfg.blocks[b].preds) bb.preds.push_back(p < 0 ? -1 : pos[size_t(p)]);
    for (int x : cfg.blocks[b].succs) bb.succs.push_back(pos[size_t(x)]);
    bb.idom = dom.idom(int(b)) < 0 ? -1 : pos[size_t(dom.idom(int(b)))];
    bb.loopDepth = nest.depth[b];
    bb.domDepth = dom.depth(int(b));
    bb.shallowerDom = shallower[b] < 0 ? -1 : pos[size_t(shallower[b])];
  }
  // Values used in another block or by a Phi: roots of the local schedule.
  // Found from the users' side, walking only this function's edges.
  std::vector<char> liveOut(cfg.nodes.size(), 0);
  for (size_t i = 0; i < cfg.nodes.size(); i++) {
    const Node* u = cfg.nodes[i];
    if (u->isRegion()) continue;
    for (size_t k = 0; k < u->in.size(); k++) {
      int d = u->in[k] ? cfg.indexOf(u->in[k]) : -1;
      if (d < 0) continue;
      if ((u->op == Op::Phi && k > 0) || placed[size_t(d)] != placed[i]) liveOut[size_t(d)] = 1;
    }
  }
  s.blockOf.assign(g.size(), -1);
  std::vector<std::vector<Node*>> members(nb);
  std::vector<std::vector<char>> memberLive(nb);
  for (size_t i = 0; i < cfg.nodes.size(); i++) {
    Node* n = cfg.nodes[i];
    int b = pos[size_t(placed[i])];
    s.blockOf[n->id] = b;
    if (n->isCFG()) continue;
    members[size_t(b)].push_back(n);
    memberLive[size_t(b)].push_back(liveOut[i]);
  }
  LocalScheduler local(g, mem);
  for (size_t b = 0; b < nb; b++) {
    size_t k = size_t(pos[b]);
    s.blocks[k].nodes = local.schedule(cfg.blocks[b].ctrl, members[k], memberLive[k], int(k));
  }
  return s;
}

}  // namespace

Schedule gcm(const Graph& g) {
  try {
    return runGcm(g);
  } catch (const InternalError& e) {
    // Name the function once, whichever step failed.
    std::string where = funLabel(g);
    std::string msg = e.what();
    if (msg.compare(0, where.size(), where) == 0) throw;
    internalError(e.pass, where + ": " + msg);
  }
}

}  // namespace simplec
