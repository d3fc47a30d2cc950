// The driver's work: read, parse, optimize, lower, emit, link, run.
#include "cmd/driver.h"

#include <sys/stat.h>
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

#include "cmd/dep_file.h"
#include "cmd/explorer/explorer_page.h"
#include "cmd/input_kind.h"
#include "cmd/process.h"
#include "codegen/lower.h"
#include "lexer/worker_threads.h"
#include "codegen/x86_64/emitter.h"
#include "lexer/diag.h"
#include "lexer/lexer.h"
#include "lexer/pass_timer.h"
#include "lexer/work_counters.h"
#include "opt/pipeline.h"
#include "parser/parser.h"
#include "sched/schedule_verify.h"
#include "son/evaluator.h"
#include "son/printer.h"

namespace simplec {

namespace {

constexpr size_t kMaxSourceBytes = 256u << 20;

std::string stem(const std::string& path) {
  std::string base = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  size_t dot = base.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}
// "-" is standard input, which diagnostics call <stdin>, as gcc does.
std::string displayName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

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

// One file input and what it is.
struct FileInput {
  const Input* in;
  InputKind kind;
};

class Driver {
 public:
  explicit Driver(const DriverOptions& o) : o_(o) {
    diag_.setColor(o.color);
    diag_.setWarnings(o.warnings);
    if (o.timePasses) timer_ = std::make_unique<PassTimer>();
  }

  int run() {
    if (o_.verbose || o_.dryRun) std::cerr << "simplec version " << SIMPLEC_VERSION << "\n";
    if (o_.interpret) return interpret();
    std::vector<FileInput> files;
    for (const Input& in : o_.inputs) {
      if (!in.isFile()) continue;
      InputKind k = classifyInput(in.path, in.language);
      if (k == InputKind::Unknown) {
        if (access(in.path.c_str(), R_OK) != 0)
          std::cerr << "simplec: error: cannot open '" << in.path << "': " << std::strerror(errno) << "\n";
        else
          std::cerr << "simplec: error: '" << in.path
                    << "': unknown file type (a Simple source is named *.smp, or follows '-x smp')\n";
        return 1;
      }
      files.push_back({&in, k});
    }
    if (files.empty()) {
      std::cerr << "simplec: error: no input files\n";
      return 2;
    }
    if (o_.emit != EmitKind::None || o_.compileOnly || o_.assembly) return compileWithoutLinking(files);
    return compileAndLink(files);
  }

 private:
  // -c, -S, --emit: each source on its own; objects and libraries are unused.
  int compileWithoutLinking(const std::vector<FileInput>& files) {
    std::vector<FileInput> sources;
    for (const FileInput& f : files) {
      if (f.kind == InputKind::Object)
        std::cerr << "simplec: warning: " << f.in->path << ": linker input file unused because linking not done\n";
      else
        sources.push_back(f);
    }
    if (sources.empty()) {
      std::cerr << "simplec: error: no source files\n";
      return 2;
    }
    if (!o_.output.empty() && o_.emit == EmitKind::None && sources.size() > 1) {
      std::cerr << "simplec: error: cannot specify '-o' with '-c' or '-S' and several sources\n";
      return 2;
    }
    if (!o_.output.empty() && o_.output != "-" && o_.emit == EmitKind::Html && sources.size() > 1) {
      std::cerr << "simplec: error: cannot specify '-o' with '--emit=html' and several sources\n";
      return 2;
    }
    int status = 0;
    for (const FileInput& f : sources) {
      if (f.kind == InputKind::Simple) {
        status = std::max(status, compileOne(f.in->path, nullptr));
      } else if (o_.emit != EmitKind::None) {
        std::cerr << "simplec: error: --emit needs Simple sources; '" << f.in->path << "' is compiled by cc\n";
        status = std::max(status, 2);
      } else {
        std::string ext = o_.assembly ? ".s" : ".o";
        status = std::max(status, compileForeign(*f.in, o_.output.empty() ? stem(f.in->path) + ext : o_.output, true));
      }
    }
    return status;
  }

  // Compiles every source (diagnostics in command-line order), then links
  // with cc: the inputs and linker options in command-line order, then the
  // runtime. The objects of the Simple sources link together, sorted by
  // source name, where the first of them stands, so the executable is the
  // same whatever order the sources were given in.
  int compileAndLink(const std::vector<FileInput>& files) {
    std::vector<std::string> linkArgs, depSources;
    std::vector<std::pair<std::string, std::string>> simpleObjects;  // (source, object)
    size_t simpleAt = std::string::npos;  // where in linkArgs they go
    bool onlySimple = true;
    int status = 0;
    auto next = files.begin();
    for (const Input& in : o_.inputs) {
      if (!in.isFile()) {
        linkArgs.insert(linkArgs.end(), in.linkerArgs.begin(), in.linkerArgs.end());
        onlySimple = false;  // a library may define main
        continue;
      }
      InputKind kind = (next++)->kind;
      if (kind == InputKind::Object) {
        linkArgs.push_back(in.path);
        onlySimple = false;
        continue;
      }
      if (in.path != "-") depSources.push_back(in.path);
      std::string obj = tempFile(".o");
      if (obj.empty()) {
        std::cerr << "simplec: error: cannot create a temporary file\n";
        return 1;
      }
      if (kind == InputKind::Foreign) {
        status = std::max(status, compileForeign(in, obj, false));
        linkArgs.push_back(obj);
        onlySimple = false;
        continue;
      }
      status = std::max(status, compileOne(in.path, &obj));
      simpleObjects.push_back({in.path, obj});
      if (simpleAt == std::string::npos) simpleAt = linkArgs.size();
    }
    if (status) return status;
    std::stable_sort(simpleObjects.begin(), simpleObjects.end());
    for (size_t i = 0; i < simpleObjects.size(); i++)
      linkArgs.insert(linkArgs.begin() + long(simpleAt + i), simpleObjects[i].second);
    // Only Simple sources were given and none has an entry: say so, rather
    // than letting the linker complain about an undefined `main`.
    if (!sawEntry_ && onlySimple && !o_.dryRun) {
      std::cerr << "simplec: error: no entry point: "
                << (simpleObjects.size() == 1 ? "'" + displayName(simpleObjects[0].first) + "' is" : "the sources are")
                << " a library (no top-level statements and no 'val main'); use -c to compile it\n";
      return 1;
    }
    // --run keeps the executable only where -o says.
    std::string exe = o_.output.empty() ? (o_.run ? tempFile(".exe") : "a.out") : o_.output;
    if (exe.empty()) {
      std::cerr << "simplec: error: cannot create a temporary file\n";
      return 1;
    }
    {
      PassScope t(timer_.get(), "link");
      if (int st = link(linkArgs, exe)) return st;
    }
    reportTimes(o_.run ? displayName(files[0].in->path) : exe);
    if (!o_.run || !o_.output.empty())
      if (int st = writeDeps(depSources, exe)) return st;
    if (!o_.run) return 0;
    // The program sees its source's name as argv[0], as if it had been
    // built with -o NAME.
    std::vector<std::string> argv{stem(displayName(files[0].in->path))};
    for (const FileInput& f : files)
      if (f.kind == InputKind::Simple) {
        argv[0] = stem(displayName(f.in->path));
        break;
      }
    argv.insert(argv.end(), o_.runArgs.begin(), o_.runArgs.end());
    std::vector<std::string> shown = argv;
    shown[0] = exe;
    if (!announce(shown)) return 0;
    std::cout.flush();
    ProcessStatus st = runProcess(exe.find('/') == std::string::npos ? "./" + exe : exe, argv);
    if (!st.started) {
      std::cerr << "simplec: error: cannot run the compiled program\n";
      return 1;
    }
    return exitLikeChild(st);
  }

  // A temporary file, or with -### just a name (nothing is written).
  std::string tempFile(const std::string& suffix) {
    if (!o_.dryRun) return makeTempFile(suffix);
    const char* tmp = getenv("TMPDIR");
    return std::string(tmp && *tmp ? tmp : "/tmp") + "/simplec-" + std::to_string(++dryRunTemps_) + suffix;
  }

  // -v and -###: prints a step to stderr as gcc does (-### quotes each
  // word). True if the step is to be run (not with -###).
  bool announce(const std::vector<std::string>& argv) {
    if (o_.verbose || o_.dryRun) {
      for (const std::string& a : argv) std::cerr << (o_.dryRun ? " \"" + a + "\"" : " " + a);
      std::cerr << "\n";
    }
    return !o_.dryRun;
  }

  int link(const std::vector<std::string>& inputs, const std::string& exe) {
    std::string where;
    std::string rt = findRuntime(o_.runtimeDir, &where);
    if (rt.empty()) {
      std::cerr << "simplec: error: cannot find the runtime library " << kRuntimeLib << " in " << where << "\n";
      return 1;
    }
    std::vector<std::string> argv{"cc", "-o", exe};
    argv.insert(argv.end(), inputs.begin(), inputs.end());
    argv.push_back(rt);
    argv.push_back("-Wl,-u,__simplec_argv");
    argv.push_back("-lm");  // C math functions declared = "C" (sqrt, hypot, ...)
    if (!announce(argv)) return 0;
    ProcessStatus st = runProcess("cc", argv);
    exitLikeChild(st);  // an interrupted cc interrupts simplec
    if (!st.started || st.shellStatus() != 0) {
      std::cerr << "simplec: error: linking with cc failed\n";
      return 1;
    }
    return 0;
  }

  // A C or assembly source, compiled by cc at the same -O and -g levels.
  // Without linking, cc also writes the dependency file itself.
  int compileForeign(const Input& in, const std::string& out, bool final) {
    std::vector<std::string> argv{"cc", o_.assembly && final ? "-S" : "-c", o_.optFlag};
    if (o_.debugLevel > 0) argv.push_back("-g" + std::to_string(o_.debugLevel));
    if (final && (o_.depFile || !o_.depFilePath.empty())) {
      argv.push_back("-MD");
      if (!o_.depFilePath.empty()) argv.insert(argv.end(), {"-MF", o_.depFilePath});
      for (const std::string& t : o_.depTargets) argv.insert(argv.end(), {"-MT", t});
      if (o_.depPhony) argv.push_back("-MP");
    }
    if (!in.language.empty()) argv.insert(argv.end(), {"-x", in.language});
    argv.insert(argv.end(), {in.path, "-o", out});
    if (!announce(argv)) return 0;
    ProcessStatus st = runProcess("cc", argv);
    exitLikeChild(st);  // an interrupted cc interrupts simplec
    if (!st.started || st.shellStatus() != 0) {
      std::cerr << "simplec: error: cc failed to compile '" << displayName(in.path) << "'\n";
      return 1;
    }
    return 0;
  }

  bool readSource(const std::string& path, std::string* text) {
    std::string name = displayName(path);
    if (path == "-") {
      std::ostringstream ss;
      ss << std::cin.rdbuf();
      *text = ss.str();
    } else {
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
    }
    if (text->size() > kMaxSourceBytes) {
      std::cerr << name << ": error: source file too large (limit " << (kMaxSourceBytes >> 20) << " MiB)\n";
      return false;
    }
    return true;
  }

  // -j, else one thread per processor.
  int jobs() const { return o_.jobs > 0 ? o_.jobs : std::min(availableCores(), kMaxJobs); }

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
    po.checkFile = displayName(path);
    po.timer = timer_.get();
    po.jobs = jobs();
    return po;
  }

  // --time-passes: the report of one source, then a fresh timer for the next.
  void reportTimes(const std::string& path) {
    if (!timer_) return;
    std::cerr << timer_->report(path + " (-O" + std::to_string(o_.optLevel) + ")");
    // The same compile in units that do not depend on the machine: a pass
    // whose count grows faster than the program is quadratic somewhere.
    std::cerr << "work counted:\n";
    workCounters().forEach([](const char* name, uint64_t v) {
      std::string label = name;
      label.resize(std::max<size_t>(label.size() + 1, 26), ' ');
      std::cerr << "  " << label << v << "\n";
    });
    workCounters() = WorkCounters{};
    timer_ = std::make_unique<PassTimer>();
  }

  // --interpret: parse and optimize one source, then run main in the graph
  // evaluator with the program's stdout, runtime error and exit status.
  // A run the evaluator cannot finish (step or output limit, a C function)
  // is an error: status 1. The step limit is about 20 s of evaluation, so
  // that only a program that never ends meets it in practice.
  int interpret() {
    std::vector<const Input*> files;
    for (const Input& in : o_.inputs)
      if (in.isFile()) files.push_back(&in);
    if (files.size() != 1 || classifyInput(files[0]->path, files[0]->language) != InputKind::Simple) {
      std::cerr << "simplec: error: --interpret needs exactly one Simple source\n";
      return 2;
    }
    const std::string& path = files[0]->path;
    std::string text;
    if (!readSource(path, &text)) return 1;
    SourceFile file(displayName(path), std::move(text));
    Unit g;
    if (!parseFile(file, diag_, g)) return 1;
    if (!checkExecutableEntry(file, g)) return 1;
    PassOptions po = passOptions(path);
    afterParse(g, po);
    runPipeline(g, po);
    EvalOptions eo;
    eo.fileName = displayName(path);
    eo.maxSteps = 2'000'000'000;
    eo.callExterns = true;
    eo.args.push_back(path);
    for (const auto& a : o_.runArgs) eo.args.push_back(a);
    EvalResult r = evaluateProgram(g, 1 + int64_t(o_.runArgs.size()), eo);
    std::cout << r.out.substr(r.outWritten) << std::flush;
    if (!r.error.empty()) std::cerr << r.error << "\n";
    for (const std::string& line : r.trace) std::cerr << line << "\n";
    if (!r.unsupported.empty()) {
      std::cerr << "simplec: error: cannot interpret '" << displayName(path) << "': " << r.unsupported << "\n";
      return 1;
    }
    if (r.stepLimitExceeded || r.outputLimitExceeded) {
      std::cerr << "simplec: error: interpreting '" << displayName(path) << "' stopped after "
                << (r.stepLimitExceeded ? std::to_string(eo.maxSteps) + " steps" : "too much output") << "\n";
      return 1;
    }
    return r.exitStatus;
  }

  // Compiles one source; with objPath writes the object there (for linking).
  // Output "-" (-o - with -c or -S) is standard output.
  int compileOne(const std::string& path, const std::string* objPath) {
    std::string out = objPath ? *objPath : !o_.output.empty() ? o_.output : stem(path) + (o_.assembly ? ".s" : ".o");
    if (o_.emit == EmitKind::None) {
      std::vector<std::string> step{"simplec", o_.assembly && !objPath ? "-S" : "-c", o_.optFlag};
      if (o_.debugLevel > 0) step.push_back("-g" + std::to_string(o_.debugLevel));
      step.insert(step.end(), {path, "-o", out});
      if (!announce(step)) return 0;
    }
    std::string text;
    if (!readSource(path, &text)) return 1;
    SourceFile file(displayName(path), std::move(text));
    if (o_.emit == EmitKind::Tokens) {
      for (const Token& t : tokenize(file, diag_))
        std::cout << t.line << ":" << t.col << " " << tokDescription(t.kind)
                  << (t.text.empty() || t.kind == Tok::StrLit || t.kind == Tok::CharLit ? "" : " " + t.text) << "\n";
      return diag_.hasErrors() ? 1 : 0;
    }
    Unit g;
    // -g (-g2): the parser records variables; -g1 is line tables only. The
    // explorer page names values by their variables too.
    g.debugInfo = o_.debugLevel >= 2 || o_.emit == EmitKind::Html;
    g.keepSerials = o_.emit == EmitKind::Html;
    PassOptions po = passOptions(path);
    PassHistory history;  // --emit=html: the graphs after each pass
    if (o_.emit == EmitKind::Html)
      po.observe = [&history](const Unit& u, const std::string& pass) { history.record(u, pass); };
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
    if (o_.emit == EmitKind::Html) return emitExplorerPage(path, file, g, history);
    for (const FunInfo& f : g.funs) sawEntry_ |= f.isEntry;
    LowerOptions lo;
    lo.dropGraphs = true;
    lo.wrapEarlyReturns = po.optLevel > 0;
    lo.jumpTables = po.optLevel > 0;
    lo.splitSpilled = po.optLevel > 0;
    lo.timer = po.timer;
    lo.jobs = jobs();
    UnitLowering lowering(g, displayName(path), lo);
    mir::MModule& m = lowering.module();
    m.longJumps = po.optLevel == 0;
    if (o_.debugInfo) {
      m.debugLines = true;
      m.debugVars = o_.debugLevel >= 2;
      std::error_code ec;
      m.compDir = std::filesystem::current_path(ec).string();
    }
    std::string err;
    if (o_.emit == EmitKind::Mir) {
      lowering.lowerFunctions([&](mir::MFunction&& f) {
        m.funcs.push_back(std::move(f));
        return true;
      });
      lowering.finishData();
      std::cout << mir::print(m);
      return 0;
    }
    // Each function is written as soon as it is lowered, and its MIR freed.
    bool assembly = o_.emit == EmitKind::Asm || o_.assembly;
    x86_64::ModuleWriter writer(m, assembly ? x86_64::ModuleWriter::Form::Assembly : x86_64::ModuleWriter::Form::Object);
    if (!x86_64::writeUnit(lowering, writer, po.timer, &err)) return emitFailure(path, err);
    if (assembly) {
      std::string asmText = writer.takeAssembly();
      if (o_.emit == EmitKind::Asm) {
        std::cout << asmText;
        return 0;
      }
      if (!writeOutput(out, asmText)) return 1;
      return writeDeps({path}, out);
    }
    std::vector<uint8_t> bytes = writer.takeObject();
    if (out == "-") {
      if (!writeOutput(out, std::string(bytes.begin(), bytes.end()))) return 1;
    } else if (!x86_64::writeObjectBytes(bytes, out, &err)) {
      return emitFailure(path, err);
    }
    if (!objPath) reportTimes(displayName(path));
    return objPath ? 0 : writeDeps({path}, out);
  }

  // --emit=html: the schedules and the assembly (with line tables, which
  // leave the code as it is) join the graphs recorded while optimizing.
  int emitExplorerPage(const std::string& path, const SourceFile& file, Unit& g, const PassHistory& history) {
    ExplorerInput page;
    page.fileName = displayName(path);
    page.source = file.text();
    page.optLevel = o_.optLevel;
    page.history = &history;
    page.schedules = scheduleSnapshots(g);
    LowerOptions lo;
    lo.dropGraphs = true;
    lo.wrapEarlyReturns = o_.optLevel > 0;
    lo.jumpTables = o_.optLevel > 0;
    lo.splitSpilled = o_.optLevel > 0;
    lo.timer = timer_.get();
    mir::MModule m = lowerUnit(g, displayName(path), lo);
    m.debugLines = true;
    std::string asmText, err;
    if (!x86_64::writeAssembly(m, &asmText, &err)) return emitFailure(path, err);
    page.assembly = asmLines(asmText);
    return writeOutput(o_.output.empty() ? "-" : o_.output, explorerPage(page)) ? 0 : 1;
  }

  // Writes text to the file `out`, or to standard output for "-".
  bool writeOutput(const std::string& out, const std::string& text) {
    if (out == "-") {
      std::cout << text << std::flush;
      if (std::cout) return true;
    } else {
      std::ofstream f(out, std::ios::binary);
      f << text;
      if (f) return true;
    }
    std::cerr << "simplec: error: cannot write '" << out << "'\n";
    return false;
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
    std::cerr << "simplec: error: cannot write output for '" << displayName(path) << "': " << err << "\n";
    return 1;
  }

  // -MD, -MF: "target: sources" (standard input is no file to depend on),
  // so that make rebuilds `out` when one of them changes.
  int writeDeps(const std::vector<std::string>& sources, const std::string& out) {
    if ((!o_.depFile && o_.depFilePath.empty()) || o_.dryRun) return 0;
    std::string depPath = o_.depFilePath.empty() ? defaultDepFileName(out) : o_.depFilePath;
    std::vector<std::string> targets = o_.depTargets, prerequisites;
    if (targets.empty()) targets.push_back(quoteForMake(out));
    for (const std::string& s : sources)
      if (s != "-") prerequisites.push_back(quoteForMake(s));
    std::string text = depFileText(targets, prerequisites, o_.depPhony);
    if (depPath == "-") return writeOutput("-", text) ? 0 : 1;
    // Write to a temporary name and rename, so parallel make never sees half a file.
    std::string tmp = depPath + ".tmp" + std::to_string(getpid());
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    f.close();
    if (!f || rename(tmp.c_str(), depPath.c_str()) != 0) {
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
  int dryRunTemps_ = 0;    // -###: temporary names handed out
};

}  // namespace

// The input an internal error names.
static std::string firstFile(const DriverOptions& opts) {
  for (const Input& in : opts.inputs)
    if (in.isFile()) return displayName(in.path);
  return "";
}

int runDriver(const DriverOptions& opts) {
  try {
    checkPassOrder();
    Driver d(opts);
    return d.run();
  } catch (const InternalError& e) {
    std::cerr << "simplec: internal compiler error: in pass '" << e.pass << "' while compiling '"
              << firstFile(opts) << "': " << e.what() << "\n";
    return 70;
  } catch (const std::bad_alloc&) {
    std::cerr << "simplec: internal compiler error: out of memory while compiling '"
              << firstFile(opts) << "'\n";
    return 70;
  } catch (const std::exception& e) {
    std::cerr << "simplec: internal compiler error: " << e.what() << " while compiling '"
              << firstFile(opts) << "'\n";
    return 70;
  }
}

}  // namespace simplec
