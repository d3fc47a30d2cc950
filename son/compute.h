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
// The two-lane kinds (VSplat..VSqrt); VAdd..VSqrt do the scalar kind per lane.
inline bool isVecOp(Op op) { return op >= Op::VSplat && op <= Op::VSqrt; }
// VNeg, VAbs, VSqrt: one two-lane operand.
inline bool isUnaryVecOp(Op op) { return op == Op::VNeg || op == Op::VAbs || op == Op::VSqrt; }
// The scalar kind a lane-wise VAdd..VSqrt does (FAdd..FSqrt), and back.
inline Op laneOp(Op op) {
  switch (op) {
    case Op::VAdd: return Op::FAdd;
    case Op::VSub: return Op::FSub;
    case Op::VMul: return Op::FMul;
    case Op::VDiv: return Op::FDiv;
    case Op::VMin: return Op::FMin;
    case Op::VMax: return Op::FMax;
    case Op::VNeg: return Op::FNeg;
    case Op::VAbs: return Op::FAbs;
    default: return Op::FSqrt;
  }
}
// The two-lane kind of scalar kind op, or Op::Start when there is none.
inline Op vecOpOf(Op op) {
  switch (op) {
    case Op::FAdd: return Op::VAdd;
    case Op::FSub: return Op::VSub;
    case Op::FMul: return Op::VMul;
    case Op::FDiv: return Op::VDiv;
    case Op::FMin: return Op::VMin;
    case Op::FMax: return Op::VMax;
    case Op::FNeg: return Op::VNeg;
    case Op::FAbs: return Op::VAbs;
    case Op::FSqrt: return Op::VSqrt;
    default: return Op::Start;
  }
}

// Integer arithmetic as the machine does it (wrapping, counts mod 64,
// MIN / -1 == MIN, MIN % -1 == 0). Division by zero is never asked for.
int64_t foldBinary(Op op, int64_t a, int64_t b);

}  // namespace simplec
