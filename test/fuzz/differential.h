// checkProgram: the differential oracle. Compiles one Simple source at each
// optimization level, runs every binary (and the graph evaluator when simplec
// has --interpret) with the same arguments, and compares stdout, exit status
// and runtime-error text against the -O0 binary.
// Invariant: a Verdict's `signature` names the first difference found in a
// fixed order (compile failures, then each configuration against the
// reference), so the reducer can ask whether "the same failure" persists.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace simplec::fuzz {

struct CheckConfig {
  std::string simplec;                                  // path of the compiler
  std::vector<std::string> levels{"-O0", "-O1", "-O2"};  // first one is the reference
  bool interpret = false;        // also run `simplec -O0|-O2 --interpret FILE -- ARGS`
                                 // (configurations "interpret-O0", "interpret-O2")
  bool verifyEach = true;        // pass --verify-each when compiling
  bool optSeed = false;          // simplec accepts --seed (worklist order)
  bool checkPasses = false;      // simplec accepts --check-passes
  double compileTimeout = 60;
  double runTimeout = 10;
};

// What a program is run with; kept in the program's header comments
// (`// ARGS: ...`, `// fuzz-opt-seed: N`) so a saved file reproduces.
struct ProgramSetup {
  std::vector<std::string> args;
  uint64_t optSeed = 0;          // passed as --seed when CheckConfig::optSeed
};

// One configuration's result: a compile (native levels) and a run.
struct Outcome {
  std::string config;            // "-O0", "-O2", "interpret-O2"
  bool compiled = false;
  std::string compileStatus;     // "exit status 70", "timed out after 60 s", ...
  std::string compileErr;
  bool ran = false;
  bool timedOut = false;
  bool crashed = false;          // killed by a signal
  int exitCode = -1;
  std::string status;            // describes how the run ended
  std::string out, err;
};

struct Verdict {
  bool ok = true;
  std::string signature;         // empty when ok, e.g. "-O2 vs -O0: stdout"
  std::string report;            // human-readable details of every difference
  std::vector<Outcome> outcomes;
};

// Runs the check on the source at `srcPath`, putting binaries in `workDir`.
// `onlyConfigs`, when not empty, restricts the configurations (the reducer
// only needs the two that disagree); the first listed native level, or else
// the first configuration, is the reference.
Verdict checkProgram(const std::string& srcPath, const ProgramSetup& setup, const CheckConfig& cfg,
                     const std::string& workDir, const std::vector<std::string>& onlyConfigs = {});

// Reads `// ARGS:` and `// fuzz-opt-seed:` lines from a program's text.
ProgramSetup setupFromSource(const std::string& text);
// The header lines that setupFromSource reads back.
std::string setupHeader(const ProgramSetup& setup);

// Asks `simplec --help` which optional flags exist (--interpret, --seed,
// --check-passes).
void detectFeatures(CheckConfig& cfg, bool* hasInterpret);

// With --check-passes: runs `simplec -O2 --check-passes --interpret` on the
// program, which evaluates it after every pass and names the first pass that
// changes its behaviour. Returns that diagnosis, or "" when there is none.
std::string diagnosePasses(const std::string& srcPath, const ProgramSetup& setup, const CheckConfig& cfg);

}  // namespace simplec::fuzz
