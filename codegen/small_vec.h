// SmallVec<T, N>: a vector that keeps up to N elements inside itself and
// only goes to the heap beyond that. MIR instructions hold their operands
// and argument registers in one: almost every instruction has at most two
// operands, so building, copying and rewriting instructions allocates
// nothing (a ParMove with many phis is the exception).
// Invariant: T is trivially copyable (copies are memcpy), and data() points
// at the inline buffer exactly when capacity() == N.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>

namespace simplec {

template <typename T, uint32_t N>
class SmallVec {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVec copies its elements with memcpy");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVec() = default;
  SmallVec(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  template <typename It>
  SmallVec(It first, It last) {
    assign(first, last);
  }
  SmallVec(const SmallVec& o) { assign(o.begin(), o.end()); }
  SmallVec(SmallVec&& o) noexcept { take(o); }
  ~SmallVec() { release(); }

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

  template <typename It>
  void assign(It first, It last) {
    size_ = 0;
    for (; first != last; ++first) push_back(T(*first));
  }

  uint32_t size() const { return size_; }
  uint32_t capacity() const { return cap_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  iterator begin() { return data_; }
  iterator end() { return data_ + size_; }
  const_iterator begin() const { return data_; }
  const_iterator end() const { return data_ + size_; }

  void push_back(const T& v) {
    if (size_ == cap_) grow(cap_ * 2);
    data_[size_++] = v;
  }
  void pop_back() { --size_; }
  // Shrinks to n elements, or grows with value-initialized ones.
  void resize(uint32_t n) {
    reserve(n);
    for (uint32_t i = size_; i < n; ++i) data_[i] = T();
    size_ = n;
  }
  void clear() { size_ = 0; }
  void reserve(uint32_t n) {
    if (n > cap_) grow(n);
  }

  bool operator==(const SmallVec& o) const {
    if (size_ != o.size_) return false;
    for (uint32_t i = 0; i < size_; ++i)
      if (!(data_[i] == o.data_[i])) return false;
    return true;
  }

 private:
  bool onHeap() const { return data_ != inline_; }
  void release() {
    if (onHeap()) std::free(data_);
    data_ = inline_;
    cap_ = N;
    size_ = 0;
  }
  // Leaves `o` empty (inline).
  void take(SmallVec& o) {
    if (o.onHeap()) {
      data_ = o.data_;
      cap_ = o.cap_;
      o.data_ = o.inline_;
      o.cap_ = N;
    } else {
      std::memcpy(static_cast<void*>(inline_), o.inline_, sizeof(T) * o.size_);
    }
    size_ = o.size_;
    o.size_ = 0;
  }
  void grow(uint32_t n) {
    if (n < 2 * N) n = 2 * N;
    T* p = static_cast<T*>(std::malloc(sizeof(T) * n));
    if (!p) throw std::bad_alloc();
    std::memcpy(static_cast<void*>(p), data_, sizeof(T) * size_);
    if (onHeap()) std::free(data_);
    data_ = p;
    cap_ = n;
  }

  T* data_ = inline_;
  uint32_t size_ = 0, cap_ = N;
  T inline_[N];
};

}  // namespace simplec
