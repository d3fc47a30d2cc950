// cfg: the basic blocks of one function, read off its control nodes, and
// the set of nodes that belong to the function.
// Invariant: blocks are numbered in reverse post-order of the CFG (block 0 is
// the entry, and every block comes after its dominators); a block's `ctrl`
// list is a chain (each node's in[0] is the one before it) from a block head
// to the block's last control node.
#pragma once
#include <vector>

#include "son/graph.h"

namespace simplec {

struct CfgBlock {
  std::vector<Node*> ctrl;  // head, the straight-line control nodes, the last one
  std::vector<int> preds;   // Region/Loop: one per region input, -1 for an input
                            // that is not reachable from the entry; CProj: the If's block
  std::vector<int> succs;   // If/Never: {arm 0, arm 1}; Return: none; else one
};

struct FunctionCfg {
  const FunInfo* fun = nullptr;
  std::vector<CfgBlock> blocks;  // reverse post-order, 0 = entry
  std::vector<int> ctrlBlock;    // by node id: a control node's block, -1 for other nodes
  // Every node of the function (control and data, Cons included, never
  // Start) in post-order of a walk over inputs: deterministic.
  std::vector<Node*> nodes;
  std::vector<int> index;        // by node id: the position in `nodes`, -1 when not there
  int blockOfCtrl(const Node* n) const { return n->id < ctrlBlock.size() ? ctrlBlock[n->id] : -1; }
  int indexOf(const Node* n) const { return n->id < index.size() ? index[n->id] : -1; }
};

// A node that starts a block: Fun, Region, Loop, or a CProj of an If or Never.
bool isBlockHead(const Node* n);

// The control successors of x: users u with u->in[0] == x that are control
// nodes, and Regions/Loops that list x among their predecessors. Each once,
// sorted by node id.
std::vector<Node*> ctrlSuccessors(const Graph& g, const Node* x);

// Blocks and nodes of the function of g. Throws internalError("gcm", ...)
// when the function has no body, its Return is unreachable from its Fun, or
// its control flow is malformed (an If/Never without both projections, a control
// node with no successor, a Region listing a predecessor twice, ...).
//
// The function's nodes are those reachable backwards through inputs (never
// through Start) from its Return and from its reachable control nodes. A
// Region input that is not reachable from the entry (a dead edge left at -O0)
// is not followed, nor are the Phi inputs along it.
FunctionCfg buildCfg(const Graph& g);

// "function 'f'", for error messages.
std::string funLabel(const Graph& g);
// "%12 (Add)".
std::string nodeLabel(const Node* n);

}  // namespace simplec
