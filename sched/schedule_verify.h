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
//    block comes first; a Phi's input k dominates the end of predecessor k.
#pragma once
#include <string>
#include <vector>

#include "sched/schedule.h"

namespace simplec {

std::vector<std::string> verifySchedule(const Graph& g, const Schedule& s);

}  // namespace simplec
