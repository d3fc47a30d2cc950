// Tests for opt/loop_versioning.h: which loops get a copy without their
// bounds checks, that the program behaves the same whichever copy runs
// (the guard passing, failing, and a check failing at its own iteration),
// -g's variables on the copy, and linear work in the function.
#include <catch2/catch.hpp>

#include <map>

#include "lexer/work_counters.h"
#include "opt/loop_versioning.h"
#include "test/unit/opt/pass_on_program.h"

using namespace simplec;

namespace {

struct Versioned {
  int loops = 0;   // versioned
  int checksBefore = 0;
  int checksAfter = 0;
};

// Parses src, runs the passes before loop-version, then the pass; the graph
// must verify and main must behave the same for every argc in `args`.
Versioned version(const std::string& src, std::initializer_list<int64_t> args = {1}, bool debug = false) {
  Unit u;
  u.debugInfo = debug;
  opttest::parseUpTo(u, src, "loop-version");
  std::vector<EvalResult> before;
  for (int64_t a : args) before.push_back(evaluateProgram(u, a, EvalOptions{}));
  Versioned v;
  v.checksBefore = sontest::countLive(u, Op::BoundsCheck);
  v.loops = sontest::onEachFunction(u, [](Graph& g) { return versionLoops(g); });
  CHECK(sontest::verifyText(u) == "");
  v.checksAfter = sontest::countLive(u, Op::BoundsCheck);
  size_t i = 0;
  for (int64_t a : args) {
    INFO("argc " << a);
    opttest::checkSameRun(before[i], evaluateProgram(u, a, EvalOptions{}));
    i++;
  }
  return v;
}

// lcs's inner loop over two rows of run-time length; main runs it on rows
// as long as the loop needs (the copy runs) and, for argc 2, on a row one
// short (the original runs and fails at j = m, after printing the sums).
const char* kRows =
    "val row = { int[] prev, int[] cur, u8[] b, u8 ai ->\n"
    "  int m = b#;\n"
    "  for (int j = 1; j <= m; j++) {\n"
    "    if (ai == b[j - 1]) cur[j] = prev[j - 1] + 1;\n"
    "    else if (prev[j] >= cur[j - 1]) cur[j] = prev[j];\n"
    "    else cur[j] = cur[j - 1];\n"
    "    sys.io.p(cur[j]);\n"
    "  }\n"
    "  return cur[m]; };\n"
    "int n = 6 + arg;\n"
    "u8[] b = new u8[7];\n"
    "for (int i = 0; i < 7; i++) b[i] = 'a' + i * 5 % 3;\n"
    "int[] p = new int[8]; int[] c = new int[n];\n"
    "for (int i = 0; i < 8; i++) p[i] = i % 3;\n"
    "return row(p, c, b, 'b');\n";

}  // namespace

TEST_CASE("opt/loop_versioning: a loop over rows of run-time length gets a copy without checks",
          "[opt][loop_versioning]") {
  Versioned v = version(kRows, {1, 2, 3});
  CHECK(v.loops >= 1);
  // The original keeps its checks, the copy has none of those on j.
  CHECK(v.checksAfter == v.checksBefore);
  // The same at the start of a loop counting from a parameter: the guard
  // tests init too (j - 2 must not go below 0).
  Versioned w = version(
      "val f = { int[] a, int lo, int hi -> int s = 0;\n"
      "  for (int j = lo; j < hi; j++) s += a[j - 2] * a[j + 1]; return s; };\n"
      "int[] a = new int[10 + arg];\n"
      "for (int i = 0; i < a#; i++) a[i] = i;\n"
      "sys.io.p(f(a, 2, 9)); sys.io.p(f(a, 1, 5));\n"
      "return f(a, 3, 10);",
      {0, 1, 2});
  CHECK(w.loops >= 1);
}

TEST_CASE("opt/loop_versioning: j plus a value the loop does not change (row-major indices)",
          "[opt][loop_versioning]") {
  // c[i * n + j] over arrays of n * n with n known at run time; for argc 2
  // b is one short.
  Versioned v = version(
      "val mm = { int[] b, int[] c, int n, int d ->\n"
      "  if (d > 0) return mm(b, c, n, d - 1);\n"
      "  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) c[i * n + j] += b[i * n + j] * 3 + j;\n"
      "  return c[n * n - 1]; };\n"
      "int n = 3 + arg; int[] b = new int[n * n - (arg & 2) / 2]; int[] c = new int[n * n];\n"
      "for (int i = 0; i < b#; i++) b[i] = i;\n"
      "return mm(b, c, n, 2);",
      {1, 2, 3});
  CHECK(v.loops >= 1);
  // Offsets so large that j + d wraps around: for argc 1, j runs from
  // INT64_MIN to INT64_MAX and j + d starts at 5 and ends at 3 (first and
  // last in bounds, but not the values between): the guard sees first >
  // last and the loop as written runs, failing at its fourth iteration.
  Versioned w = version(
      "val f = { int[] a, int lo, int hi, int d ->\n"
      "  int s = 0; for (int j = lo; j < hi; j++) { s += a[j + d]; sys.io.p(s); } return s; };\n"
      "int[] a = new int[8];\n"
      "for (int i = 0; i < 8; i++) a[i] = i;\n"
      "sys.io.p(f(a, 0, 8, arg - 1));\n"
      "return f(a, -0x7FFF_FFFF_FFFF_FFFF - arg, 0x7FFF_FFFF_FFFF_FFFE + arg, -0x7FFF_FFFF_FFFF_FFFA - arg);",
      {1, 2});
  CHECK(w.loops >= 1);
  // j <= limit with limit = INT64_MAX: j itself wraps after two iterations
  // (to INT64_MIN, where j + d is 2 again). The guard refuses the copy.
  Versioned x = version(
      "val f = { int[] a, int lo, int hi, int d ->\n"
      "  int s = 0; for (int j = lo; j <= hi; j++) { s += a[j + d]; sys.io.p(s); } return s; };\n"
      "int[] a = new int[8];\n"
      "for (int i = 0; i < 8; i++) a[i] = i;\n"
      "return f(a, 0x7FFF_FFFF_FFFF_FFFD + arg, 0x7FFF_FFFF_FFFF_FFFE + arg, -0x7FFF_FFFF_FFFF_FFFC - arg);",
      {1, 2});
  CHECK(x.loops >= 1);
}

TEST_CASE("opt/loop_versioning: loops it leaves alone", "[opt][loop_versioning]") {
  // A return inside the loop: a second exit.
  CHECK(version("val f = { int[] a, int n -> for (int j = 0; j < n; j++) if (a[j] == 3) return j; return -1; };\n"
                "int[] a = new int[5 + arg]; a[3] = 3; return f(a, 5);")
            .loops == 0);
  // Counting down, or by 2: j is not the Phi stepping by 1.
  CHECK(version("val f = { int[] a, int n -> int s = 0; for (int j = n; j > 0; j--) s += a[j]; return s; };\n"
                "int[] a = new int[5 + arg]; return f(a, 4);")
            .loops == 0);
  CHECK(version("val f = { int[] a, int n -> int s = 0; for (int j = 0; j < n; j += 2) s += a[j]; return s; };\n"
                "int[] a = new int[5 + arg]; return f(a, 4);")
            .loops == 0);
  // The array changes in the loop: its length is not invariant.
  CHECK(version("val f = { int[] a, int n -> int s = 0; for (int j = 0; j < n; j++) { s += a[j]; a = new int[j + 2]; }\n"
                "  return s; };\n"
                "int[] a = new int[5 + arg]; return f(a, 4);",
                {1, 2})
            .loops == 0);
  // An index that is not j plus a constant.
  CHECK(version("val f = { int[] a, int n -> int s = 0; for (int j = 0; j < n; j++) s += a[j * 2]; return s; };\n"
                "int[] a = new int[9 + arg]; return f(a, 4);")
            .loops == 0);
}

TEST_CASE("opt/loop_versioning: only the inner loop of a nest is copied", "[opt][loop_versioning]") {
  Versioned v = version(
      "val f = { int[]?[] rows, int m -> int s = 0;\n"
      "  for (int i = 0; i < rows#; i++) { int[]? !r = rows[i]; if (!r) return -1;\n"
      "    for (int j = 0; j < m; j++) { s += r[j]; r[j] = s & 7; } }\n"
      "  return s; };\n"
      "int[]?[] rows = new int[]?[3];\n"
      "for (int i = 0; i < 3; i++) rows[i] = new int[4 + i * arg];\n"
      "sys.io.p(f(rows, 4)); return f(rows, 5);",
      {0, 1, 2});
  CHECK(v.loops == 1);
}

TEST_CASE("opt/loop_versioning: values and memory handed on after the loop", "[opt][loop_versioning]") {
  // The loop's counter, a sum and the stores are all used after it.
  Versioned v = version(
      "val f = { int[] a, int[] b, int n -> int s = 0; int j = 0;\n"
      "  for (j = 0; j < n; j++) { b[j] = a[j + 1] - s; s += a[j]; }\n"
      "  sys.io.p(j); sys.io.p(s); return b[n - 1] + s * j; };\n"
      "int[] a = new int[6 + arg]; int[] b = new int[5];\n"
      "for (int i = 0; i < a#; i++) a[i] = i * i;\n"
      "return f(a, b, 5);",
      {0, 1, 2});
  CHECK(v.loops >= 1);
}

TEST_CASE("opt/loop_versioning: a loop bounded by what an earlier versioned loop hands on",
          "[opt][loop_versioning]") {
  // The second loop runs to the first one's final counter: its guard must
  // read the merge of both copies' counters (b is one short for argc 1:
  // the second loop fails at its last iteration).
  // f calls itself so that its own graph (not only a copy inlined into
  // main) runs in the evaluator.
  Versioned v = version(
      "val f = { int[] a, int[] b, int n, int d ->\n"
      "  if (d > 0) return f(a, b, n, d - 1) + 1;\n"
      "  int j = 0;\n"
      "  for (j = 0; j < n; j++) a[j + 1] = j * 3;\n"
      "  int s = 0;\n"
      "  for (int k = 0; k < j; k++) { s += b[k + 1] + a[k]; b[k] = s; }\n"
      "  return s; };\n"
      "int n = 7 + arg;\n"
      "int[] a = new int[n + 1]; int[] b = new int[n + 1 - (arg & 1)];\n"
      "return f(a, b, n, 3);",
      {1, 2});
  CHECK(v.loops >= 2);
}

TEST_CASE("opt/loop_versioning: -g names the copy's values too", "[opt][loop_versioning]") {
  Unit u;
  u.debugInfo = true;
  // Called twice, row stays a function of its own (called once, it would
  // be inlined into main and gone).
  std::string rows = kRows;
  rows.replace(rows.find("return row(p, c, b, 'b');"), std::string("return row(p, c, b, 'b');").size(),
               "return row(p, c, b, 'b') + row(c, p, b, 'c');");
  opttest::parseUpTo(u, rows, "loop-version");
  int row = -1;
  for (size_t i = 0; i < u.funs.size(); i++)
    if (u.funs[i].name == "row") row = int(i);
  REQUIRE(row >= 0);
  REQUIRE(u.funs[size_t(row)].hasBody());
  Graph& g = *u.graph(row);
  auto phisNamed = [&]() {
    int n = 0;
    for (Node* x : liveNodes(g))
      if (x->op == Op::Phi && x->in[0]->op == Op::Loop && x->dbg != 0) n++;
    return n;
  };
  int before = phisNamed();
  REQUIRE(before > 0);
  CHECK(versionLoops(g) == 1);
  CHECK(sontest::verifyText(u) == "");
  CHECK(phisNamed() == 2 * before);
  // Each binding made in the loop now happens twice, once in each copy:
  // the two share (variable, seq) but stand under different control.
  std::vector<Graph::DebugAnchor> anchors = g.debugAnchors();
  std::map<std::pair<int, uint32_t>, std::vector<const Node*>> where;
  for (Node* x : liveNodes(g))
    for (uint32_t k = x->dbg; k != 0; k = g.debugNames[k].next)
      if (g.debugNames[k].kind != DebugName::Declare) where[{g.debugNames[k].var, g.debugNames[k].seq}].push_back(anchors[k].at);
  int twice = 0;
  for (auto& [key, ats] : where)
    if (ats.size() == 2) {
      twice++;
      CHECK(ats[0] != ats[1]);
      CHECK(ats[0] != nullptr);
      CHECK(ats[1] != nullptr);
    }
  CHECK(twice > 0);
}

TEST_CASE("opt/loop_versioning: work grows linearly with the function", "[opt][loop_versioning][work]") {
  // One function with m loops, each over arrays of run-time length.
  auto program = [](int m) {
    std::string s = "val f = { int[] a, int[] b, int n -> int s = 0;\n";
    for (int i = 0; i < m; i++) {
      std::string j = "j" + std::to_string(i);
      s += "  for (int " + j + " = 1; " + j + " < n; " + j + "++) { b[" + j + "] = a[" + j + " - 1] + s; s += b[" +
           j + "]; }\n";
    }
    return s + "  return s; };";
  };
  auto work = [&](int m) {
    return opttest::loopPassWork(program(m), "loop-version", [](Graph& g) { return versionLoops(g); }, m);
  };
  uint64_t small = work(50), large = work(200);
  INFO("work: " << small << " at 50 loops, " << large << " at 200");
  CHECK(small > 0);
  CHECK(double(large) / double(small) < 5.0);
}
