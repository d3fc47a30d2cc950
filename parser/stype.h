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
  enum Kind : uint8_t { Error, Void, Int, Bool, Float, Null, Struct, Array, Fun };
  Kind kind = Error;
  uint8_t bits = 64;        // Int: 8, 16, 32 or 64; Float: 32 or 64
  bool isUnsigned = false;  // Int: u8 u16 u32
  bool nullable = false;    // Struct/Array/Fun references: may be null
  bool readonly = false;    // Array `[~]`: no element may be stored through it;
                            // Struct: deeply immutable through this reference
  std::shared_ptr<const SType> elem;   // Array element
  const StructInfo* strct = nullptr;   // Struct
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
  // flt/f64 (64 bits) or f32: an f32 is a double rounded to single on store.
  static SType floatT(int bits = 64);
  static SType nullT() { return of(Null); }
  static SType structT(const StructInfo* s, bool nullable = false);
  static SType arrayT(const SType& elem, bool readonly = false, bool nullable = false);
  // A string literal: a read-only byte array.
  static SType strT() { return arrayT(intN(8, true), true); }
  static SType fun(std::vector<SType> params, SType ret);

  bool isError() const { return kind == Error; }
  bool isIntegral() const { return kind == Int || kind == Bool; }
  bool isFloat() const { return kind == Float; }
  bool isNumeric() const { return isIntegral() || isFloat(); }
  // Values of this type are stored truncated (bool keeps the low bit).
  bool isNarrow() const { return kind == Bool || (kind == Int && bits < 64); }
  bool hasValue() const { return kind != Void; }
  bool isRef() const { return kind == Struct || kind == Array || kind == Fun || kind == Null; }
  bool isArray() const { return kind == Array; }
  bool isString() const { return kind == Array && elem->kind == Int && elem->bits == 8 && elem->isUnsigned; }
  // The same reference type, nullable or not.
  SType withNullable(bool n) const {
    SType t = *this;
    t.nullable = n;
    return t;
  }
  SType nonNull() const { return withNullable(false); }
  // References whose null-ness the parser tracks along control flow.
  bool isNullTracked() const { return kind == Struct || kind == Array || kind == Fun; }
  // What `var`/`val` infer from a value: every reference is nullable
  // (`var a = new int[3];` is an `int[]?`, known non-null right after).
  SType asNullable() const { return isNullTracked() ? withNullable(true) : *this; }
  std::string str() const;
  const Type* lattice() const;
};

struct FunSig {
  std::vector<SType> params;
  SType ret;
};

// The integer type a primitive type name denotes (`byte` is `u8`), or Error.
SType intTypeNamed(const std::string& name);
// Any primitive type name: the integers, `flt`/`f64` and `f32`; or Error.
SType primitiveTypeNamed(const std::string& name);

bool sameType(const SType& a, const SType& b);
// Can a value of type `from` be stored where `to` is expected? (Read-only
// references are checked separately: see droppingReadonly.)
bool assignable(const SType& from, const SType& to);
// Storing `from` into `to` would make a read-only reference mutable again.
bool regainsWrite(const SType& from, const SType& to);
// The type of a value that may be either (int and bool give int; an integer
// and a float give flt); Error if none.
SType commonType(const SType& a, const SType& b);

}  // namespace simplec
