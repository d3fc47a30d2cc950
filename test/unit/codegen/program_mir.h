// Test helper: a Simple program through the -O2 pipeline (verifying after
// each pass) and instruction selection, as machine functions with virtual
// registers (or allocated ones).
#pragma once
#include <catch2/catch.hpp>

#include <string>

#include "codegen/lower.h"
#include "test/unit/optimized_program.h"

namespace simplec::test {

// The machine function `fun` of `src`.
inline mir::MFunction programMir(const std::string& src, const std::string& fun, bool allocate = false) {
  Unit g;
  optimizeProgram(g, src);
  LowerOptions lo;
  lo.allocate = allocate;
  mir::MModule m = lowerUnit(g, "t.smp", lo);
  for (mir::MFunction& f : m.funcs)
    if (f.name == fun) return std::move(f);
  FAIL("no function " << fun);
  return {};
}

}  // namespace simplec::test
