// Interned lattice types: construction, meet/join, printing.
#include "son/type.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstring>
#include <unordered_map>
#include <memory>
#include <tuple>

#include "son/shared_graphs.h"

namespace simplec {

namespace {

// The table: hashed by the type's fields. Each Type knows its fields, so the
// key is rebuilt from it when a type is released.
struct Key {
  TKind k;
  int64_t lo, hi;
  int fun;
  std::vector<const Type*> elems;
  bool operator==(const Key& o) const {
    return k == o.k && lo == o.lo && hi == o.hi && fun == o.fun && elems == o.elems;
  }
};
struct KeyHash {
  size_t operator()(const Key& key) const {
    uint64_t h = uint64_t(key.k) * 0x9E3779B97F4A7C15ull;
    auto mix = [&](uint64_t v) { h = (h ^ v) * 0x100000001B3ull + (h >> 29); };
    mix(uint64_t(key.lo));
    mix(uint64_t(key.hi));
    mix(uint64_t(uint32_t(key.fun)));
    for (const Type* e : key.elems) mix(reinterpret_cast<uintptr_t>(e));
    return size_t(h);
  }
};
using Table = std::unordered_map<Key, std::unique_ptr<Type>, KeyHash>;
Table& table() {
  static Table t;
  return t;
}
// The table's lock, taken while graphs are shared between threads.
std::mutex& tableLock() {
  static std::mutex m;
  return m;
}
// The table's types in the order they were made.
std::vector<const Type*>& creationOrder() {
  static std::vector<const Type*> order;
  return order;
}

// The parser and the peepholes ask for the same few integer ranges (0, 1,
// bool, small constants) hundreds of thousands of times: a direct-mapped
// cache in front of the table answers those without hashing a Key. Each
// thread has its own (the optimizer's workers, son/shared_graphs.h);
// releasing types (between tests) empties the releasing thread's, with
// no worker running.
struct IntCacheEntry {
  int64_t lo, hi;
  const Type* type;  // null: empty
};
constexpr size_t kIntCacheSize = 1024;
thread_local IntCacheEntry intCache[kIntCacheSize];

size_t intCacheSlot(int64_t lo, int64_t hi) {
  uint64_t h = (uint64_t(lo) * 0x9E3779B97F4A7C15ull) ^ (uint64_t(hi) * 0xC2B2AE3D27D4EB4Full);
  return size_t(h >> 54) & (kIntCacheSize - 1);
}

}  // namespace

struct Type::Common {
  const Type *top, *bottom, *ctrl, *xctrl, *mem, *intTop, *intBot, *fltTop, *fltBot, *vec;
};

const Type* Type::intern(TKind k, int64_t lo, int64_t hi, int fun, std::vector<const Type*> e) {
  Key key{k, lo, hi, fun, std::move(e)};
  LockIfShared lock(tableLock());
  auto& t = table();
  auto it = t.find(key);
  if (it != t.end()) return it->second.get();
  auto* ty = new Type(k, lo, hi, fun, key.elems);
  t.emplace(std::move(key), std::unique_ptr<Type>(ty));
  creationOrder().push_back(ty);
  return ty;
}

const Type::Common& Type::common() {
  static const Common c = {
      Type::intern(TKind::Top, 0, 0, 0, {}),   Type::intern(TKind::Bottom, 0, 0, 0, {}),
      Type::intern(TKind::Ctrl, 0, 0, 0, {}),  Type::intern(TKind::XCtrl, 0, 0, 0, {}),
      Type::intern(TKind::Mem, 0, 0, 0, {}),   Type::intern(TKind::Int, 1, 0, 0, {}),
      Type::intern(TKind::Int, INT64_MIN, INT64_MAX, 0, {}),
      Type::intern(TKind::Flt, 0, 0, Type::kFunTop, {}), Type::intern(TKind::Flt, 0, 0, Type::kFunAny, {}),
      Type::intern(TKind::Vec, 0, 0, 0, {})};
  return c;
}

size_t Type::internedCount() {
  common();  // made before any mark
  return creationOrder().size();
}

void Type::releaseInternedSince(size_t count) {
  auto& order = creationOrder();
  if (order.size() > count)
    for (IntCacheEntry& e : intCache) e.type = nullptr;
  while (order.size() > count) {
    const Type* ty = order.back();
    table().erase(Key{ty->kind_, ty->lo_, ty->hi_, ty->fun_, ty->elems_});
    order.pop_back();
  }
}

const Type* Type::top() { return common().top; }
const Type* Type::bottom() { return common().bottom; }
const Type* Type::ctrl() { return common().ctrl; }
const Type* Type::xctrl() { return common().xctrl; }
const Type* Type::mem() { return common().mem; }
const Type* Type::intRange(int64_t lo, int64_t hi) {
  if (lo > hi) return intTop();
  IntCacheEntry& e = intCache[intCacheSlot(lo, hi)];
  if (e.type && e.lo == lo && e.hi == hi) return e.type;
  const Type* t = intern(TKind::Int, lo, hi, 0, {});
  e = {lo, hi, t};
  return t;
}
const Type* Type::intTop() { return common().intTop; }
const Type* Type::intBot() { return common().intBot; }
// Flt: lo_ holds the constant's bits; fun_ is 0 (constant), kFunTop, kFunAny.
const Type* Type::fltConst(double v) {
  int64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return intern(TKind::Flt, bits, 0, 0, {});
}
const Type* Type::fltTop() { return common().fltTop; }
const Type* Type::fltBot() { return common().fltBot; }
const Type* Type::vec() { return common().vec; }
double Type::fltValue() const {
  double v;
  std::memcpy(&v, &lo_, sizeof v);
  return v;
}
const Type* Type::funPtr(int fun) { return intern(TKind::FunPtr, 0, 0, fun, {}); }
const Type* Type::dataPtr(int idx) { return intern(TKind::Ptr, 0, 0, idx, {}); }
const Type* Type::tuple(std::vector<const Type*> elems) {
  return intern(TKind::Tuple, 0, 0, 0, std::move(elems));
}

bool Type::isConst() const {
  if (kind_ == TKind::Int) return lo_ == hi_;
  if (kind_ == TKind::Flt) return fun_ == 0;
  if (kind_ == TKind::Ptr) return fun_ >= 0 || fun_ == kNull;
  if (kind_ == TKind::FunPtr) return fun_ >= 0;
  return false;
}

const Type* Type::meet(const Type* t) const {
  if (this == t) return this;
  if (kind_ == TKind::Top) return t;
  if (t->kind_ == TKind::Top) return this;
  if (kind_ == TKind::Bottom || t->kind_ == TKind::Bottom) return bottom();
  if (kind_ != t->kind_) {
    if (isCtrlLike() && t->isCtrlLike()) return ctrl();
    return bottom();
  }
  switch (kind_) {
    case TKind::Int:
      if (isIntTop()) return t;
      if (t->isIntTop()) return this;
      return intRange(std::min(lo_, t->lo_), std::max(hi_, t->hi_));
    case TKind::FunPtr:
    case TKind::Ptr:
    case TKind::Flt:
      if (fun_ == kFunTop) return t;
      if (t->fun_ == kFunTop) return this;
      // Two non-null pointers (strings, fresh arrays) stay non-null.
      if (kind_ == TKind::Ptr && isNonNullPtr() && t->isNonNullPtr()) return intern(kind_, 0, 0, kNonNull, {});
      return intern(kind_, 0, 0, kFunAny, {});
    case TKind::Tuple: {
      if (elems_.size() != t->elems_.size()) return bottom();
      std::vector<const Type*> e;
      for (size_t i = 0; i < elems_.size(); i++) e.push_back(elems_[i]->meet(t->elems_[i]));
      return tuple(std::move(e));
    }
    default:  // Ctrl/XCtrl pairs handled above; Mem and Vec are single points
      return this;
  }
}

const Type* Type::join(const Type* t) const {
  if (this == t) return this;
  if (kind_ == TKind::Bottom) return t;
  if (t->kind_ == TKind::Bottom) return this;
  if (kind_ == TKind::Top || t->kind_ == TKind::Top) return top();
  if (kind_ != t->kind_) {
    if (isCtrlLike() && t->isCtrlLike()) return xctrl();
    return top();
  }
  switch (kind_) {
    case TKind::Int:
      if (isIntTop() || t->isIntTop()) return intTop();
      return intRange(std::max(lo_, t->lo_), std::min(hi_, t->hi_));
    case TKind::FunPtr:
    case TKind::Ptr:
    case TKind::Flt:
      if (fun_ == kFunAny) return t;
      if (t->fun_ == kFunAny) return this;
      if (kind_ == TKind::Ptr && fun_ == kNonNull && t->isNonNullPtr()) return t;
      if (kind_ == TKind::Ptr && t->fun_ == kNonNull && isNonNullPtr()) return this;
      return intern(kind_, 0, 0, kFunTop, {});
    case TKind::Tuple: {
      if (elems_.size() != t->elems_.size()) return top();
      std::vector<const Type*> e;
      for (size_t i = 0; i < elems_.size(); i++) e.push_back(elems_[i]->join(t->elems_[i]));
      return tuple(std::move(e));
    }
    default:
      return this;
  }
}

const Type* Type::dualTop() const {
  switch (kind_) {
    case TKind::Int: return intTop();
    case TKind::Ctrl:
    case TKind::XCtrl: return xctrl();
    case TKind::FunPtr: return funPtr(kFunTop);
    case TKind::Ptr: return dataPtr(kFunTop);
    case TKind::Flt: return fltTop();
    case TKind::Tuple: {
      std::vector<const Type*> e;
      for (auto* x : elems_) e.push_back(x->dualTop());
      return tuple(std::move(e));
    }
    default: return top();
  }
}

std::string Type::str() const {
  switch (kind_) {
    case TKind::Top: return "top";
    case TKind::Bottom: return "bot";
    case TKind::Ctrl: return "ctrl";
    case TKind::XCtrl: return "xctrl";
    case TKind::Mem: return "mem";
    case TKind::Vec: return "f64x2";
    case TKind::Int:
      if (isIntTop()) return "int-top";
      if (lo_ == INT64_MIN && hi_ == INT64_MAX) return "int";
      if (lo_ == hi_) return std::to_string(lo_);
      return "[" + std::to_string(lo_) + "," + std::to_string(hi_) + "]";
    case TKind::FunPtr:
      if (fun_ == kFunAny) return "fun";
      if (fun_ == kFunTop) return "fun-top";
      return "fun#" + std::to_string(fun_);
    case TKind::Ptr:
      if (fun_ == kFunAny) return "ptr";
      if (fun_ == kFunTop) return "ptr-top";
      if (fun_ == kNull) return "null";
      if (fun_ == kNonNull) return "ptr!";
      return "str#" + std::to_string(fun_);
    case TKind::Flt: {
      if (fun_ == kFunAny) return "flt";
      if (fun_ == kFunTop) return "flt-top";
      // Shortest digits that read back exactly; "f" marks the kind.
      char buf[40];
      auto r = std::to_chars(buf, buf + sizeof buf, fltValue());
      return std::string(buf, r.ptr) + "f";
    }
    case TKind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < elems_.size(); i++) s += (i ? ", " : "") + elems_[i]->str();
      return s + ")";
    }
  }
  return "?";
}

}  // namespace simplec
