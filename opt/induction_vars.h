// Induction variables of one loop. A basic IV is a Phi of the Loop whose
// back-edge value is the Phi plus (or minus) a loop-invariant step; a
// derived IV is iv * scale + offset with scale and offset invariant.
// Simple's integers wrap modulo 2^64, and so do these formulas: the k-th
// value of a basic IV is init + k * step (mod 2^64), and a derived IV is
// exact in the same ring. Nothing here assumes that arithmetic does not
// overflow; a user that needs that must prove it from ranges.
// Narrowing Casts are looked through: a Cast evaluates to its value.
#pragma once
#include <vector>

#include "opt/loop_invariance.h"
#include "son/graph.h"

namespace simplec {

struct BasicIV {
  Node* phi;
  Node* init;   // the value on entry (Phi input 1)
  Node* step;   // invariant
  bool down;    // back-edge value = phi - step (else phi + step)
};

struct DerivedIV {
  const BasicIV* iv;
  Node* scale;   // null: 1
  Node* offset;  // null: 0
  bool negOffset;  // the value is iv * scale - offset
};

// The value n without narrowing Casts.
Node* withoutCasts(Node* n);

// The basic IVs of the loop `inv` is about (its Phis, in use order).
std::vector<BasicIV> findBasicIVs(LoopInvariance& inv);

// n as a derived IV of one of `ivs` (iv itself, iv * s, iv * s + o,
// o + iv * s, iv * s - o, with s and o invariant); false if it is none.
bool matchDerivedIV(Node* n, const std::vector<BasicIV>& ivs, LoopInvariance& inv, DerivedIV* out);

}  // namespace simplec
