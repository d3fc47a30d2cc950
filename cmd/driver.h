// The simplec driver: what one invocation does with its inputs. main.cpp
// turns the command line into DriverOptions; run() does the work and returns
// the process exit status (0 ok, 1 input errors, 2 bad usage, 70 internal
// error, or the program's own status with --run and --interpret).
#pragma once
#include <string>
#include <vector>

#include "lexer/warnings.h"

namespace simplec {

enum class EmitKind { None, Tokens, Ir, Dot, Sched, Mir, Asm };

struct DriverOptions {
  std::vector<std::string> inputs;
  std::string output;
  bool compileOnly = false;   // -c
  bool assembly = false;      // -S
  bool run = false;           // --run
  bool interpret = false;     // --interpret: run the graph evaluator instead of compiling
  bool checkPasses = false;   // --check-passes
  std::vector<std::string> runArgs;
  int optLevel = 2;
  EmitKind emit = EmitKind::None;
  std::vector<std::string> dumpAfter;
  bool verifyEach = false;
  bool timePasses = false;    // --time-passes: a table of each pass's time on stderr
  bool debugInfo = false;     // -g
  bool depFile = false;       // -MD
  std::string depFilePath;    // -MF
  std::string depTarget;      // -MT
  std::string runtimeDir;     // --runtime-dir: where libsimplec_rt.a is (else found next to simplec)
  bool color = false;
  WarningOptions warnings;    // -w, -W<name>, -Wno-<name>, -Werror...
  unsigned long long seed = 0;
  std::string argv0;
};

int runDriver(const DriverOptions& opts);

}  // namespace simplec
