// See inline_scopes.h.
#include "codegen/inline_scopes.h"

#include <algorithm>
#include <unordered_map>

namespace simplec {

namespace {

// The frame an instruction's code belongs to (-1: the function's own).
int frameOf(const mir::MInst& mi, const std::vector<mir::InlinedCall>& calls) {
  return mi.site >= 0 && size_t(mi.site) < calls.size() ? calls[size_t(mi.site)].frame : -1;
}

// The frames from the outermost inlined call down to `frame`.
void chainOf(int frame, const std::vector<mir::InlinedCall>& calls, std::vector<int>* chain) {
  chain->clear();
  // Parents are made before their children: the guard only stops a corrupt table.
  for (size_t guard = 0; frame >= 0 && size_t(frame) < calls.size() && guard <= calls.size(); ++guard) {
    chain->push_back(frame);
    int parent = calls[size_t(frame)].parent;
    if (parent >= frame) break;
    frame = parent;
  }
  std::reverse(chain->begin(), chain->end());
}

}  // namespace

std::vector<InlineScope> inlineScopes(const mir::MFunction& f, const std::vector<mir::InlinedCall>& calls) {
  std::vector<InlineScope> scopes;
  if (calls.empty()) return scopes;
  std::unordered_map<int, int> scopeOfCall;  // frame -> index in scopes
  struct Open {
    int scope;
    int begin;
  };
  std::vector<Open> open;  // the current chain, outermost first
  std::vector<int> chain;
  auto close = [&](size_t keep, int at) {
    for (; open.size() > keep; open.pop_back()) {
      std::vector<InstRange>& r = scopes[size_t(open.back().scope)].ranges;
      if (open.back().begin < at) r.push_back({open.back().begin, at});
    }
  };
  int current = -1;
  int index = 0;
  for (const mir::MBlock& b : f.blocks)
    for (const mir::MInst& mi : b.insts) {
      int frame = mi.line ? frameOf(mi, calls) : current;
      if (frame != current) {
        chainOf(frame, calls, &chain);
        size_t same = 0;
        while (same < open.size() && same < chain.size() && scopes[size_t(open[same].scope)].call == chain[same])
          ++same;
        close(same, index);
        for (size_t k = same; k < chain.size(); ++k) {
          auto [it, made] = scopeOfCall.emplace(chain[k], int(scopes.size()));
          if (made) scopes.push_back({chain[k], open.empty() ? -1 : open.back().scope, {}});
          open.push_back({it->second, index});
        }
        current = frame;
      }
      ++index;
    }
  close(0, index);
  return scopes;
}

}  // namespace simplec
