// Loop predication by versioning: see loop_versioning.h.
#include "opt/loop_versioning.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "lexer/work_counters.h"
#include "opt/induction_vars.h"
#include "opt/iterate.h"
#include "opt/loop_invariance.h"
#include "opt/loop_plans.h"
#include "son/compute.h"
#include "son/control_flow.h"

namespace simplec {

namespace {

constexpr int64_t kMaxOffset = 1 << 20;  // |c| in a[j + c]: the guard's arithmetic cannot wrap

// The checks on one array length, by the offsets c of their indices j + c.
struct LengthRange {
  Node* length;
  int64_t cmin, cmax;
};

// A loop chosen for versioning, read from the graph before any edit.
struct Plan {
  Node* loop;
  Node* exit;    // the header If's projection that leaves the loop
  Node* phi;     // j
  Node* init;    // j's value on entry
  Node* limit;   // j < limit (or <= limit) keeps the loop going
  bool inclusive;
  std::vector<LengthRange> lengths;
  // Checks of j + d for an offset d the loop does not change but which is
  // no constant (`a[i * n + j]`): {index, length}.
  std::vector<std::pair<Node*, Node*>> spans;
  std::vector<Node*> checks;  // the BoundsChecks the copy drops
  std::vector<Node*> body;    // every node copied: control, Phis, pinned and floating
  // The guard's tests, made before any loop is copied: a limit may be a
  // value an earlier loop hands on, and copying that loop must redirect
  // the test to the merge of both copies' values like any other user.
  std::vector<Node*> tests;
};

// Control inputs of control node c (the way back towards the Fun).
void controlPreds(Node* c, std::vector<Node*>& out) {
  if (c->isRegion()) {
    for (size_t i = 1; i < c->in.size(); i++)
      if (c->in[i]) out.push_back(c->in[i]);
  } else if (!c->in.empty() && c->in[0]) {
    out.push_back(c->in[0]);
  }
}

// The control node a data node hangs from, or null when it floats.
Node* anchorOf(const Node* n) {
  if (n->isCFG() || n->in.empty() || !n->in[0]) return nullptr;
  if (n->op == Op::Phi || n->op == Op::Parm || (opInfo(n->op).flags & CTRL)) return n->in[0];
  if (n->op == Op::Proj && n->in[0]->isCFG()) return n->in[0];
  return nullptr;
}

// index = j + c with j the loop's Phi (through Casts) and c a small constant.
bool offsetOfPhi(Node* index, Node* phi, int64_t* c) {
  Node* x = withoutCasts(index);
  if (x == phi) {
    *c = 0;
    return true;
  }
  if (!x || (x->op != Op::Add && x->op != Op::Sub) || x->in.size() != 3) return false;
  for (int order = 0; order < (x->op == Op::Add ? 2 : 1); order++) {
    Node* v = x->in[order ? 2 : 1];
    Node* k = x->in[order ? 1 : 2];
    if (withoutCasts(v) != phi || !k || !k->isConst() || !k->type->isInt()) continue;
    int64_t kv = k->type->value();
    if (kv < -kMaxOffset || kv > kMaxOffset) return false;
    *c = x->op == Op::Add ? kv : -kv;
    return true;
  }
  return false;
}

constexpr int kMaxSpans = 8;         // checks of j + d with d not constant, per loop
constexpr int kMaxLinearDepth = 8;   // additions looked through from an index down to j

// Is n (through Casts) j plus or minus loop-invariant values: a chain of
// Add and Sub with j in it once, never subtracted?
bool linearInPhi(Node* n, Node* phi, LoopInvariance& inv, int depth = kMaxLinearDepth) {
  n = withoutCasts(n);
  if (n == phi) return true;
  if (depth == 0 || !n || (n->op != Op::Add && n->op != Op::Sub) || n->in.size() != 3 || !n->in[1] || !n->in[2])
    return false;
  if (linearInPhi(n->in[1], phi, inv, depth - 1)) return inv.invariant(n->in[2]);
  return n->op == Op::Add && inv.invariant(n->in[1]) && linearInPhi(n->in[2], phi, inv, depth - 1);
}

class Planner {
 public:
  Planner(Graph& g, const ControlFlow& cf) : g_(g), cf_(cf), mark_(g.size(), 0) {}

  bool plan(Node* loop, Plan* p) {
    p->loop = loop;
    if (loop->in.size() != 3 || !loop->in[1] || !loop->in[2] || !cf_.reached(loop->in[2])) return false;
    if (!header(loop, p)) return false;
    stamp_++;
    std::vector<Node*> ctrl;
    if (!collectControl(loop, p, ctrl) || marked(p->exit)) return false;
    LoopInvariance inv(cf_, loop);
    if (!inv.invariant(p->limit) || !inv.invariant(p->init)) return false;
    std::vector<BasicIV> ivs = findBasicIVs(inv);
    Node* phi = nullptr;
    for (const BasicIV& iv : ivs)
      if (iv.phi == phi_ && !iv.down && iv.step->isConst() && iv.step->type->value() == 1) phi = iv.phi;
    if (!phi) return false;
    for (Node* c : ctrl) {
      if (c->op != Op::BoundsCheck || c->in.size() != 3 || !c->in[1] || !c->in[2]) continue;
      int64_t off;
      const Type* lt = c->in[2]->type;
      if (!lt || !lt->isInt() || !inv.invariant(c->in[2])) continue;
      // A constant offset is tested per array with `length - c`, which
      // needs a length known not to be negative (a New's length input may
      // not be); else as a span, whose tests do no arithmetic on the length.
      if (lt->lo() < 0 || !offsetOfPhi(c->in[1], phi, &off)) {
        if (int(p->spans.size()) >= kMaxSpans || !linearInPhi(c->in[1], phi, inv)) continue;
        std::pair<Node*, Node*> span{withoutCasts(c->in[1]), c->in[2]};
        if (std::find(p->spans.begin(), p->spans.end(), span) == p->spans.end()) p->spans.push_back(span);
        p->checks.push_back(c);
        continue;
      }
      auto it = std::find_if(p->lengths.begin(), p->lengths.end(),
                             [&](const LengthRange& r) { return r.length == c->in[2]; });
      if (it == p->lengths.end()) {
        p->lengths.push_back({c->in[2], off, off});
      } else {
        it->cmin = std::min(it->cmin, off);
        it->cmax = std::max(it->cmax, off);
      }
      p->checks.push_back(c);
    }
    if (p->checks.empty()) return false;
    p->phi = phi;
    return collectData(ctrl, p);
  }

 private:
  // The loop's test: Loop -> If(LT/LE(j, limit)), body on the true arm.
  bool header(Node* loop, Plan* p) {
    Node* iff = nullptr;
    for (Node* u : loop->out)
      if (u->isCFG()) {
        if (iff || u->op != Op::If) return false;
        iff = u;
      }
    if (!iff || iff->in.size() != 2 || !iff->in[1] || iff->out.size() != 2) return false;
    Node* cmp = iff->in[1];
    if ((cmp->op != Op::LT && cmp->op != Op::LE) || cmp->in.size() != 3 || !cmp->in[1] || !cmp->in[2]) return false;
    Node* j = withoutCasts(cmp->in[1]);
    if (!j || j->op != Op::Phi || j->in[0] != loop || j->in.size() != 3) return false;
    for (Node* proj : iff->out) {
      if (proj->op != Op::CProj) return false;
      if (proj->aux == 1) p->exit = proj;
    }
    if (!p->exit) return false;
    header_ = iff;
    phi_ = j;
    // A Cast evaluates to its value: the guard reads the value itself,
    // which is invariant when the Casts (pinned after earlier loops) are.
    p->init = withoutCasts(j->in[1]);
    p->limit = withoutCasts(cmp->in[2]);
    p->inclusive = cmp->op == Op::LE;
    return p->init && p->limit && p->limit->type && p->limit->type->isInt();
  }

  bool marked(const Node* n) const { return n->id < mark_.size() && mark_[n->id] == stamp_; }
  void markNode(const Node* n) { mark_[n->id] = stamp_; }

  // The loop's control nodes: those that reach the back edge without
  // passing the header. None may leave the loop but the header's exit.
  bool collectControl(Node* loop, Plan* p, std::vector<Node*>& ctrl) {
    markNode(loop);
    ctrl.push_back(loop);
    std::vector<Node*> work{loop->in[2]}, preds;
    while (!work.empty()) {
      Node* c = work.back();
      work.pop_back();
      if (marked(c)) continue;
      workCounters().loopOptSteps++;
      if (!cf_.reached(c) || c->op == Op::Loop || c->op == Op::Never || c->op == Op::Fun || c->op == Op::Start ||
          int(ctrl.size()) > kMaxVersionedNodes)
        return false;
      markNode(c);
      ctrl.push_back(c);
      preds.clear();
      controlPreds(c, preds);
      for (Node* d : preds) work.push_back(d);
    }
    for (Node* c : ctrl)
      for (Node* u : c->out) {
        if (!u->isCFG() || marked(u)) continue;
        if (c == header_ && u == p->exit) continue;
        return false;
      }
    return true;
  }

  // The data nodes to copy: those the loop's values flow into (through
  // floating nodes, up to nodes pinned outside) that the loop itself uses.
  bool collectData(const std::vector<Node*>& ctrl, Plan* p) {
    // Variant: pinned to the loop's control, or computed from such a node.
    std::vector<Node*> variant;
    std::unordered_map<const Node*, char> isVariant;
    std::vector<Node*> work(ctrl.begin(), ctrl.end());
    int budget = 8 * kMaxVersionedNodes;
    while (!work.empty()) {
      Node* n = work.back();
      work.pop_back();
      for (Node* u : n->out) {
        if (u->isCFG() || isVariant.count(u)) continue;
        Node* a = anchorOf(u);
        if (a && !marked(a)) continue;  // pinned outside: uses the value the loop hands on
        if (--budget < 0) return false;
        workCounters().loopOptSteps++;
        isVariant[u] = 1;
        variant.push_back(u);
        work.push_back(u);
      }
    }
    // Needed: an input, through variant nodes, of the loop's own nodes.
    for (Node* n : ctrl) p->body.push_back(n);
    std::vector<Node*> need(ctrl.begin(), ctrl.end());
    for (Node* v : variant) {
      Node* a = anchorOf(v);
      if (a && marked(a)) need.push_back(v);
    }
    std::unordered_map<const Node*, char> taken;
    for (Node* n : need) taken[n] = 1;
    for (size_t i = 0; i < need.size(); i++) {
      Node* n = need[i];
      if (!n->isCFG()) p->body.push_back(n);
      for (Node* d : n->in) {
        if (!d || !isVariant.count(d) || taken.count(d)) continue;
        taken[d] = 1;
        need.push_back(d);
      }
    }
    if (int(p->body.size()) > kMaxVersionedNodes) return false;
    for (Node* n : p->body) {
      if (n->op == Op::Scope || n->keep) return false;
      if (n->id >= owner_.size()) owner_.resize(g_.size(), 0);
      if (owner_[n->id]) return false;  // belongs to a loop planned before
    }
    for (Node* n : p->body) owner_[n->id] = 1;
    return true;
  }

  Graph& g_;
  const ControlFlow& cf_;
  std::vector<uint32_t> mark_;
  uint32_t stamp_ = 0;
  std::vector<char> owner_;
  Node* header_ = nullptr;
  Node* phi_ = nullptr;
};

// A new node typed from its inputs.
Node* made(Graph& g, Op op, std::initializer_list<Node*> ins, int64_t aux = 0) {
  return typed(g.make(op, ins, nullptr, aux));
}

// Does n lead to j through Adds and Subs? (An invariant operand cannot:
// j is not computed before the loop.)
bool reaches(Node* n, Node* phi, int depth = kMaxLinearDepth) {
  n = withoutCasts(n);
  if (n == phi) return true;
  if (depth == 0 || !n || (n->op != Op::Add && n->op != Op::Sub) || n->in.size() != 3) return false;
  return reaches(n->in[1], phi, depth - 1) || reaches(n->in[2], phi, depth - 1);
}

// The index n (linearInPhi) with j replaced by v: new nodes down to j.
Node* substitute(Graph& g, Node* n, Node* phi, Node* v) {
  n = withoutCasts(n);
  if (n == phi) return v;
  if (reaches(n->in[1], phi)) return made(g, n->op, {nullptr, substitute(g, n->in[1], phi, v), n->in[2]});
  return made(g, n->op, {nullptr, n->in[1], substitute(g, n->in[2], phi, v)});
}

// The guard's tests, each true when the copy's checks cannot fail:
// `init + cmin >= 0` and `limit + cmax < length` (`<=` for a `j < limit`
// loop) for every length of constant offsets, without arithmetic that
// could wrap (those lengths are known not negative, the offsets small);
// then the spans' first and last indices.
std::vector<Node*> guardTests(Graph& g, const Plan& p) {
  std::vector<Node*> tests;
  int64_t cmin = kMaxOffset;
  for (const LengthRange& r : p.lengths) cmin = std::min(cmin, r.cmin);
  // j never falls below init: j + c >= init + cmin.
  if (!p.lengths.empty() && !(p.init->type && p.init->type->isInt() && p.init->type->lo() >= -cmin))
    tests.push_back(made(g, Op::LE, {nullptr, g.con(Type::intConst(-cmin)), p.init}));
  for (const LengthRange& r : p.lengths) {
    Node* room = r.length;
    if (r.cmax > 0) room = made(g, Op::Sub, {nullptr, r.length, g.con(Type::intConst(r.cmax))});
    tests.push_back(made(g, p.inclusive ? Op::LT : Op::LE, {nullptr, p.limit, room}));
  }
  if (p.spans.empty()) return tests;
  // An index j + d over j in [init, last] takes the values first + k for
  // k = 0 .. last - init (each computed mod 2^64, as the loop does): all
  // are in [0, length) when first and last are and first <= last (then
  // no value wrapped around in between).
  Node* last = p.limit;
  if (p.inclusive) {
    // j <= limit with limit = INT64_MAX would wrap j itself.
    tests.push_back(made(g, Op::LT, {nullptr, p.limit, g.con(Type::intConst(INT64_MAX))}));
  } else {
    last = made(g, Op::Sub, {nullptr, p.limit, g.con(Type::intConst(1))});
  }
  for (auto [index, length] : p.spans) {
    Node* first = substitute(g, index, p.phi, p.init);
    Node* lastIndex = substitute(g, index, p.phi, last);
    tests.push_back(made(g, Op::LE, {nullptr, g.con(Type::intConst(0)), first}));
    tests.push_back(made(g, Op::LE, {nullptr, first, lastIndex}));
    tests.push_back(made(g, Op::LT, {nullptr, lastIndex, length}));
  }
  return tests;
}

// `anchors`: Graph::debugAnchors() before any loop was copied (-g).
void version(Graph& g, const Plan& p, const std::vector<Graph::DebugAnchor>& anchors) {
  // One branch per test (no flags combined in registers): the first that
  // fails leads to the loop as it was.
  Node* loop = p.loop;
  Node* fastIn = loop->in[1];
  std::vector<Node*> failed{nullptr};
  for (Node* test : p.tests) {
    Node* guard = made(g, Op::If, {fastIn, test});
    fastIn = made(g, Op::CProj, {guard}, 0);
    failed.push_back(made(g, Op::CProj, {guard}, 1));
  }
  Node* slowIn = failed.size() == 2 ? failed[1] : g.make(Op::Region, failed, Type::ctrl());

  std::unordered_map<const Node*, Node*> copy;
  std::unordered_map<const Node*, char> isCopy;
  for (Node* x : p.body) {
    Node* c = g.make(x->op, {}, x->type, x->aux);
    c->pos = x->pos;
    c->name = x->name;
    copy[x] = c;
    isCopy[c] = 1;
  }
  auto mapped = [&](Node* d) -> Node* {
    if (!d) return nullptr;
    auto it = copy.find(d);
    return it == copy.end() ? d : it->second;
  };
  for (Node* x : p.body)
    for (Node* d : x->in) g.addDef(copy[x], mapped(d));
  // -g: the copy's values carry the same variables.
  if (!g.debugNames.empty())
    for (Node* x : p.body)
      for (uint32_t k = x->dbg; k != 0; k = g.debugNames[k].next) {
        DebugName d = g.debugNames[k];  // a copy: the vector grows
        // The live control the binding stands under (d.at may be a node
        // subsumed since, that only the anchors follow to its successor).
        if (k < anchors.size()) d.at = anchors[k].at;
        d.at = mapped(d.at);
        g.addDebugNameCopy(copy[x], d);
      }

  Node* fast = copy[loop];
  g.setDef(fast, 1, fastIn);
  g.setDef(loop, 1, slowIn);

  // Both copies leave into one Region; what followed the exit follows it.
  Node* exit = p.exit;
  Node* fastExit = made(g, Op::CProj, {mapped(exit->in[0])}, exit->aux);
  std::vector<std::pair<Node*, size_t>> exitUses;
  for (size_t k = 0; k < exit->out.size(); k++) exitUses.push_back({exit->out[k], exit->out.link(k)});
  Node* merge = g.make(Op::Region, {nullptr, exit, fastExit}, Type::ctrl());
  for (auto [u, slot] : exitUses) g.setDef(u, slot, merge);

  // Every value the loop hands on is a Phi of the two copies' values.
  for (Node* x : p.body) {
    if (x->isCFG()) continue;
    std::vector<std::pair<Node*, size_t>> outside;
    for (size_t k = 0; k < x->out.size(); k++) {
      Node* u = x->out[k];
      if (!copy.count(u) && !isCopy.count(u)) outside.push_back({u, x->out.link(k)});
    }
    if (outside.empty()) continue;
    Node* phi = g.make(Op::Phi, {merge, x, copy[x]}, x->type);
    for (auto [u, slot] : outside) g.setDef(u, slot, phi);
  }

  // The copy runs only when the guard held: its checks cannot fail.
  for (Node* b : p.checks) {
    Node* c = copy[b];
    g.subsume(c, c->in[0]);
  }
}

}  // namespace

int versionLoops(Graph& g, uint64_t seed) {
  if (g.loops().empty()) return 0;  // before the control-flow analysis a huge loopless body would pay for
  auto cf = controlFlow(g);
  if (!hasLoop(*cf)) return 0;
  Planner planner(g, *cf);
  std::vector<Plan> plans = planLoops<Plan>(*cf, planner);
  for (Plan& p : plans) p.tests = guardTests(g, p);
  std::vector<Graph::DebugAnchor> anchors;
  if (!g.debugNames.empty()) anchors = g.debugAnchors();
  for (const Plan& p : plans) version(g, p, anchors);
  workCounters().loopsVersioned += plans.size();
  if (!plans.empty()) iterPeeps(g, seed);
  return int(plans.size());
}

}  // namespace simplec
