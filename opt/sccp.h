// sccp: the optimistic combined analysis of Click & Cooper ("Combining
// Analyses, Combining Optimizations"): constant propagation over the integer
// range lattice and reachability, solved together in one sparse pass.
// Every value starts at TOP and every control edge unreached; a node is
// lowered only when its inputs force it, so cycles of Phis that only ever
// see one constant stay that constant, and branches never taken never
// contribute. Loop Phis whose range keeps growing are widened (the
// end that keeps moving goes to the integer limit), so the pass terminates.
// Ranges are narrowed below branches through the Cast nodes that the
// `narrow` pass (opt/narrow.h) inserts before it.
// Interprocedural: a parameter of a function whose every caller is known
// (not exported, not main, never used as a value) takes the meet of the
// arguments at the reachable call sites (widened like a loop Phi, for
// recursion); other parameters keep their declared type.
// Pre: a verified graph. Post: every node's type is the analysis's fixed
// point (sound, and a fixed point of compute()); the rewrite (constants for
// nodes, dropping dead control) is left to the peephole pass that follows.
#pragma once
#include "son/unit.h"

namespace simplec {

// One fixed point over every function of the unit (call sites feed the
// parameters of their callees); linear in the unit's size.
void sccp(Unit& u);

}  // namespace simplec
