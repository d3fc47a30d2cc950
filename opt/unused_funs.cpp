// Unused function removal.
#include "opt/unused_funs.h"

#include "opt/call_graph.h"
#include "son/verify.h"

namespace simplec {

int removeUnusedFunctions(Graph& g) {
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
    FunInfo& info = g.funs[f];
    if (used[f] || !cg.hasBody(int(f))) continue;
    Node* stop = g.stop();
    for (size_t i = stop->in.size(); i-- > 0;)
      if (stop->in[i] == info.ret) g.delDef(stop, i);
    info.ret = nullptr;
    info.fun = nullptr;
    removed++;
  }
  if (removed) sweepUnreachable(g);
  return removed;
}

}  // namespace simplec
