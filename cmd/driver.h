// The simplec driver: what one invocation does with its inputs. main.cpp
// turns the command line into DriverOptions; run() does the work and returns
// the process exit status (0 ok, 1 input errors, 2 bad usage, 70 internal
// error, or the program's own status with --run and --interpret).
#pragma once
#include <string>
#include <vector>

#include "lexer/warnings.h"

namespace simplec {

enum class EmitKind { None, Tokens, Ir, Dot, Sched, Mir, Asm, Html };

// One command-line input, in order (the link order matters): a file, "-"
// for standard input, or arguments for the linker (-l, -L, -Wl, -Xlinker).
struct Input {
  std::string path;                     // the file; "" for linker arguments
  std::string language;                 // of the last -x before it ("" = by name or content)
  std::vector<std::string> linkerArgs;  // passed to cc's link as they are, e.g. {"-lm"}
  bool isFile() const { return linkerArgs.empty(); }
};

// -j's largest value, and the default's on a machine with more processors:
// parsing and optimization stay on one thread, so more would mostly wait.
constexpr int kMaxJobs = 256;

struct DriverOptions {
  std::vector<Input> inputs;
  std::string output;         // -o (the last one); "-" with -c or -S is standard output
  bool compileOnly = false;   // -c
  bool assembly = false;      // -S
  bool run = false;           // --run
  bool interpret = false;     // --interpret: run the graph evaluator instead of compiling
  bool checkPasses = false;   // --check-passes
  std::vector<std::string> runArgs;
  int optLevel = 2;           // -O3 and -Os are 2, -Og and -O are 1
  std::string optFlag = "-O2";  // the last -O as written, for cc compiling C sources
  int jobs = 0;               // -j: threads for code generation (0: one per processor)
  EmitKind emit = EmitKind::None;
  std::vector<std::string> dumpAfter;
  bool verifyEach = false;
  bool timePasses = false;    // --time-passes: a table of each pass's time on stderr
  int debugLevel = 0;         // -g0..-g3 (-g and -ggdb are 2), the last one given
  bool debugInfo = false;     // debugLevel > 0
  bool depFile = false;       // -MD or -MMD
  bool depPhony = false;      // -MP
  std::string depFilePath;    // -MF ("-" is standard output)
  std::vector<std::string> depTargets;  // -MT and -MQ (quoted for make), in order
  bool verbose = false;       // -v: print each step to stderr
  bool dryRun = false;        // -###: print the steps, run none
  std::string runtimeDir;     // --runtime-dir: where libsimplec_rt.a is (else found next to simplec)
  bool color = false;
  WarningOptions warnings;    // -w, -W<name>, -Wno-<name>, -Werror...
  unsigned long long seed = 0;
  std::string argv0;
};

int runDriver(const DriverOptions& opts);

}  // namespace simplec
