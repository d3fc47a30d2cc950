// NodeName's pool: an unordered_set's elements never move.
#include "son/node_name.h"

#include <unordered_set>

namespace simplec {

const std::string NodeName::kEmpty;

NodeName& NodeName::operator=(const std::string& s) {
  static std::unordered_set<std::string> pool;
  s_ = s.empty() ? &kEmpty : &*pool.insert(s).first;
  return *this;
}

}  // namespace simplec
