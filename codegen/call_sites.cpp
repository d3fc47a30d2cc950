// See call_sites.h.
#include "codegen/call_sites.h"

#include "son/call_chain.h"

namespace simplec {

int addCallChain(mir::MFunction& f, const Unit& u, int fun, SrcPos pos) {
  std::vector<SourceFrame> frames = expandChain(u, fun, pos);
  if (frames.empty()) return -1;
  mir::CallChain c;
  for (const SourceFrame& s : frames)
    c.frames.push_back({u.funs[size_t(s.fun)].name, s.pos.file, s.pos.line, s.pos.col});
  c.reachesEntry = u.funs[size_t(fun)].isEntry && frames.back().fun == fun;
  f.callChains.push_back(std::move(c));
  return int(f.callChains.size()) - 1;
}

}  // namespace simplec
