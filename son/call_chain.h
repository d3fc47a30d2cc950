// Call chains for runtime errors: the source frames a position stands for,
// innermost first. Code inlined into a function keeps the call it came
// from (SrcPos::site), so a position in function `fun` may expand to several
// frames: the inlined callees, then `fun` itself. Native code (a table the
// compiler emits per call site) and the graph evaluator both print these.
#pragma once
#include <string>
#include <vector>

#include "son/unit.h"

namespace simplec {

struct SourceFrame {
  int fun = -1;  // index into Unit::funs
  SrcPos pos;    // where in that function (site cleared)
};

// The frames of code at `pos` in function `fun`, innermost first. Frames in
// the sys library are left out: an error there is reported at the user's
// call into it.
std::vector<SourceFrame> expandChain(const Unit& u, int fun, SrcPos pos);

// Where the function's own code stands while the code at `pos` runs: pos
// itself, or for inlined code the position of the outermost call it came
// from (site cleared).
SrcPos outermostPosition(const Unit& u, SrcPos pos);

// The position a runtime error at `pos` in `fun` is reported at: `pos`
// itself, or for code of the sys library, the user's call into it as far as
// the inlining shows (invalid when the whole chain is library code).
SrcPos reportedPosition(const Unit& u, int fun, SrcPos pos);

// Printing (shared with the runtime's format, runtime/rt_trace.c): at most
// kTraceHead frame lines, then "  ... N more frames".
constexpr size_t kTraceHead = 50;
std::string traceLine(const std::string& fun, const std::string& file, SrcPos pos);

}  // namespace simplec
