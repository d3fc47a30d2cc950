// Test helper: a Simple program parsed and run through the -O2 pipeline,
// verifying the graph after every pass, for tests of what comes after the
// optimizer (scheduling, instruction selection).
#pragma once
#include <catch2/catch.hpp>

#include <string>

#include "lexer/diag.h"
#include "opt/pipeline.h"
#include "parser/parser.h"

namespace simplec::test {

inline void optimizeProgram(Unit& u, const std::string& src) {
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, u));
  PassOptions o;
  o.verifyEach = true;
  runPipeline(u, o);
}

// The index of function `name` in u (the program's main: "" ), or a failed test.
inline int functionIndex(const Unit& u, const std::string& name) {
  for (size_t i = 0; i < u.funs.size(); i++)
    if (name.empty() ? u.funs[i].isEntry : u.funs[i].name == name) return int(i);
  FAIL("no function " << (name.empty() ? "main" : name));
  return -1;
}

}  // namespace simplec::test
