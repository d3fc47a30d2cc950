// Test helper: a seeded generator of random but well-defined integer MIR, as
// an instruction selector could produce it: arithmetic, shifts by rcx,
// divisions, calls with stack arguments, heap and slot accesses, nested
// if/else and counted loops with ParMoves at block ends.
// Invariant: the same seed always gives the same function, which terminates
// and never reads an undefined register.
#pragma once
#include <cstdint>
#include <vector>

#include "codegen/mir.h"
#include "test/unit/codegen/mir_interp.h"

namespace simplec::test {

// Every value the function creates stays live to the end, so register
// pressure grows with numValues.
struct RandomMirOptions {
  int numValues = 24;      // values live from the entry to the return
  int numStatements = 30;  // at the top level; nested bodies get fewer
  int maxDepth = 2;        // nesting of if/else and loops
  bool calls = true;
};

// Parameters: rdi, rsi, rcx, r8, r9 and two stack arguments are integers,
// rdx is a pointer to the interpreter's heap buffer.
mir::MFunction randomMir(uint64_t seed, const RandomMirOptions& opts);

// Inputs for a function made by randomMir (arguments, heap contents and the
// callees it may call).
std::vector<InterpConfig> randomMirInputs(uint64_t seed, int count);

}  // namespace simplec::test
