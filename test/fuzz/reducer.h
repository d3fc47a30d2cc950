// reduceProgram: shrinks a program that makes checkProgram fail, keeping
// only changes after which the failure has the same signature (delete
// statements in chunks, unwrap if/else branches, loops and blocks, replace
// expressions by 0, 1 or one of their operands), until nothing more helps or
// the time budget is spent.
// Invariant: the returned text, run with the same ProgramSetup, still fails
// with the original signature (it is the last candidate that did).
#pragma once
#include <string>

#include "test/fuzz/differential.h"

namespace simplec::fuzz {

struct ReduceOptions {
  double timeBudget = 300;  // seconds
  bool verbose = false;     // print each accepted step to stderr
};

struct ReduceResult {
  std::string text;         // the smallest failing program found (setup header included)
  std::string signature;    // the failure it keeps
  int tests = 0;            // candidates tried
  int accepted = 0;         // candidates kept
  bool reproduced = false;  // false: the input did not fail as `signature` says; text is the input
};

// `signature` is the failure to keep; empty means "whatever the input fails with".
ReduceResult reduceProgram(const std::string& text, const ProgramSetup& setup, const CheckConfig& cfg,
                           std::string signature, const std::string& workDir, const ReduceOptions& opts);

}  // namespace simplec::fuzz
