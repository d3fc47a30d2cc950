// Type transfer functions: the lattice meaning of each node kind over integer
// ranges. compute(n) looks only at n's inputs' current types (and, for leaf
// kinds whose type is declared — Parm, CallEnd's result, a Phi of a loop still
// being parsed — at n's own type). It is monotone: better input types never
// give a worse result. Constant folding wraps around as 64-bit two's complement.
#pragma once
#include "son/node.h"

namespace simplec {

const Type* compute(const Node* n);

// n, its type set to compute(n): for a node a pass has just made.
inline Node* typed(Node* n) {
  n->type = compute(n);
  return n;
}

// FAdd .. FMax of ops.def: the float node kinds (folded in son/float_fold.h).
inline bool isFloatOp(Op op) { return op >= Op::FAdd && op <= Op::FMax; }
// The two-lane kinds (VSplat..VDiv); VAdd..VDiv do the scalar kind per lane.
inline bool isVecOp(Op op) { return op >= Op::VSplat && op <= Op::VDiv; }
// The scalar kind a lane-wise VAdd..VDiv does (FAdd..FDiv).
inline Op laneOp(Op op) {
  return op == Op::VAdd ? Op::FAdd : op == Op::VSub ? Op::FSub : op == Op::VMul ? Op::FMul : Op::FDiv;
}

// Integer arithmetic as the machine does it (wrapping, counts mod 64,
// MIN / -1 == MIN, MIN % -1 == 0). Division by zero is never asked for.
int64_t foldBinary(Op op, int64_t a, int64_t b);

}  // namespace simplec
