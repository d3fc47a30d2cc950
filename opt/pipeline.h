// The optimizer's pass table and driver. A pass is a free function over the
// graph; the table gives its name, the lowest -O level that runs it, and the
// passes that must run before it (checked once at start-up). The driver runs
// them in table order, optionally verifying and dumping after each.
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

// Runs the pipeline. A verifier failure throws InternalError naming the pass.
void runPipeline(Graph& g, const PassOptions& opts);
// The graph after parsing, under the same dump/verify options.
void afterParse(Graph& g, const PassOptions& opts);

}  // namespace simplec
