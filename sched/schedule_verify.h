// verifySchedule: checks a Schedule against its graph, independently of the
// code that built it (for tests and --verify-each). Returns the violations
// found (empty when the schedule is sound):
//  - every node of the function is placed exactly once, nothing else is,
//    and blockOf agrees with the block lists;
//  - blocks are well formed: head first, Phis right after it, the control
//    nodes form a chain, an If/Return is last; succs/preds match the control
//    nodes (a Region's preds follow its inputs; no critical edges);
//  - idom is the immediate dominator (exactly, for up to a few thousand
//    blocks; else the parent-dominates-every-predecessor property);
//  - loopDepth counts the natural loops of the Loop nodes holding a block;
//  - every input's block dominates its use's block, and an input in the same
//    block comes first; a Phi's input k dominates the end of predecessor k;
//  - a load runs before the stores and calls that may overwrite what it
//    reads (the ones that take its memory state, or one made from it by
//    stores to other bytes, allocations and MergeMems): such a writer in the
//    same block comes after it, one in another block does not dominate it.
//    Memory that flows through a Phi is not followed (sound, not complete).
#pragma once
#include <string>
#include <vector>

#include "sched/schedule.h"
#include "son/unit.h"

namespace simplec {

std::vector<std::string> verifySchedule(const Graph& g, const Schedule& s);

// For --verify-each after parsing and after every pass (the pass pipeline
// calls it through PassOptions::checkSchedules, so that a graph the back end
// cannot schedule is blamed on the pass that made it, not found later in
// gcm): schedules every function with a body and checks the result with
// verifySchedule. A gcm internal error (a dependence cycle names its two
// nodes) becomes a message. Each message starts with "gcm: function 'f': ".
std::vector<std::string> verifySchedules(const Unit& u);

}  // namespace simplec
