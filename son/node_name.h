// NodeName: the debugging name of a node (the variable of a Phi, the
// function of a Fun), interned. Almost every node has none, and the few
// names repeat (the same variables in every function), so a node holds a
// pointer (8 bytes) to one shared copy instead of a std::string (32).
// The pool lives as long as the process and is not thread-safe.
#pragma once
#include <ostream>
#include <string>

namespace simplec {

class NodeName {
 public:
  NodeName() = default;
  NodeName& operator=(const std::string& s);
  const std::string& str() const { return *s_; }
  operator const std::string&() const { return *s_; }
  bool empty() const { return s_->empty(); }
  bool operator==(const std::string& o) const { return *s_ == o; }
  bool operator==(const char* o) const { return *s_ == o; }

 private:
  static const std::string kEmpty;
  const std::string* s_ = &kEmpty;
};

inline std::ostream& operator<<(std::ostream& os, const NodeName& n) { return os << n.str(); }

}  // namespace simplec
