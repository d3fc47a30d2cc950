// The pool behind InternedString. Strings sit in a deque, which never moves
// an element it holds, so both a std::string* and a view of its bytes stay
// valid forever; the index is keyed by those views, so looking a spelling up
// builds no string. Numbering past 2^32 - 1 strings is an internal error.
#include "lexer/interned_string.h"

#include <deque>
#include <unordered_map>
#include <vector>

#include "lexer/diag.h"

namespace simplec {

const std::string InternedString::kEmpty;
const std::string* const* InternedString::table_ = nullptr;

uint32_t InternedString::intern(std::string_view s) {
  if (s.empty()) return 0;
  static std::deque<std::string> pool;
  static std::vector<const std::string*> byId{nullptr};
  static std::unordered_map<std::string_view, uint32_t> index;
  auto it = index.find(s);
  if (it != index.end()) return it->second;
  SIMPLEC_CHECK(byId.size() < UINT32_MAX, "lexer", "too many distinct names");
  const std::string& kept = pool.emplace_back(s);
  uint32_t id = uint32_t(byId.size());
  byId.push_back(&kept);
  table_ = byId.data();
  index.emplace(kept, id);
  return id;
}

}  // namespace simplec
