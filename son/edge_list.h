// EdgeList: a node's inputs (or uses), each with the index of the matching
// entry at the other end of its edge -- for an input, where this node sits
// in the input's use list; for a use, which input of the user it is. That
// index is what makes removing a use O(1) (son/graph.cpp keeps both ends in
// step). The two arrays always have the same length, so they share one
// size, one capacity and, past the first N edges, one heap block: a node's
// edge bookkeeping is 80 bytes instead of 96, and a node with many uses
// costs one allocation instead of two. To everyone but Graph it reads like
// a vector of Node* (begin/end, [], size, ==, a copy as std::vector).
// Invariant: the edges are inline exactly when capacity()==N.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

namespace simplec {

class Node;

template <uint32_t N>
class EdgeList {
 public:
  EdgeList() = default;
  EdgeList(const EdgeList& o) { copyFrom(o); }
  EdgeList(EdgeList&& o) noexcept { take(o); }
  EdgeList& operator=(const EdgeList& o) {
    if (this != &o) {
      size_ = 0;
      copyFrom(o);
    }
    return *this;
  }
  EdgeList& operator=(EdgeList&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~EdgeList() { release(); }

  size_t size() const { return size_; }
  size_t capacity() const { return cap_; }
  bool empty() const { return size_ == 0; }
  Node** data() { return onHeap() ? u_.heap : u_.inl.nodes; }
  Node* const* data() const { return onHeap() ? u_.heap : u_.inl.nodes; }
  Node** begin() { return data(); }
  Node** end() { return data() + size_; }
  Node* const* begin() const { return data(); }
  Node* const* end() const { return data() + size_; }
  Node*& operator[](size_t i) { return data()[i]; }
  Node* operator[](size_t i) const { return data()[i]; }
  Node* front() const { return data()[0]; }
  Node* back() const { return data()[size_ - 1]; }

  // The index of edge i's entry at its other end.
  uint32_t& link(size_t i) { return links()[i]; }
  uint32_t link(size_t i) const { return links()[i]; }

  void push_back(Node* n, uint32_t link) {
    if (size_ == cap_) grow(size_t(cap_) * 2);
    data()[size_] = n;
    links()[size_] = link;
    size_++;
  }
  void pop_back() { size_--; }
  void clear() { size_ = 0; }
  // Keeps the first n edges (n <= size()).
  void truncate(size_t n) { size_ = uint32_t(n); }
  // These nodes, each link 0 (the caller sets them as it adds the uses).
  void assign(Node* const* first, size_t n) {
    size_ = 0;
    if (n > cap_) grow(n);
    Node** d = data();
    uint32_t* l = links();
    for (size_t i = 0; i < n; i++) {
      d[i] = first[i];
      l[i] = 0;
    }
    size_ = uint32_t(n);
  }
  void erase(size_t i) {
    Node** d = data();
    uint32_t* l = links();
    std::memmove(static_cast<void*>(d + i), d + i + 1, (size_ - i - 1) * sizeof(Node*));
    std::memmove(l + i, l + i + 1, (size_ - i - 1) * sizeof(uint32_t));
    size_--;
  }
  void swap(size_t i, size_t j) {
    std::swap(data()[i], data()[j]);
    std::swap(links()[i], links()[j]);
  }

  bool operator==(const std::vector<Node*>& o) const {
    if (o.size() != size_) return false;
    for (size_t i = 0; i < size_; i++)
      if (data()[i] != o[i]) return false;
    return true;
  }
  bool operator!=(const std::vector<Node*>& o) const { return !(*this == o); }
  operator std::vector<Node*>() const { return std::vector<Node*>(begin(), end()); }

 private:
  bool onHeap() const { return cap_ != N; }
  // On the heap the links follow the cap_ node pointers in the same block.
  uint32_t* links() { return onHeap() ? reinterpret_cast<uint32_t*>(u_.heap + cap_) : u_.inl.links; }
  const uint32_t* links() const {
    return onHeap() ? reinterpret_cast<const uint32_t*>(u_.heap + cap_) : u_.inl.links;
  }
  void release() {
    if (onHeap()) ::operator delete(u_.heap);
    cap_ = N;
    size_ = 0;
  }
  void copyFrom(const EdgeList& o) {
    if (o.size_ > cap_) grow(o.size_);
    std::memcpy(static_cast<void*>(data()), o.data(), o.size_ * sizeof(Node*));
    std::memcpy(links(), o.links(), o.size_ * sizeof(uint32_t));
    size_ = o.size_;
  }
  // Leaves o empty (inline).
  void take(EdgeList& o) {
    if (o.onHeap()) {
      u_.heap = o.u_.heap;
      cap_ = o.cap_;
      o.cap_ = N;
    } else {
      std::memcpy(static_cast<void*>(u_.inl.nodes), o.u_.inl.nodes, o.size_ * sizeof(Node*));
      std::memcpy(u_.inl.links, o.u_.inl.links, o.size_ * sizeof(uint32_t));
    }
    size_ = o.size_;
    o.size_ = 0;
  }
  // Only ever to more than N (a heap capacity is never N).
  void grow(size_t n) {
    if (n <= N) n = N + 1;
    // Through operator new: the compiler's own (cmd/small_blocks.h) serves
    // small blocks faster than malloc.
    void* block = ::operator new(n * (sizeof(Node*) + sizeof(uint32_t)));
    Node** nodes = static_cast<Node**>(block);
    std::memcpy(static_cast<void*>(nodes), data(), size_ * sizeof(Node*));
    std::memcpy(reinterpret_cast<uint32_t*>(nodes + n), links(), size_ * sizeof(uint32_t));
    if (onHeap()) ::operator delete(u_.heap);
    u_.heap = nodes;
    cap_ = uint32_t(n);
  }
  union Storage {
    Node** heap;
    struct {
      Node* nodes[N];
      uint32_t links[N];
    } inl;
  } u_;
  uint32_t size_ = 0, cap_ = N;
};

}  // namespace simplec
