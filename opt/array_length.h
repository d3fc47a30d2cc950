// The length of an array reference that flows through Phis: when every
// array the reference may be (`t = a; a = c; c = t;` in a loop) was
// allocated (New) with one length value L, the reference's length is L.
// L must be fixed for the whole call of the function: built from
// constants and parameters by arithmetic only (no Phi, load or call), so
// that its value when each New ran is its value everywhere. Null when the
// reference may come from anywhere else (a parameter, a load, null).
#pragma once
#include "son/graph.h"

namespace simplec {

Node* commonArrayLength(Node* ptr);

}  // namespace simplec
