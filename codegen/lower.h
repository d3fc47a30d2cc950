// Lowers a whole optimized graph to a machine module: for each function,
// global code motion, instruction selection, register allocation and frame
// lowering; plus the read-only data (strings, the source file name for
// runtime errors) and the external symbols referenced.
#pragma once
#include <string>

#include "codegen/mir.h"
#include "son/graph.h"

namespace simplec {

struct LowerOptions {
  bool allocate = true;   // false: stop after instruction selection (virtual registers)
};

mir::MModule lowerUnit(const Graph& g, const std::string& sourcePath, const LowerOptions& opts = {});

// --emit=sched: every function's schedule as text.
std::string printSchedules(const Graph& g);

}  // namespace simplec
