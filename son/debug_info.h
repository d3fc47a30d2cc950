// -g: what the debugger needs to know about a function's source variables,
// recorded by the parser and read by code generation. Types are described
// in the unit's table (DebugType, by index); each function lists its
// variables (DebugVar); a value node carries the variables it is the value
// of through Node::dbg, a chain of DebugName entries in its graph, which
// Graph::subsume hands on to the replacing node. Without -g all of it stays
// empty and costs nothing.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lexer/source.h"

namespace simplec {

// A source type as the debugger shows it. Struct and Array describe the
// object a reference points at; variables and fields of those kinds hold
// the reference (a pointer, null printing as 0x0).
struct DebugField {
  std::string name;
  int type = -1;
  int64_t offset = 0;  // bytes from the start of the object
};

struct DebugType {
  enum Kind : uint8_t { Int, Bool, Float, Struct, Array, Fun };
  Kind kind = Int;
  std::string name;    // "int", "u8", "flt", "S", "int[]", "{int -> int}"
  int size = 8;        // Int/Bool/Float: bytes; Struct: bytes of the object
  bool isSigned = true;
  int elem = -1;       // Array: element type (as stored in the array)
  std::vector<DebugField> fields;  // Struct
};

struct DebugVar {
  std::string name;
  int type = -1;       // index into Unit::debugTypes
  SrcPos pos;
  int param = 0;       // k > 0: the k-th parameter (1-based); 0: a local
  // Assigned more than once (a loop counter, `x = x + 1`): which value it
  // holds at a given instruction is not tracked yet, so it has no location.
  bool reassigned = false;
};

// One link of a value's chain of variable names (Graph::debugNames).
struct DebugName {
  int var;        // index into the function's FunInfo::debugVars
  uint32_t next;  // next link, 0 at the end (entry 0 is unused)
};

}  // namespace simplec
