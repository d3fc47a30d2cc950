// Tests for the parser's null facts on paths and around loops
// (parser/null_facts.cpp): what a test of `p.f` or `a[i]` proves, what ends
// it, and how loops settle: a loop head assumes its entry facts, and a
// broken assumption that a read relied on costs one more parse of the
// file, whatever the number of loops.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "lexer/work_counters.h"
#include "test/unit/parser/parse_helpers.h"

using namespace simplec;
using simplec::parsetest::onBigStack;
using simplec::parsetest::Parsed;
using simplec::parsetest::parseText;

namespace {
const char* kDecls = "struct L { int v; L? next; };\nstruct P { int age; };\nval k = { -> 0; };\n";

std::vector<std::string> errorsOf(const std::string& body) {
  Parsed p = parseText(std::string(kDecls) + body);
  return p.errorLines();
}

// How many times the file was parsed (counters are per thread: counted
// on the thread that parses).
uint64_t parseRounds(const std::string& body) {
  uint64_t n = 0;
  std::string src = std::string(kDecls) + body;
  onBigStack([&] {
    workCounters() = WorkCounters{};
    Unit u;
    SourceFile file("t.smp", src);
    FILE* sink = std::fopen("/dev/null", "w");
    DiagEngine diag(sink);
    parseFile(file, diag, u);
    std::fclose(sink);
    n = workCounters().parseRounds;
  });
  return n;
}
}  // namespace

TEST_CASE("parser/null facts: a test of a path narrows the same path", "[parser][nullfacts]") {
  const char* ok[] = {
      "val f = { L l -> return l.next ? l.next.v : -1; };",
      "val f = { P?[] ps, int i -> if (ps[i]) ps[i].age++; };",
      "val f = { L? b -> return b ? b.next ? b.next.v : b.v; };",
      "val f = { L l -> if (l.next == null) return 0; l.next.v; };",
      "val f = { L l -> if (!l.next) return 0; l.next.v; };",
      "val f = { L l -> l.next != null && l.next.v > 0 };",
      "val f = { L l -> !l.next || l.next.v > 0 };",
      "val f = { L l -> if (l.next && l.next.next) return l.next.next.v; 0; };",
      "val f = { P?[] ps -> if (ps[2]) return ps[2].age; 0; };",
      "val f = { P?[]?[] r, int i, int j -> if (r[i] && r[i][j]) return r[i][j].age; 0; };",
      "val f = { L l, L m -> if (l.next) { m.v = 3; return l.next.v; } 0; };",
      "val f = { L l, int j -> if (l.next) { j++; return l.next.v; } 0; };",
      "val f = { L l -> while (l.next) l = l.next; l.v; };",
      "val f = { L l -> if (!l.next) return 0; int t = 0; for (int i = 0; i < 3; i++) t += l.next.v; t; };",
      "val f = { L? p -> if (!p) return 0; int n = 0; while (n < 3) { p = p; n++; } p.v; };",
      "val f = { L? p -> if (!p) return 0; int n = 0; while (n < 3) { p = new L; n++; } p.v; };",
      "struct T { T? left; int v; val s = { -> left ? left.v : v }; };",
  };
  for (const char* src : ok) {
    Parsed p = parseText(std::string(kDecls) + src);
    INFO(src << "\n" << p.diags);
    CHECK(p.ok);
    CHECK(p.verifyErrors() == "");
  }
}

TEST_CASE("parser/null facts: what may change a path ends its fact", "[parser][nullfacts]") {
  struct Case {
    const char* src;
    const char* error;
  };
  const Case bad[] = {
      {"val f = { L l, L m -> if (l.next) { m.next = null; return l.next.v; } 0; };", "4:65: a value of type 'L?' might be null"},
      {"val f = { L l -> if (l.next) { k(); return l.next.v; } 0; };", "4:50: a value of type 'L?' might be null"},
      {"val f = { L l, L m -> if (l.next) { l = m; return l.next.v; } 0; };", "4:57: a value of type 'L?' might be null"},
      {"val f = { P?[] a, P?[] b, int i -> if (a[i]) { b[0] = null; a[i].age++; } };", "4:65: a value of type 'P?' might be null"},
      {"val f = { P?[] a, P?[] b, int i -> if (a[i]) { a = b; a[i].age++; } };", "4:59: a value of type 'P?' might be null"},
      {"val f = { P?[] a, int i -> if (a[i]) { i++; a[i].age++; } };", "4:49: a value of type 'P?' might be null"},
      {"val f = { P?[] a, int i -> if (a[i++]) a[i].age++; };", "4:44: a value of type 'P?' might be null"},
      {"val f = { P?[] a, int i -> if (a[i + 1]) a[i + 1].age++; };", "4:50: a value of type 'P?' might be null"},
      {"val f = { L l -> if (l.next && k() == 0) return l.next.v; 0; };", "4:55: a value of type 'L?' might be null"},
      {"val f = { L? p -> if (p && (p = null) == null) return p.v; 0; };", "4:56: 'p' might be null"},
  };
  for (const Case& c : bad) {
    INFO(c.src);
    CHECK(errorsOf(c.src) == std::vector<std::string>{c.error});
  }
}

TEST_CASE("parser/null facts: a loop whose reads keep its entry facts is parsed once", "[parser][nullfacts]") {
  CHECK(parseRounds("val f = { L? p -> if (!p) return 0; int n = 0; while (n < 3) { n += p.v; p = p; } n; };") == 1);
  // Broken, but nothing in the loop relied on it: only the code after sees it.
  CHECK(parseRounds("val f = { L? p -> if (!p) return 0; int n = 0; while (n < 3) { p = null; n++; } p ? 1 : 2; };") == 1);
  CHECK(errorsOf("val f = { L? p -> if (!p) return 0; int n = 0; while (n < 3) { p = null; n++; } p.v; };") ==
        std::vector<std::string>{"4:82: 'p' might be null"});
  // Reads that only test p (the loop's own test proves it) rely on nothing.
  CHECK(parseRounds("val f = { L h -> var p = h; int n = 0; while (p) { n += p.v; p = p.next; } n; };") == 1);
  CHECK(parseRounds("val f = { L h -> var p = h; int n = 0; for (; p; p = p.next) n += p ? p.v : 0; n; };") == 1);
  CHECK(parseRounds("val f = { L h -> var p = h; int n = 0; while (n < 9) { if (!p) break; n += p.v; p = p.next; } n; };") ==
        1);
  CHECK(parseRounds("val f = { L l -> if (!l.next) return 0; while (l.next) l = l.next; l.v; };") == 1);
}

TEST_CASE("parser/null facts: broken loop facts cost one more parse for all loops", "[parser][nullfacts]") {
  std::string one = "val f = { L? p -> if (!p) return 0; int n = 0; while (n < 3) { n += p.v; p = p.next; } n; };\n";
  CHECK(parseRounds(one) == 2);
  std::string many;
  for (int i = 0; i < 40; i++) many += "val g" + std::to_string(i) + one.substr(5);
  CHECK(parseRounds(many) == 2);
  Parsed p = parseText(std::string(kDecls) + many);
  CHECK(p.errorLines().size() == 80);  // p.v and p.next in each loop, reported once
  // Nested loops: what the outer head drops reaches the inner loops the same round.
  std::string nested = "val f = { L? p -> if (!p) return 0; int n = 0;\n"
                       "  while (n < 3) { while (n < 2) { while (n < 1) { n += p.v; n++; } n++; } p = p.next; n++; }\n"
                       "  n; };\n";
  CHECK(parseRounds(nested) == 2);
  CHECK(errorsOf(nested) == std::vector<std::string>{"5:57: 'p' might be null", "5:80: 'p' might be null"});
}

TEST_CASE("parser/null facts: a fact dropped at an outer head may break an inner loop's", "[parser][nullfacts]") {
  // Round 1 drops p at the outer head; then q = p breaks q at the inner
  // head (round 2); round 3 parses with neither (the last round assumes
  // nothing a loop assigns, so it always settles).
  std::string src = "val f = { L? p, int c -> if (!p) return 0; L? q = p; int n = 0;\n"
                    "  while (n < c) {\n"
                    "    while (n < 2 * c) { n += q.v; q = p; }\n"
                    "    p = p.next;\n"
                    "  }\n"
                    "  n; };\n";
  CHECK(parseRounds(src) == 3);
  CHECK(errorsOf(src) == std::vector<std::string>{"6:31: 'q' might be null", "7:10: 'p' might be null"});
}

TEST_CASE("parser/null facts: deep loop nests settle in a bounded number of parses", "[parser][nullfacts]") {
  // Each level reads p (relying on the entry fact) and the innermost
  // breaks it: never more than three parses, whatever the depth.
  for (int depth : {5, 60}) {
    std::string src = "val f = { L? p, int c -> if (!p) return 0; int n = 0;\n";
    for (int i = 0; i < depth; i++) src += "while (n < c + " + std::to_string(i) + ") { n += p.v;\n";
    src += "p = p.next;\n";
    for (int i = 0; i < depth; i++) src += "}\n";
    src += "n; };\n";
    INFO("depth " << depth);
    CHECK(parseRounds(src) <= 3);
    CHECK(errorsOf(src).size() == size_t(depth) + 1);  // every p.v, and p.next
  }
}
