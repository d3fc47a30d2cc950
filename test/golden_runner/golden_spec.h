// TestSpec: the expectations of one golden test, read from the `// KEY: value`
// comments of a .smp file (TOOL.md's format, detailed in test/golden_runner/README.md), and
// the inverse, rewriting those comments from actual results (--bless).
// Invariant: parsing never throws; every malformed directive becomes a
// `problems` entry naming its line, and such a test always fails.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace simplec::golden {

// `// EXPECT-ERROR: LINE:COL: text`, and `// EXPECT-WARNING:` in the same form.
struct ExpectedError {
  int line = 0;
  int col = 0;
  std::string text;
  bool operator==(const ExpectedError&) const = default;
};

// `// EXPECT-RUNTIME-ERROR: [LINE:COL: ]text`
struct ExpectedRuntimeError {
  bool hasPos = false;
  int line = 0;
  int col = 0;
  std::string text;
  bool operator==(const ExpectedRuntimeError&) const = default;
};

struct TestSpec {
  std::vector<std::string> args;             // ARGS, split like a shell would
  std::vector<std::string> flags;            // FLAGS: extra compiler options, split like ARGS
  std::optional<std::string> stdinData;      // STDIN lines, each + '\n'
  std::vector<std::string> stdoutLines;      // EXPECT-STDOUT
  bool stdoutNoNewline = false;              // EXPECT-STDOUT-NO-NEWLINE
  std::optional<int> exitCode;               // EXPECT-EXIT
  std::vector<ExpectedError> errors;         // EXPECT-ERROR (compile only)
  std::vector<ExpectedError> warnings;       // EXPECT-WARNING: exactly these, none if empty
  std::optional<ExpectedRuntimeError> runtimeError;
  // EXPECT-TRACE: the call chain lines after the runtime error, in order,
  // leading blanks dropped, the source path as its base name
  // ("at f (prog.smp:3:5)"); empty: the chain is not checked.
  std::vector<std::string> trace;
  std::vector<std::string> problems;         // "line N: ..." for bad directives
  bool argsMalformed = false;                // an ARGS or FLAGS line could not be split

  // A test with EXPECT-ERROR lines is only compiled, never run.
  bool compileOnly() const { return !errors.empty(); }
  // Exact expected stdout: each line followed by '\n', except the last one
  // when EXPECT-STDOUT-NO-NEWLINE is present.
  std::string expectedStdout() const;
  // EXPECT-EXIT if given, else 101 with a runtime error, else 0.
  int expectedExit() const;
};

TestSpec parseSpec(std::string_view source);

// Whether the program's stdout satisfies the spec. Without the NO-NEWLINE
// marker, output whose last line lacks its '\n' still matches (most programs
// print with sys.io.p and never end the last line); with the marker the
// missing '\n' is required.
bool stdoutMatches(const TestSpec& spec, std::string_view actual);

// Splits an ARGS value into words: blanks separate words, '...' is literal,
// "..." allows \" and \\, a backslash outside quotes escapes the next byte.
// Returns nullopt for an unterminated quote.
std::optional<std::vector<std::string>> splitArgs(std::string_view text);

// What one -O0 compile (and run) produced, in the form --bless writes back.
struct ActualOutcome {
  std::vector<ExpectedError> warnings;  // printed by the compile, in order
  std::vector<ExpectedError> errors;  // non-empty: compile errors, no run
  std::string stdoutText;
  int exitCode = 0;
  std::optional<ExpectedRuntimeError> runtimeError;
  // The call chain in EXPECT-TRACE form; written only when the test
  // already checked it (blessing adds no chains to other tests).
  std::vector<std::string> trace;
};

// The call chain lines of a runtime error ("  at f (PATH:3:5)", "  ... N
// more frames") in `err`, as EXPECT-TRACE values: leading blanks dropped,
// PATH replaced by its base name.
std::vector<std::string> traceLines(std::string_view err, const std::string& path);
// A call chain line: starts "  at " or "  ... ".
bool isTraceLine(std::string_view line);

// Returns `source` with every EXPECT-* line replaced by lines describing
// `outcome`. The new block goes where the first old EXPECT line was, or at the
// end of the file. Other lines are kept byte for byte, and the LINE numbers of
// errors (which refer to `source`) are moved to where those lines end up.
std::string blessSource(std::string_view source, const ActualOutcome& outcome);

}  // namespace simplec::golden
