// generateProgram: a seeded random generator of valid, terminating Simple
// programs, biased so that optimizations have work to do. Swarm testing:
// each program enables a random subset of the features below (arrays passed
// between functions, structs with constructor blocks, nullable references,
// floats, narrow types, long functions, ...), so that rare combinations get
// weight; options may force features on or off. A size option makes whole
// programs of thousands of lines (many functions calling earlier ones).
// Invariant: the same seed and options give the same text; every program
// type-checks, runs at most about `costBudget` statements, recurses at most
// a few levels deep, and its only possible runtime errors are division by
// zero, an array index out of bounds and a negative array size.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace simplec::fuzz {

// The features of swarm testing, by name (`--features`).
enum class Feature {
  Arrays,      // int arrays: locals, loops over their indices
  ArrayArgs,   // arrays passed to and returned from functions
  SelfIndex,   // arrays of 8..32 elements, stores through indices loaded from the same array
  Structs,     // struct types, allocations with constructor blocks, fields updated in place
  Nullable,    // nullable references, null checks, reference fields
  Methods,     // struct functions called as methods
  Floats,      // flt/f32 variables, parameters, results, mixed int/flt arithmetic
  Narrow,      // i8..u32 and bool variables, parameters, fields and array elements
  LongFuncs,   // functions of 20-40 lines calling several earlier ones
  Recursion,   // bounded self-recursion
  FnRefs,      // function references
  DivZero,     // divisors that may be zero (a runtime error now and then)
  Strings,     // string literals read as u8[~] arrays
  Count
};
const char* featureName(Feature f);
// -1 when no feature has this name.
int featureByName(const std::string& name);

struct GeneratorOptions {
  int maxFunctions = 6;          // helper functions besides main (0..maxFunctions)
  int maxBlockStatements = 9;    // statements in a top-level block; inner blocks get fewer
  int maxStatementDepth = 4;     // nesting of if/loop/block statements
  int maxExprDepth = 4;          // nesting of operators in one expression
  uint64_t costBudget = 20000;   // upper bound of statement executions in one run
  // > 0: helpers are added until the program has about this many lines
  // (maxFunctions is then ignored); the cost budget grows with the size.
  int targetLines = 0;
  // Swarm testing: each feature is on with its own probability, except
  // those forced here (index: Feature). 0: random, 1: on, -1: off.
  std::vector<int> force = std::vector<int>(size_t(Feature::Count), 0);
  bool swarm = true;             // false: every feature not forced off is on
};

// Returns the source of one program. The first line is a comment naming the
// seed, the second the features it uses.
std::string generateProgram(uint64_t seed, const GeneratorOptions& opts = {});

}  // namespace simplec::fuzz
