// Named warnings (`-W<name>`) and the command-line state that turns them on,
// off, or into errors, as gcc does: the last of `-Wfoo`/`-Wno-foo` wins,
// `-w` silences every warning whatever its position, `-Werror` makes every
// enabled warning an error, `-Werror=foo` just that one (and enables it).
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace simplec {

enum class Warn : uint8_t {
  Parentheses,      // `a && b || c` without parentheses (groups as `a && (b || c)`)
  UnreachableCode,  // a statement after a return, break or continue of its block
  kCount
};

// The name after `-W`, e.g. "parentheses".
const char* warnName(Warn w);

class WarningOptions {
 public:
  // Applies what follows one `-W`: NAME, no-NAME, error, no-error,
  // error=NAME, no-error=NAME, all, extra. False if NAME is unknown.
  bool apply(const std::string& flag);
  void silenceAll(bool on) { silenced_ = on; }  // -w
  bool silenced() const { return silenced_; }
  bool enabled(Warn w) const;
  bool asError(Warn w) const;

 private:
  enum class Set : uint8_t { Default, On, Off };
  std::array<Set, size_t(Warn::kCount)> enable_{};
  std::array<Set, size_t(Warn::kCount)> error_{};
  bool all_ = false;       // -Wall / -Wextra: every warning not turned off
  bool allErrors_ = false; // -Werror
  bool silenced_ = false;  // -w
};

}  // namespace simplec
