// boundsCheckElim: removes a BoundsCheck whose index is proven to lie in
// [0, length) wherever it executes: by the ranges the analysis found, the
// tests on the dominating path (`i < a#`, or `i < n` with `n <= a#` known),
// the bounds checks already passed on that path, and induction variables
// (opt/index_facts.h; two loads of one array's length are one length).
// So `for (int i = 0; i < a#; i++) s += a[i];` keeps
// no check, and matmul's `c[i * n + j]` with n = 400 and c of 160000
// elements keeps none either. Only checks that can never fail go: every
// check that could fail stays where it was, so a runtime error keeps its
// position, its text and the output printed before it.
// Pre: a verified graph whose types are the analysis's fixed point (after
// sccp and the peepholes; after loadelim, so an array read twice from a
// field is one node). Post: the same program with fewer BoundsChecks;
// a load or store behind a removed check now hangs below the check's control.
// The garbage a removed check leaves is swept: the graph verifies.
#pragma once
#include "son/graph.h"

namespace simplec {

// On one function; returns the number of checks removed.
int boundsCheckElim(Graph& g);

}  // namespace simplec
