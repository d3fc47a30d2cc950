// The result of global code motion for one function: basic blocks in their
// final layout order, each holding its nodes in execution order.
//
// A block starts at a block-head control node (Fun, Region, Loop, or a CProj
// of an If or Never) and runs through the straight-line control nodes below
// it (ZeroCheck, Call, CallEnd and CallEnd's CProj) to its last control node:
// an If, a Never, a Return, or a node whose successor is a Region/Loop (then
// the block ends in a jump). A Never ends its block like an If whose arm 0
// (the exit of an endless loop) is never taken: codegen jumps to succs[1].
// Phis are listed right after the head, by node id.
// Data nodes are in the block GCM chose (between schedule early and schedule
// late, the shallowest loop depth, then the latest), and ordered inside it
// by the local list scheduler: every input of a node comes before it, except
// Phi inputs (which are read at the end of the matching predecessor).
// In the entry block the Parms follow the head (memory first, then by index);
// a CallEnd's Projs follow it directly. An If, Never or Return is the block's
// last node; a block that ends in a jump (succs = {the Region/Loop block}) may
// hold data nodes after its last control node, and the jump comes after them.
// A Region input that is unreachable from the entry (a dead edge left at -O0)
// has preds[i] == -1: no block jumps there, and its Phi inputs are not read.
// Every edge into a Region/Loop comes from a block with one successor.
#pragma once
#include <string>
#include <vector>

#include "son/graph.h"

namespace simplec {

struct BasicBlock {
  Node* head = nullptr;          // Fun, Region, Loop or CProj (of an If or Never)
  std::vector<Node*> nodes;      // head first, then Phis, then the rest in order
  std::vector<int> preds;        // block indices; for a Region/Loop head, preds[i]
                                 // is the block of head->in[i + 1] (-1: dead edge)
  std::vector<int> succs;        // If: {true block, false block}; Never: {arm 0, arm 1}
  int idom = -1;                 // immediate dominator (block index), -1 for entry
  int loopDepth = 0;             // number of loops (Loop nodes) whose body holds it
  int domDepth = 0;              // depth in the dominator tree (entry: 0)
  int shallowerDom = -1;         // nearest strict dominator with a smaller loopDepth, or -1
                                 // (sched/loops.h: shallowerDominators)
  Node* last() const { return nodes.empty() ? nullptr : nodes.back(); }
};

struct Schedule {
  int funIndex = -1;
  std::vector<BasicBlock> blocks;  // blocks[0] is the entry (Fun)
  std::vector<int> blockOf;        // by node id: every scheduled node's block, -1 for others
  int blockIndexOf(const Node* n) const { return n && n->id < blockOf.size() ? blockOf[n->id] : -1; }
};

// Text form for --emit=sched and tests: one block per paragraph.
std::string printSchedule(const Graph& g, const Schedule& s);

}  // namespace simplec
