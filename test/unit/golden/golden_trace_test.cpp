// Tests for the call chain part of the golden format: EXPECT-TRACE lines,
// finding trace lines in stderr, and --bless keeping them (moved with the code).
#include <catch2/catch.hpp>

#include "test/golden_runner/golden_spec.h"

using namespace simplec::golden;

TEST_CASE("parseSpec reads EXPECT-TRACE lines in order", "[golden_runner]") {
  TestSpec s = parseSpec(
      "// EXPECT-RUNTIME-ERROR: 2:5: division by zero\n"
      "// EXPECT-TRACE: at f (t.smp:2:5)\n"
      "// EXPECT-TRACE:   at main (t.smp:4:1)  \n");
  CHECK(s.problems.empty());
  CHECK(s.trace == std::vector<std::string>{"at f (t.smp:2:5)", "at main (t.smp:4:1)"});
  CHECK_FALSE(parseSpec("// EXPECT-TRACE: at f (t.smp:2:5)\n").problems.empty());  // no runtime error
  CHECK_FALSE(parseSpec("// EXPECT-RUNTIME-ERROR: x\n// EXPECT-TRACE:\n").problems.empty());
}

TEST_CASE("traceLines takes the chain lines with the path shortened", "[golden_runner]") {
  std::string err =
      "dir/t.smp:2:5: runtime error: division by zero\n"
      "  at f (dir/t.smp:2:5)\n"
      "  at main (dir/t.smp:4:1)\n"
      "  ... 3 more frames\n";
  CHECK(traceLines(err, "dir/t.smp") ==
        std::vector<std::string>{"at f (t.smp:2:5)", "at main (t.smp:4:1)", "... 3 more frames"});
  CHECK(isTraceLine("  at f (x:1:1)"));
  CHECK_FALSE(isTraceLine("t.smp:1:1: runtime error: x"));
  CHECK(traceLines("t.smp:1:1: runtime error: x\n", "t.smp").empty());
}

TEST_CASE("blessSource writes trace lines and moves their line numbers", "[golden_runner]") {
  ActualOutcome o;
  o.exitCode = 101;
  o.runtimeError = ExpectedRuntimeError{true, 3, 5, "division by zero"};
  o.trace = {"at f (t.smp:3:5)", "at main (t.smp:4:1)", "... 2 more frames"};
  // One old EXPECT line at the top becomes three at the end of the file's
  // first block: the code moves, and so do the chain's lines.
  std::string out = blessSource("// EXPECT-TRACE: stale\nint a = 0;\nreturn 1 / a;\nf();\n", o);
  CHECK(out ==
        "// EXPECT-RUNTIME-ERROR: 6:5: division by zero\n"
        "// EXPECT-TRACE: at f (t.smp:6:5)\n"
        "// EXPECT-TRACE: at main (t.smp:7:1)\n"
        "// EXPECT-TRACE: ... 2 more frames\n"
        "int a = 0;\nreturn 1 / a;\nf();\n");
  TestSpec s = parseSpec(out);
  CHECK(s.problems.empty());
  CHECK(s.trace.size() == 3);
}
