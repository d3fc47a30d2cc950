// Tests for structs and references in the parser (parser/parse_struct.cpp
// and the null facts of parse_expr.cpp / scope.cpp): which programs are
// accepted and which errors the type checker reports, with LINE:COL:
// flow-sensitive null narrowing, definite assignment, deep immutability,
// and the shape of what `new` and field accesses build.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test/unit/parser/parse_helpers.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::parsetest::Parsed;
using simplec::parsetest::parseText;

namespace {
const char* kDecls = "struct P { int x; P? next; val k = 7; val get = { -> x }; };\n";

std::vector<std::string> errorsOf(const std::string& body) {
  Parsed p = parseText(std::string(kDecls) + body);
  return p.errorLines();
}
}  // namespace

TEST_CASE("parser/struct: null narrowing accepts what a test proves", "[parser][struct]") {
  const char* ok[] = {
      "val f = { P? p -> if (p) return p.x; 0; };",
      "val f = { P? p -> if (!p) return 0; p.x; };",
      "val f = { P? p -> if (p == null) return 0; p.x; };",
      "val f = { P? p -> if (null != p) return p.x; 0; };",
      "val f = { P? p -> p && p.x > 3 };",
      "val f = { P? p -> !p || p.x > 3 };",
      "val f = { P? p -> p ? p.x : 0 };",
      "val f = { P? p -> p != null ? p.get() : 0 };",
      "val f = { P? p -> int n = 0; while (p) { n += p.x; p = p.next; } n; };",
      "val f = { P? p -> for (;;) { if (!p) break; p = p.next; } 0; };",
      "val f = { P? p -> while (true) { if (!p) return 0; if (p.x) return p.x; p = p.next; } };",
      "val f = { P? p -> if (p && p.next) return p.x; 0; };",
      "var q = new P; q.x = 1; return q.x;",
      "P? q = null; q = new P; return q.x;",
      "P s; if (arg) s = new P; else s = new P { x = 2; }; return s.x;",
      "return P.k;",
      "var a = new int[2]; a[0] = 1; return a#;",
      "int[]? a = null; if (!a) a = new int[1]; return a[0];",
      "val f = { int[]? a -> if (!a) return 0; a# }; return f(null);",
      "{ int -> int }? f = null; return f ? f(1) : 2;",
      "struct M { int n; val a = { -> b(); }; val b = { -> n = 1; }; }; return 0;",
  };
  for (const char* src : ok) {
    INFO(src);
    Parsed p = parseText(std::string(kDecls) + src);
    INFO(p.diags);
    CHECK(p.ok);
  }
}

TEST_CASE("parser/struct: null and definite-assignment errors", "[parser][struct]") {
  struct Case {
    const char* src;
    const char* error;
  };
  const Case cases[] = {
      {"val f = { P? p -> p.x };", "2:20: 'p' might be null"},
      {"val f = { P? p -> p.get() };", "2:20: 'p' might be null"},
      {"val f = { P p -> p.next.x };", "2:24: a value of type 'P?' might be null"},
      {"val f = { P? p -> if (p) p = p.next; p.x; };", "2:39: 'p' might be null"},
      {"val f = { P? p -> while (p) p = p.next; p.x; };", "2:42: 'p' might be null"},
      {"val f = { P? p -> p || p.x };", "2:25: 'p' might be null"},
      {"val f = { P? p -> if (p) {} else p.x; 0; };", "2:35: 'p' might be null"},
      {"P s; return s.x;", "2:13: 's' might not be initialized"},
      {"P s; if (arg) s = new P; return s.x;", "2:33: 's' might not be initialized"},
      {"struct Q { P p; }; Q q = new Q; return 0;", "2:26: 'Q' is not fully initialized: field 'p' is not set"},
      {"P s = null; return 0;", "2:7: type mismatch: expected 'P', found 'null'"},
      {"var v = null; return 0;", "2:9: cannot infer a type from 'null'"},
      {"P? p = new P; return p == 3;", "2:24: cannot compare 'P' and 'int' with '=='"},
      // Arrays and function references are null-tracked the same way.
      {"var a = new int[2]; a = null; return a#;", "2:39: 'a' might be null"},
      {"int[]? a = null; if (arg) a = new int[1]; return a[0];", "2:51: 'a' might be null"},
      {"var f = { int x -> x }; f = null; return f(1);", "2:43: 'f' might be null"},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    std::vector<std::string> errs = errorsOf(c.src);
    REQUIRE(errs.size() == 1);
    CHECK(errs[0] == c.error);
  }
}

TEST_CASE("parser/struct: a loop forgets the null facts of what it assigns, and only those", "[parser][struct]") {
  struct Case {
    const char* src;
    const char* error;  // null: accepted
  };
  const Case cases[] = {
      // Assigned in a one-statement body (an if/else inside), in the step, in a nested loop.
      {"P? p = new P; for (int i = 0; i < 3; i = i + 1) if (i) p.x = 1; else p = null; return 0;",
       "2:57: 'p' might be null"},
      {"P? p = new P; for (int i = 0; i < 3; p = null) { p.x = 1; i = i + 1; } return 0;",
       "2:51: 'p' might be null"},
      {"P? p = new P; while (arg > 1) { p.x = 1; while (arg > 2) p = null; arg = arg - 1; } return 0;",
       "2:34: 'p' might be null"},
      // Assigned only after the loop: the back edge keeps the fact.
      {"P? p = new P; while (arg > 5) { p.x = 1; arg = arg - 1; } p = null; return 0;", nullptr},
      {"P? p = new P; while (arg > 5) arg = arg - 1; p = null; return 0;", nullptr},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    std::vector<std::string> errs = errorsOf(c.src);
    if (!c.error) {
      CHECK(errs.empty());
    } else {
      REQUIRE(errs.size() == 1);
      CHECK(errs[0] == c.error);
    }
  }
}

TEST_CASE("parser/struct: deep immutability", "[parser][struct]") {
  struct Case {
    const char* src;
    const char* error;  // null: accepted
  };
  const Case cases[] = {
      {"P a = new P; a.x = 1; a = new P; return 0;", nullptr},  // outermost block: mutable
      {"val a = new P; a.x = 1; return 0;", "2:20: cannot assign to field 'x' through a read-only reference"},
      {"{ P a = new P; a.x = 1; } return 0;", "2:20: cannot assign to field 'x' through a read-only reference"},
      {"{ var a = new P; a.x = 1; a = new P; } return 0;", nullptr},
      {"{ P !a = new P; a.x = 1; } return 0;", nullptr},
      {"{ P a = new P; P? b = a.next; b.x = 1; } return 0;", "2:32: 'b' might be null"},
      {"{ P a = new P; P b; b = a; } return 0;", "2:23: a read-only 'P' cannot be stored in mutable 'b'"},
      {"val f = { P p -> 0 }; { P a = new P; f(a); } return 0;", "2:40: a read-only 'P' cannot be passed as a mutable argument"},
      {"{ P a = new P; a = new P; } return 0;",
       "2:18: cannot assign to 'a': a reference declared with an initializer in an inner block is immutable (use "
       "'var' or '!a')"},
      {"{ P a = new P; a.x++; } return 0;", "2:19: cannot assign to field 'x' through a read-only reference"},
      {"{ P a = new P; return a.get(); }", nullptr},  // reading through a method is allowed
      {"for (P? n = new P; n; n = n.next) n.x = 1; return 0;", nullptr},  // loop variables stay mutable
  };
  for (const Case& c : cases) {
    INFO(c.src);
    std::vector<std::string> errs = errorsOf(c.src);
    if (!c.error) {
      CHECK(errs.empty());
    } else {
      REQUIRE(errs.size() == 1);
      CHECK(errs[0] == c.error);
    }
  }
}

TEST_CASE("parser/struct: new and field accesses build New, Store and Load", "[parser][struct]") {
  Parsed p = parseText("struct S { int a; int b = 5; };\nS s = new S { a = arg; };\nreturn s.a + s.b;");
  INFO(p.diags);
  REQUIRE(p.ok);
  // The loads of a fresh object's fields fold to the stored values.
  CHECK(int(sontest::liveOfKind(*p.g, Op::Load).size()) == 0);
  Parsed q = parseText("struct S { int a; };\nval f = { S s -> s.a = s.a + 1; s.a; };\nreturn f(new S);");
  INFO(q.diags);
  REQUIRE(q.ok);
  CHECK(int(sontest::liveOfKind(*q.g, Op::Store).size()) >= 1);
  CHECK(int(sontest::liveOfKind(*q.g, Op::New).size()) == 1);
}

TEST_CASE("parser/struct: a bare call of a function that needs no self needs no object", "[parser][struct]") {
  struct Case {
    const char* src;
    const char* error;  // null: accepted
  };
  const Case cases[] = {
      {"struct Q { int x; val a = { Q q -> q.x++; }; val b = { Q q -> a(q); a(q); q.x; }; };\n"
       "Q !q = new Q; return Q.b(q);",
       nullptr},
      // Called before its definition, and recursive.
      {"struct Q { val b = { int k -> a(k) }; val a = { int k -> k ? a(k - 1) + 2 : 0 }; };\nreturn Q.b(3);",
       nullptr},
      {"struct Q { int x; val a = { -> x }; val b = { -> a() + 1 }; };\nreturn Q.b();",
       "3:10: method 'b' needs an object"},
      {"struct Q { int x; val b = { int k -> k ? b(k - 1) : x }; };\nreturn Q.b(1);",
       "3:10: method 'b' needs an object"},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    std::vector<std::string> errs = errorsOf(c.src);
    if (!c.error) {
      CHECK(errs.empty());
    } else {
      REQUIRE(errs.size() == 1);
      CHECK(errs[0] == c.error);
    }
  }
}

TEST_CASE("parser/struct: a constant may use a later top-level val", "[parser][struct]") {
  // The val's initializer is evaluated where the constant needs it; the
  // script's own declaration of it later is an ordinary one.
  Parsed p = parseText("struct C { val k = base * base; };\nval base = 5;\nreturn C.k + base;");
  INFO(p.diags);
  REQUIRE(p.ok);
  auto rets = sontest::liveOfKind(*p.g, Op::Return);
  REQUIRE(rets.size() == 1);
  CHECK(rets[0]->in[2]->type == Type::intConst(30));
  // A cycle names its path; a later val that is not constant is an error.
  Parsed c = parseText("struct C { val k = base + 1; };\nval base = C.k;\nreturn base;");
  REQUIRE_FALSE(c.ok);
  CHECK(c.errorLines()[0] == "1:16: constant 'k' depends on itself: C.k -> base -> C.k");
  Parsed n = parseText("struct C { val k = base + 1; };\nval base = arg;\nreturn C.k;");
  REQUIRE_FALSE(n.ok);
  CHECK(n.errorLines()[0] == "1:20: 'base' is not a constant, so a struct constant cannot use it before its declaration");
}

TEST_CASE("parser/struct: per-type constants named bare; constants see file-level names only",
          "[parser][struct]") {
  // Inside a method `k` is `S.k`, as a bare field name is `self.f`.
  Parsed p = parseText("struct S { int x; val k = 3; val k2 = k + 1; val m = { -> x + k * k2; }; };\n"
                       "S s = new S { x = 2; };\nreturn s.m() + S.k2;");
  INFO(p.diags);
  REQUIRE(p.ok);
  // A method first used inside f must not see f's local constant q, nor a
  // constant initializer f's parameter y.
  Parsed m = parseText("val f = { int y -> val q = 2; return S.m() + y; };\nreturn f(1);\n"
                       "struct S { val m = { -> return q; }; };");
  REQUIRE_FALSE(m.ok);
  CHECK(m.errorLines()[0] == "3:32: undefined name 'q'");
  Parsed c = parseText("val f = { int y -> return S.k + y; };\nreturn f(1);\nstruct S { val k = y * 2; };");
  REQUIRE_FALSE(c.ok);
  CHECK(c.errorLines()[0] == "3:20: undefined name 'y'");
}
