// -g: which value a reassigned variable holds, instruction by instruction.
// The parser binds each of the variable's values to the control it was
// assigned under and the source position where the assignment is done
// (son/debug_info.h); code generation turns those bindings into
// DebugAssigns of the block that control ended up in (debug_values.h). A
// forward dataflow over the final machine code then fires each assignment
// at the first instruction whose own source position is past the
// assignment's end (or at the block's end), so the variable shows its old
// value until the source has passed the assignment and its new one after.
// A new value that is not computed yet there is awaited (unknown until
// the instruction that computes it); where control merges, predecessors
// that disagree give "unknown" unless the merge binds the variable (its
// Phi). The variable's location list is where its current value is in a
// register or slot (debug_locations.h), or the constant it holds.
#pragma once
#include <vector>

#include "codegen/debug_locations.h"
#include "codegen/mir.h"

namespace simplec {

// The most (reassigned variables) x (blocks) the dataflow takes on; a
// bigger function gets no locations for its reassigned variables.
constexpr size_t kMaxDebugVersionCells = size_t(1) << 22;

// Where the source stands while mi runs: mi's own position, or for code
// inlined into f the position of the outermost call it came from
// (MFunction::dbgSiteCalls); invalid when mi has none.
SrcPos sourcePosition(const mir::MFunction& f, const mir::MInst& mi);
// Has the source passed `at` (an assignment's end) once it stands at
// `now`? Never for an invalid `now`.
bool sourcePassed(const SrcPos& at, const SrcPos& now);

// By variable (f.debugVars): for each reassigned variable, its ranges and
// places; empty for the others. `values`: debugLocations(f).
// Precondition: f is final (allocated, frame lowered, laid out).
std::vector<std::vector<DebugRange>> debugVersionRanges(const mir::MFunction& f,
                                                        const std::vector<std::vector<DebugRange>>& values);

}  // namespace simplec
