// See call_chain.h.
#include "son/call_chain.h"

namespace simplec {

std::vector<SourceFrame> expandChain(const Unit& u, int fun, SrcPos pos) {
  std::vector<SourceFrame> out;
  // Each site moves one call outward; the chain is finite (sites only point
  // to sites made before them), the bound guards against a corrupt table.
  for (size_t guard = 0; guard <= u.inlineSites.size(); ++guard) {
    int site = pos.site;
    bool ownCode = site < 0 || size_t(site) >= u.inlineSites.size();
    int frameFun = ownCode ? fun : u.inlineSites[size_t(site)].callee;
    SrcPos here = pos;
    here.site = -1;
    if (here.valid() && here.file != kSysLibraryFile) out.push_back({frameFun, here});
    if (ownCode) break;
    pos = u.inlineSites[size_t(site)].call;
  }
  return out;
}

SrcPos outermostPosition(const Unit& u, SrcPos pos) {
  // Sites only point to sites made before them: the bound guards against a
  // corrupt table.
  for (size_t guard = 0; pos.site >= 0 && size_t(pos.site) < u.inlineSites.size() && guard <= u.inlineSites.size();
       ++guard)
    pos = u.inlineSites[size_t(pos.site)].call;
  pos.site = -1;
  return pos;
}

SrcPos reportedPosition(const Unit& u, int fun, SrcPos pos) {
  if (pos.file != kSysLibraryFile) {
    pos.site = -1;
    return pos;
  }
  std::vector<SourceFrame> frames = expandChain(u, fun, pos);
  return frames.empty() ? SrcPos{} : frames.front().pos;
}

std::string traceLine(const std::string& fun, const std::string& file, SrcPos pos) {
  return "  at " + fun + " (" + file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col) + ")";
}

}  // namespace simplec
