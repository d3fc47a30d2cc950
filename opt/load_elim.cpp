// Dominator-scoped value numbering of Loads.
#include "opt/load_elim.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "son/control_flow.h"
#include "son/unit.h"

namespace simplec {

namespace {

// What a Load reads: memory state, pointer, offset, access (width, class).
using LoadKey = std::tuple<Node*, Node*, Node*, int64_t>;

struct KeyHash {
  size_t operator()(const LoadKey& k) const {
    size_t h = std::hash<const void*>()(std::get<0>(k));
    h = h * 31 + std::hash<const void*>()(std::get<1>(k));
    h = h * 31 + std::hash<const void*>()(std::get<2>(k));
    return h * 31 + std::hash<int64_t>()(std::get<3>(k));
  }
};

}  // namespace

int loadElim(Graph& g) {
  Node* fun = g.info().fun;
  auto cf = controlFlow(g);
  const ControlFlow& dom = *cf;
  if (!dom.reached(fun)) return 0;
  // The Loads pinned at each control node (by its position in dom.order()),
  // sorted by id: use-list order must not steer the result.
  std::vector<std::vector<Node*>> loadsAt(dom.order().size());
  for (Node* c : dom.order()) {
    std::vector<Node*> ls;
    for (Node* u : c->out)
      if (u->op == Op::Load && !u->dead && u->in.size() > 3 && u->in[0] == c && u->in[1]) ls.push_back(u);
    if (ls.empty()) continue;
    std::sort(ls.begin(), ls.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
    ls.erase(std::unique(ls.begin(), ls.end()), ls.end());
    loadsAt[size_t(dom.index(c))] = std::move(ls);
  }
  std::unordered_map<LoadKey, Node*, KeyHash> seen;  // on the current path
  std::vector<LoadKey> added;                         // undo log
  struct Frame {
    Node* n;
    size_t mark;  // added.size() on entry
    size_t next;
  };
  std::vector<Frame> stack;
  int replaced = 0;
  auto enter = [&](Node* c) {
    stack.push_back({c, added.size(), 0});
    for (Node* ld : loadsAt[size_t(dom.index(c))]) {
      if (ld->dead) continue;
      LoadKey key{ld->in[1], ld->in[2], ld->in[3], ld->aux};
      auto found = seen.find(key);
      if (found != seen.end() && !found->second->dead) {
        g.subsume(ld, found->second);
        replaced++;
      } else {
        seen[key] = ld;
        added.push_back(key);
      }
    }
  };
  enter(fun);
  while (!stack.empty()) {
    Frame& f = stack.back();
    const auto& kids = dom.children(f.n);
    if (f.next < kids.size()) {
      enter(kids[f.next++]);
      continue;
    }
    while (added.size() > f.mark) {
      seen.erase(added.back());
      added.pop_back();
    }
    stack.pop_back();
  }
  return replaced;
}

}  // namespace simplec
