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

struct SType {
  enum Kind : uint8_t { Error, Void, Int, Bool, Str, Fun };
  Kind kind = Error;
  std::shared_ptr<const FunSig> sig;  // Fun

  static SType error() { return {Error, nullptr}; }
  static SType voidT() { return {Void, nullptr}; }
  static SType intT() { return {Int, nullptr}; }
  static SType boolT() { return {Bool, nullptr}; }
  static SType strT() { return {Str, nullptr}; }
  static SType fun(std::vector<SType> params, SType ret);

  bool isError() const { return kind == Error; }
  bool isIntegral() const { return kind == Int || kind == Bool; }
  bool hasValue() const { return kind != Void; }
  std::string str() const;
  const Type* lattice() const;
};

struct FunSig {
  std::vector<SType> params;
  SType ret;
};

bool sameType(const SType& a, const SType& b);
// Can a value of type `from` be stored where `to` is expected?
bool assignable(const SType& from, const SType& to);
// The type of a value that may be either (int and bool give int); Error if none.
SType commonType(const SType& a, const SType& b);

}  // namespace simplec
