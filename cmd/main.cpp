// simplec: command-line parsing (CLI11) and the last line of defence: any
// internal failure, even a crash signal, becomes "internal compiler error"
// and exit status 70.
#include <CLI/CLI.hpp>
#include <pthread.h>

#include <csignal>
#include <cstring>
#include <iostream>
#include <unistd.h>

#include "cmd/driver.h"
#include "opt/pipeline.h"

using namespace simplec;

namespace {

const char* gCurrentInput = "";

void crashHandler(int sig) {
  // Only async-signal-safe calls here.
  const char* a = "simplec: internal compiler error: crashed (signal ";
  (void)!write(2, a, strlen(a));
  char num[8];
  int n = 0;
  int s = sig;
  do {
    num[n++] = char('0' + s % 10);
    s /= 10;
  } while (s && n < 7);
  while (n) (void)!write(2, &num[--n], 1);
  const char* b = ") while compiling '";
  (void)!write(2, b, strlen(b));
  (void)!write(2, gCurrentInput, strlen(gCurrentInput));
  (void)!write(2, "'\n", 2);
  _exit(70);
}

// Each thread needs its own alternate stack for the crash handler to run
// after a stack overflow.
void installAltStack() {
  static thread_local char altStack[64 * 1024];
  stack_t ss{};
  ss.ss_sp = altStack;
  ss.ss_size = sizeof altStack;
  sigaltstack(&ss, nullptr);
}

void installCrashHandlers() {
  installAltStack();
  struct sigaction sa {};
  sa.sa_handler = crashHandler;
  sa.sa_flags = SA_ONSTACK;
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) sigaction(sig, &sa, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  installCrashHandlers();
  DriverOptions o;
  o.argv0 = argv[0];
  // Everything after "--" belongs to the program started by --run.
  std::vector<std::string> args, wflags;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--") == 0) {
      for (int j = i + 1; j < argc; j++) o.runArgs.push_back(argv[j]);
      break;
    }
    std::string a = argv[i];
    // Warning flags are read below, in order (CLI11 has no -Wno-<name>).
    if (a == "-w") {
      o.warnings.silenceAll(true);
      continue;
    }
    if (a.size() > 2 && a.compare(0, 2, "-W") == 0) {
      wflags.push_back(a);
      continue;
    }
    // gcc spells these with one dash; CLI11 wants two for long names.
    if (a == "-MD" || a == "-MF" || a == "-MT") a = "-" + a;
    args.push_back(a);
  }
  CLI::App app{"simplec: an optimizing compiler for the Simple language", "simplec"};
  app.set_version_flag("--version", std::string("simplec ") + SIMPLEC_VERSION);
  std::string emit, color = "auto";
  app.add_option("inputs", o.inputs, ".smp sources and .o/.a objects")->required();
  app.add_option("-o", o.output, "output file");
  app.add_flag("-c", o.compileOnly, "compile to an object file, do not link");
  app.add_flag("-S", o.assembly, "write assembly text");
  app.add_flag("-g", o.debugInfo, "DWARF line tables (gdb and addr2line map code to .smp lines)");
  app.add_option("-O", o.optLevel, "optimization level (-O0, -O1, -O2)")->check(CLI::Range(0, 2));
  app.add_flag("--run", o.run, "compile to a temporary executable and run it ([-- ARGS])");
  app.add_flag("--interpret", o.interpret,
               "run the optimized graph in the graph evaluator instead of compiling ([-- ARGS]); "
               "prints and exits as the compiled program would (stops after 2e9 steps)");
  app.add_option("--emit", emit, "print a form instead of compiling: tokens|ir|dot|sched|mir|asm")
      ->check(CLI::IsMember({"tokens", "ir", "dot", "sched", "mir", "asm"}));
  app.add_option("--dump-after", o.dumpAfter, "print the graph after PASS (repeatable)");
  app.add_flag("--verify-each", o.verifyEach, "verify the graph after every pass (and that gcm can schedule it)");
  app.add_flag("--time-passes", o.timePasses, "print the time and live node count of each pass (stderr)");
  app.add_flag("--check-passes", o.checkPasses,
               "evaluate main (with the --run/--interpret ARGS) after parsing and after every pass; "
               "a pass that changes its output, exit status or runtime error is an internal error (exit 70)");
  app.add_flag("--MD", o.depFile, "write a Make dependency file");
  app.add_option("--MF", o.depFilePath, "name of the dependency file");
  app.add_option("--MT", o.depTarget, "target named in the dependency file");
  app.add_option("--color", color, "colour diagnostics: never|always|auto")
      ->check(CLI::IsMember({"never", "always", "auto"}));
  app.add_option("--runtime-dir", o.runtimeDir,
                 "directory of the runtime library libsimplec_rt.a (overrides SIMPLEC_RUNTIME_DIR)");
  app.add_option("--seed", o.seed, "seed for the optimizer's worklist order (testing)");
  app.footer("Warnings as in gcc: -w, -W<name>, -Wno-<name>, -Werror, -Werror=<name>, -Wall, -Wextra.\n"
             "Names: parentheses, unreachable-code, self-assign, int-conversion (on by default);\n"
             "unused-variable, unused-but-set-variable, bitwise-instead-of-logical (-Wall);\n"
             "unused-parameter, unused-but-set-parameter, constant-condition (-Wextra); shadow.");
  try {
    std::reverse(args.begin(), args.end());
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  o.color = color == "always" || (color == "auto" && isatty(2));
  // -W flags apply in order (the last of -Wfoo/-Wno-foo wins); an unknown
  // name is reported and ignored, as clang does.
  for (const std::string& w : wflags) {
    if (w.size() > 3 && w[3] == ',') {  // -Wl, -Wa, -Wp: options for other tools
      std::cerr << "simplec: error: '" << w.substr(0, 4) << "' is not supported\n";
      return 2;
    }
    if (!o.warnings.apply(w.substr(2)) && !o.warnings.silenced())
      std::cerr << "simplec: warning: unknown warning option '" << w << "'\n";
  }
  if (!emit.empty()) {
    static const std::pair<const char*, EmitKind> kinds[] = {
        {"tokens", EmitKind::Tokens}, {"ir", EmitKind::Ir},   {"dot", EmitKind::Dot},
        {"sched", EmitKind::Sched},   {"mir", EmitKind::Mir}, {"asm", EmitKind::Asm}};
    for (auto& [name, k] : kinds)
      if (emit == name) o.emit = k;
  }
  for (const auto& p : o.dumpAfter)
    if (!isPassName(p)) {
      std::cerr << "simplec: error: unknown pass '" << p << "' for --dump-after\n";
      return 2;
    }
  if (!o.inputs.empty()) gCurrentInput = strdup(o.inputs[0].c_str());
  // The compiler runs on a thread with a large stack (reserved, not
  // committed), so that nesting limits can be generous; every recursion is
  // still bounded by those limits.
  struct Job {
    DriverOptions* o;
    int status;
  } job{&o, 70};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(1) << 30);
  pthread_t th;
  auto body = [](void* p) -> void* {
    installAltStack();
    Job* j = static_cast<Job*>(p);
    j->status = runDriver(*j->o);
    // Detach the alternate stack before the thread's storage goes away
    // (AddressSanitizer checks that nothing still points at it).
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    return nullptr;
  };
  if (pthread_create(&th, &attr, body, &job) != 0) return runDriver(o);
  pthread_join(th, nullptr);
  return job.status;
}
