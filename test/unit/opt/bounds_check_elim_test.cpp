// Tests for opt/bounds_check_elim.h on parsed programs, optimized by the
// passes before it: checks proven by loop tests, chains, offsets,
// induction variables and ranges go; every check that could fail stays.
#include <catch2/catch.hpp>

#include "opt/bounds_check_elim.h"
#include "test/unit/opt/pass_on_program.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;

namespace {

int checksIn(const Unit& g) { return int(sontest::liveOfKind(g, Op::BoundsCheck).size()); }

using Result = opttest::PassResult;

// `src` through the -O2 passes before "boundscheck", then the pass itself.
Result run(const std::string& src) { return opttest::runPassOnProgram(src, "boundscheck", checksIn, boundsCheckElim); }

}  // namespace

TEST_CASE("opt/bounds_check_elim: a loop up to the length keeps no check", "[opt][bounds]") {
  Result r = run("val sum = { int[] a -> int s = 0; for (int i = 0; i < a#; i++) s += a[i]; return s; };");
  CHECK(r.before == 1);
  CHECK(r.left == 0);
  // Reading and writing, two arrays of one length, the test written `a# > i`.
  CHECK(run("val f = { int[] a -> for (int i = 0; a# > i; i++) a[i] = a[i] * 2; return 0; };").left == 0);
  CHECK(run("val f = { int n -> int[] a = new int[n]; int[] b = new int[n];\n"
            "  for (int i = 0; i < n; i++) b[i] = a[i] + i; return b[n / 2]; };")
            .left == 1);  // n / 2 may be out of bounds (n = 0)
}

TEST_CASE("opt/bounds_check_elim: two loads of one array's length are one length", "[opt][bounds]") {
  // b.data# in the test and in the check may be two Load nodes of one pointer.
  CHECK(run("struct Buf { int[] data; };\n"
            "val sum = { Buf b -> int s = 0; for (int i = 0; i < b.data#; i++) s += b.data[i]; return s; };")
            .left == 0);
}

TEST_CASE("opt/bounds_check_elim: i < n with n <= a# known on the path", "[opt][bounds]") {
  CHECK(run("val f = { int[] a, int n -> if (n > a#) return 0; int s = 0;\n"
            "  for (int i = 0; i < n; i++) s += a[i]; return s; };")
            .left == 0);
  // Without the test, n may exceed the length.
  CHECK(run("val f = { int[] a, int n -> int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; };").left == 1);
  // n < a# tested, then i <= n.
  CHECK(run("val f = { int[] a, int n -> if (n >= a#) return 0; int s = 0;\n"
            "  for (int i = 0; i <= n; i++) s += a[i]; return s; };")
            .left == 0);
}

TEST_CASE("opt/bounds_check_elim: constant offsets", "[opt][bounds]") {
  // a[i - 1] with 1 <= i < a#, a[i] too.
  CHECK(run("val f = { int[] a -> int s = 0; for (int i = 1; i < a#; i++) s += a[i] - a[i - 1]; return s; };")
            .left == 0);
  // a[i + 1] may be a[a#].
  CHECK(run("val f = { int[] a -> int s = 0; for (int i = 0; i < a#; i++) s += a[i + 1]; return s; };").left == 1);
  // ... unless the loop stops one earlier.
  CHECK(run("val f = { int[] a -> int s = 0; for (int i = 0; i + 1 < a#; i++) s += a[i + 1] + a[i]; return s; };")
            .left == 0);
  CHECK(run("val f = { int[] a -> int s = 0; for (int i = 0; i < a# - 1; i++) s += a[i + 1] + a[i]; return s; };")
            .left == 0);
}

TEST_CASE("opt/bounds_check_elim: j <= a# with a[j - 1]: lengths leave room for j + 1", "[opt][bounds]") {
  // No array is longer than kMaxArrayLength, so j + 1 cannot wrap around
  // and j stays at least 1 (lcs's `for (j = 1; j <= m; j++) ... b[j - 1]`).
  CHECK(run("val f = { u8[] b -> int s = 0; for (int j = 1; j <= b#; j++) s += b[j - 1]; return s; };").left == 0);
  CHECK(run("val f = { u8[] b -> int m = b#; int s = 0; for (int j = 1; j <= m; j++) s += b[j - 1]; return s; };")
            .left == 0);
  // b[j] at j = b# is out of bounds: stays.
  CHECK(run("val f = { u8[] b -> int s = 0; for (int j = 1; j <= b#; j++) s += b[j]; return s; };").left == 1);
  // Starting at 0, b[j - 1] reads b[-1]: stays.
  CHECK(run("val f = { u8[] b -> int s = 0; for (int j = 0; j <= b#; j++) s += b[j - 1]; return s; };").left == 1);
}

TEST_CASE("opt/bounds_check_elim: a counter going down from a# - 1", "[opt][bounds]") {
  CHECK(run("val f = { int[] a -> int s = 0; for (int i = a# - 1; i >= 0; i--) s += a[i]; return s; };").left == 0);
  CHECK(run("val f = { int[] a -> int s = 0; int i = a#; while (i > 0) { i--; s += a[i]; } return s; };").left == 0);
  // Starting at a# is one too far.
  CHECK(run("val f = { int[] a -> int s = 0; for (int i = a#; i >= 0; i--) s += a[i]; return s; };").left == 1);
}

TEST_CASE("opt/bounds_check_elim: checks that may fail stay", "[opt][bounds]") {
  // Another array's length proves nothing.
  CHECK(run("val f = { int[] a, int[] b -> int s = 0; for (int i = 0; i < a#; i++) s += b[i]; return s; };")
            .left == 1);
  // A start that may be negative.
  CHECK(run("val f = { int[] a, int k -> int s = 0; for (int i = k; i < a#; i++) s += a[i]; return s; };")
            .left == 1);
  // The bound grows inside the loop: i < n no longer says i < a#.
  CHECK(run("val f = { int[] a -> int s = 0; int n = a#;\n"
            "  for (int i = 0; i < n; i++) { s += a[i]; n = n + 1; } return s; };")
            .left == 1);
  // The test is on another variable than the index.
  CHECK(run("val f = { int[] a -> int s = 0; int j = 0;\n"
            "  for (int i = 0; i < a#; i++) { s += a[j]; j += 2; } return s; };")
            .left == 1);
}

TEST_CASE("opt/bounds_check_elim: matmul's row-major indices", "[opt][bounds]") {
  Result r = run(
      "int n = 400; flt[] a = new flt[n * n]; flt[] c = new flt[n * n];\n"
      "for (int i = 0; i < n; i++) for (int k = 0; k < n; k++) {\n"
      "  flt x = a[i * n + k]; for (int j = 0; j < n; j++) c[i * n + j] += x * a[k * n + j]; }\n"
      "return int(c[arg]);");
  CHECK(r.before == 4);
  CHECK(r.left == 1);  // c[arg]
}

TEST_CASE("opt/bounds_check_elim: references swapped in a loop keep their common length", "[opt][bounds]") {
  // a and c, both n * n long, swapped each round: a Phi of two allocations.
  Result r = run(
      "int n = 60; flt[] a = new flt[n * n]; flt[] b = new flt[n * n]; flt[] c = new flt[n * n];\n"
      "for (int round = 0; round < 2; round++) {\n"
      "  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) { flt s = 0.0;\n"
      "    for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j]; c[i * n + j] = s; }\n"
      "  flt[] !t = a; a = c; c = t; }\n"
      "return int(a[arg]);");
  CHECK(r.before == 4);
  CHECK(r.left == 1);  // a[arg]
  // A length fixed for the call (a parameter): the loop up to a# covers c too.
  CHECK(run("val f = { int n -> int[] a = new int[n]; int[] c = new int[n];\n"
            "  for (int r = 0; r < 3; r++) { for (int i = 0; i < a#; i++) c[i] = a[i] + 1;\n"
            "    int[] !t = a; a = c; c = t; } return 0; };")
            .left == 0);
  // Different lengths: c may be shorter than a.
  CHECK(run("val f = { int n -> int[] a = new int[n]; int[] c = new int[n - 1];\n"
            "  for (int r = 0; r < 3; r++) { for (int i = 0; i < a#; i++) c[i] = a[i] + 1;\n"
            "    int[] !t = a; a = c; c = t; } return 0; };")
            .left == 1);
}
