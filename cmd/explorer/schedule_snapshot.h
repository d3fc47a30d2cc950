// The basic blocks that global code motion gives each function, as the
// explorer page lists them: nodes by serial (Graph::serial), so that a
// scheduled node links to the same node in the graphs.
#pragma once
#include <string>
#include <vector>

#include "son/unit.h"

namespace simplec {

struct ScheduledNode {
  uint32_t serial = 0;
  std::string text;  // "Add" plus its inputs' serials: "Add #12, #15"
};

struct ScheduledBlock {
  std::string head;  // the head node's label: "Fun main", "Loop", "CProj 0"
  int loopDepth = 0;
  std::vector<int> preds, succs;  // block indices (-1: a dead edge)
  std::vector<ScheduledNode> nodes;
};

struct FunctionSchedule {
  int funIndex = 0;
  std::string name;
  std::vector<ScheduledBlock> blocks;
};

// Every function that has a body, in index order (runs gcm on each).
std::vector<FunctionSchedule> scheduleSnapshots(const Unit& u);

}  // namespace simplec
