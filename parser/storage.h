// How a value of a static type sits in memory: its width, how a load
// extends it, and what kind of value it is. Array elements, struct fields
// and external C variables all store values this way (narrow integers and
// bools in their own width, f32 as a 4-byte float, references and
// functions as 8-byte pointers); only the alias class differs.
#pragma once
#include "parser/stype.h"
#include "son/mem_access.h"

namespace simplec {

// The access of a value of type t; its alias class is left 0 for the caller.
MemAccess storageOf(const SType& t);

}  // namespace simplec
