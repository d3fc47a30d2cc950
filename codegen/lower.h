// Lowers a whole optimized graph to a machine module: for each function,
// global code motion, instruction selection, register allocation and frame
// lowering; plus the read-only data (strings, the source file name for
// runtime errors) and the external symbols referenced.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "codegen/isel.h"
#include "codegen/mir.h"
#include "lexer/pass_timer.h"
#include "son/unit.h"

namespace simplec {

struct LowerOptions {
  bool allocate = true;     // false: stop after instruction selection (virtual registers)
  bool dropGraphs = false;  // free each function's graph once it is lowered
  bool wrapEarlyReturns = false;  // optimizing: see codegen/early_return.h
  bool splitSpilled = false;      // optimizing: see codegen/spill_split.h
  bool jumpTables = false;        // optimizing: see codegen/jump_tables.h
  PassTimer* timer = nullptr;  // --time-passes: gcm, isel, regalloc, machine
  // -j: functions lowered at once, on the caller's thread and jobs - 1
  // workers. The sink still gets them one at a time, in order, on the
  // caller's thread, so the output does not depend on it. With a timer,
  // lowering stays on one thread (the passes' times would overlap).
  int jobs = 1;
};

// Lowers a unit function by function, so that each can be written out and
// freed before the next is made: the module's header (read-only data,
// externs, inlined calls) first, then each function handed to a sink, then
// the data the code loads (float constants).
class UnitLowering {
 public:
  UnitLowering(Unit& u, const std::string& sourcePath, const LowerOptions& opts);
  mir::MModule& module() { return m_; }  // the header: no functions
  // The symbols of the functions lowerFunctions will make, in order.
  std::vector<std::string> functionNames() const;
  // Stops at the first function the sink refuses (returns false then).
  bool lowerFunctions(const std::function<bool(mir::MFunction&&)>& sink);
  void finishData();

 private:
  // Function i's machine code, its graph dropped (dropGraphs) as soon as
  // instruction selection is done with it when `dropEarly`.
  mir::MFunction lowerOne(size_t i, IselContext& cx, bool dropEarly);
  bool lowerInParallel(const std::vector<size_t>& funs, const std::function<bool(mir::MFunction&&)>& sink);

  Unit& u_;
  LowerOptions opts_;
  mir::MModule m_;
  IselContext cx_;
};

// The whole module at once (--emit=mir, tests).
mir::MModule lowerUnit(Unit& u, const std::string& sourcePath, const LowerOptions& opts = {});

// --emit=sched: every function's schedule as text.
std::string printSchedules(const Unit& u);

}  // namespace simplec
