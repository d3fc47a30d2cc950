// Removal of functions nothing can call: those not reachable in the call
// graph (any mention of a function's FunPtr counts, calls or not) from the
// program's main or, in a library, from its exported functions. Their
// graphs are freed, and their FunInfo keeps its index (other tables refer
// to functions by index) with no body, so no stage emits them. Returns the
// number of functions removed.
#pragma once
#include "son/unit.h"

namespace simplec {

int removeUnusedFunctions(Unit& u);

}  // namespace simplec
