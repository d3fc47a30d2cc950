// SmallVec: a vector that keeps its first N elements inside the object and
// goes to the heap only beyond them. A node's inputs and uses, and a MIR
// instruction's operands, are few in the great majority of cases, so making
// one needs no allocation for them. Only trivially copyable elements
// (copies are memcpy). The interface is the part of std::vector the graph
// and codegen use; a SmallVec converts to a std::vector where a copy is
// wanted. Invariant: the elements are in the inline buffer exactly when
// capacity()==N; otherwise the union holds the heap pointer instead, which
// keeps a Node's four edge lists 32 bytes smaller than a separate pointer.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <type_traits>
#include <vector>

namespace simplec {

template <class T, uint32_t N>
class SmallVec {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVec holds plain values");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVec() = default;
  SmallVec(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  template <class It>
  SmallVec(It first, It last) {
    assign(first, last);
  }
  SmallVec(const SmallVec& o) { assign(o.begin(), o.end()); }
  SmallVec(SmallVec&& o) noexcept { take(o); }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVec& operator=(SmallVec&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  SmallVec& operator=(std::initializer_list<T> init) {
    assign(init.begin(), init.end());
    return *this;
  }
  ~SmallVec() { release(); }

  size_t size() const { return size_; }
  size_t capacity() const { return cap_; }
  bool empty() const { return size_ == 0; }
  T* data() { return onHeap() ? u_.heap : u_.inl; }
  const T* data() const { return onHeap() ? u_.heap : u_.inl; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }

  void reserve(size_t n) {
    if (n > cap_) grow(n);
  }
  void push_back(const T& v) {
    // v may be one of our own elements: growing moves them, and the heap
    // pointer overwrites the first inline one.
    T copy = v;
    if (size_ == cap_) grow(size_t(cap_) * 2);
    data()[size_++] = copy;
  }
  void pop_back() { size_--; }
  void clear() { size_ = 0; }
  void resize(size_t n, T v = T()) {
    reserve(n);
    T* d = data();
    for (size_t i = size_; i < n; i++) d[i] = v;
    size_ = uint32_t(n);
  }
  template <class It>
  void assign(It first, It last) {
    size_ = 0;
    reserve(size_t(std::distance(first, last)));
    T* d = data();
    for (; first != last; ++first) d[size_++] = T(*first);
  }
  T* erase(T* pos) {
    std::memmove(pos, pos + 1, size_t(end() - pos - 1) * sizeof(T));
    size_--;
    return pos;
  }

  // Element by element: a struct element's padding bytes are not compared.
  bool operator==(const SmallVec& o) const { return equal(o.data(), o.size_); }
  bool operator!=(const SmallVec& o) const { return !(*this == o); }
  bool operator==(const std::vector<T>& o) const { return equal(o.data(), o.size()); }
  bool operator!=(const std::vector<T>& o) const { return !(*this == o); }
  operator std::vector<T>() const { return std::vector<T>(begin(), end()); }

 private:
  bool equal(const T* p, size_t n) const {
    if (n != size_) return false;
    const T* d = data();
    for (size_t i = 0; i < n; i++)
      if (!(d[i] == p[i])) return false;
    return true;
  }
  bool onHeap() const { return cap_ != N; }
  void release() {
    if (onHeap()) ::operator delete(u_.heap);
    cap_ = N;
    size_ = 0;
  }
  // Leaves o empty (inline).
  void take(SmallVec& o) {
    if (o.onHeap()) {
      u_.heap = o.u_.heap;
      cap_ = o.cap_;
      o.cap_ = N;
    } else {
      std::memcpy(static_cast<void*>(u_.inl), o.u_.inl, sizeof(T) * o.size_);
    }
    size_ = o.size_;
    o.size_ = 0;
  }
  // Only ever to more than N (a heap capacity is never N).
  void grow(size_t n) {
    if (n <= N) n = N + 1;
    // Through operator new: the compiler's own (cmd/small_blocks.h) serves
    // small blocks faster than malloc.
    T* p = static_cast<T*>(::operator new(n * sizeof(T)));
    std::memcpy(static_cast<void*>(p), data(), size_ * sizeof(T));
    if (onHeap()) ::operator delete(u_.heap);
    u_.heap = p;
    cap_ = uint32_t(n);
  }
  // Named so that it can have a constructor: T may have default member
  // initializers, which would delete an anonymous union's.
  union Storage {
    Storage() {}
    T* heap;
    T inl[N];
  } u_;
  uint32_t size_ = 0, cap_ = N;
};

}  // namespace simplec
