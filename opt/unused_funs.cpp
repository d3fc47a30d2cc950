// Unused function removal.
#include "opt/unused_funs.h"

#include "opt/call_graph.h"

namespace simplec {

int removeUnusedFunctions(Unit& g) {
  CallGraph cg(g);
  size_t n = g.funs.size();
  std::vector<char> used(n, 0);
  std::vector<int> work;
  for (size_t f = 0; f < n; f++)
    if (g.funs[f].isEntry || g.funs[f].isGlobal || g.funs[f].isExtern) {
      used[f] = 1;
      work.push_back(int(f));
    }
  while (!work.empty()) {
    int f = work.back();
    work.pop_back();
    for (int t : cg.refs[size_t(f)])
      if (!used[size_t(t)]) {
        used[size_t(t)] = 1;
        work.push_back(t);
      }
  }
  int removed = 0;
  for (size_t f = 0; f < n; f++) {
    if (used[f] || !g.funs[f].hasBody()) continue;
    g.dropGraph(int(f));
    removed++;
  }
  return removed;
}

}  // namespace simplec
