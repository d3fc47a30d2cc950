// Named warnings (`-W<name>`) and the command-line state that turns them on,
// off, or into errors, as gcc does: the last of `-Wfoo`/`-Wno-foo` wins,
// `-w` silences every warning whatever its position, `-Werror` makes every
// enabled warning an error, `-Werror=foo` just that one (and enables it).
// Each warning belongs to one group, as in gcc/clang: on by default, turned
// on by -Wall, by -Wextra (which does not imply -Wall), or only by its name.
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace simplec {

enum class Warn : uint8_t {
  Parentheses,       // `a && b || c` unparenthesised; `if (x = 4)`
  UnreachableCode,   // a statement after a return, break or continue of its block
  SelfAssign,        // `x = x`
  UnusedVariable,    // a local never read nor assigned after its declaration
  UnusedButSetVariable,   // a local assigned but never read
  UnusedParameter,        // a parameter never read nor assigned
  UnusedButSetParameter,  // a parameter assigned but never read
  BitwiseInsteadOfLogical,  // `a < b & c < d`
  IntConversion,     // an array passed to a Simple function's `int` parameter
  ConstantCondition, // `if (N > 3)` with N a constant
  Shadow,            // a local declaration hides an outer local of its function
  kCount
};

// Which flags turn a warning on (besides its own -W<name>).
enum class WarnGroup : uint8_t { Default, All, Extra, NameOnly };
WarnGroup warnGroup(Warn w);

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
  bool all_ = false;       // -Wall: its group, unless turned off by name
  bool extra_ = false;     // -Wextra: likewise
  bool allErrors_ = false; // -Werror
  bool silenced_ = false;  // -w
};

}  // namespace simplec
