// Builds the basic blocks of a function from its control nodes, numbers them
// in reverse post-order, and collects the function's nodes. Every walk uses
// an explicit stack: functions may hold a million nodes.
#include "sched/cfg.h"

#include <algorithm>

#include "lexer/diag.h"
#include "son/unit.h"

namespace simplec {

namespace {

// If and Never end a block with a two-way branch; their projections start blocks.
bool isBranch(const Node* n) { return n->op == Op::If || n->op == Op::Never; }
bool isIfProj(const Node* n) {
  return n->op == Op::CProj && !n->in.empty() && n->in[0] && isBranch(n->in[0]);
}

class CfgBuilder {
 public:
  explicit CfgBuilder(const Graph& g) : g_(g) {}

  FunctionCfg build() {
    const FunInfo& f = g_.info();
    cfg_.fun = &f;
    cfg_.ctrlBlock.assign(g_.size(), -1);
    cfg_.index.assign(g_.size(), -1);
    if (!f.fun || !f.ret) fail("has no body to schedule");
    if (f.fun->op != Op::Fun || f.fun->dead) fail("its entry " + nodeLabel(f.fun) + " is not a live Fun");
    if (f.ret->op != Op::Return || f.ret->dead)
      fail("its exit " + nodeLabel(f.ret) + " is not a live Return");
    discoverBlocks();
    if (cfg_.blockOfCtrl(f.ret) < 0) fail("its Return is unreachable from its entry");
    linkPreds();
    renumberRpo();
    collectNodes();
    return std::move(cfg_);
  }

 private:
  [[noreturn]] void fail(const std::string& msg) {
    internalError("gcm", funLabel(g_) + ": " + msg);
  }

  int newBlock(Node* head) {
    int b = int(cfg_.blocks.size());
    cfg_.blocks.emplace_back();
    cfg_.blocks.back().ctrl.push_back(head);
    cfg_.ctrlBlock[head->id] = b;
    return b;
  }

  // The block headed by a Region/Loop, made on first sight.
  int regionBlock(Node* r) {
    if (int b = cfg_.blockOfCtrl(r); b >= 0) return b;
    if (r->op == Op::Loop && r->in.size() != 3) fail(nodeLabel(r) + " must have exactly 2 predecessors");
    if (r->in.size() < 2) fail(nodeLabel(r) + " has no predecessor");
    return newBlock(r);
  }

  // Walk each block's straight-line control chain; blocks are appended as
  // their heads are found, so the vector doubles as the worklist.
  void discoverBlocks() {
    newBlock(cfg_.fun->fun);
    for (size_t b = 0; b < cfg_.blocks.size(); b++) {
      Node* cur = cfg_.blocks[b].ctrl[0];
      std::vector<int> succs;
      for (;;) {
        std::vector<Node*> s = ctrlSuccessors(g_, cur);
        if (isBranch(cur)) {
          Node* arm[2] = {nullptr, nullptr};
          for (Node* p : s) {
            if (p->op != Op::CProj || (p->aux != 0 && p->aux != 1) || arm[p->aux])
              fail(nodeLabel(cur) + " has a control use " + nodeLabel(p) + " that is not one of its two arms");
            arm[p->aux] = p;
          }
          if (!arm[0] || !arm[1]) fail(nodeLabel(cur) + " lacks its arm " + (arm[0] ? "1" : "0"));
          for (Node* p : arm) {
            if (cfg_.blockOfCtrl(p) >= 0) fail(nodeLabel(p) + " is reached twice");
            succs.push_back(newBlock(p));
          }
          break;
        }
        if (cur->op == Op::Return) {
          if (!s.empty()) fail(nodeLabel(cur) + " has a control successor " + nodeLabel(s[0]));
          break;
        }
        if (s.empty()) fail(nodeLabel(cur) + " has no control successor");
        if (s.size() > 1) fail(nodeLabel(cur) + " has several control successors");
        Node* next = s[0];
        if (next->isRegion()) {
          succs.push_back(regionBlock(next));
          break;
        }
        if (isBlockHead(next) || next->op == Op::Start || next->op == Op::Stop)
          fail(nodeLabel(next) + " cannot follow " + nodeLabel(cur));
        if (cfg_.blockOfCtrl(next) >= 0) fail(nodeLabel(next) + " is reached twice");
        cfg_.blocks[b].ctrl.push_back(next);
        cfg_.ctrlBlock[next->id] = int(b);
        cur = next;
      }
      cfg_.blocks[b].succs = std::move(succs);
    }
  }

  // Predecessor lists: a Region's follow its inputs; a CProj's is its If.
  void linkPreds() {
    auto& blocks = cfg_.blocks;
    for (size_t b = 0; b < blocks.size(); b++) {
      Node* head = blocks[b].ctrl[0];
      if (head->isRegion()) {
        for (size_t i = 1; i < head->in.size(); i++) {
          Node* p = head->in[i];
          int pb = p ? cfg_.blockOfCtrl(p) : -1;
          if (pb < 0) {
            blocks[b].preds.push_back(-1);  // a dead edge: never taken
            continue;
          }
          if (blocks[size_t(pb)].ctrl.back() != p)
            fail(nodeLabel(head) + ": predecessor " + nodeLabel(p) + " does not end its block");
          if (std::count(blocks[b].preds.begin(), blocks[b].preds.end(), pb))
            fail(nodeLabel(head) + " lists the block of " + nodeLabel(p) + " twice");
          // No critical edges: the jump into a region is the block's only exit.
          if (blocks[size_t(pb)].succs.size() != 1)
            fail("critical edge from " + nodeLabel(p) + " into " + nodeLabel(head));
          blocks[b].preds.push_back(pb);
        }
      } else if (head->op == Op::CProj) {
        blocks[b].preds.push_back(cfg_.blockOfCtrl(head->in[0]));
      }
    }
  }

  // A block that only tests and branches (an `else if`'s condition).
  bool isTestBlock(int b) const {
    const CfgBlock& x = cfg_.blocks[size_t(b)];
    return x.ctrl.size() == 2 && x.ctrl.back()->op == Op::If && x.preds.size() == 1;
  }

  // Reverse post-order from the entry. An If's false arm is visited first,
  // so its true arm lands right after it (the fall-through). In a chain of
  // tests (`if (op == 1) .. else if (op == 2) ..`) the next test lands
  // right after instead: a test that fails falls through to the next, and
  // the matching one jumps out to its arm, as gcc and clang lay it out.
  bool chainFirst(int b) const {
    const CfgBlock& x = cfg_.blocks[size_t(b)];
    return x.succs.size() == 2 && x.ctrl.back()->op == Op::If && x.ctrl.front()->op != Op::Loop &&
           isTestBlock(x.succs[1]) && !isTestBlock(x.succs[0]);
  }

  void renumberRpo() {
    auto& blocks = cfg_.blocks;
    size_t n = blocks.size();
    std::vector<int> post;
    post.reserve(n);
    std::vector<char> seen(n, 0);
    std::vector<std::pair<int, size_t>> stack{{0, 0}};
    seen[0] = 1;
    while (!stack.empty()) {
      auto& [b, i] = stack.back();
      const std::vector<int>& s = blocks[size_t(b)].succs;
      if (i < s.size()) {
        size_t k = i++;
        int next = chainFirst(b) ? s[k] : s[s.size() - 1 - k];
        if (!seen[size_t(next)]) {
          seen[size_t(next)] = 1;
          stack.push_back({next, 0});
        }
      } else {
        post.push_back(b);
        stack.pop_back();
      }
    }
    // Every block was found from the entry, so the walk covers them all.
    std::vector<int> num(n);
    for (size_t k = 0; k < n; k++) num[size_t(post[n - 1 - k])] = int(k);
    std::vector<CfgBlock> out(n);
    for (size_t b = 0; b < n; b++) {
      CfgBlock& nb = out[size_t(num[b])];
      nb = std::move(blocks[b]);
      for (int& p : nb.preds)
        if (p >= 0) p = num[size_t(p)];
      for (int& s : nb.succs) s = num[size_t(s)];
    }
    blocks = std::move(out);
    for (int& b : cfg_.ctrlBlock)
      if (b >= 0) b = num[size_t(b)];
  }

  // Post-order walk over inputs from the Return and the reachable control
  // nodes, skipping dead Region inputs and the Phi inputs along them.
  void collectNodes() {
    // `index` doubles as the visited set: kSeen until the node is posted.
    constexpr int kSeen = -2;
    std::vector<int>& seen = cfg_.index;
    auto follow = [&](const Node* n, size_t i) -> Node* {
      Node* d = n->in[i];
      if (!d || d == g_.start()) return nullptr;
      if (n->isRegion()) return i == 0 || cfg_.blockOfCtrl(d) < 0 ? nullptr : d;
      if (n->op == Op::Phi && i > 0) {
        const Node* r = n->in[0];
        if (!r || !r->isRegion() || i >= r->in.size() || !r->in[i] || cfg_.blockOfCtrl(r->in[i]) < 0)
          return nullptr;
      }
      return d;
    };
    auto visit = [&](Node* root) {
      if (seen[root->id] != -1) return;
      seen[root->id] = kSeen;
      std::vector<std::pair<Node*, size_t>> stack{{root, 0}};
      while (!stack.empty()) {
        auto& [n, i] = stack.back();
        if (i < n->in.size()) {
          Node* d = follow(n, i++);
          if (!d || seen[d->id] != -1) continue;
          if (d->dead) fail(nodeLabel(n) + " uses the dead " + nodeLabel(d));
          if (d->isCFG() && cfg_.blockOfCtrl(d) < 0)
            fail(nodeLabel(n) + " depends on " + nodeLabel(d) + ", which is unreachable from the entry");
          seen[d->id] = kSeen;
          stack.push_back({d, 0});
        } else {
          seen[n->id] = int(cfg_.nodes.size());
          cfg_.nodes.push_back(n);
          stack.pop_back();
        }
      }
    };
    visit(cfg_.fun->ret);
    for (const CfgBlock& b : cfg_.blocks)
      for (Node* c : b.ctrl) visit(c);
  }

  const Graph& g_;
  FunctionCfg cfg_;
};

}  // namespace

bool isBlockHead(const Node* n) {
  return n->op == Op::Fun || n->isRegion() || isIfProj(n);
}

std::vector<Node*> ctrlSuccessors(const Graph& g, const Node* x) {
  std::vector<Node*> s;
  for (Node* u : x->out) {
    if (!u->isCFG() || u == g.stop() || u == g.start()) continue;
    if (u->isRegion()) {
      if (u->in.size() < 2 || std::find(u->in.begin() + 1, u->in.end(), x) == u->in.end()) continue;
    } else if (u->in.empty() || u->in[0] != x) {
      continue;
    }
    s.push_back(u);
  }
  std::sort(s.begin(), s.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

FunctionCfg buildCfg(const Graph& g) { return CfgBuilder(g).build(); }

std::string funLabel(const Graph& g) {
  return "function '" + g.info().name + "'";
}

std::string nodeLabel(const Node* n) {
  if (!n) return "(null)";
  return "%" + std::to_string(n->id) + " (" + n->label() + ")";
}

}  // namespace simplec
