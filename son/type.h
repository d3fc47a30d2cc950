// The type lattice. Types are interned: two equal types are the same pointer,
// so comparing types is comparing pointers. TOP is "no value yet" (optimistic
// start), BOTTOM is "any value". Integers are ranges [lo, hi]; a constant is a
// range of one value; an empty range (lo > hi) is the integer TOP.
//
//            TOP
//   XCTRL   int-top   fun-top   flt-top   (tuples)
//   CTRL    [lo,hi]   fun(i)    flt(c)
//           int-bot   fun-any   flt        MEM   VEC
//            BOTTOM
// Floats are IEEE doubles; a float constant is identified by its bit
// pattern, so 0.0 and -0.0 differ and a NaN equals itself.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace simplec {

enum class TKind : uint8_t { Top, Bottom, Ctrl, XCtrl, Int, Mem, FunPtr, Ptr, Tuple, Flt, Vec };

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
  static const Type* fltConst(double v);
  static const Type* fltTop();
  static const Type* fltBot();   // any double
  // Two doubles side by side, as one SSE register holds them (the
  // vectorizer's values, opt/vectorize.h): a single point, like memory.
  static const Type* vec();
  static const Type* funPtr(int fun);  // fun >= 0: that function; kFunAny
  static const Type* funAny() { return funPtr(kFunAny); }
  static const Type* tuple(std::vector<const Type*> elems);
  // A pointer to read-only data: idx >= 0 is the unit's constant string idx
  // (Graph::strings); kFunAny is any pointer.
  static const Type* dataPtr(int idx);
  // The null reference (a pointer constant); meets any pointer to `ptr`.
  static const Type* nullPtr() { return dataPtr(kNull); }
  static const Type* anyPtr() { return dataPtr(kFunAny); }

  static constexpr int kFunAny = -1;
  static constexpr int kFunTop = -2;
  static constexpr int kNull = -3;     // Ptr: the null reference
  static constexpr int kNonNull = -4;  // Ptr: any reference that is not null

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
  bool isConst() const;  // a single integer, float or function
  bool isFlt() const { return kind_ == TKind::Flt; }
  bool isFltTop() const { return kind_ == TKind::Flt && fun_ == kFunTop; }
  bool isVec() const { return kind_ == TKind::Vec; }
  bool isFltConst() const { return kind_ == TKind::Flt && fun_ == 0; }
  double fltValue() const;  // isFltConst()
  int64_t lo() const { return lo_; }
  int64_t hi() const { return hi_; }
  int64_t value() const { return lo_; }  // isConst() integers
  int fun() const { return fun_; }
  const std::vector<const Type*>& elems() const { return elems_; }
  bool isPtr() const { return kind_ == TKind::Ptr; }
  bool isNullPtr() const { return kind_ == TKind::Ptr && fun_ == kNull; }
  // A pointer that is never null: a constant string or kNonNull.
  bool isNonNullPtr() const { return kind_ == TKind::Ptr && (fun_ >= 0 || fun_ == kNonNull); }
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
  // The types made most often, made once at start-up (before any
  // internedCount() mark, so never released).
  struct Common;
  static const Common& common();
  static const Type* intern(TKind k, int64_t lo, int64_t hi, int fun,
                            std::vector<const Type*> e);
  TKind kind_;
  int64_t lo_, hi_;
  int fun_;
  std::vector<const Type*> elems_;
};

}  // namespace simplec
