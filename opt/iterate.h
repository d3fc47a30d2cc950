// iterPeeps: runs every live node through its peephole from a worklist until
// nothing changes. The worklist order comes from a seed (the fuzzer varies it;
// the result must not depend on it beyond node numbering).
// Pre: a verified graph without Scope nodes. Post: a fixed point — checked in
// debug mode by re-running every peephole and asserting no progress — with
// every node unreachable from Stop swept away.
#pragma once
#include <cstdint>

#include "son/graph.h"

namespace simplec {

void iterPeeps(Graph& g, uint64_t seed = 0, bool checkFixedPoint = false);

}  // namespace simplec
