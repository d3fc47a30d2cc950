// SmallVec: a vector that keeps its first N elements inside the object and
// goes to the heap only beyond them. A node's inputs and uses are few in
// the great majority of cases, so making a node then needs no allocation
// for them. Only trivially copyable elements (pointers, indices). The
// interface is the part of std::vector the graph code uses; a SmallVec
// converts to a std::vector where a copy is wanted.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
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
  SmallVec(const SmallVec& o) { assign(o.begin(), o.end()); }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  ~SmallVec() {
    if (data_ != inline_) std::free(data_);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }

  void reserve(size_t n) {
    if (n > cap_) grow(n);
  }
  void push_back(T v) {
    if (size_ == cap_) grow(size_t(cap_) * 2);
    data_[size_++] = v;
  }
  void pop_back() { size_--; }
  void clear() { size_ = 0; }
  void resize(size_t n, T v = T()) {
    reserve(n);
    for (size_t i = size_; i < n; i++) data_[i] = v;
    size_ = uint32_t(n);
  }
  template <class It>
  void assign(It first, It last) {
    size_t n = size_t(last - first);
    size_ = 0;
    reserve(n);
    for (size_t i = 0; i < n; i++) data_[i] = first[i];
    size_ = uint32_t(n);
  }
  T* erase(T* pos) {
    std::memmove(pos, pos + 1, size_t(end() - pos - 1) * sizeof(T));
    size_--;
    return pos;
  }

  bool operator==(const SmallVec& o) const {
    return size_ == o.size_ && (size_ == 0 || std::memcmp(data_, o.data_, size_ * sizeof(T)) == 0);
  }
  bool operator!=(const SmallVec& o) const { return !(*this == o); }
  bool operator==(const std::vector<T>& o) const {
    return size_ == o.size() && (size_ == 0 || std::memcmp(data_, o.data(), size_ * sizeof(T)) == 0);
  }
  bool operator!=(const std::vector<T>& o) const { return !(*this == o); }
  operator std::vector<T>() const { return std::vector<T>(begin(), end()); }

 private:
  void grow(size_t n) {
    if (n < N) n = N;
    T* p = static_cast<T*>(std::malloc(n * sizeof(T)));
    if (!p) throw std::bad_alloc();
    std::memcpy(p, data_, size_ * sizeof(T));
    if (data_ != inline_) std::free(data_);
    data_ = p;
    cap_ = uint32_t(n);
  }
  T* data_ = inline_;
  uint32_t size_ = 0, cap_ = N;
  T inline_[N];
};

}  // namespace simplec
