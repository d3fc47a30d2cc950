// -g: the unit's inline sites (son/inline_site.h) as the debug information
// shows them (mir::InlinedCall), for MModule::inlinedCalls. Code generation
// only sees the module, so the callees' names and the calls' positions are
// resolved here, while the unit still has them.
#pragma once
#include <vector>

#include "codegen/mir.h"
#include "son/unit.h"

namespace simplec {

// One entry per Unit::inlineSites entry, in the same order.
std::vector<mir::InlinedCall> inlinedCalls(const Unit& u);

}  // namespace simplec
