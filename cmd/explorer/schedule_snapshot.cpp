// scheduleSnapshots: gcm per function, nodes named by serial.
#include "cmd/explorer/schedule_snapshot.h"

#include "sched/gcm.h"

namespace simplec {

std::vector<FunctionSchedule> scheduleSnapshots(const Unit& u) {
  std::vector<FunctionSchedule> out;
  for (size_t f = 0; f < u.funs.size(); f++) {
    const FunInfo& info = u.funs[f];
    if (!info.hasBody()) continue;
    const Graph& g = *info.graph;
    Schedule s = gcm(g);
    FunctionSchedule fs;
    fs.funIndex = int(f);
    fs.name = info.name;
    for (const BasicBlock& b : s.blocks) {
      ScheduledBlock sb;
      sb.head = b.head ? b.head->label() : "?";
      sb.loopDepth = b.loopDepth;
      sb.preds = b.preds;
      sb.succs = b.succs;
      for (const Node* n : b.nodes) {
        ScheduledNode sn;
        sn.serial = g.serial(n);
        sn.text = n->label();
        bool first = true;
        for (const Node* d : n->in) {
          if (d == g.start()) continue;  // says nothing (Fun's and constants' only input)
          sn.text += (first ? " " : ", ") + (d ? "#" + std::to_string(g.serial(d)) : std::string("_"));
          first = false;
        }
        sb.nodes.push_back(std::move(sn));
      }
      fs.blocks.push_back(std::move(sb));
    }
    out.push_back(std::move(fs));
  }
  return out;
}

}  // namespace simplec
