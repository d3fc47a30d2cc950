// The process-wide symbol name table (see symbol.h): names in a deque (their
// addresses never change, so str() can hand out references), found by a
// hash map from the name to its id.
#include "codegen/symbol.h"

#include <deque>
#include <mutex>
#include <unordered_map>

namespace simplec::mir {

namespace {

struct SymbolTable {
  std::mutex mu;
  std::deque<std::string> names{std::string()};  // id 0: the empty name
  std::unordered_map<std::string_view, uint32_t> ids{{std::string_view(), 0}};
};

SymbolTable& table() {
  static SymbolTable* t = new SymbolTable;  // never destroyed: used until exit
  return *t;
}

}  // namespace

Symbol::Symbol(std::string_view name) {
  SymbolTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.ids.find(name);
  if (it != t.ids.end()) {
    id_ = it->second;
    return;
  }
  id_ = uint32_t(t.names.size());
  t.names.emplace_back(name);
  t.ids.emplace(std::string_view(t.names.back()), id_);
}

const std::string& Symbol::str() const {
  SymbolTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.names[id_];
}

uint32_t Symbol::idBound() {
  SymbolTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return uint32_t(t.names.size());
}

}  // namespace simplec::mir
