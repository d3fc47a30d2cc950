// The graph evaluator: runs a function of the Sea of Nodes by its meaning, not
// by a schedule (Demange et al., CC'18), as an oracle for the native code:
// control moves between control nodes, entering a Region assigns all its Phis
// at once, data nodes are evaluated on demand and cached until a Phi or call
// result they read changes; sys.io.p output and runtime errors as compiled.
// Invariant: no C++ recursion grows with the program or its run (heap stacks).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "son/unit.h"

namespace simplec {

struct EvalOptions {
  // Runtime error positions print as FILE:LINE:COL, FILE being this (the
  // source path as given to simplec, like the compiled program's messages).
  std::string fileName = "program";
  // Node evaluations (data nodes computed plus control steps) before the run
  // is stopped with stepLimitExceeded.
  uint64_t maxSteps = 100'000'000;
  // Nested calls allowed before "stack overflow". A native program with an
  // 8 MiB stack and 16-byte frames overflows near 524k, so a program that
  // fits the native stack fits here.
  uint64_t maxCallDepth = 600'000;
  // Frame storage (all active calls together), also reported as a stack
  // overflow when exceeded.
  uint64_t maxStackBytes = uint64_t(1) << 29;
  // Captured output beyond this stops the run with outputLimitExceeded.
  uint64_t maxOutputBytes = uint64_t(1) << 28;
  // Call C functions of the process (found by dlsym; integer arguments and
  // results only) instead of stopping as unsupported. Before such a call
  // the output captured so far is written to stdout, so that a C function
  // writing to fd 1 keeps program order. Only for `simplec --interpret`:
  // checks that run a program several times must not repeat its effects.
  bool callExterns = false;
  // The program's arguments (argv[0] first) for sys.args; empty: a program
  // using sys.args stops as unsupported.
  std::vector<std::string> args;
};

struct EvalResult {
  std::string out;          // everything sys.io.p printed, in order
  int64_t returnValue = 0;  // the function's result (0 when it has none)
  // What the native process's exit status would be: returnValue & 255 after
  // a normal return, 101 after a runtime error.
  int exitStatus = 0;
  // The runtime error line without its newline, e.g.
  // "t.smp:3:12: runtime error: division by zero"; empty when there was none.
  std::string error;
  // The call chain lines printed after `error` ("  at f (t.smp:3:5)"),
  // innermost first, as native code prints them; not compared by
  // evalDifference (tail calls and passes may drop frames).
  std::vector<std::string> trace;
  // The run was cut short; `out` holds what was printed until then.
  bool stepLimitExceeded = false;
  bool outputLimitExceeded = false;
  // The program did something the evaluator cannot do (call a C function);
  // this says what. The run stopped there.
  std::string unsupported;
  // The prefix of `out` already written to stdout (callExterns).
  size_t outWritten = 0;
  uint64_t steps = 0;        // node evaluations done

  // Returned or stopped at a runtime error: the result is the program's
  // whole behaviour, comparable with any other run.
  bool complete() const { return !stepLimitExceeded && !outputLimitExceeded && unsupported.empty(); }
};

// Evaluates function `funIndex` of `g` with integer arguments `args` (one
// per parameter). Throws InternalError (pass "evaluate") when the graph is
// malformed: a data cycle not broken by a Phi, a value used where it is not
// defined, arithmetic on a non-integer, a division by zero not guarded by a
// ZeroCheck, a control node with no or several successors.
EvalResult evaluate(const Unit& g, int funIndex, std::vector<int64_t> args, const EvalOptions& opts);

// The program's entry (FunInfo::isEntry), or -1.
int entryFunction(const Unit& g);

// Runs the entry function as the native program would be run with `argc`
// (1 + the number of command-line arguments): main gets argc when it takes a
// parameter. Without an entry function the result's `unsupported` says so.
EvalResult evaluateProgram(const Unit& g, int64_t argc, const EvalOptions& opts);

// "" when two runs of one program behave the same: equal stdout, exit status
// and runtime error when both are complete; when one was cut short by a
// limit, the shorter stdout a prefix of the other. Otherwise a description
// of the first difference. A run that met something unsupported compares
// equal to anything.
std::string evalDifference(const EvalResult& before, const EvalResult& after);

}  // namespace simplec
