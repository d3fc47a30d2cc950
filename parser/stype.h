// Static (source-level) types: what the programmer wrote or what inference
// gave, as opposed to the lattice types of the graph. The parser checks
// operations against these and maps each to the lattice type a value of it
// may take (`bool` is the integer range [0, 1]).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "son/type.h"

namespace simplec {

struct FunSig;
struct StructInfo;

struct SType {
  enum Kind : uint8_t { Error, Void, Int, Bool, Str, Null, Struct, Fun };
  Kind kind = Error;
  uint8_t bits = 64;        // Int: 8, 16, 32 or 64
  bool isUnsigned = false;  // Int: u8 u16 u32
  bool nullable = false;    // Struct: `S?` may be null
  bool readonly = false;    // Struct: deeply immutable through this reference
  const StructInfo* strct = nullptr;  // Struct
  std::shared_ptr<const FunSig> sig;  // Fun

  static SType of(Kind k) {
    SType t;
    t.kind = k;
    return t;
  }
  static SType error() { return of(Error); }
  static SType voidT() { return of(Void); }
  static SType intT() { return of(Int); }
  // A narrow integer: i8 i16 i32 (signed) or u8 u16 u32; 64 bits is `int`.
  static SType intN(int bits, bool isUnsigned);
  static SType boolT() { return of(Bool); }
  static SType strT() { return of(Str); }
  static SType fun(std::vector<SType> params, SType ret);
  static SType nullT() { return of(Null); }
  static SType structT(const StructInfo* s, bool nullable = false);

  bool isError() const { return kind == Error; }
  bool isIntegral() const { return kind == Int || kind == Bool; }
  // Values of this type are stored truncated (bool keeps the low bit).
  bool isNarrow() const { return kind == Bool || (kind == Int && bits < 64); }
  bool hasValue() const { return kind != Void; }
  // A reference (struct, or the null literal): compared by identity.
  bool isRef() const { return kind == Struct || kind == Null; }
  SType nonNull() const { SType t = *this; t.nullable = false; return t; }
  SType asNullable() const { SType t = *this; if (t.kind == Struct) t.nullable = true; return t; }
  std::string str() const;
  const Type* lattice() const;
};

struct FunSig {
  std::vector<SType> params;
  SType ret;
};

// The integer type a primitive type name denotes (`byte` is `u8`), or Error.
SType intTypeNamed(const std::string& name);

bool sameType(const SType& a, const SType& b);
// Can a value of type `from` be stored where `to` is expected? (Read-only
// references are checked separately: see droppingReadonly.)
bool assignable(const SType& from, const SType& to);
// Storing `from` into `to` would make a read-only reference mutable again.
bool regainsWrite(const SType& from, const SType& to);
// The type of a value that may be either (int and bool give int); Error if none.
SType commonType(const SType& a, const SType& b);

}  // namespace simplec
