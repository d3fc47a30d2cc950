#include "sched/control_equivalence.h"

#include <utility>

namespace simplec {

std::vector<int> controlEquivalenceTops(const std::vector<std::vector<int>>& succs, const DomTree& dom,
                                        const LoopNest& nest, const std::vector<int>& shallower) {
  size_t n = succs.size();
  std::vector<int> top(n);
  for (size_t b = 0; b < n; b++) top[b] = int(b);
  if (n == 0) return top;

  // The reversed CFG: node 0 is a virtual exit, node b + 1 is block b; its
  // edges run from each block to its predecessors.
  std::vector<std::vector<int>> rsuccs(n + 1);
  for (size_t b = 0; b < n; b++) {
    if (succs[b].empty()) rsuccs[0].push_back(int(b) + 1);
    for (int s : succs[b]) rsuccs[size_t(s) + 1].push_back(int(b) + 1);
  }
  // Reverse post-order of the reversed CFG from the exit.
  std::vector<int> post;
  std::vector<char> seen(n + 1, 0);
  std::vector<std::pair<int, size_t>> stack{{0, 0}};
  seen[0] = 1;
  while (!stack.empty()) {
    auto& [x, k] = stack.back();
    if (k < rsuccs[size_t(x)].size()) {
      int y = rsuccs[size_t(x)][k++];
      if (!seen[size_t(y)]) {
        seen[size_t(y)] = 1;
        stack.push_back({y, 0});
      }
      continue;
    }
    post.push_back(x);
    stack.pop_back();
  }
  if (post.size() != n + 1) return top;  // an endless loop with no way out
  std::vector<int> rpo(n + 1);
  for (size_t k = 0; k < post.size(); k++) rpo[size_t(post[post.size() - 1 - k])] = int(k);
  // Predecessors in the reversed CFG are the successors in the CFG.
  std::vector<std::vector<int>> rpreds(n + 1);
  for (size_t x = 0; x <= n; x++)
    for (int y : rsuccs[x]) rpreds[size_t(rpo[size_t(y)])].push_back(rpo[x]);
  std::vector<int> ipdom = computeIdoms(rpreds);

  // Pre- and post-order numbers of the postdominator tree: a postdominates
  // b when b's interval lies inside a's.
  std::vector<int> kidStart(n + 2, 0), kids(n);
  for (size_t x = 1; x <= n; x++) kidStart[size_t(ipdom[x]) + 1]++;
  for (size_t x = 1; x <= n + 1; x++) kidStart[x] += kidStart[x - 1];
  std::vector<int> fill(kidStart.begin(), kidStart.end() - 1);
  for (size_t x = 1; x <= n; x++) kids[size_t(fill[size_t(ipdom[x])]++)] = int(x);
  std::vector<int> pre(n + 1), last(n + 1);
  int clock = 0;
  stack.assign(1, {0, 0});
  pre[0] = clock++;
  while (!stack.empty()) {
    auto& [x, k] = stack.back();
    size_t at = size_t(kidStart[size_t(x)]) + k;
    if (at < size_t(kidStart[size_t(x) + 1])) {
      k++;
      int y = kids[at];
      pre[size_t(y)] = clock++;
      stack.push_back({y, 0});
      continue;
    }
    last[size_t(x)] = clock - 1;
    stack.pop_back();
  }
  auto postdominates = [&](int a, int b) {
    size_t x = size_t(rpo[size_t(a) + 1]), y = size_t(rpo[size_t(b) + 1]);
    return pre[x] <= pre[y] && pre[y] <= last[x];
  };

  // The nearest dominator of each block in no deeper loop: `shallower`
  // steps over an inner loop's blocks at once.
  const std::vector<int>& depth = nest.depth;
  for (int b : dom.preorderList()) {
    int d = dom.idom(b);
    while (d >= 0 && depth[size_t(d)] > depth[size_t(b)]) d = shallower[size_t(d)];
    if (d >= 0 && nest.innermost[size_t(b)] == nest.innermost[size_t(d)] && postdominates(b, d))
      top[size_t(b)] = top[size_t(d)];
  }
  return top;
}

}  // namespace simplec
