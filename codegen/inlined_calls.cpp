// See inlined_calls.h.
#include "codegen/inlined_calls.h"

#include <algorithm>
#include <unordered_map>

namespace simplec {

namespace {

mir::InlinedFunction describe(const FunInfo& f) {
  mir::InlinedFunction d;
  d.symbol = f.symbol;
  d.declLine = f.pos.line;
  for (const DebugVar& v : f.debugVars)
    if (v.param > 0 && v.inlineSite < 0) d.params.push_back(v);
  std::stable_sort(d.params.begin(), d.params.end(), [](const DebugVar& a, const DebugVar& b) { return a.param < b.param; });
  return d;
}

}  // namespace

void addInlinedCalls(const Unit& u, mir::MModule& m) {
  const std::vector<InlineSite>& sites = u.inlineSites;
  std::vector<mir::InlinedCall>& out = m.inlinedCalls;
  out.assign(sites.size(), {});
  std::unordered_map<int, int> described;  // Unit::funs index -> m.inlinedFunctions index
  auto frameOf = [&](int site) { return site >= 0 && size_t(site) < out.size() ? out[size_t(site)].frame : -1; };
  // A site only points to earlier sites: one pass in order sees every
  // call's outer calls resolved before it.
  for (size_t i = 0; i < sites.size(); i++) {
    const InlineSite& s = sites[i];
    mir::InlinedCall& c = out[i];
    bool valid = s.callee >= 0 && size_t(s.callee) < u.funs.size() && size_t(s.call.site) != i;
    const FunInfo* callee = valid ? &u.funs[size_t(s.callee)] : nullptr;
    if (!callee || callee->pos.file != kMainFile) {
      // Sys library code: part of the frame it was inlined into.
      c.frame = s.call.site < int(i) ? frameOf(s.call.site) : -1;
      continue;
    }
    c.frame = int32_t(i);
    c.parent = s.call.site < int(i) ? frameOf(s.call.site) : -1;
    auto [it, made] = described.emplace(s.callee, int(m.inlinedFunctions.size()));
    if (made) m.inlinedFunctions.push_back(describe(*callee));
    c.callee = it->second;
    // A call written in library code (a callback the library calls) is
    // shown where the user's code called into the library.
    SrcPos call = s.call;
    for (size_t guard = 0; call.file != kMainFile && guard <= i; ++guard) {
      if (call.site < 0 || size_t(call.site) >= i) break;
      call = sites[size_t(call.site)].call;
    }
    if (call.file == kMainFile) {
      c.line = call.line;
      c.col = call.col;
    }
  }
}

}  // namespace simplec
