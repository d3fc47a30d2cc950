// Test helper: a Simple program through the -O2 pipeline (verifying after
// each pass) and instruction selection, as machine functions with virtual
// registers (or allocated ones).
#pragma once
#include <catch2/catch.hpp>

#include <string>

#include "codegen/lower.h"
#include "lexer/diag.h"
#include "opt/pipeline.h"
#include "parser/parser.h"

namespace simplec::test {

// The machine function `fun` of `src`.
inline mir::MFunction programMir(const std::string& src, const std::string& fun, bool allocate = false) {
  Unit g;
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
  PassOptions o;
  o.verifyEach = true;
  runPipeline(g, o);
  LowerOptions lo;
  lo.allocate = allocate;
  mir::MModule m = lowerUnit(g, "t.smp", lo);
  for (mir::MFunction& f : m.funcs)
    if (f.name == fun) return std::move(f);
  FAIL("no function " << fun);
  return {};
}

}  // namespace simplec::test
