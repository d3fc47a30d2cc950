// iterPeeps: runs every live node through its peephole from a worklist until
// nothing changes. The worklist order comes from a seed (the fuzzer varies it;
// the result must not depend on it beyond node numbering). Each node is
// visited once, and a change queues what it may enable (the users of what
// changed, of what a rule edited, and their users: rules read their inputs'
// inputs), so one round over the function reaches the fixed point.
// Pre: a verified graph without Scope nodes. Post: a fixed point — checked in
// debug mode by re-running every peephole and asserting no progress — with
// every node unreachable from Stop swept away.
#pragma once
#include <cstdint>
#include <vector>

#include "son/graph.h"

namespace simplec {

void iterPeeps(Graph& g, uint64_t seed = 0, bool checkFixedPoint = false);

// After a pass that changed a few places of a function at a fixed point:
// the peepholes from the nodes in `changed` (made or edited by the pass)
// and their users, and from what their rewrites queue, until nothing is
// queued; then the garbage is swept. The rest of the function is not
// visited (a whole round over a huge function for a few new nodes was most
// of such a pass's time), so a rewrite that would enable one far from what
// changed may wait for the next full iterPeeps.
// Pre: as iterPeeps. Post: the changed nodes typed and folded.
void peepsFrom(Graph& g, const std::vector<Node*>& changed, uint64_t seed = 0);

}  // namespace simplec
