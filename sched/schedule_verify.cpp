// The schedule checker. It recomputes what it needs from the graph itself
// (reachable control, the function's nodes, dominator sets, natural loops)
// rather than trusting gcm's helpers, so a bug there cannot hide here.
#include "sched/schedule_verify.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "lexer/diag.h"
#include "sched/cfg.h"
#include "sched/gcm.h"
#include "son/mem_access.h"
#include "son/unit.h"

namespace simplec {

namespace {

constexpr size_t kMaxErrors = 50;
constexpr size_t kExactDomLimit = 3000;       // blocks: exact idom check (quadratic)
constexpr double kLoopCheckLimit = 5e7;       // blocks x loops for the depth check
constexpr long kAntiDepVisitLimit = 20'000'000;  // memory users visited by the anti-dependence check

std::string ref(const Node* n) { return "%" + std::to_string(n->id) + " (" + n->label() + ")"; }
std::string blk(int b) { return "B" + std::to_string(b); }
bool isHeadKind(const Node* n) {
  return n->op == Op::Fun || n->isRegion() ||
         (n->op == Op::CProj && !n->in.empty() && n->in[0] &&
          (n->in[0]->op == Op::If || n->in[0]->op == Op::Never));
}

class Checker {
 public:
  Checker(const Graph& g, const Schedule& s) : g_(g), s_(s) {}

  std::vector<std::string> run() {
    if (s_.funIndex != g_.funIndex()) return {"the schedule is of another function"};
    const FunInfo& f = g_.info();
    if (!f.fun || !f.ret) return {"the function has no body"};
    if (s_.blocks.empty() || s_.blocks[0].head != f.fun) return {"block 0 must be headed by the function's Fun"};
    if (!indexNodes()) return errs_;
    checkBlocks();
    checkMembership(f);
    if (!errs_.empty()) return errs_;  // the rest assumes sound blocks
    checkDominators();
    if (!errs_.empty()) return errs_;
    checkLoopDepths();
    checkDependences();
    checkAntiDependences();
    return errs_;
  }

 private:
  void err(std::string m) {
    if (errs_.size() < kMaxErrors) errs_.push_back(std::move(m));
  }
  int blockOf(const Node* n) const {
    auto it = pos_.find(n);
    return it == pos_.end() ? -1 : it->second.first;
  }
  int indexIn(const Node* n) const { return pos_.at(n).second; }
  int nb() const { return int(s_.blocks.size()); }

  bool indexNodes() {
    for (int b = 0; b < nb(); b++) {
      const BasicBlock& bb = s_.blocks[size_t(b)];
      for (size_t k = 0; k < bb.nodes.size(); k++) {
        const Node* n = bb.nodes[k];
        if (!n) {
          err(blk(b) + " holds a null node");
          return false;
        }
        if (!pos_.emplace(n, std::make_pair(b, int(k))).second) err(ref(n) + " is placed twice");
        if (s_.blockIndexOf(n) != b) err(ref(n) + " is in " + blk(b) + " but blockOf says " + blk(s_.blockIndexOf(n)));
      }
    }
    size_t mapped = 0;
    for (int b : s_.blockOf) mapped += b >= 0;
    if (mapped != pos_.size()) err("blockOf maps nodes that are in no block");
    return errs_.empty();
  }

  // The control nodes of block b, in order.
  std::vector<const Node*> ctrlOf(int b) const {
    std::vector<const Node*> c;
    for (const Node* n : s_.blocks[size_t(b)].nodes)
      if (n->isCFG()) c.push_back(n);
    return c;
  }

  void checkBlocks() {
    for (int b = 0; b < nb(); b++) {
      const BasicBlock& bb = s_.blocks[size_t(b)];
      std::string at = blk(b) + ": ";
      if (bb.nodes.empty() || bb.nodes[0] != bb.head || !bb.head || !isHeadKind(bb.head)) {
        err(at + "must start with its head (Fun, Region, Loop or If projection)");
        continue;
      }
      if (bb.head->op == Op::Fun && b != 0) err(at + "a Fun heads a block other than the entry");
      size_t k = 1;
      while (k < bb.nodes.size() && bb.nodes[k]->op == Op::Phi) {
        if (bb.nodes[k]->in.empty() || bb.nodes[k]->in[0] != bb.head) err(at + ref(bb.nodes[k]) + " is not on its head");
        k++;
      }
      for (; k < bb.nodes.size(); k++)
        if (bb.nodes[k]->op == Op::Phi) err(at + ref(bb.nodes[k]) + " does not follow the head directly");
      std::vector<const Node*> c = ctrlOf(b);
      for (size_t i = 1; i < c.size(); i++) {
        if (isHeadKind(c[i])) err(at + ref(c[i]) + " starts a block but is inside one");
        if (c[i]->in.empty() || c[i]->in[0] != c[i - 1]) err(at + ref(c[i]) + " does not follow " + ref(c[i - 1]));
      }
      const Node* last = c.back();
      if ((last->op == Op::If || last->op == Op::Never || last->op == Op::Return) && bb.nodes.back() != last)
        err(at + ref(last) + " must be the last node");
      checkSuccs(b, last);
      checkPreds(b);
    }
  }

  void checkSuccs(int b, const Node* last) {
    const BasicBlock& bb = s_.blocks[size_t(b)];
    std::string at = blk(b) + ": ";
    for (int x : bb.succs)
      if (x < 0 || x >= nb()) {
        err(at + "successor out of range");
        return;
      }
    if (last->op == Op::If || last->op == Op::Never) {
      bool ok = bb.succs.size() == 2;
      for (size_t i = 0; ok && i < 2; i++) {
        const Node* h = s_.blocks[size_t(bb.succs[i])].head;
        ok = h && h->op == Op::CProj && h->in[0] == last && h->aux == int64_t(i);
      }
      if (!ok) err(at + "a branch's successors must be its arm 0, then its arm 1");
    } else if (last->op == Op::Return) {
      if (!bb.succs.empty()) err(at + "a Return block has successors");
    } else {
      const Node* h = bb.succs.size() == 1 ? s_.blocks[size_t(bb.succs[0])].head : nullptr;
      if (!h || !h->isRegion() || h->in.size() < 2 || std::find(h->in.begin() + 1, h->in.end(), last) == h->in.end())
        err(at + "must end in a jump to a Region or Loop that lists " + ref(last));
    }
    for (int x : bb.succs) {
      const std::vector<int>& p = s_.blocks[size_t(x)].preds;
      if (std::find(p.begin(), p.end(), b) == p.end()) err(at + "is not a predecessor of its successor " + blk(x));
    }
  }

  void checkPreds(int b) {
    const BasicBlock& bb = s_.blocks[size_t(b)];
    std::string at = blk(b) + ": ";
    const Node* h = bb.head;
    for (int p : bb.preds) {
      if (p < -1 || p >= nb()) {
        err(at + "predecessor out of range");
        return;
      }
      if (p >= 0) {
        const std::vector<int>& sx = s_.blocks[size_t(p)].succs;
        if (std::find(sx.begin(), sx.end(), b) == sx.end()) err(at + "is not a successor of its predecessor " + blk(p));
      }
    }
    if (h->op == Op::Fun) {
      if (!bb.preds.empty()) err(at + "the entry has predecessors");
    } else if (h->op == Op::CProj) {
      if (bb.preds.size() != 1 || bb.preds[0] != blockOf(h->in[0])) err(at + "its predecessor must be its If's block");
    } else {
      if (bb.preds.size() + 1 != h->in.size()) {
        err(at + "needs one predecessor per region input");
        return;
      }
      for (size_t i = 0; i < bb.preds.size(); i++) {
        const Node* x = h->in[i + 1];
        int xb = x ? blockOf(x) : -1;
        if (bb.preds[i] != xb) {
          err(at + "predecessor " + std::to_string(i) + " must be the block of input " + std::to_string(i + 1));
          continue;
        }
        if (xb < 0) continue;
        std::vector<const Node*> c = ctrlOf(xb);
        if (c.back() != x) err(at + "input " + ref(x) + " does not end " + blk(xb));
        if (s_.blocks[size_t(xb)].succs.size() != 1) err(at + "critical edge from " + blk(xb));
      }
    }
  }

  // Reachable control and the function's nodes, recomputed from the graph.
  void checkMembership(const FunInfo& f) {
    std::unordered_set<const Node*> reach{f.fun};
    std::vector<const Node*> work{f.fun};
    while (!work.empty()) {
      const Node* x = work.back();
      work.pop_back();
      for (const Node* u : x->out) {
        if (!u->isCFG() || u == g_.stop() || reach.count(u)) continue;
        bool succ = u->isRegion() ? u->in.size() >= 2 && std::find(u->in.begin() + 1, u->in.end(), x) != u->in.end()
                                  : !u->in.empty() && u->in[0] == x;
        if (!succ) continue;
        reach.insert(u);
        work.push_back(u);
      }
    }
    std::unordered_set<const Node*> fn;
    std::vector<const Node*> stack{f.ret};
    fn.insert(f.ret);
    for (const Node* c : reach)
      if (fn.insert(c).second) stack.push_back(c);
    while (!stack.empty()) {
      const Node* n = stack.back();
      stack.pop_back();
      for (size_t i = 0; i < n->in.size(); i++) {
        const Node* d = n->in[i];
        if (!d || d == g_.start()) continue;
        if (n->isRegion() && (i == 0 || !reach.count(d))) continue;  // dead edge
        if (n->op == Op::Phi && i > 0 && n->in[0] && i < n->in[0]->in.size() && !reach.count(n->in[0]->in[i]))
          continue;
        if (fn.insert(d).second) stack.push_back(d);
      }
    }
    std::vector<const Node*> missing, extra;
    for (const Node* n : fn)
      if (!pos_.count(n)) missing.push_back(n);
    for (const auto& [n, p] : pos_)
      if (!fn.count(n)) extra.push_back(n);
    auto byId = [](const Node* a, const Node* b) { return a->id < b->id; };
    std::sort(missing.begin(), missing.end(), byId);
    std::sort(extra.begin(), extra.end(), byId);
    for (const Node* n : missing) err(ref(n) + " belongs to the function but is not scheduled");
    for (const Node* n : extra) err(ref(n) + " is scheduled but does not belong to the function");
  }

  void checkDominators() {
    int n = nb();
    if (s_.blocks[0].idom != -1) err("B0: the entry has an immediate dominator");
    for (int b = 1; b < n; b++) {
      int d = s_.blocks[size_t(b)].idom;
      if (d < 0 || d >= n || d == b) err(blk(b) + ": invalid immediate dominator");
    }
    if (!errs_.empty()) return;
    // Children lists, then pre/post numbers by an iterative walk; a block the
    // walk misses sits on an idom cycle.
    std::vector<std::vector<int>> kids(static_cast<size_t>(n));
    for (int b = 1; b < n; b++) kids[size_t(s_.blocks[size_t(b)].idom)].push_back(b);
    pre_.assign(size_t(n), -1);
    post_.assign(size_t(n), -1);
    int pc = 0, qc = 0;
    std::vector<std::pair<int, size_t>> st{{0, 0}};
    pre_[0] = pc++;
    while (!st.empty()) {
      auto& [b, i] = st.back();
      if (i < kids[size_t(b)].size()) {
        int c = kids[size_t(b)][i++];
        pre_[size_t(c)] = pc++;
        st.push_back({c, 0});
      } else {
        post_[size_t(b)] = qc++;
        st.pop_back();
      }
    }
    if (pc != n) {
      err("the idom links do not form a tree rooted at B0");
      return;
    }
    // Necessary: a block's idom dominates each of its predecessors.
    for (int b = 1; b < n; b++)
      for (int p : s_.blocks[size_t(b)].preds)
        if (p >= 0 && !dominates(s_.blocks[size_t(b)].idom, p))
          err(blk(b) + ": its idom does not dominate its predecessor " + blk(p));
    if (size_t(n) > kExactDomLimit) return;
    // Exact: dominator sets by the classic dataflow; the idom is the strict
    // dominator that has the most dominators itself.
    std::vector<std::vector<char>> dom(size_t(n), std::vector<char>(size_t(n), 1));
    dom[0].assign(size_t(n), 0);
    dom[0][0] = 1;
    for (bool changed = true; changed;) {
      changed = false;
      for (int b = 1; b < n; b++) {
        std::vector<char> nd(size_t(n), 1);
        bool any = false;
        for (int p : s_.blocks[size_t(b)].preds)
          if (p >= 0) {
            any = true;
            for (int x = 0; x < n; x++) nd[size_t(x)] &= dom[size_t(p)][size_t(x)];
          }
        if (!any) nd.assign(size_t(n), 0);
        nd[size_t(b)] = 1;
        if (nd != dom[size_t(b)]) {
          dom[size_t(b)] = std::move(nd);
          changed = true;
        }
      }
    }
    std::vector<long> count(static_cast<size_t>(n));
    for (int x = 0; x < n; x++) count[size_t(x)] = std::count(dom[size_t(x)].begin(), dom[size_t(x)].end(), 1);
    for (int b = 1; b < n; b++) {
      int best = -1;
      long bestCount = -1;
      for (int x = 0; x < n; x++) {
        if (x == b || !dom[size_t(b)][size_t(x)]) continue;
        if (count[size_t(x)] > bestCount) best = x, bestCount = count[size_t(x)];
      }
      if (best != s_.blocks[size_t(b)].idom)
        err(blk(b) + ": idom is " + blk(s_.blocks[size_t(b)].idom) + ", expected " + (best < 0 ? "-" : blk(best)));
    }
  }

  bool dominates(int a, int b) const {
    return pre_[size_t(a)] <= pre_[size_t(b)] && post_[size_t(b)] <= post_[size_t(a)];
  }

  void checkLoopDepths() {
    int n = nb();
    std::vector<std::pair<int, int>> loops;
    for (int b = 0; b < n; b++) {
      const BasicBlock& bb = s_.blocks[size_t(b)];
      if (bb.head->op == Op::Loop && bb.preds.size() == 2 && bb.preds[1] >= 0) loops.push_back({b, bb.preds[1]});
    }
    if (double(n) * double(loops.size()) > kLoopCheckLimit) return;
    std::vector<int> depth(size_t(n), 0);
    std::vector<char> in(static_cast<size_t>(n));
    for (auto [h, latch] : loops) {
      std::fill(in.begin(), in.end(), 0);
      in[size_t(h)] = 1;
      std::vector<int> work;
      if (!in[size_t(latch)]) {
        in[size_t(latch)] = 1;
        work.push_back(latch);
      }
      while (!work.empty()) {
        int x = work.back();
        work.pop_back();
        for (int p : s_.blocks[size_t(x)].preds)
          if (p >= 0 && !in[size_t(p)]) {
            in[size_t(p)] = 1;
            work.push_back(p);
          }
      }
      for (int b = 0; b < n; b++) depth[size_t(b)] += in[size_t(b)];
    }
    for (int b = 0; b < n; b++)
      if (depth[size_t(b)] != s_.blocks[size_t(b)].loopDepth)
        err(blk(b) + ": loop depth " + std::to_string(s_.blocks[size_t(b)].loopDepth) + ", expected " +
            std::to_string(depth[size_t(b)]));
  }

  void checkDependences() {
    for (int b = 0; b < nb(); b++) {
      const BasicBlock& bb = s_.blocks[size_t(b)];
      for (size_t k = 0; k < bb.nodes.size(); k++) {
        const Node* n = bb.nodes[k];
        std::string at = blk(b) + ": " + ref(n);
        if (n->op == Op::Parm && b != 0) err(at + " is not in the entry block");
        if (n->op == Op::Proj && !n->in.empty() && n->in[0] && n->in[0]->isCFG() && blockOf(n->in[0]) != b)
          err(at + " is not in the block of its " + ref(n->in[0]));
        if (n->isRegion()) continue;  // its inputs were checked as predecessors
        for (size_t i = 0; i < n->in.size(); i++) {
          const Node* d = n->in[i];
          if (!d || d == g_.start()) continue;
          int db = blockOf(d);
          if (n->op == Op::Phi && i > 0) {
            int p = i - 1 < bb.preds.size() ? bb.preds[i - 1] : -1;
            if (p < 0) continue;  // dead edge: never read
            if (db < 0) err(at + ": input " + std::to_string(i) + " " + ref(d) + " is not scheduled");
            else if (!dominates(db, p)) err(at + ": input " + std::to_string(i) + " does not reach the end of " + blk(p));
            continue;
          }
          if (db < 0) {
            err(at + ": input " + ref(d) + " is not scheduled");
          } else if (!dominates(db, b)) {
            err(at + ": input " + ref(d) + " in " + blk(db) + " does not dominate it");
          } else if (db == b && indexIn(d) >= int(k)) {
            err(at + ": input " + ref(d) + " comes after it");
          }
        }
      }
    }
  }

  // Memory users of each memory value (by the user's memory inputs), then a
  // walk from each load's memory state: see the header. Only the writers the
  // walk reaches first are checked; the ones beyond them are later still.
  void checkAntiDependences() {
    std::unordered_map<const Node*, std::vector<const Node*>> users;
    for (const auto& [u, p] : pos_)
      for (size_t i = 1; i < u->in.size(); i++) {
        const Node* d = u->in[i];
        bool takesMemory = (u->op == Op::Store || u->op == Op::Call || u->op == Op::New) ? i == 1
                           : u->op == Op::MergeMem;
        if (d && takesMemory) users[d].push_back(u);
      }
    for (auto& [m, us] : users)
      std::sort(us.begin(), us.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
    long visits = 0;
    std::vector<const Node*> loads;
    for (const auto& [n, p] : pos_)
      if (n->op == Op::Load && n->in.size() > 2 && n->in[1]) loads.push_back(n);
    std::sort(loads.begin(), loads.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
    for (const Node* load : loads) {
      int alias = MemAccess::decode(load->aux).alias;
      std::unordered_set<const Node*> seen{load->in[1]};
      std::vector<const Node*> work{load->in[1]};
      while (!work.empty() && visits < kAntiDepVisitLimit) {
        const Node* m = work.back();
        work.pop_back();
        auto it = users.find(m);
        if (it == users.end()) continue;
        for (const Node* u : it->second) {
          visits++;
          const Node* next = nullptr;
          if (u->op == Op::Store && (MemAccess::decode(u->aux).alias != alias || provablyDisjoint(load, u))) {
            next = u;
          } else if (u->op == Op::Store || u->op == Op::Call) {
            checkLoadBefore(load, u);
            continue;
          } else if (u->op == Op::New) {
            for (const Node* x : u->out)
              if (x->op == Op::Proj && x->aux == 1) next = x;
          } else {
            next = u;  // MergeMem
          }
          if (next && seen.insert(next).second) work.push_back(next);
        }
      }
    }
  }

  void checkLoadBefore(const Node* load, const Node* writer) {
    int lb = blockOf(load), wb = blockOf(writer);
    if (lb < 0 || wb < 0) return;
    bool after = lb == wb ? indexIn(writer) < indexIn(load) : dominates(wb, lb);
    if (after)
      err(blk(lb) + ": " + ref(load) + " runs after " + ref(writer) + " (" + blk(wb) +
          "), which may overwrite what it reads");
  }

  const Graph& g_;
  const Schedule& s_;
  std::unordered_map<const Node*, std::pair<int, int>> pos_;  // block, index in it
  std::vector<int> pre_, post_;
  std::vector<std::string> errs_;
};

}  // namespace

std::vector<std::string> verifySchedule(const Graph& g, const Schedule& s) { return Checker(g, s).run(); }

std::vector<std::string> verifySchedules(const Unit& u) {
  std::vector<std::string> errs;
  for (const FunInfo& f : u.funs) {
    if (!f.hasBody()) continue;
    const Graph& g = *f.graph;
    try {
      Schedule s = gcm(g);
      for (const std::string& e : verifySchedule(g, s)) errs.push_back("gcm: " + funLabel(g) + ": " + e);
    } catch (const InternalError& e) {
      errs.push_back("gcm: " + std::string(e.what()));  // gcm names the function
    }
  }
  return errs;
}

}  // namespace simplec
