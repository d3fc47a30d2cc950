// The type lattice. Types are interned: two equal types are the same pointer,
// so comparing types is comparing pointers. TOP is "no value yet" (optimistic
// start), BOTTOM is "any value". Integers are ranges [lo, hi]; a constant is a
// range of one value; an empty range (lo > hi) is the integer TOP.
//
//            TOP
//   XCTRL   int-top   fun-top   (tuples)
//   CTRL    [lo,hi]   fun(i)
//           int-bot   fun-any    MEM
//            BOTTOM
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace simplec {

enum class TKind : uint8_t { Top, Bottom, Ctrl, XCtrl, Int, Mem, FunPtr, Ptr, Tuple };

class Type {
 public:
  static const Type* top();
  static const Type* bottom();
  static const Type* ctrl();
  static const Type* xctrl();
  static const Type* mem();
  static const Type* intRange(int64_t lo, int64_t hi);
  static const Type* intConst(int64_t v) { return intRange(v, v); }
  static const Type* intTop();   // empty range
  static const Type* intBot();   // [INT64_MIN, INT64_MAX]
  static const Type* boolType() { return intRange(0, 1); }
  static const Type* funPtr(int fun);  // fun >= 0: that function; kFunAny
  static const Type* funAny() { return funPtr(kFunAny); }
  static const Type* tuple(std::vector<const Type*> elems);
  // A pointer to read-only data: idx >= 0 is the unit's constant string idx
  // (Graph::strings); kFunAny is any pointer.
  static const Type* dataPtr(int idx);

  static constexpr int kFunAny = -1;
  static constexpr int kFunTop = -2;

  // Interned types live until the process ends. A driver that compiles many
  // inputs in one process (the libFuzzer targets) releases those made by one
  // compile after it: internedCount() before, releaseInternedSince(it)
  // after, when no graph is left. So no static may keep a Type* it did not
  // make at start-up.
  static size_t internedCount();
  static void releaseInternedSince(size_t count);

  TKind kind() const { return kind_; }
  bool isInt() const { return kind_ == TKind::Int; }
  bool isIntTop() const { return kind_ == TKind::Int && lo_ > hi_; }
  bool isConst() const;  // a single integer or a single function
  int64_t lo() const { return lo_; }
  int64_t hi() const { return hi_; }
  int64_t value() const { return lo_; }  // isConst() integers
  int fun() const { return fun_; }
  const std::vector<const Type*>& elems() const { return elems_; }
  bool isPtr() const { return kind_ == TKind::Ptr; }
  bool isCtrlLike() const { return kind_ == TKind::Ctrl || kind_ == TKind::XCtrl; }

  // Greatest lower bound: the most precise type that both types fall into.
  const Type* meet(const Type* t) const;
  // Least upper bound (the dual of meet).
  const Type* join(const Type* t) const;
  // true when this is at least as precise as t (this lies above t).
  bool isa(const Type* t) const { return meet(t) == t; }
  // The TOP of this type's kind (int-top for integers, XCTRL for control).
  const Type* dualTop() const;

  std::string str() const;

 private:
  Type(TKind k, int64_t lo, int64_t hi, int fun, std::vector<const Type*> e)
      : kind_(k), lo_(lo), hi_(hi), fun_(fun), elems_(std::move(e)) {}
  static const Type* intern(TKind k, int64_t lo, int64_t hi, int fun,
                            std::vector<const Type*> e);
  TKind kind_;
  int64_t lo_, hi_;
  int fun_;
  std::vector<const Type*> elems_;
};

}  // namespace simplec
