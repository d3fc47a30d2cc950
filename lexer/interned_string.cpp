// The pool behind InternedString. Strings sit in a deque, which never moves
// an element it holds, so both a std::string* and a view of its bytes stay
// valid forever; the index is keyed by those views, so looking a spelling up
// builds no string.
#include "lexer/interned_string.h"

#include <deque>
#include <unordered_map>

namespace simplec {

const std::string InternedString::kEmpty;

const std::string* InternedString::intern(std::string_view s) {
  if (s.empty()) return &kEmpty;
  static std::deque<std::string> pool;
  static std::unordered_map<std::string_view, const std::string*> index;
  auto it = index.find(s);
  if (it != index.end()) return it->second;
  const std::string& kept = pool.emplace_back(s);
  index.emplace(kept, &kept);
  return &kept;
}

}  // namespace simplec
