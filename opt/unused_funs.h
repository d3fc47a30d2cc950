// Removal of functions nothing can call: those not reachable in the call
// graph (any mention of a function's FunPtr counts, calls or not) from the
// program's main or, in a library, from its exported functions. Their
// Returns leave Stop, their bodies die, and their FunInfo keeps its index
// (other tables refer to functions by index) with no Fun and no Return, so
// no stage emits them. Returns the number of functions removed.
#pragma once
#include "son/graph.h"

namespace simplec {

int removeUnusedFunctions(Graph& g);

}  // namespace simplec
