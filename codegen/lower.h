// Lowers a whole optimized graph to a machine module: for each function,
// global code motion, instruction selection, register allocation and frame
// lowering; plus the read-only data (strings, the source file name for
// runtime errors) and the external symbols referenced.
#pragma once
#include <string>

#include "codegen/mir.h"
#include "lexer/pass_timer.h"
#include "son/unit.h"

namespace simplec {

struct LowerOptions {
  bool allocate = true;     // false: stop after instruction selection (virtual registers)
  bool dropGraphs = false;  // free each function's graph once it is lowered
  PassTimer* timer = nullptr;  // --time-passes: gcm, isel, regalloc, machine
};

mir::MModule lowerUnit(Unit& u, const std::string& sourcePath, const LowerOptions& opts = {});

// --emit=sched: every function's schedule as text.
std::string printSchedules(const Unit& u);

}  // namespace simplec
