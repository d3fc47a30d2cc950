// What the parser knows about a struct type: its fields in declaration
// order with their static types, which of them are per-type constants
// (`val` fields with an initializer, taking no storage), and where each
// initializer's tokens are, so that `new` can replay them for every object.
// StructInfos are owned by the Parser and never move once created.
#pragma once
#include <string>
#include <vector>

#include "lexer/source.h"
#include "parser/stype.h"
#include "parser/struct_layout.h"

namespace simplec {

class Node;
class Type;

struct FieldInfo {
  std::string name;
  SType type;
  SrcPos pos;
  bool isVal = false;       // declared with `val` (or `val` inferred)
  bool mutableRef = false;  // written `!name`: never read-only
  size_t initTok = 0;       // token index of the initializer; 0 = none
  // A per-type constant: `val name = constant;` takes no storage.
  bool isConst() const { return isVal && initTok != 0; }
  const Type* constValue = nullptr;  // once evaluated: the constant (its lattice type)
  bool evaluating = false;     // guards against a constant defined by itself
  bool isMethod = false;       // a constant function taking a hidden `self`
  bool externDecl = false;     // `T name = "C";`: a C function or variable of the type
  bool methodUsesSelf = false;    // reads `self` or a field by its bare name
  bool methodWritesSelf = false;  // assigns to a field of `self` in its body
  // A method calling itself before its result type is known (as for
  // top-level functions: assumed, and checked after the parse).
  int funIdx = -1;
  std::vector<SType> methodParams;
  SType assumedRet;
  bool retAssumed = false, assumptionsDiffer = false;
};

struct StructInfo {
  std::string name;   // full name: `A.B` for a struct B declared in A
  SrcPos pos;
  size_t bodyTok = 0;   // token index of the '{' of the declaration
  std::vector<FieldInfo> fields;
  bool fieldsParsed = false;
  bool replaying = false;  // a `new` of it is evaluating its field initializers
  StructLayout layout;     // through layoutFor (parser/struct_layout.h)
  bool laidOut = false;
  int find(const std::string& field) const {
    for (size_t i = 0; i < fields.size(); i++)
      if (fields[i].name == field) return int(i);
    return -1;
  }
};

}  // namespace simplec
