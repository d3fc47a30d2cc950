// hoistLoads: a load of a struct field through a reference that is never
// null, whose memory state, reference and offset a loop does not change,
// is tied to the control before the loop instead of a control inside it
// (the parser ties every load to where the program reads). Global code
// motion can then compute it once, before the loop: `s += box.v * i`
// reads box.v once when the loop stores no `v` field and calls nothing.
// Such a load cannot trap, so running it even when the loop body would
// not run changes nothing; it still reads the memory state it read (code
// motion keeps it above every store that may overwrite that state).
// Array elements stay: their loads hang below their bounds checks.
// Pre: a verified graph. Post: the same program; the peepholes' fixed point.
#pragma once
#include <cstdint>

#include "son/graph.h"

namespace simplec {

// On one function; returns the number of loads moved.
int hoistLoads(Graph& g, uint64_t seed = 0);

}  // namespace simplec
