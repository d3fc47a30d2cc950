// -g: the unit's inline sites (son/inline_site.h) as the debug information
// shows them (mir::InlinedCall), and the functions they inline
// (mir::InlinedFunction). Code generation only sees the module, so the
// callees and the calls' positions are resolved here, while the unit still
// has them.
#pragma once
#include "codegen/mir.h"
#include "son/unit.h"

namespace simplec {

// Fills m.inlinedCalls (one entry per Unit::inlineSites entry, in the same
// order) and m.inlinedFunctions.
void addInlinedCalls(const Unit& u, mir::MModule& m);

}  // namespace simplec
