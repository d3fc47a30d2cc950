// InternedString: a string held as one pointer into a process-wide pool, so
// equal strings share one copy and compare by pointer. Tokens hold their
// spellings this way (the parser keeps every token of a file, by the
// million, and a std::string member alone took 32 bytes of each), and so do
// nodes their debugging names (son/node.h).
//
// The pool lives for the whole process and only grows, so every
// InternedString stays valid as long as the program runs. It is not
// thread-safe: make them from one thread at a time.
#pragma once
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace simplec {

class InternedString {
 public:
  InternedString() = default;  // the empty string: punctuation, Eof, CharLit
  explicit InternedString(std::string_view s) : s_(intern(s)) {}
  InternedString& operator=(std::string_view s) {
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
  friend bool operator==(const InternedString& a, const InternedString& b) { return a.s_ == b.s_; }
  friend bool operator==(const InternedString& a, std::string_view b) { return *a.s_ == b; }
  friend bool operator==(const InternedString& a, const std::string& b) { return *a.s_ == b; }
  friend bool operator==(const InternedString& a, const char* b) { return *a.s_ == b; }

  // Messages build text around a name: "'" + name.text + "'".
  friend std::string operator+(const std::string& a, const InternedString& b) { return a + *b.s_; }
  friend std::string operator+(std::string&& a, const InternedString& b) { return std::move(a) + *b.s_; }
  friend std::string operator+(const char* a, const InternedString& b) { return a + *b.s_; }
  friend std::string operator+(const InternedString& a, const std::string& b) { return *a.s_ + b; }
  friend std::string operator+(const InternedString& a, const char* b) { return *a.s_ + b; }

 private:
  // The pooled copy of `s`; "" maps to the shared empty string.
  static const std::string* intern(std::string_view s);
  static const std::string kEmpty;
  const std::string* s_ = &kEmpty;
};

inline std::ostream& operator<<(std::ostream& os, const InternedString& t) { return os << t.str(); }

}  // namespace simplec
