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

TEST_CASE("parser/decl: an inner-block array is read-only through its name", "[parser][decl]") {
  const Case cases[] = {
      {"int[] a = new int[n]; a[0] = 1;", nullptr},  // outermost block: mutable
      {"val f = { -> int[] a = new int[n]; a[0] = 1; };", nullptr},
      {"{ var a = new int[n]; a[0] = 1; a = new int[1]; }", nullptr},
      {"{ int[] a = new int[n]; int[~] b = a; int[] c = a; return a[0] + b[0] + c[0] + a#; }", nullptr},
      {"val f = { int[~] v -> v# }; { int[] a = new int[n]; f(a); }", nullptr},
      {"{ int[] a = new int[n]; a[0] = 1; }",
       "2:30: cannot assign to an element of 'a': an array declared with an initializer in an inner block is "
       "read-only (use 'var' or '!a')"},
      {"{ int[] a = new int[n]; a[0]++; }",
       "2:29: cannot assign to an element of 'a': an array declared with an initializer in an inner block is "
       "read-only (use 'var' or '!a')"},
      {"{ int[] a = new int[n]; a[0] *= 2; }",
       "2:30: cannot assign to an element of 'a': an array declared with an initializer in an inner block is "
       "read-only (use 'var' or '!a')"},
      {"val f = { int[] v -> v# }; { int[] a = new int[n]; f(a); }",
       "2:54: cannot store read-only 'int[~]' where 'int[]' is expected"},
      {"{ int[] a = new int[n]; int[]? b; b = a; }",
       "2:39: cannot store read-only 'int[~]' where 'int[]?' is expected"},
      {"{ int[] a = new int[n]; a = new int[1]; }",
       "2:27: cannot assign to 'a': a reference declared with an initializer in an inner block is immutable (use "
       "'var' or '!a')"},
      {"val a = new int[n]; a[0] = 1;", "2:26: cannot assign to an element of read-only 'int[~]'"},
      // What a read-only array reaches is read-only.
      {"{ P?[] ps = new P?[1]; var p = ps[0]; if (p) p.x = 1; }",
       "2:50: cannot assign to field 'x' through a read-only reference"},
      {"{ int[]?[] g = new int[]?[1]; var r = g[0]; if (r) r[0] = 1; }",
       "2:57: cannot assign to an element of read-only 'int[~]'"},
  };
  for (const Case& c : cases) check(c);
}

TEST_CASE("parser/decl: array fields follow the rule of reference fields", "[parser][decl]") {
  const char* s = "struct H { int[] d = new int[2]; int[] !e = new int[2]; int[] f; };\n";
  const Case cases[] = {
      {"H h = new H { f = new int[1]; }; h.e[0] = 1; h.f[0] = 1; h.f = h.e; return h.d[0];", nullptr},
      {"H h = new H { f = new int[1]; }; h.d[0] = 1;", "3:41: cannot assign to an element of read-only 'int[~]'"},
      {"H h = new H { f = new int[1]; }; h.d = new int[1];", "3:38: cannot assign to immutable field 'd'"},
      {"{ H h = new H { f = new int[1]; }; h.f[0] = 1; }", "3:43: cannot assign to an element of read-only 'int[~]'"},
  };
  for (const Case& c : cases) check({(std::string(s) + c.src).c_str(), c.error});
}
