// Loop nesting from the Loop nodes' back edges, and the block layout that
// keeps every loop's blocks together right after its header.
// Invariant: a loop's body is its header plus the blocks that reach its back
// edge block without passing the header; all of them are dominated by the
// header (else the CFG is irreducible: internalError). Nested loops have a
// parent; a block's depth is the number of loops whose body holds it.
#pragma once
#include <vector>

#include "son/dominators.h"

namespace simplec {

struct LoopNest {
  struct Loop {
    int header = -1;
    int latch = -1;   // the block ending in the back edge
    int parent = -1;  // enclosing loop, -1 for an outermost one
    int depth = 1;
  };
  std::vector<Loop> loops;
  std::vector<int> innermost;  // per block: index of the innermost loop holding it, or -1
  std::vector<int> depth;      // per block: loop nesting depth (0 outside loops)
};

// `backEdges` lists {header block, back edge block} for every Loop node whose
// back edge is live. Blocks must be numbered in reverse post-order.
LoopNest findLoops(const std::vector<std::vector<int>>& preds, const DomTree& dom,
                   const std::vector<std::pair<int, int>>& backEdges);

// The final block order: reverse post-order (the block numbering), except
// that each loop's blocks are moved together right after its header.
// Entry first; a block still comes after all of its dominators.
std::vector<int> loopLayout(const LoopNest& nest);

// By block: its nearest strict dominator in a shallower loop nest (a smaller
// depth), or -1. Walking it from a block visits exactly the dominators that
// are shallower than every block below them (GCM's candidates), so a walk
// costs at most the loop depth. Linear.
std::vector<int> shallowerDominators(const DomTree& dom, const LoopNest& nest);

}  // namespace simplec
