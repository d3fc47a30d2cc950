// Natural loops, innermost first, with a union-find that collapses an inner
// loop already found into its header (so each block is walked once), and
// the loop-contiguous layout.
#include "sched/loops.h"

#include <algorithm>
#include <string>

#include "lexer/diag.h"

namespace simplec {

LoopNest findLoops(const std::vector<std::vector<int>>& preds, const DomTree& dom,
                   const std::vector<std::pair<int, int>>& backEdges) {
  size_t n = preds.size();
  LoopNest nest;
  nest.innermost.assign(n, -1);
  nest.depth.assign(n, 0);
  for (auto [h, l] : backEdges) {
    LoopNest::Loop lp;
    lp.header = h;
    lp.latch = l;
    nest.loops.push_back(lp);
  }
  size_t nl = nest.loops.size();
  // Inner loops first: an inner header is dominated by the outer one, so it
  // has a larger preorder number.
  std::vector<int> byInner(nl);
  for (size_t i = 0; i < nl; i++) byInner[i] = int(i);
  std::sort(byInner.begin(), byInner.end(), [&](int a, int b) {
    return dom.preorder(nest.loops[size_t(a)].header) > dom.preorder(nest.loops[size_t(b)].header);
  });

  std::vector<int> rep(nl);  // union-find: the outermost loop found so far
  for (size_t i = 0; i < nl; i++) rep[i] = int(i);
  auto find = [&](int x) {
    int r = x;
    while (rep[size_t(r)] != r) r = rep[size_t(r)];
    while (rep[size_t(x)] != r) {
      int nx = rep[size_t(x)];
      rep[size_t(x)] = r;
      x = nx;
    }
    return r;
  };

  std::vector<int> work;
  for (int li : byInner) {
    LoopNest::Loop& lp = nest.loops[size_t(li)];
    int h = lp.header;
    std::string where = "loop at block " + std::to_string(h);
    if (!dom.dominates(h, lp.latch)) internalError("gcm", where + ": its back edge is not dominated by its header");
    if (nest.innermost[size_t(h)] != -1) internalError("gcm", where + ": its header is inside another loop's body");
    nest.innermost[size_t(h)] = li;
    work.assign(1, lp.latch);
    while (!work.empty()) {
      int x = work.back();
      work.pop_back();
      int in = nest.innermost[size_t(x)];
      if (in == -1) {
        if (!dom.dominates(h, x)) internalError("gcm", where + ": entered other than through its header");
        nest.innermost[size_t(x)] = li;
        for (int p : preds[size_t(x)])
          if (p >= 0) work.push_back(p);
        continue;
      }
      int r = find(in);
      if (r == li) continue;
      // x lies in an inner loop found earlier: that loop nests in this one.
      LoopNest::Loop& inner = nest.loops[size_t(r)];
      if (!dom.dominates(h, inner.header)) internalError("gcm", where + " overlaps another loop");
      inner.parent = li;
      rep[size_t(r)] = li;
      for (int p : preds[size_t(inner.header)])
        if (p >= 0) work.push_back(p);
    }
  }
  // Outer loops first now, so a parent's depth is known before its children.
  for (auto it = byInner.rbegin(); it != byInner.rend(); ++it) {
    LoopNest::Loop& lp = nest.loops[size_t(*it)];
    lp.depth = lp.parent < 0 ? 1 : nest.loops[size_t(lp.parent)].depth + 1;
  }
  for (size_t b = 0; b < n; b++)
    if (nest.innermost[b] >= 0) nest.depth[b] = nest.loops[size_t(nest.innermost[b])].depth;
  return nest;
}

std::vector<int> loopLayout(const LoopNest& nest) {
  size_t n = nest.innermost.size();
  // One list per loop (index l + 1) and one for the code outside loops
  // (index 0): its own blocks and its child loops, in RPO order. A child
  // loop is entered at its header's position; the header opens its list.
  std::vector<std::vector<int>> lists(nest.loops.size() + 1);
  for (size_t b = 0; b < n; b++) {
    int l = nest.innermost[b];
    if (l >= 0 && nest.loops[size_t(l)].header == int(b))
      lists[size_t(nest.loops[size_t(l)].parent + 1)].push_back(-(l + 1));
    lists[size_t(l + 1)].push_back(int(b));
  }
  std::vector<int> order;
  order.reserve(n);
  std::vector<std::pair<size_t, size_t>> stack{{0, 0}};
  while (!stack.empty()) {
    auto& [list, i] = stack.back();
    if (i == lists[list].size()) {
      stack.pop_back();
      continue;
    }
    int item = lists[list][i++];
    if (item >= 0)
      order.push_back(item);
    else
      stack.push_back({size_t(-item), 0});
  }
  return order;
}

std::vector<int> shallowerDominators(const DomTree& dom, const LoopNest& nest) {
  std::vector<int> up(size_t(dom.size()), -1);
  for (int b : dom.preorderList()) {  // a block's dominators before it
    int c = dom.idom(b);
    while (c != -1 && nest.depth[size_t(c)] >= nest.depth[size_t(b)]) c = up[size_t(c)];
    up[size_t(b)] = c;
  }
  return up;
}

}  // namespace simplec
