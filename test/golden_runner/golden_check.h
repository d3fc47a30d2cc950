// checkTest: compile one golden test at one optimization level, run it, and
// compare with its TestSpec; observeTest: the same steps, returning what
// happened in the form --bless writes back. In interpret mode the program is
// not compiled but run by `simplec OPT --interpret FILE -- ARGS`.
// Invariant: each call works in its own fresh temporary directory, removed
// before returning, so any number of calls may run in parallel.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "test/golden_runner/golden_spec.h"

namespace simplec::golden {

struct RunConfig {
  std::string simplec;          // compiler to run
  double timeoutSeconds = 10;   // per compile and per run
  std::vector<std::string> compilerArgs;  // extra flags for every compile (e.g. --verify-each)
  bool interpret = false;       // run with simplec --interpret instead of compiling
};

struct CheckResult {
  bool passed = false;
  std::string report;  // for a failure: what differs, multi-line, indented
};

CheckResult checkTest(const RunConfig& cfg, const std::string& path, const TestSpec& spec,
                      const std::string& opt);

// Compiles at `opt` (and runs when that succeeds). Returns nullopt, with
// `why` set, when the result cannot be written as expectations (compiler
// crash or internal error, timeout, program killed by a signal).
std::optional<ActualOutcome> observeTest(const RunConfig& cfg, const std::string& path,
                                         const TestSpec& spec, const std::string& opt,
                                         std::string& why);

}  // namespace simplec::golden
