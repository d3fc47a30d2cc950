#include "codegen/constant_homes.h"

namespace simplec {

ConstantHomes::ConstantHomes(const Schedule& s) {
  size_t n = s.blocks.size();
  domDepth_.assign(n, -1);
  // Depths by walking up to a block already known (each block is filled
  // once: linear).
  std::vector<int> chain;
  for (size_t b = 0; b < n; b++) {
    int x = int(b);
    while (x >= 0 && domDepth_[size_t(x)] < 0) {
      chain.push_back(x);
      x = s.blocks[size_t(x)].idom;
    }
    int d = x < 0 ? -1 : domDepth_[size_t(x)];
    while (!chain.empty()) {
      domDepth_[size_t(chain.back())] = ++d;
      chain.pop_back();
    }
  }
  // up_ of a block needs its dominators' first: by increasing depth.
  std::vector<int> count(n + 1, 0), order(n);
  for (size_t b = 0; b < n; b++) count[size_t(domDepth_[b]) + 1]++;
  for (size_t k = 1; k <= n; k++) count[k] += count[k - 1];
  for (size_t b = 0; b < n; b++) order[size_t(count[size_t(domDepth_[b])]++)] = int(b);
  up_.assign(n, -1);
  for (int b : order) {
    int depth = s.blocks[size_t(b)].loopDepth;
    int c = s.blocks[size_t(b)].idom;
    while (c >= 0 && s.blocks[size_t(c)].loopDepth >= depth) c = up_[size_t(c)];
    up_[size_t(b)] = c;
  }
}

int ConstantHomes::home(int useBlock, int conBlock) const {
  int floor = domDepth_[size_t(conBlock)];
  int best = useBlock;
  while (up_[size_t(best)] >= 0 && domDepth_[size_t(up_[size_t(best)])] >= floor) best = up_[size_t(best)];
  return best;
}

}  // namespace simplec
