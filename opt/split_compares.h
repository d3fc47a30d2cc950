// splitSharedCompares: gives each branch (and select, and `!` in front of
// them) its own copy of an integer compare that value numbering made
// shared, when every user can take it that way (not when the 0/1 value is
// needed too). Instruction selection fuses a compare into the one If in
// its block that uses it (cmp; jcc); a compare with users in several
// blocks is computed once into a register instead (cmp; setcc; movzbl),
// and each branch tests that (test; jcc). A copy per user costs one cmp
// there. Not for floats: their values outlive calls in stack slots (no xmm
// register survives a call), and each copy would reload both. Last of the
// passes: the peepholes would merge the copies again.
// Pre/post: a verified graph; the same values everywhere.
#pragma once
#include "son/graph.h"

namespace simplec {

// On one function; returns the number of copies made.
int splitSharedCompares(Graph& g);

}  // namespace simplec
