// Inlining at -O2: a direct call is replaced by a copy of the callee's body
// when the callee is small (kSmallCallee nodes) or has this one call site
// (and cannot be called any other way). Functions that may call each other
// (one component of the call graph) are never inlined into one another, so
// recursion stays a call. Callers are visited callees first, so a copied body
// already holds its own inlined callees; the growth of each caller is bounded
// by a budget (twice its size plus a constant), and the copies of larger
// callees all together by one for the unit. A callee inlined at its one
// call site is dropped at once: nothing else can call it.
// The copy keeps every node's source position, so a runtime check of the
// callee still reports the callee's line and column; the call's control and
// memory inputs become the copy's entry, the copy's Return its exit.
// Callees that never return (their end is an endless loop) are not inlined.
// Pre/post: a verified graph. Returns the number of calls inlined.
#pragma once
#include "son/unit.h"

namespace simplec {

constexpr size_t kSmallCallee = 40;        // nodes, constants not counted
constexpr size_t kSingleSiteCallee = 4000;  // a larger one-call-site callee stays a call
constexpr size_t kMaxSelfCallSites = 2;      // more calls of a function to itself: not unrolled (tak: slower)
// All copies of callees larger than kSmallCallee: at most this many times
// the unit's nodes, plus the constant.
constexpr size_t kUnitGrowthFactor = 2;
constexpr size_t kUnitGrowthConstant = 20000;

int inlineCalls(Unit& u);

// The self-inline pass, after tailrec: a small function (kSmallCallee) that
// still calls itself directly, at kMaxSelfCallSites places at most, gets a
// copy of its own body at each of them, made from the body before any copy
// went in: one level of the recursion unrolled. After tailrec, fib's one
// call left becomes a loop nest around a call (as gcc's), 67 -> 45 ms.
// Returns the number of calls replaced.
int inlineSelfCalls(Unit& u);

}  // namespace simplec
