// The in-block list scheduler: a depth-first, demand-driven order over the
// block's dependence DAG, with an explicit stack (a block may hold a chain
// of a hundred thousand nodes). Per-node state lives in the LocalScheduler,
// indexed by node id; a block marks its own nodes with a fresh epoch.
#include "sched/local_sched.h"

#include <algorithm>
#include <string>

#include "lexer/diag.h"
#include "sched/cfg.h"
#include "sched/overwriters.h"
#include "son/mem_access.h"

namespace simplec {

namespace {

enum : char { kPending = 0, kOnStack = 1, kDone = 2 };

bool byId(const Node* a, const Node* b) { return a->id < b->id; }
bool byAuxThenId(const Node* a, const Node* b) { return a->aux != b->aux ? a->aux < b->aux : a->id < b->id; }

}  // namespace

class BlockScheduler {
 public:
  BlockScheduler(LocalScheduler& ls, const std::vector<Node*>& ctrl, int block) : ls_(ls), ctrl_(ctrl), block_(block) {
    if (++ls_.epoch_ == 0) {
      std::fill(ls_.stamp_.begin(), ls_.stamp_.end(), 0);
      ls_.epoch_ = 1;
    }
  }

  std::vector<Node*> run(const std::vector<Node*>& members, const std::vector<char>& liveOut) {
    Node* head = ctrl_[0];
    Node* last = ctrl_.back();
    if (ctrl_.size() > 1 && (last->op == Op::If || last->op == Op::Never || last->op == Op::Return)) term_ = last;

    std::vector<Node*> phis, parms, free, outs;
    for (size_t i = 0; i < members.size(); i++) {
      Node* n = members[i];
      if (n->op == Op::Phi) {
        phis.push_back(n);
      } else if (n->op == Op::Parm) {
        parms.push_back(n);
      } else {
        free.push_back(n);
        if (i < liveOut.size() && liveOut[i]) outs.push_back(n);
      }
    }
    std::sort(phis.begin(), phis.end(), byId);
    std::sort(parms.begin(), parms.end(), byAuxThenId);
    std::sort(outs.begin(), outs.end(), byId);

    // The nodes to order: inner control nodes and the free data nodes.
    std::vector<Node*> inner(ctrl_.begin() + 1, term_ ? ctrl_.end() - 1 : ctrl_.end());
    for (Node* n : inner) mark(n);
    for (Node* n : free) mark(n);

    order_.reserve(members.size() + ctrl_.size());
    order_.push_back(head);
    order_.insert(order_.end(), phis.begin(), phis.end());
    order_.insert(order_.end(), parms.begin(), parms.end());
    findAntiDependences(free);
    // (Not between a Call and its CallEnd: the call happens in between.)
    size_t eagerFrom = order_.size();
    for (Node* c : inner) {
      schedule(c);
      if (c->op == Op::Call) continue;
      consumeEagerly(eagerFrom);
      eagerFrom = order_.size();
    }
    // A loop variable's next value goes after the other uses of the
    // variable here: then the two need not be live at once and share a
    // register (`lea 1(%r14), %rdi ... mov %rdi, %r14` was strbuild's
    // digit loop, the store of buf[i] between the two).
    std::vector<Node*> steps;
    for (Node* n : outs)
      if (stepsVariableStillUsed(n)) steps.push_back(n);
      else schedule(n);
    for (Node* n : steps) schedule(n);
    if (term_) schedule(term_);
    // Whatever is left has no use at all (the function's nodes always have
    // one, so this is defensive): still placed, before the final If/Return.
    std::vector<Node*> rest;
    for (Node* n : free)
      if (*find(n) != kDone) rest.push_back(n);
    if (!rest.empty()) {
      std::sort(rest.begin(), rest.end(), byId);
      if (term_) order_.pop_back();
      for (Node* n : rest) schedule(n);
      if (term_) order_.push_back(term_);
    }
    return std::move(order_);
  }

 private:
  // n is a variable's next value (a Phi uses it) computed from a Phi's
  // value (or from a Cast of it), which another node of this block, not
  // yet placed, reads too (through the same Casts). Memory Phis do not
  // count: stores come in their own order. Bounded, so that a block costs
  // what it holds: a node with very many uses counts as read again, and
  // only a few Casts are looked through.
  bool stepsVariableStillUsed(const Node* n) {
    constexpr int kCasts = 4;
    if (n->op == Op::Phi || n->isCFG() || !n->type || !(n->type->isInt() || n->type->isFlt() || n->type->isPtr()))
      return false;
    if (n->out.size() > kManyUses) return false;
    bool feedsPhi = false;
    for (const Node* u : n->out) feedsPhi = feedsPhi || (u && u->op == Op::Phi);
    if (!feedsPhi) return false;
    for (const Node* d : n->in) {
      const Node* p = d;
      for (int k = 0; k < kCasts && p && p->op == Op::Cast && p->in.size() > 1; k++) p = p->in[1];
      if (!p || p->op != Op::Phi) continue;
      for (const Node* x = d;; x = x->in[1]) {
        if (x->out.size() > kManyUses) return true;
        for (const Node* u : x->out) {
          const char* st = u == n ? nullptr : find(u);
          if (st && *st != kDone) return true;
        }
        if (x == p) break;
      }
    }
    return false;
  }
  // After an inner control node (a call, say): the arithmetic that its
  // results and the values placed with it make ready, and that ends at
  // least as many values as it makes (the last use of two, or of its one
  // input), goes right away, and so on down. Demand alone placed
  // `sum = sum * K + f(...)`, repeated, after the last call: every result
  // stayed alive to there. Not loads, compares, casts, nor a loop
  // variable's next value (they have their own places); bounded by use
  // counts, so a block costs what it holds.
  void consumeEagerly(size_t from) {
    for (size_t k = from; k < order_.size(); k++) {
      const Node* e = order_[k];
      if (e->out.size() > kManyUses) continue;
      for (Node* u : e->out) {
        if (!readyToEnd(u)) continue;
        for (Node* d : u->in) {  // its constants first
          char* ds = d && d->op == Op::Con ? find(d) : nullptr;
          if (ds && *ds == kPending) emit(d);
        }
        emit(u);
      }
    }
  }
  bool readyToEnd(const Node* u) {
    char* st = find(u);
    if (!st || *st != kPending || u->isCFG() || !u->type || !(u->type->isInt() || u->type->isFlt())) return false;
    switch (u->op) {
      case Op::Phi: case Op::Load: case Op::Store: case Op::New: case Op::Call: case Op::Cast: case Op::Proj:
      case Op::EQ: case Op::NE: case Op::LT: case Op::LE: case Op::FLT: case Op::FLE: case Op::Not:
        return false;
      default: break;
    }
    if (u->in.empty() || u->in[0] || u->out.size() > kManyUses) return false;
    for (const Node* x : u->out)
      if (x->op == Op::Phi) return false;
    int inputs = 0, ended = 0;
    for (size_t i = 1; i < u->in.size(); i++) {
      const Node* d = u->in[i];
      if (!d) continue;
      const char* ds = find(d);
      if (d->op == Op::Con) {
        if (ds && *ds == kOnStack) return false;
        continue;  // a constant of this block goes first (consumeEagerly)
      }
      if (ds && *ds != kDone) return false;  // not ready
      inputs++;
      if (!ds || d->out.size() > kManyUses) continue;  // made elsewhere, or read by many
      bool last = true;
      for (const Node* x : d->out) {
        const char* xs = x == u ? nullptr : find(x);
        if (x != u && (!xs || *xs != kDone)) last = false;
      }
      ended += last;
    }
    return ended >= 2 || (ended == 1 && inputs == 1);
  }
  void mark(const Node* n) {
    SIMPLEC_CHECK(n->id < ls_.stamp_.size(), "gcm", nodeLabel(n) + " is not of this function");
    ls_.stamp_[n->id] = ls_.epoch_;
    ls_.state_[n->id] = kPending;
  }
  // The state of a node to order, or null for any other node.
  char* find(const Node* n) {
    return n->id < ls_.stamp_.size() && ls_.stamp_[n->id] == ls_.epoch_ ? &ls_.state_[n->id] : nullptr;
  }

  // A load of this block comes before the stores and calls of this block
  // that may overwrite what it reads (sched/overwriters.h).
  void findAntiDependences(const std::vector<Node*>& free) {
    for (Node* l : free) {
      if (l->op != Op::Load || !l->in[1]) continue;
      ls_.mem_.forEachOverwriter(
          l,
          [&](const Node* w) {
            if (find(w)) anti_.push_back({const_cast<Node*>(w), l});
          },
          [](const Node*, const Node*) {}, [](const Node*) { return false; });
    }
    std::sort(anti_.begin(), anti_.end(), [](const auto& a, const auto& b) {
      return a.first->id != b.first->id ? a.first->id < b.first->id : a.second->id < b.second->id;
    });
  }
  // Loads that must precede n (anti-dependences), after its inputs: the
  // range [first, second) of anti_.
  std::pair<uint32_t, uint32_t> extraDeps(const Node* n) const {
    if (anti_.empty()) return {0, 0};
    auto it = std::lower_bound(anti_.begin(), anti_.end(), n,
                               [](const auto& a, const Node* x) { return a.first->id < x->id; });
    auto end = it;
    while (end != anti_.end() && end->first == n) ++end;
    return {uint32_t(it - anti_.begin()), uint32_t(end - anti_.begin())};
  }

  // A node being ordered: its next input to look at (then its extra
  // dependences), and whether it was pushed as a load that must precede the
  // node below it.
  struct Frame {
    Node* n;
    size_t next;
    uint32_t extraBegin, extraEnd;
    bool viaAnti;
  };

  // Emit root after its unscheduled in-block inputs, depth first, in input order.
  void schedule(Node* root) {
    if (root != term_) {
      char* st = find(root);
      if (*st == kDone) return;
      *st = kOnStack;
    }
    // One stack for the whole block: a block with many roots allocates once.
    std::vector<Frame>& stack = stack_;
    stack.clear();
    auto push = [&](Node* n, bool viaAnti) {
      auto [b, e] = extraDeps(n);
      stack.push_back({n, 0, b, e, viaAnti});
    };
    push(root, false);
    while (!stack.empty()) {
      Frame& f = stack.back();
      Node* n = f.n;
      if (f.next < n->in.size() + (f.extraEnd - f.extraBegin)) {
        bool isAnti = f.next >= n->in.size();
        Node* d = isAnti ? anti_[f.extraBegin + (f.next - n->in.size())].second : n->in[f.next];
        f.next++;
        if (!d) continue;
        if (d == term_) internalError("gcm", nodeLabel(n) + " uses " + nodeLabel(d) + ", which ends its block");
        char* st = find(d);
        if (!st || *st == kDone) continue;  // placed already, or not in this block's list
        if (*st == kOnStack && isAnti) continue;  // the load depends on n itself: it reads other bytes
        if (*st == kOnStack) internalError("gcm", cycleMessage(stack, d));
        *st = kOnStack;
        push(d, isAnti);  // f dangles from here on
        continue;
      }
      emit(n);
      stack.pop_back();
    }
  }

  // The top of `stack` needs `d`, which is below it on the stack: the nodes
  // from d up form a cycle. Names its two ends: a load and the store or call
  // that may overwrite what it reads (the load must come first, yet it needs
  // the writer's result), or, with no anti-dependence in the cycle, the two
  // nodes whose use closes it; then the cycle itself (clipped).
  std::string cycleMessage(const std::vector<Frame>& stack, const Node* d) const {
    size_t from = stack.size() - 1;
    while (from > 0 && stack[from].n != d) from--;
    // The cycle as "needs" links, starting after an anti-dependence if any.
    size_t start = from;
    for (size_t k = from + 1; k < stack.size(); k++)
      if (stack[k].viaAnti) {
        start = k;
        break;
      }
    std::vector<const Node*> cycle;
    size_t len = stack.size() - from;
    for (size_t j = 0; j < len; j++) cycle.push_back(stack[from + (start - from + j) % len].n);
    cycle.push_back(cycle[0]);  // closed
    constexpr size_t kShown = 8;  // first and last four of a longer cycle
    std::string path;
    for (size_t j = 0; j < cycle.size(); j++) {
      if (cycle.size() > kShown && j == kShown / 2) {
        path += " needs ... (" + std::to_string(cycle.size() - kShown) + " more)";
        j = cycle.size() - kShown / 2;
      }
      path += (j == 0 ? "" : " needs ") + nodeLabel(cycle[j]);
    }
    std::string at = "dependence cycle in block " + std::to_string(block_) + ": ";
    if (start != from) {
      const Node* load = stack[start].n;
      const Node* writer = stack[start - 1].n;
      return at + nodeLabel(load) + " must run before " + nodeLabel(writer) +
             ", which may overwrite what it reads, but it depends on " + nodeLabel(writer) + ": " + path;
    }
    return at + nodeLabel(stack.back().n) + " and " + nodeLabel(d) + " depend on each other: " + path;
  }

  void emit(Node* n) {
    order_.push_back(n);
    if (n == term_) return;
    *find(n) = kDone;
    if (n->op != Op::CallEnd && n->op != Op::New) return;
    // Glue the CallEnd's pending Projs right after it (memory, then result):
    // the selector copies the result out of its fixed register at once.
    std::vector<Node*> projs;
    for (Node* u : n->out)
      if (u->op == Op::Proj && u->in.size() == 1) {
        char* st = find(u);
        if (st && *st == kPending) projs.push_back(u);
      }
    std::sort(projs.begin(), projs.end(), byAuxThenId);
    projs.erase(std::unique(projs.begin(), projs.end()), projs.end());
    for (Node* p : projs) {
      order_.push_back(p);
      *find(p) = kDone;
    }
  }

  // A node with more uses than this counts as read again later: the
  // checks that look at uses stay cheap, so a block costs what it holds.
  static constexpr size_t kManyUses = 32;

  LocalScheduler& ls_;
  const std::vector<Node*>& ctrl_;
  std::vector<std::pair<Node*, Node*>> anti_;  // (store or call, load before it), by ids
  int block_;
  Node* term_ = nullptr;
  std::vector<Node*> order_;
  std::vector<Frame> stack_;
};

LocalScheduler::LocalScheduler(const Graph& g, const MemoryIndex& mem)
    : mem_(mem), stamp_(g.size(), 0), state_(g.size(), kPending) {}

std::vector<Node*> LocalScheduler::schedule(const std::vector<Node*>& ctrl, const std::vector<Node*>& members,
                                            const std::vector<char>& liveOut, int block) {
  if (ctrl.empty()) internalError("gcm", "block " + std::to_string(block) + " has no control node");
  return BlockScheduler(*this, ctrl, block).run(members, liveOut);
}

}  // namespace simplec
