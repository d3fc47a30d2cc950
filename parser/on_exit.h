// OnExit: runs a cleanup when the enclosing block is left, normally or by an
// exception (the parser unwinds on syntax errors and must leave its scope
// and loop state as it found them).
#pragma once

namespace simplec {

template <class F>
struct OnExit {
  F f;
  ~OnExit() { f(); }
};
template <class F>
OnExit(F) -> OnExit<F>;

}  // namespace simplec
