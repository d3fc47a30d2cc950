// InternedString: a string held as a 32-bit number in a process-wide pool,
// so equal strings share one copy and compare by number. Tokens hold their
// spellings this way (the parser keeps every token of a file, by the
// million: a std::string member alone took 32 bytes of each, a pointer 8),
// and so do nodes their debugging names (son/node.h).
//
// The pool lives for the whole process and only grows, so every
// InternedString stays valid as long as the program runs. It is not
// thread-safe: make them from one thread at a time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace simplec {

class InternedString {
 public:
  InternedString() = default;  // the empty string: punctuation, Eof, CharLit
  explicit InternedString(std::string_view s) : id_(intern(s)) {}
  InternedString& operator=(std::string_view s) {
    id_ = intern(s);
    return *this;
  }

  // A nonzero id was made by intern(), which set table_ first.
  const std::string& str() const { return id_ ? *table_[id_] : kEmpty; }
  operator const std::string&() const { return str(); }
  operator std::string_view() const { return str(); }
  bool empty() const { return id_ == 0; }
  size_t size() const { return str().size(); }
  char operator[](size_t i) const { return str()[i]; }
  const char* c_str() const { return str().c_str(); }
  const char* data() const { return str().data(); }

  // Interned: equal spellings have the same number.
  friend bool operator==(const InternedString& a, const InternedString& b) { return a.id_ == b.id_; }
  friend bool operator==(const InternedString& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const InternedString& a, const std::string& b) { return a.str() == b; }
  friend bool operator==(const InternedString& a, const char* b) { return a.str() == b; }

  // Messages build text around a name: "'" + name.text + "'".
  friend std::string operator+(const std::string& a, const InternedString& b) { return a + b.str(); }
  friend std::string operator+(std::string&& a, const InternedString& b) { return std::move(a) + b.str(); }
  friend std::string operator+(const char* a, const InternedString& b) { return a + b.str(); }
  friend std::string operator+(const InternedString& a, const std::string& b) { return a.str() + b; }
  friend std::string operator+(const InternedString& a, const char* b) { return a.str() + b; }

 private:
  // The number of the pooled copy of `s`; "" is 0, the shared empty string.
  static uint32_t intern(std::string_view s);
  static const std::string kEmpty;
  // The pooled strings by number (entry 0 unused). A plain pointer, set by
  // intern() whenever the table moves: it needs no dynamic initialization,
  // so InternedStrings in other files' statics are safe.
  static const std::string* const* table_;
  uint32_t id_ = 0;
};

inline std::ostream& operator<<(std::ostream& os, const InternedString& t) { return os << t.str(); }

}  // namespace simplec
