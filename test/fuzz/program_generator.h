// generateProgram: a seeded random generator of valid, terminating Simple
// programs over the integer subset simplec compiles (int, bool, functions,
// function references), biased so that optimizations have work to do.
// Invariant: the same seed and options give the same text; every program
// type-checks, runs at most about `costBudget` statements, recurses at most
// a few levels deep, and its only possible runtime error is division by zero.
#pragma once
#include <cstdint>
#include <string>

namespace simplec::fuzz {

struct GeneratorOptions {
  int maxFunctions = 6;          // helper functions besides main (0..maxFunctions)
  int maxBlockStatements = 9;    // statements in a top-level block; inner blocks get fewer
  int maxStatementDepth = 4;     // nesting of if/loop/block statements
  int maxExprDepth = 4;          // nesting of operators in one expression
  uint64_t costBudget = 20000;   // upper bound of statement executions in one run
};

// Returns the source of one program. The first line is a comment naming the seed.
std::string generateProgram(uint64_t seed, const GeneratorOptions& opts = {});

}  // namespace simplec::fuzz
