// Control-equivalent blocks (Ferrante, Ottenstein, Warren): a block X that
// postdominates a dominator D of the same innermost loop (every path from D
// to the exit passes X) runs once each time D runs. Chains of such blocks in
// the dominator tree (stepping over inner loops, so the block after a loop
// joins the one before it) form classes; GCM may move a value anywhere up
// its class without running it on a path that did not need it, or more
// often.
#pragma once
#include <vector>

#include "sched/loops.h"
#include "son/dominators.h"

namespace simplec {

// By block: the highest block of its class (the block itself when it does
// not postdominate its nearest dominator of no deeper loop, or that one is
// in another loop). `succs` are the CFG's successor lists, blocks in reverse
// post-order from the entry 0; blocks without successors lead to the exit.
// When some block cannot reach an exit, every block is its own class.
// Linear apart from the dominator computation on the reversed CFG.
// `shallower` is shallowerDominators(dom, nest).
std::vector<int> controlEquivalenceTops(const std::vector<std::vector<int>>& succs, const DomTree& dom,
                                        const LoopNest& nest, const std::vector<int>& shallower);

}  // namespace simplec
