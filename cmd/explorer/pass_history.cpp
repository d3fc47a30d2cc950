// PassHistory: a new version of a function only when its snapshot differs.
#include "cmd/explorer/pass_history.h"

namespace simplec {

void PassHistory::record(const Unit& u, const std::string& pass) {
  int index = int(passes_.size());  // the pass's index if it changed something
  bool changed = pass == "parse";
  if (functions_.size() < u.funs.size()) functions_.resize(u.funs.size());
  for (size_t f = 0; f < u.funs.size(); f++) {
    const FunInfo& info = u.funs[f];
    FunctionHistory& h = functions_[f];
    if (h.name.empty()) h.name = info.name;
    if (!info.hasBody()) {
      if (!h.versions.empty() && !h.versions.back().removed) {
        h.versions.push_back({index, true, {}});
        changed = true;
      }
      continue;
    }
    GraphSnapshot now = snapshotGraph(*info.graph);
    if (!h.versions.empty() && !h.versions.back().removed && h.versions.back().graph == now) continue;
    h.versions.push_back({index, false, std::move(now)});
    changed = true;
  }
  if (changed) passes_.push_back(pass);
}

}  // namespace simplec
