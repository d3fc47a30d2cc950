// Endless loops made by optimization. When peepholes prove a loop's exit
// test always true, the loop loses its last live path to the function's
// Return: it would be swept away as dead code (or left hanging from a dead
// Return) although the program runs it forever. reconnectEndlessLoops gives each such loop a Never exit (an
// If that is never taken) whose arm joins the Return, as the parser does
// for loops written without an exit.
#pragma once
#include "son/graph.h"

namespace simplec {

// Returns true when it changed the graph (the caller re-runs its peepholes).
bool reconnectEndlessLoops(Graph& g);

}  // namespace simplec
