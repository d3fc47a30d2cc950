// The driver's work: read, parse, optimize, lower, emit, link, run.
#include "cmd/driver.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "codegen/lower.h"
#include "codegen/x86_64/emitter.h"
#include "lexer/diag.h"
#include "lexer/lexer.h"
#include "lexer/pass_timer.h"
#include "opt/pipeline.h"
#include "parser/parser.h"
#include "sched/schedule_verify.h"
#include "son/evaluator.h"
#include "son/printer.h"

extern char** environ;

namespace simplec {

namespace {

constexpr size_t kMaxSourceBytes = 256u << 20;

bool endsWith(const std::string& s, const std::string& suf) {
  return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}
std::string stem(const std::string& path) {
  std::string base = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  size_t dot = base.find_last_of('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

// Runs argv, waiting for it; returns its exit status (128+signal if killed),
// or -1 if it could not be started.
int runProcess(const std::vector<std::string>& argv) {
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  pid_t pid;
  if (posix_spawnp(&pid, a[0], nullptr, nullptr, a.data(), environ) != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

std::string selfDir() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  std::string p(buf);
  return p.substr(0, p.find_last_of('/'));
}

constexpr const char* kRuntimeLib = "libsimplec_rt.a";

bool isFile(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The runtime library, searched in this order: the directory given with
// --runtime-dir, then $SIMPLEC_RUNTIME_DIR (either one, when given, is the
// only place looked at), then relative to this executable: the build tree
// (build/cmd/simplec, build/runtime/) and an install prefix, wherever it was
// moved (P/bin/simplec, P/lib/simplec/). /proc/self/exe has symlinks
// resolved, so a link to the installed binary finds its prefix. Returns ""
// with *where describing the places searched when none has the library.
std::string findRuntime(const std::string& optionDir, std::string* where) {
  const char* env = getenv("SIMPLEC_RUNTIME_DIR");
  std::string given = optionDir.empty() && env ? std::string(env) : optionDir;
  if (!given.empty()) {
    std::string p = given + "/" + kRuntimeLib;
    *where = "'" + given + "' (from " + (optionDir.empty() ? "SIMPLEC_RUNTIME_DIR" : "--runtime-dir") + ")";
    return isFile(p) ? p : "";
  }
  std::string dir = selfDir();
  for (const char* rel : {"/../runtime/", "/../lib/simplec/"}) {
    std::string p = dir + rel + kRuntimeLib;
    if (isFile(p)) return p;
  }
  *where = "'" + dir + "/../lib/simplec' or '" + dir +
           "/../runtime' (next to simplec; see --runtime-dir and SIMPLEC_RUNTIME_DIR)";
  return "";
}

std::string makeTemp(const std::string& suffix) {
  const char* tmp = getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/simplec-XXXXXX" + suffix;
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back(0);
  int fd = mkstemps(buf.data(), int(suffix.size()));
  if (fd < 0) return "";
  close(fd);
  return std::string(buf.data());
}

struct TempFiles {
  std::vector<std::string> paths;
  ~TempFiles() {
    for (auto& p : paths) unlink(p.c_str());
  }
};

class Driver {
 public:
  explicit Driver(const DriverOptions& o) : o_(o) {
    diag_.setColor(o.color);
    diag_.setWarnings(o.warnings);
    if (o.timePasses) timer_ = std::make_unique<PassTimer>();
  }

  int run() {
    if (o_.interpret) return interpret();
    std::vector<std::string> sources, objects;
    for (const auto& in : o_.inputs) {
      if (endsWith(in, ".o") || endsWith(in, ".a") || endsWith(in, ".so"))
        objects.push_back(in);
      else
        sources.push_back(in);
    }
    bool singleOut = o_.compileOnly || o_.assembly;
    if (!o_.output.empty() && singleOut && sources.size() > 1) {
      std::cerr << "simplec: error: cannot specify '-o' with '-c' or '-S' and several sources\n";
      return 2;
    }
    if (o_.emit != EmitKind::None || singleOut) {
      if (sources.empty()) {
        std::cerr << "simplec: error: no source files\n";
        return 2;
      }
      int status = 0;
      for (const auto& s : sources) status = std::max(status, compileOne(s, nullptr));
      return status;
    }
    // Compile everything (diagnostics in command-line order), then link.
    TempFiles temps;
    int status = 0;
    std::vector<std::pair<std::string, std::string>> compiled;  // (source, object)
    for (const auto& s : sources) {
      std::string obj = makeTemp(".o");
      if (obj.empty()) {
        std::cerr << "simplec: error: cannot create a temporary file\n";
        return 1;
      }
      temps.paths.push_back(obj);
      int st = compileOne(s, &obj);
      status = std::max(status, st);
      compiled.push_back({s, obj});
    }
    if (status) return status;
    // The sources' objects link in the order of their names, so the
    // executable is the same whatever order the sources were given in.
    std::stable_sort(compiled.begin(), compiled.end());
    for (const auto& [src, obj] : compiled) objects.push_back(obj);
    // Only sources were given and none has an entry: say so, rather than
    // letting the linker complain about an undefined `main`.
    if (!sawEntry_ && objects.size() == sources.size()) {
      std::cerr << "simplec: error: no entry point: " << (sources.size() == 1 ? "'" + sources[0] + "' is" : "the sources are")
                << " a library (no top-level statements and no 'val main'); use -c to compile it\n";
      return 1;
    }
    std::string exe = o_.output.empty() ? "a.out" : o_.output;
    if (o_.run) {
      exe = makeTemp(".exe");
      temps.paths.push_back(exe);
    }
    {
      PassScope t(timer_.get(), "link");
      if (int st = link(objects, exe)) return st;
    }
    reportTimes(o_.run ? o_.inputs[0] : exe);
    if (!o_.run) return 0;
    std::vector<std::string> argv{exe};
    argv.insert(argv.end(), o_.runArgs.begin(), o_.runArgs.end());
    std::cout.flush();
    int rc = runProcess(argv);
    if (rc < 0) {
      std::cerr << "simplec: error: cannot run the compiled program\n";
      return 1;
    }
    return rc;
  }

 private:
  int link(const std::vector<std::string>& objects, const std::string& exe) {
    std::string where;
    std::string rt = findRuntime(o_.runtimeDir, &where);
    if (rt.empty()) {
      std::cerr << "simplec: error: cannot find the runtime library " << kRuntimeLib << " in " << where << "\n";
      return 1;
    }
    std::vector<std::string> argv{"cc", "-o", exe};
    argv.insert(argv.end(), objects.begin(), objects.end());
    argv.push_back(rt);
    argv.push_back("-Wl,-u,__simplec_argv");
    argv.push_back("-lm");  // C math functions declared = "C" (sqrt, hypot, ...)
    int rc = runProcess(argv);
    if (rc != 0) {
      std::cerr << "simplec: error: linking with cc failed\n";
      return 1;
    }
    return 0;
  }

  bool readSource(const std::string& path, std::string* text) {
    struct stat st;
    bool known = stat(path.c_str(), &st) == 0;
    if (known && S_ISDIR(st.st_mode)) {
      std::cerr << "simplec: error: '" << path << "' is a directory\n";
      return false;
    }
    // Refuse a huge file before reading it; the check after reading covers
    // pipes and files that grow.
    if (known && S_ISREG(st.st_mode) && size_t(st.st_size) > kMaxSourceBytes) {
      std::cerr << path << ": error: source file too large (limit " << (kMaxSourceBytes >> 20) << " MiB)\n";
      return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "simplec: error: cannot open '" << path << "': " << std::strerror(errno) << "\n";
      return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) {
      std::cerr << "simplec: error: cannot read '" << path << "'\n";
      return false;
    }
    *text = ss.str();
    if (text->size() > kMaxSourceBytes) {
      std::cerr << path << ": error: source file too large (limit " << (kMaxSourceBytes >> 20) << " MiB)\n";
      return false;
    }
    return true;
  }

  PassOptions passOptions(const std::string& path) const {
    PassOptions po;
    po.optLevel = o_.optLevel;
    po.verifyEach = o_.verifyEach;
    po.checkFixedPoint = o_.verifyEach;  // the peepholes leave nothing to do
    if (o_.verifyEach) po.checkSchedules = verifySchedules;  // gcm could schedule each graph
    po.dumpAfter = o_.dumpAfter;
    po.seed = o_.seed;
    po.checkPasses = o_.checkPasses;
    po.checkArgc = 1 + int64_t(o_.run || o_.interpret ? o_.runArgs.size() : 0);
    po.checkFile = path;
    po.timer = timer_.get();
    return po;
  }

  // --time-passes: the report of one source, then a fresh timer for the next.
  void reportTimes(const std::string& path) {
    if (!timer_) return;
    std::cerr << timer_->report(path + " (-O" + std::to_string(o_.optLevel) + ")");
    timer_ = std::make_unique<PassTimer>();
  }

  // --interpret: parse and optimize one source, then run main in the graph
  // evaluator with the program's stdout, runtime error and exit status.
  // A run the evaluator cannot finish (step or output limit, a C function)
  // is an error: status 1. The step limit is about 20 s of evaluation, so
  // that only a program that never ends meets it in practice.
  int interpret() {
    if (o_.inputs.size() != 1 || endsWith(o_.inputs[0], ".o") || endsWith(o_.inputs[0], ".a") ||
        endsWith(o_.inputs[0], ".so")) {
      std::cerr << "simplec: error: --interpret needs exactly one source file\n";
      return 2;
    }
    const std::string& path = o_.inputs[0];
    std::string text;
    if (!readSource(path, &text)) return 1;
    SourceFile file(path, std::move(text));
    Unit g;
    if (!parseFile(file, diag_, g)) return 1;
    if (!checkExecutableEntry(file, g)) return 1;
    PassOptions po = passOptions(path);
    afterParse(g, po);
    runPipeline(g, po);
    EvalOptions eo;
    eo.fileName = path;
    eo.maxSteps = 2'000'000'000;
    eo.callExterns = true;
    eo.args.push_back(path);
    for (const auto& a : o_.runArgs) eo.args.push_back(a);
    EvalResult r = evaluateProgram(g, 1 + int64_t(o_.runArgs.size()), eo);
    std::cout << r.out.substr(r.outWritten) << std::flush;
    if (!r.error.empty()) std::cerr << r.error << "\n";
    if (!r.unsupported.empty()) {
      std::cerr << "simplec: error: cannot interpret '" << path << "': " << r.unsupported << "\n";
      return 1;
    }
    if (r.stepLimitExceeded || r.outputLimitExceeded) {
      std::cerr << "simplec: error: interpreting '" << path << "' stopped after "
                << (r.stepLimitExceeded ? std::to_string(eo.maxSteps) + " steps" : "too much output") << "\n";
      return 1;
    }
    return r.exitStatus;
  }

  // Compiles one source; with objPath writes the object there (for linking).
  int compileOne(const std::string& path, const std::string* objPath) {
    std::string text;
    if (!readSource(path, &text)) return 1;
    SourceFile file(path, std::move(text));
    if (o_.emit == EmitKind::Tokens) {
      for (const Token& t : tokenize(file, diag_))
        std::cout << t.pos.line << ":" << t.pos.col << " " << tokDescription(t.kind)
                  << (t.text.empty() || t.kind == Tok::StrLit ? "" : " " + t.text) << "\n";
      return diag_.hasErrors() ? 1 : 0;
    }
    Unit g;
    g.debugInfo = o_.debugInfo;  // -g: the parser records variables
    PassOptions po = passOptions(path);
    {
      PassScope t(po.timer, "parse");
      if (!parseFile(file, diag_, g)) return 1;
    }
    // Linking makes an executable, whose main gives the exit status.
    if (objPath && !checkExecutableEntry(file, g)) return 1;
    afterParse(g, po);
    runPipeline(g, po);
    if (o_.emit == EmitKind::Ir) {
      std::cout << printGraph(g);
      return 0;
    }
    if (o_.emit == EmitKind::Dot) {
      std::cout << printDot(g);
      return 0;
    }
    if (o_.emit == EmitKind::Sched) {
      std::cout << printSchedules(g);
      return 0;
    }
    for (const FunInfo& f : g.funs) sawEntry_ |= f.isEntry;
    LowerOptions lo;
    lo.dropGraphs = true;
    lo.timer = po.timer;
    mir::MModule m = lowerUnit(g, path, lo);
    if (o_.debugInfo) {
      m.debugLines = true;
      m.debugVars = true;
      std::error_code ec;
      m.compDir = std::filesystem::current_path(ec).string();
    }
    std::string err;
    if (o_.emit == EmitKind::Mir) {
      std::cout << mir::print(m);
      return 0;
    }
    if (o_.emit == EmitKind::Asm || o_.assembly) {
      std::string asmText;
      if (!x86_64::writeAssembly(m, &asmText, &err)) return emitFailure(path, err);
      if (o_.emit == EmitKind::Asm) {
        std::cout << asmText;
        return 0;
      }
      std::string out = o_.output.empty() ? stem(path) + ".s" : o_.output;
      std::ofstream f(out, std::ios::binary);
      f << asmText;
      if (!f) {
        std::cerr << "simplec: error: cannot write '" << out << "'\n";
        return 1;
      }
      return writeDeps(path, out);
    }
    std::string out = objPath ? *objPath : (o_.output.empty() ? stem(path) + ".o" : o_.output);
    {
      PassScope t(po.timer, "encode");
      if (!x86_64::writeObject(m, out, &err)) return emitFailure(path, err);
    }
    if (!objPath) reportTimes(path);
    return objPath ? 0 : writeDeps(path, out);
  }

  // An executable's exit status is main's integer result (or 0 when it
  // returns nothing); a main computing a float or a reference is fine for a
  // C caller (-c) but cannot be an executable's entry.
  bool checkExecutableEntry(const SourceFile& file, const Unit& g) {
    for (const FunInfo& f : g.funs) {
      if (!f.isEntry || !f.retType || f.retType->isInt()) continue;
      std::string what = f.retType->isFlt() ? "'flt'" : f.retType->kind() == TKind::FunPtr ? "a function" : "a reference";
      diag_.error(file, f.retPos,
                  "an executable's 'main' must return an integer exit status, but this returns " + what +
                      " (with -c, main may return any type)");
      return false;
    }
    return true;
  }

  int emitFailure(const std::string& path, const std::string& err) {
    std::cerr << "simplec: error: cannot write output for '" << path << "': " << err << "\n";
    return 1;
  }

  // -MD: "target: source" so that make rebuilds when the source changes.
  int writeDeps(const std::string& src, const std::string& out) {
    if (!o_.depFile && o_.depFilePath.empty()) return 0;
    std::string depPath = o_.depFilePath;
    if (depPath.empty()) {
      size_t dot = out.find_last_of('.');
      size_t slash = out.find_last_of('/');
      depPath = (dot != std::string::npos && (slash == std::string::npos || dot > slash) ? out.substr(0, dot) : out) + ".d";
    }
    std::string target = o_.depTarget.empty() ? out : o_.depTarget;
    // Write to a temporary name and rename, so parallel make never sees half a file.
    std::string tmp = depPath + ".tmp" + std::to_string(getpid());
    {
      std::ofstream f(tmp);
      f << target << ": " << src << "\n";
      if (!f) {
        std::cerr << "simplec: error: cannot write '" << depPath << "'\n";
        return 1;
      }
    }
    if (rename(tmp.c_str(), depPath.c_str()) != 0) {
      unlink(tmp.c_str());
      std::cerr << "simplec: error: cannot write '" << depPath << "'\n";
      return 1;
    }
    return 0;
  }

  const DriverOptions& o_;
  DiagEngine diag_;
  std::unique_ptr<PassTimer> timer_;  // --time-passes
  bool sawEntry_ = false;  // some compiled source defines `main`
};

}  // namespace

int runDriver(const DriverOptions& opts) {
  try {
    checkPassOrder();
    Driver d(opts);
    return d.run();
  } catch (const InternalError& e) {
    std::cerr << "simplec: internal compiler error: in pass '" << e.pass << "' while compiling '"
              << (opts.inputs.empty() ? "" : opts.inputs[0]) << "': " << e.what() << "\n";
    return 70;
  } catch (const std::bad_alloc&) {
    std::cerr << "simplec: internal compiler error: out of memory while compiling '"
              << (opts.inputs.empty() ? "" : opts.inputs[0]) << "'\n";
    return 70;
  } catch (const std::exception& e) {
    std::cerr << "simplec: internal compiler error: " << e.what() << " while compiling '"
              << (opts.inputs.empty() ? "" : opts.inputs[0]) << "'\n";
    return 70;
  }
}

}  // namespace simplec
