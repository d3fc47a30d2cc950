// See inlined_calls.h.
#include "codegen/inlined_calls.h"

namespace simplec {

std::vector<mir::InlinedCall> inlinedCalls(const Unit& u) {
  const std::vector<InlineSite>& sites = u.inlineSites;
  std::vector<mir::InlinedCall> out(sites.size());
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
    c.callee = callee->symbol;
    c.declLine = callee->pos.line;
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
  return out;
}

}  // namespace simplec
