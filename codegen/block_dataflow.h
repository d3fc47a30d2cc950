// The forward dataflow driver shared by the -g analyses (debug_locations,
// debug_versions): states are vectors of ints, one per tracked thing; a
// block's entry state is the meet of its reached predecessors' exits (or,
// for the entry, what the function starts with), iterated in layout order
// until no exit changes. Monotone transfers over a finite lattice end.
#pragma once
#include <utility>
#include <vector>

#include "codegen/liveness.h"
#include "codegen/mir.h"

namespace simplec {

struct BlockStates {
  std::vector<std::vector<int>> in;  // each reached block's entry state
  std::vector<char> reached;
};

// entry(b, preds, out, reached, &state): false when no predecessor of b is
// reached yet (b is skipped this round); transfer(b, state): runs the
// block, leaving its exit state.
template <typename Entry, typename Transfer>
BlockStates forwardToFixpoint(const mir::MFunction& f, Entry&& entry, Transfer&& transfer) {
  size_t nb = f.blocks.size();
  std::vector<std::vector<int>> succs = blockSuccessors(f);
  std::vector<std::vector<int>> preds(nb);
  for (size_t b = 0; b < nb; b++)
    for (int s : succs[b])
      if (s >= 0 && size_t(s) < nb) preds[size_t(s)].push_back(int(b));
  BlockStates r{std::vector<std::vector<int>>(nb), std::vector<char>(nb, 0)};
  std::vector<std::vector<int>> out(nb);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 0; b < nb; b++) {
      std::vector<int> st;
      if (!entry(b, preds[b], out, r.reached, &st)) continue;
      r.in[b] = st;
      transfer(b, st);
      if (!r.reached[b] || st != out[b]) {
        out[b] = std::move(st);
        r.reached[b] = 1;
        changed = true;
      }
    }
  }
  return r;
}

}  // namespace simplec
