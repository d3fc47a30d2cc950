// The spelling a token carries, as one pointer into a pool of interned
// strings: a token is copied and kept by the million (the parser holds all
// tokens of a file), and a std::string member alone took 32 of its bytes.
// Equal spellings share one pooled copy, so a name used a thousand times is
// stored once. Nodes hold their debugging names (son/node.h) the same way.
//
// The pool lives for the whole process and only grows, so every TokText stays
// valid as long as the program runs. It is not thread-safe: tokenize only
// from one thread at a time.
#pragma once
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace simplec {

class TokText {
 public:
  TokText() = default;  // the empty string: punctuation, Eof, CharLit
  explicit TokText(std::string_view s) : s_(intern(s)) {}
  TokText& operator=(std::string_view s) {
    s_ = intern(s);
    return *this;
  }

  const std::string& str() const { return *s_; }
  operator const std::string&() const { return *s_; }
  operator std::string_view() const { return *s_; }
  bool empty() const { return s_->empty(); }
  size_t size() const { return s_->size(); }
  char operator[](size_t i) const { return (*s_)[i]; }
  const char* c_str() const { return s_->c_str(); }
  const char* data() const { return s_->data(); }

  // Interned: equal spellings are the same pooled string.
  friend bool operator==(const TokText& a, const TokText& b) { return a.s_ == b.s_; }
  friend bool operator==(const TokText& a, std::string_view b) { return *a.s_ == b; }
  friend bool operator==(const TokText& a, const std::string& b) { return *a.s_ == b; }
  friend bool operator==(const TokText& a, const char* b) { return *a.s_ == b; }

  // Messages build text around a name: "'" + name.text + "'".
  friend std::string operator+(const std::string& a, const TokText& b) { return a + *b.s_; }
  friend std::string operator+(std::string&& a, const TokText& b) { return std::move(a) + *b.s_; }
  friend std::string operator+(const char* a, const TokText& b) { return a + *b.s_; }
  friend std::string operator+(const TokText& a, const std::string& b) { return *a.s_ + b; }
  friend std::string operator+(const TokText& a, const char* b) { return *a.s_ + b; }

 private:
  // The pooled copy of `s`; "" maps to the shared empty string.
  static const std::string* intern(std::string_view s);
  static const std::string kEmpty;
  const std::string* s_ = &kEmpty;
};

inline std::ostream& operator<<(std::ostream& os, const TokText& t) { return os << t.str(); }

}  // namespace simplec
