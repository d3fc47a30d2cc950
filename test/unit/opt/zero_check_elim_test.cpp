// Tests for opt/zero_check_elim.h: checks already made on a dominating path
// go, checks on other paths stay, and the result verifies.
#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "opt/iterate.h"
#include "opt/zero_check_elim.h"
#include "parser/parser.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;

namespace {

struct Result {
  int removed;
  int left;
};

Result run(const std::string& src) {
  Unit g;
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
  int removed = sontest::onEachFunction(g, zeroCheckElim);
  sontest::onEachFunction(g, [](Graph& fg) { iterPeeps(fg, 0, true); });
  CHECK(sontest::verifyText(g) == "");
  int left = 0;
  left = sontest::countLive(g, Op::ZeroCheck);
  return {removed, left};
}

}  // namespace

TEST_CASE("opt/zero_check_elim: two divisions by the same value leave one check", "[opt][zerocheck]") {
  Result r = run("int d = arg - 1; int a = 100 / d; int b = 7 % d; return a + b;");
  CHECK(r.removed == 1);
  CHECK(r.left == 1);
}

TEST_CASE("opt/zero_check_elim: a dominating test makes the check redundant", "[opt][zerocheck]") {
  CHECK(run("int d = arg - 1; int x = 0; if (d != 0) x = 10 / d; return x;").left == 0);
  CHECK(run("int d = arg - 1; int x = 0; if (d) x = 10 / d; return x;").left == 0);
  CHECK(run("int d = arg - 1; int x = 0; if (d == 0) x = 1; else x = 10 / d; return x;").left == 0);
}

TEST_CASE("opt/zero_check_elim: checks on paths that do not dominate stay", "[opt][zerocheck]") {
  // The first division happens only on one arm: the second still needs its check.
  Result r = run("int d = arg - 1; int x = 0; if (arg > 3) x = 10 / d; return x + 20 / d;");
  CHECK(r.removed == 0);
  CHECK(r.left == 2);
  // The wrong arm of a test proves nothing.
  CHECK(run("int d = arg - 1; int x = 0; if (d == 0) x = 10 / d; return x;").left == 1);
}

TEST_CASE("opt/zero_check_elim: a check in a loop is covered by one before it", "[opt][zerocheck]") {
  Result r = run(
      "int d = arg - 1; int s = 100 / d;\n"
      "for (int i = 0; i < arg; i++) s += i / d;\n"
      "return s;");
  CHECK(r.left == 1);
}

namespace {
int boundsChecksLeft(const std::string& src, int* removed) {
  Unit g;
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
  *removed = sontest::onEachFunction(g, zeroCheckElim);
  sontest::onEachFunction(g, [](Graph& fg) { iterPeeps(fg, 0, true); });
  CHECK(sontest::verifyText(g) == "");
  int left = 0;
  left = sontest::countLive(g, Op::BoundsCheck);
  return left;
}
}  // namespace

TEST_CASE("opt/zero_check_elim: a dominating bounds check of the same index and length", "[opt][mem]") {
  int removed = 0;
  // a[i] = a[i] + 1 checks i twice; the second check goes.
  CHECK(boundsChecksLeft("int[] a = new int[arg + 3]; int i = arg; a[i] = a[i] + 1; return a[i];", &removed) == 1);
  CHECK(removed == 2);
  // Another index keeps its own check.
  CHECK(boundsChecksLeft("int[] a = new int[arg + 3]; a[arg] = 1; return a[arg + 1];", &removed) == 2);
  // A check on one arm does not cover the other arm.
  CHECK(boundsChecksLeft("int[] a = new int[arg + 3]; int x = 0; if (arg > 2) x = a[arg]; return x + a[arg];",
                         &removed) == 2);
}
