// Call sites for runtime error traces: isel records, for each call it
// selects, the source frames the call stands for (son/call_chain.h); the
// emitter turns them into the call-site table (x86_64/call_table.h).
#pragma once
#include "codegen/mir.h"
#include "son/unit.h"

namespace simplec {

// Appends the chain of a call at `pos` in function `fun` to f.callChains;
// returns its index for MInst::chain, or -1 when it has no frame to show
// (code of the sys library that was not inlined into user code).
int addCallChain(mir::MFunction& f, const Unit& u, int fun, SrcPos pos);

}  // namespace simplec
