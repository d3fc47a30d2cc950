// printSchedule: the deterministic text form of a Schedule. Nodes are
// numbered %0, %1, ... in layout order, so the text depends only on the
// schedule's shape, not on node ids:
//   B1 Loop: depth 1, idom B0, preds [B0, B3], succs [B2]
//     %4 = Phi %3, %1, %9
#include <unordered_map>

#include "sched/schedule.h"

namespace simplec {

namespace {

std::string blockList(const std::vector<int>& bs) {
  std::string s = "[";
  for (size_t i = 0; i < bs.size(); i++) {
    if (i) s += ", ";
    s += bs[i] < 0 ? std::string("-") : "B" + std::to_string(bs[i]);
  }
  return s + "]";
}

}  // namespace

std::string printSchedule(const Graph& g, const Schedule& s) {
  std::unordered_map<const Node*, int> num;
  for (const BasicBlock& b : s.blocks)
    for (const Node* n : b.nodes) num.emplace(n, int(num.size()));
  auto ref = [&](const Node* n) -> std::string {
    if (!n) return "_";
    auto it = num.find(n);
    return it == num.end() ? std::string("?") : "%" + std::to_string(it->second);
  };

  std::string out;
  for (size_t b = 0; b < s.blocks.size(); b++) {
    const BasicBlock& bb = s.blocks[b];
    out += "B" + std::to_string(b) + " " + (bb.head ? bb.head->label() : std::string("?")) +
           ": depth " + std::to_string(bb.loopDepth) +
           ", idom " + (bb.idom < 0 ? std::string("-") : "B" + std::to_string(bb.idom)) +
           ", preds " + blockList(bb.preds) + ", succs " + blockList(bb.succs) + "\n";
    for (const Node* n : bb.nodes) {
      out += "  " + ref(n) + " = " + n->label();
      // Start (the only input of Fun and Con) says nothing: leave it out.
      bool first = true;
      for (const Node* d : n->in) {
        if (d == g.start()) continue;
        out += (first ? " " : ", ") + ref(d);
        first = false;
      }
      out += "\n";
    }
  }
  return out;
}

}  // namespace simplec
