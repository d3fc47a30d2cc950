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

class Node;

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
  // The source block the variable is declared in, from its first token to
  // its last (a `{...}` block or a `for` statement); invalid: the function.
  SrcPos scopeBegin = {}, scopeEnd = {};
  // A variable of a function inlined into this one: the inline site of its
  // frame (Unit::inlineSites); -1 for the function's own.
  int inlineSite = -1;
  // Assigned after its declaration (a loop counter, `x = x + 1`): it holds
  // several values over time, told apart by the bindings of its names
  // (DebugName::at, seq, passAt; codegen/debug_versions.h).
  bool reassigned = false;
};

// One link of a value's chain of variable names (Graph::debugNames): the
// value is variable `var`'s from a point of the source on (a binding).
struct DebugName {
  enum Kind : uint8_t {
    Declare,  // the declaration's value (a parameter's, or the initializer's)
    Assign,   // a later assignment's value
    Merge,    // the value where control merges (a Phi, or what it folded to)
  };
  int var;        // index into the function's FunInfo::debugVars
  uint32_t next;  // next link, 0 at the end (entry 0 is unused)
  Kind kind = Declare;
  // The binding happened under control node `at` (the parser's control at
  // the assignment; a merge's Region or Loop). Kept current when that node
  // is subsumed; null when it was killed (Graph::debugAnchors), and then
  // `unreachable` if it was dead code.
  Node* at = nullptr;
  bool unreachable = false;
  uint32_t seq = 0;  // bindings are numbered in source (parse) order
  // Where the source has passed the assignment: the end of its statement
  // (invalid: from the start of `at`'s block, for merges and parameters).
  SrcPos passAt = {};
};

}  // namespace simplec
