// Tail recursion into a loop, at -O2. A direct call of a function to itself
// whose result is returned at once (`return f(n - 1);`), or combined with
// values computed before the call by one associative and commutative integer
// operator (`return f(n - 1) + f(n - 2);`, `return n * f(n - 1);`), becomes a
// jump back to a loop around the body: the parameters and memory become Phis
// of that loop, and an accumulator Phi collects the combined values, which
// every return then combines with its own value (as gcc and clang do).
// The stack overflow of an endless recursion stays: unless the jumps
// provably end, a counter allows at most kTailLoopLimit jumps per
// activation, then the site makes its real call, so an endless recursion
// still grows the stack (kTailLoopLimit times slower). The jumps provably
// end when one integer parameter steps by a constant toward a constant bound
// that guards every site (`if (n < 2) return n; return f(n - 1) + f(n - 2)`);
// those sites jump unconditionally, as gcc's and clang's do, so a deep but
// finite recursion needs no stack for its jumps.
// Pre: a verified graph, parameter types as declared (before sccp narrows
// them). Post: a verified graph that computes the same; calls left only as
// the fallback after kTailLoopLimit jumps (on a never-taken arm when the
// jumps provably end, for the peepholes to remove).
#pragma once
#include "son/graph.h"

namespace simplec {

constexpr int64_t kTailLoopLimit = 8;

// Returns the number of call sites turned into jumps.
int eliminateTailRecursion(Graph& g);

}  // namespace simplec
