// The optimizer's pass table and driver. A pass is a free function over the
// graph; the table gives its name, the lowest -O level that runs it, and the
// passes that must run before it (checked once at start-up). The driver runs
// them in table order, optionally verifying and dumping after each, and
// optionally checking that no pass changes what the program does (the graph
// evaluator runs the entry function after parsing and after every pass).
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "son/graph.h"

namespace simplec {

struct PassOptions {
  int optLevel = 2;
  bool verifyEach = false;
  bool checkFixedPoint = false;             // peephole debug check
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
};

struct Pass {
  const char* name;
  void (*run)(Graph&, const PassOptions&);
  int minLevel;                     // runs at -O<minLevel> and above; 0 = always
  std::vector<const char*> after;   // passes that must precede it in the table
};

const std::vector<Pass>& passTable();
// Throws InternalError if a pass is listed before one it must follow.
void checkPassOrder();
bool isPassName(const std::string& name);

// Runs the pipeline. A verifier failure, or with checkPasses a change in the
// program's behaviour, throws InternalError naming the pass.
void runPipeline(Graph& g, const PassOptions& opts);
// The graph after parsing, under the same dump/verify options.
void afterParse(Graph& g, const PassOptions& opts);

}  // namespace simplec
