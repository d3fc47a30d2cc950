// Tests for test/golden_runner/golden_spec: reading `// EXPECT-...` directives,
// the stdout comparison rule, ARGS splitting, and --bless rewriting (which
// must round-trip through parseSpec and keep error line numbers right).
#include "test/golden_runner/golden_spec.h"

#include <catch2/catch.hpp>

using namespace simplec::golden;

TEST_CASE("parseSpec reads every directive kind", "[golden_runner]") {
  TestSpec s = parseSpec(
      "// ARGS: a 'b c'\n"
      "// STDIN: one\n"
      "// STDIN:\n"
      "val x = 1;\n"
      "  // EXPECT-STDOUT: hello\n"
      "// EXPECT-STDOUT:   two spaces kept\n"
      "//EXPECT-STDOUT:\n"
      "// EXPECT-EXIT: 3\n"
      "return 3;\n");
  CHECK(s.problems.empty());
  CHECK(s.args == std::vector<std::string>{"a", "b c"});
  REQUIRE(s.stdinData);
  CHECK(*s.stdinData == "one\n\n");
  CHECK(s.stdoutLines == std::vector<std::string>{"hello", "  two spaces kept", ""});
  CHECK(s.expectedStdout() == "hello\n  two spaces kept\n\n");
  CHECK(s.expectedExit() == 3);
  CHECK_FALSE(s.compileOnly());
}

TEST_CASE("parseSpec: defaults and ordinary comments", "[golden_runner]") {
  TestSpec s = parseSpec("// just a comment\n// ARGS are described here\nreturn 0;");
  CHECK(s.problems.empty());
  CHECK(s.args.empty());
  CHECK_FALSE(s.stdinData);
  CHECK(s.expectedStdout().empty());
  CHECK(s.expectedExit() == 0);
  // A directive inside code, or after code on the same line, is not one.
  TestSpec t = parseSpec("int x = 1; // EXPECT-EXIT: 4\n");
  CHECK_FALSE(t.exitCode);
}

TEST_CASE("parseSpec: compile and runtime errors", "[golden_runner]") {
  TestSpec e = parseSpec(
      "// EXPECT-ERROR: 4:9: undefined name 'x'\n"
      "// EXPECT-ERROR: 12:1: expected ';' after 'return'\n");
  CHECK(e.problems.empty());
  CHECK(e.compileOnly());
  REQUIRE(e.errors.size() == 2);
  CHECK(e.errors[0] == ExpectedError{4, 9, "undefined name 'x'"});
  CHECK(e.errors[1] == ExpectedError{12, 1, "expected ';' after 'return'"});

  TestSpec r = parseSpec("// EXPECT-RUNTIME-ERROR: division by zero\n");
  REQUIRE(r.runtimeError);
  CHECK_FALSE(r.runtimeError->hasPos);
  CHECK(r.runtimeError->text == "division by zero");
  CHECK(r.expectedExit() == 101);

  TestSpec p = parseSpec("// EXPECT-RUNTIME-ERROR: 7:13: index 5 out of bounds for length 3\n");
  REQUIRE(p.runtimeError);
  CHECK(p.runtimeError->hasPos);
  CHECK(p.runtimeError->line == 7);
  CHECK(p.runtimeError->col == 13);
  CHECK(p.runtimeError->text == "index 5 out of bounds for length 3");
}

TEST_CASE("parseSpec reports malformed directives with their line", "[golden_runner]") {
  auto problemsOf = [](const char* src) { return parseSpec(src).problems; };
  auto one = [&](const char* src, const char* fragment) {
    auto p = problemsOf(src);
    REQUIRE(p.size() == 1);
    CHECK(p[0].find(fragment) != std::string::npos);
  };
  one("x;\n// EXPECT-STDUOT: 1\n", "line 2: unknown directive 'EXPECT-STDUOT'");
  one("// EXPECT-EXIT: 256\n", "0 to 255");
  one("// EXPECT-EXIT: -1\n", "0 to 255");
  one("// EXPECT-EXIT: 1\n// EXPECT-EXIT: 2\n", "line 2: more than one EXPECT-EXIT");
  one("// EXPECT-ERROR: undefined name 'x'\n", "LINE:COL");
  one("// EXPECT-ERROR: 3:4:\n", "LINE:COL");
  one("// EXPECT-STDOUT hello\n", "expected ':'");
  one("// ARGS: 'open\n", "unterminated quote");
  one("// EXPECT-STDOUT-NO-NEWLINE\n", "without any EXPECT-STDOUT");
  one("// EXPECT-STDOUT: a\n// EXPECT-STDOUT-NO-NEWLINE: x\n", "takes no value");
  one("// EXPECT-ERROR: 1:1: bad\n// EXPECT-STDOUT: 1\n", "cannot be combined");
  one("// EXPECT-RUNTIME-ERROR: division by zero\n// EXPECT-EXIT: 1\n", "implies exit status 101");
  one("// STDIN-NO-NEWLINE\n", "without any STDIN");
  CHECK(parseSpec("// ARGS: 'open\n").argsMalformed);
  CHECK(parseSpec("// EXPECT-RUNTIME-ERROR: stack overflow\n// EXPECT-EXIT: 101\n").problems.empty());
}

TEST_CASE("stdout comparison and the NO-NEWLINE marker", "[golden_runner]") {
  TestSpec s = parseSpec("// EXPECT-STDOUT: 1\n// EXPECT-STDOUT: 2\n");
  CHECK(stdoutMatches(s, "1\n2\n"));
  CHECK(stdoutMatches(s, "1\n2"));  // missing final newline tolerated
  CHECK_FALSE(stdoutMatches(s, "1\n2\n\n"));
  CHECK_FALSE(stdoutMatches(s, "1\n"));
  CHECK_FALSE(stdoutMatches(s, "1\n3"));

  TestSpec strict = parseSpec("// EXPECT-STDOUT: 1\n// EXPECT-STDOUT: 2\n// EXPECT-STDOUT-NO-NEWLINE\n");
  CHECK(strict.expectedStdout() == "1\n2");
  CHECK(stdoutMatches(strict, "1\n2"));
  CHECK_FALSE(stdoutMatches(strict, "1\n2\n"));

  TestSpec empty = parseSpec("return 0;\n");
  CHECK(stdoutMatches(empty, ""));
  CHECK_FALSE(stdoutMatches(empty, "\n"));
  CHECK_FALSE(stdoutMatches(empty, "x"));

  // Bytes are compared exactly, NUL and CR included.
  std::string src = "// EXPECT-STDOUT: a";
  src += '\0';
  src += "b\r\n";
  TestSpec bin = parseSpec(src);
  CHECK(stdoutMatches(bin, std::string("a\0b\r\n", 5)));
  CHECK_FALSE(stdoutMatches(bin, "a b\r\n"));
}

TEST_CASE("STDIN-NO-NEWLINE drops the final newline", "[golden_runner]") {
  TestSpec s = parseSpec("// STDIN: 1 2\n// STDIN: 3\n// STDIN-NO-NEWLINE\n");
  REQUIRE(s.stdinData);
  CHECK(*s.stdinData == "1 2\n3");
}

TEST_CASE("splitArgs splits like a shell without expansions", "[golden_runner]") {
  using V = std::vector<std::string>;
  CHECK(*splitArgs("a  b\tc") == V{"a", "b", "c"});
  CHECK(*splitArgs("") == V{});
  CHECK(*splitArgs("''") == V{""});
  CHECK(*splitArgs("'a b'c \"d \\\" e\" f\\ g") == V{"a bc", "d \" e", "f g"});
  CHECK(*splitArgs("'$HOME' *.smp ;") == V{"$HOME", "*.smp", ";"});
  CHECK_FALSE(splitArgs("\"open"));
  CHECK_FALSE(splitArgs("'open"));
}

TEST_CASE("blessSource replaces EXPECT lines in place", "[golden_runner]") {
  std::string src =
      "// ARGS: x\n"
      "// EXPECT-STDOUT: old\n"
      "// EXPECT-EXIT: 9\n"
      "return 0;\n";
  ActualOutcome o;
  o.stdoutText = "new\nlines\n";
  o.exitCode = 0;
  std::string out = blessSource(src, o);
  CHECK(out ==
        "// ARGS: x\n"
        "// EXPECT-STDOUT: new\n"
        "// EXPECT-STDOUT: lines\n"
        "return 0;\n");
  TestSpec s = parseSpec(out);
  CHECK(s.problems.empty());
  CHECK(stdoutMatches(s, o.stdoutText));
  CHECK(blessSource(out, o) == out);  // idempotent
}

TEST_CASE("blessSource appends when there were no EXPECT lines", "[golden_runner]") {
  ActualOutcome o;
  o.stdoutText = "a\n\nb";  // no final newline
  o.exitCode = 7;
  std::string out = blessSource("return 7;", o);
  CHECK(out ==
        "return 7;\n"
        "// EXPECT-STDOUT: a\n"
        "// EXPECT-STDOUT: \n"
        "// EXPECT-STDOUT: b\n"
        "// EXPECT-STDOUT-NO-NEWLINE\n"
        "// EXPECT-EXIT: 7\n");
  TestSpec s = parseSpec(out);
  CHECK(s.problems.empty());
  CHECK(s.expectedStdout() == o.stdoutText);
  CHECK(s.expectedExit() == 7);
}

TEST_CASE("blessSource writes runtime errors", "[golden_runner]") {
  ActualOutcome o;
  o.stdoutText = "";
  o.exitCode = 101;
  o.runtimeError = ExpectedRuntimeError{true, 2, 5, "division by zero"};
  std::string out = blessSource("int a = 0;\nreturn 1 / a;\n", o);
  CHECK(out == "int a = 0;\nreturn 1 / a;\n// EXPECT-RUNTIME-ERROR: 2:5: division by zero\n");
  o.runtimeError = ExpectedRuntimeError{false, 0, 0, "stack overflow"};
  CHECK(blessSource("x;\n", o) == "x;\n// EXPECT-RUNTIME-ERROR: stack overflow\n");
}

TEST_CASE("blessSource moves error line numbers with the code", "[golden_runner]") {
  // Three old EXPECT lines at the top become two new ones: every code line
  // moves up by one, and so must the LINE of each error.
  std::string src =
      "// EXPECT-ERROR: 1:1: a\n"
      "// EXPECT-ERROR: 1:2: b\n"
      "// EXPECT-ERROR: 1:3: c\n"
      "int x = 1;\n"        // line 4, becomes 3
      "int y = z;\n"        // line 5, becomes 4
      "// EXPECT-STDOUT: stale\n"
      "return q;\n";        // line 7, becomes 5
  ActualOutcome o;
  o.errors = {{5, 9, "undefined name 'z'"}, {7, 8, "undefined name 'q'"}};
  std::string out = blessSource(src, o);
  CHECK(out ==
        "// EXPECT-ERROR: 4:9: undefined name 'z'\n"
        "// EXPECT-ERROR: 5:8: undefined name 'q'\n"
        "int x = 1;\n"
        "int y = z;\n"
        "return q;\n");
  // Blessing again with the errors the new file produces changes nothing.
  ActualOutcome again;
  again.errors = {{4, 9, "undefined name 'z'"}, {5, 8, "undefined name 'q'"}};
  CHECK(blessSource(out, again) == out);
}

TEST_CASE("blessSource keeps non-EXPECT lines byte for byte", "[golden_runner]") {
  std::string src = "// ARGS: 'a b'\r\n  // STDIN: x\n\tcode();  \n// EXPECT-STDOUT: y\n";
  ActualOutcome o;
  o.stdoutText = "z\n";
  CHECK(blessSource(src, o) == "// ARGS: 'a b'\r\n  // STDIN: x\n\tcode();  \n// EXPECT-STDOUT: z\n");
}

TEST_CASE("parseSpec: FLAGS and EXPECT-WARNING", "[golden_runner]") {
  TestSpec s = parseSpec(
      "// FLAGS: -Wextra\n"
      "// FLAGS: -Wshadow '-Wno-self-assign'\n"
      "// EXPECT-WARNING: 3:5: unused variable 'x' [-Wunused-variable]\n"
      "// EXPECT-STDOUT: 1\n");
  CHECK(s.problems.empty());
  CHECK(s.flags == std::vector<std::string>{"-Wextra", "-Wshadow", "-Wno-self-assign"});
  CHECK(s.args.empty());
  REQUIRE(s.warnings.size() == 1);
  CHECK(s.warnings[0] == ExpectedError{3, 5, "unused variable 'x' [-Wunused-variable]"});
  CHECK_FALSE(s.compileOnly());  // a warning alone does not stop the run
  // Warnings go with compile errors too.
  TestSpec e = parseSpec("// EXPECT-WARNING: 1:1: w\n// EXPECT-ERROR: 2:1: e\n");
  CHECK(e.problems.empty());
  CHECK(e.compileOnly());
  CHECK(e.warnings.size() == 1);
}

TEST_CASE("parseSpec: malformed FLAGS and EXPECT-WARNING", "[golden_runner]") {
  TestSpec s = parseSpec("// EXPECT-WARNING: no position\n// FLAGS: 'open\n// EXPECT-WARNING: 1:2:\n");
  REQUIRE(s.problems.size() == 3);
  CHECK(s.problems[0] == "line 1: EXPECT-WARNING needs 'LINE:COL: message'");
  CHECK(s.problems[1] == "line 2: unterminated quote in FLAGS");
  CHECK(s.problems[2] == "line 3: EXPECT-WARNING needs 'LINE:COL: message'");
  CHECK(s.argsMalformed);
}

TEST_CASE("blessSource writes warnings before the rest, lines moved", "[golden_runner]") {
  std::string src =
      "// FLAGS: -Wall\n"
      "// EXPECT-STDOUT: old\n"
      "int x = 1;\n"  // line 3, stays 3: one EXPECT line goes, one comes
      "return 0;\n";
  ActualOutcome o;
  o.warnings = {{3, 5, "unused variable 'x' [-Wunused-variable]"}};
  std::string out = blessSource(src, o);
  CHECK(out ==
        "// FLAGS: -Wall\n"
        "// EXPECT-WARNING: 3:5: unused variable 'x' [-Wunused-variable]\n"
        "int x = 1;\n"
        "return 0;\n");
  CHECK(blessSource(out, o) == out);
  ActualOutcome withErr;
  withErr.warnings = {{3, 5, "w [-Wshadow]"}};
  withErr.errors = {{4, 1, "e"}};
  CHECK(blessSource(src, withErr) ==
        "// FLAGS: -Wall\n"
        "// EXPECT-WARNING: 4:5: w [-Wshadow]\n"
        "// EXPECT-ERROR: 5:1: e\n"
        "int x = 1;\n"
        "return 0;\n");
}
