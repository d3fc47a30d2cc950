// Symbol: the name in a MIR symbol operand (a function, a data label, a
// runtime entry point) as a 32-bit handle. Each distinct name is interned
// once per process and never freed (a module names few of them), so an
// operand stays small and trivially copyable, names compare as integers,
// and the emitter finds its own symbol for a name in a vector indexed by
// id() instead of hashing the string at every use.
// Invariant: equal names have equal ids; id 0 is the empty name. Safe to
// use from several threads.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace simplec::mir {

class Symbol {
 public:
  Symbol() = default;  // the empty name
  explicit Symbol(std::string_view name);

  const std::string& str() const;
  bool empty() const { return id_ == 0; }
  uint32_t id() const { return id_; }
  bool operator==(Symbol o) const { return id_ == o.id_; }
  bool operator!=(Symbol o) const { return id_ != o.id_; }

  // One more than the largest id handed out so far: a bound for tables
  // indexed by id().
  static uint32_t idBound();

 private:
  uint32_t id_ = 0;
};

}  // namespace simplec::mir
