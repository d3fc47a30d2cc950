// Local scheduling: the execution order of the nodes GCM put in one block.
// Order: the head; the block's Phis (by node id); in the entry block the
// Parms (memory first, then by index); then a list schedule of the data
// nodes and the inner control nodes; then the block's If, Never or Return.
// Invariant: every input placed in the same block comes before its use
// (Phi inputs excepted, they are read at the end of a predecessor); inner
// control nodes keep their control order.
#pragma once
#include <cstdint>
#include <vector>

#include "sched/overwriters.h"
#include "son/graph.h"

namespace simplec {

// `ctrl`: the block's control chain (head first). `members`: every other
// node placed in the block, in any order; liveOut[i] is set when members[i]
// is used by another block or by a Phi (it is then scheduled as a root).
//
// The list schedule is demand driven, which keeps live ranges short: the
// inner control nodes are taken in order, then the live-out values (by node
// id, except that a loop variable's next value waits until the block's
// other uses of the variable are placed), then the final If/Return, and
// each is preceded by whichever of its inputs are not yet scheduled, depth
// first in input order. So a value is
// computed right before its first use, arguments right before their Call,
// and a compare used only by the final If lands right before it (the
// selector fuses the two). A CallEnd's Projs follow it immediately.
// After each inner control node but a Call, arithmetic made ready that ends
// at least as many values as it makes goes at once (a sum of call results
// is added up as the calls return, not after the last one).
// A load comes before the stores and calls of its block that may overwrite
// what it reads (`mem`, the function's MemoryIndex).
// Throws internalError("gcm", ...) on a dependence cycle inside the block.
// One LocalScheduler serves all blocks of a function: its per-node state is
// indexed by id and reused, so a block costs what it holds.
class LocalScheduler {
 public:
  LocalScheduler(const Graph& g, const MemoryIndex& mem);
  std::vector<Node*> schedule(const std::vector<Node*>& ctrl, const std::vector<Node*>& members,
                              const std::vector<char>& liveOut, int block);

 private:
  friend class BlockScheduler;
  const MemoryIndex& mem_;
  std::vector<uint32_t> stamp_;  // by node id: == epoch_ while the node is one of the block's to order
  std::vector<char> state_;      // by node id: pending, on the stack, done
  uint32_t epoch_ = 0;
};

}  // namespace simplec
