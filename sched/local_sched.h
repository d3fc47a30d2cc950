// Local scheduling: the execution order of the nodes GCM put in one block.
// Order: the head; the block's Phis (by node id); in the entry block the
// Parms (memory first, then by index); then a list schedule of the data
// nodes and the inner control nodes; then the block's If, Never or Return.
// Invariant: every input placed in the same block comes before its use
// (Phi inputs excepted, they are read at the end of a predecessor); inner
// control nodes keep their control order.
#pragma once
#include <vector>

#include "son/graph.h"

namespace simplec {

// `ctrl`: the block's control chain (head first). `members`: every other
// node placed in the block, in any order; liveOut[i] is set when members[i]
// is used by another block or by a Phi (it is then scheduled as a root).
//
// The list schedule is demand driven, which keeps live ranges short: the
// inner control nodes are taken in order, then the live-out values (by node
// id), then the final If/Return, and each is preceded by whichever of its
// inputs are not yet scheduled, depth first in input order. So a value is
// computed right before its first use, arguments right before their Call,
// and a compare used only by the final If lands right before it (the
// selector fuses the two). A CallEnd's Projs follow it immediately.
// Throws internalError("gcm", ...) on a dependence cycle inside the block.
std::vector<Node*> scheduleBlock(const std::vector<Node*>& ctrl, const std::vector<Node*>& members,
                                 const std::vector<char>& liveOut, int block);

}  // namespace simplec
