// Tests for declarations (parser/parse_decl.cpp): `!` on every declared
// name, and deep immutability of arrays declared with an initializer in an
// inner block (read-only through the name, as struct references are).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test/unit/parser/parse_helpers.h"

using simplec::parsetest::Parsed;
using simplec::parsetest::parseText;

namespace {
const char* kDecls = "struct P { int x; }; val n = 4;\n";

std::vector<std::string> errorsOf(const std::string& body) {
  Parsed p = parseText(std::string(kDecls) + body);
  INFO(p.diags);
  if (p.ok) CHECK(p.verifyErrors() == "");
  return p.errorLines();
}

struct Case {
  const char* src;
  const char* error;  // null: accepted
};

void check(const Case& c) {
  INFO(c.src);
  std::vector<std::string> errs = errorsOf(c.src);
  if (!c.error) {
    CHECK(errs.empty());
  } else {
    REQUIRE(errs.size() == 1);
    CHECK(errs[0] == c.error);
  }
}
}  // namespace

TEST_CASE("parser/decl: '!' is accepted on every declared name", "[parser][decl]") {
  const char* ok[] = {
      "{ int[] !a = new int[n]; a[0] = 1; }",
      "{ bool[] !seen = new bool[n + 1]; seen[n] = true; }",
      "{ flt[] !x = new flt[n], !y = new flt[n]; x[0] = y[1] = 1.5; }",
      "{ P?[] !heads = new P?[8]; heads[0] = new P; }",
      "{ i32[] !buf = new i32[16]; buf[1]++; }",
      "int !count = 0; count++;",
      "var !text = \"abc\";",
      "struct B { u32 !len = 0; u8[] !data; }; B !b = new B { data = new u8[2]; }; b.data[b.len] = 1;",
      "{int->int}? !f = null;",
      "{int->int}?! f = null;",
      "{int->int}?!f = null;",
      "{int->int} !g = { int a -> a };",
      "val f = { int[] !a, int !k -> a[0] = k; k = 1; };",
      "for (int[] !a = new int[2]; a[0] < 3; a[0]++) {}",
  };
  for (const char* src : ok) check({src, nullptr});
}
