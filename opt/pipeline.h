// The optimizer's pass table and driver. A pass is a free function over one
// function's graph, or over the whole unit when it is interprocedural
// (inlining, the analysis, unused functions); the table gives its name, the
// lowest -O level that runs it, and the passes that must run before it
// (checked once at start-up). The driver runs them in table order,
// optionally verifying, dumping and timing after each, and optionally
// checking that no pass changes what the program does (the graph evaluator
// runs the entry function after parsing and after every pass).
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "lexer/pass_timer.h"
#include "son/unit.h"

namespace simplec {

struct PassOptions {
  int optLevel = 2;
  bool verifyEach = false;
  bool checkFixedPoint = false;             // peephole debug check
  // With verifyEach, also run after the graph verifier (the driver passes
  // sched's verifySchedules: a later stage, which this one cannot name):
  // the back end's checks, so that a graph it cannot schedule is blamed on
  // the pass that produced it. Returns violations; null: none.
  std::vector<std::string> (*checkSchedules)(const Unit&) = nullptr;
  std::vector<std::string> dumpAfter;       // pass names ("parse" = the parser's graph)
  FILE* dumpOut = stdout;
  uint64_t seed = 0;                        // worklist order
  // --check-passes: evaluate main(checkArgc) on the graph after parsing and
  // after every pass; a pass after which stdout, exit status or runtime error
  // differ is an InternalError naming it. checkFile names the source in
  // runtime error messages.
  bool checkPasses = false;
  int64_t checkArgc = 1;
  std::string checkFile = "program";
  // --time-passes: where each pass's time and the live node count go (null: not timed).
  PassTimer* timer = nullptr;
  // --emit=html: shown the unit after parsing and after every pass that ran,
  // with the pass's name ("parse" first), before the verifier (null: none).
  std::function<void(const Unit&, const std::string& pass)> observe;
  // Run every pass over the whole unit before the next (as the options
  // above that look at the unit between passes do anyway), instead of
  // running each stretch of per-function passes one function at a time.
  // The result is the same: a test compares the two.
  bool passByPass = false;
  // Threads for the stretches of per-function passes (-j): each takes whole
  // functions (son/shared_graphs.h). 1 with a timer, whose report is per pass.
  int jobs = 1;
};

struct Pass {
  const char* name;
  // Exactly one of these is set.
  void (*runUnit)(Unit&, const PassOptions&);       // interprocedural
  void (*runFunction)(Graph&, const PassOptions&);  // once per function with a body
  int minLevel;                     // runs at -O<minLevel> and above; 0 = always
  std::vector<const char*> after;   // passes that must precede it in the table
};

const std::vector<Pass>& passTable();
// Throws InternalError if a pass is listed before one it must follow.
void checkPassOrder();
bool isPassName(const std::string& name);

// Runs the pipeline. A verifier failure, or with checkPasses a change in the
// program's behaviour, throws InternalError naming the pass.
void runPipeline(Unit& u, const PassOptions& opts);
// The graph after parsing, under the same dump/verify options.
void afterParse(Unit& u, const PassOptions& opts);

}  // namespace simplec
