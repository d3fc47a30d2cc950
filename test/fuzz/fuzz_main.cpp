// simplec_fuzz: generates programs from consecutive seeds, checks each one
// differentially (-O0/-O1/-O2 binaries, and the evaluator when simplec has
// --interpret), optionally reduces failures, and prints "N passed, N failed";
// `--reduce-file F` reduces one saved program instead.
// Invariant: exit status 0 iff every program checked passed (2: bad usage).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test/fuzz/differential.h"
#include "test/fuzz/program_generator.h"
#include "test/fuzz/reducer.h"
#include "test/fuzz/rng.h"
#include "test/golden_runner/subprocess.h"

namespace fs = std::filesystem;
using namespace simplec::fuzz;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kExitUsage = 2;

const char kUsage[] =
    "usage: simplec_fuzz --simplec PATH [--count N] [--seed S] [--time-budget SECONDS]\n"
    "                    [--keep-failures DIR] [--jobs N] [--reduce] [--reduce-time SECONDS]\n"
    "                    [--levels -O0,-O1,-O2] [--no-interpret] [--no-verify] [--timeout SECONDS]\n"
    "                    [--cost-budget N] [--lines N] [--features LIST] [--no-swarm]\n"
    "                    [--work-dir DIR] [--verbose]\n"
    "       simplec_fuzz --simplec PATH --reduce-file FILE [--reduce-time SECONDS]\n"
    "       simplec_fuzz --print SEED\n"
    "Checks programs from seeds S, S+1, ... (default 300 programs from seed 1; with\n"
    "--time-budget and no --count, as many as fit in the budget).\n"
    "--lines N: programs of about N lines (1000 to 20000: many functions).\n"
    "--features LIST: comma-separated feature names, each forced on, or off with a\n"
    "leading '-'; the others are on or off at random per program (swarm testing),\n"
    "or all on with --no-swarm. Features: arrays arrayargs selfindex structs\n"
    "nullable methods floats narrow longfuncs recursion fnrefs divzero strings.\n";

struct Options {
  CheckConfig check;
  bool haveSimplec = false;
  long count = -1;
  uint64_t seed = 1;
  double timeBudget = 0;
  std::string keepDir;
  unsigned jobs = 0;
  bool reduce = false;
  double reduceTime = 300;
  std::string reduceFile;
  bool noInterpret = false;
  bool verbose = false;
  bool print = false;
  uint64_t printSeed = 0;
  std::string workDir;
  GeneratorOptions gen;
};

[[noreturn]] void usageError(const std::string& msg) {
  std::cerr << "simplec_fuzz: " << msg << "\n" << kUsage;
  std::exit(kExitUsage);
}

double toDouble(const std::string& s, const std::string& name) {
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (s.empty() || *end || d < 0) usageError("bad value for " + name + ": '" + s + "'");
  return d;
}

uint64_t toUnsigned(const std::string& s, const std::string& name) {
  char* end = nullptr;
  unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || *end || s[0] == '-') usageError("bad value for " + name + ": '" + s + "'");
  return v;
}

std::vector<std::string> splitComma(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

Options parseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto is = [&](const std::string& name) { return a == name || a.rfind(name + "=", 0) == 0; };
    auto value = [&](const std::string& name) -> std::string {
      if (a.size() > name.size() && a[name.size()] == '=') return a.substr(name.size() + 1);
      if (i + 1 >= argc) usageError(name + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (is("--simplec")) {
      o.check.simplec = value("--simplec");
      o.haveSimplec = true;
    } else if (is("--count")) {
      o.count = static_cast<long>(toUnsigned(value("--count"), "--count"));
    } else if (is("--seed")) {
      o.seed = toUnsigned(value("--seed"), "--seed");
    } else if (is("--time-budget")) {
      o.timeBudget = toDouble(value("--time-budget"), "--time-budget");
    } else if (is("--keep-failures")) {
      o.keepDir = value("--keep-failures");
    } else if (is("--jobs")) {
      o.jobs = static_cast<unsigned>(toUnsigned(value("--jobs"), "--jobs"));
    } else if (a == "--reduce") {
      o.reduce = true;
    } else if (is("--reduce-time")) {
      o.reduceTime = toDouble(value("--reduce-time"), "--reduce-time");
    } else if (is("--reduce-file")) {
      o.reduceFile = value("--reduce-file");
    } else if (is("--levels")) {
      o.check.levels = splitComma(value("--levels"));
      if (o.check.levels.empty()) usageError("--levels needs at least one level");
    } else if (a == "--no-interpret") {
      o.noInterpret = true;
    } else if (a == "--no-verify") {
      o.check.verifyEach = false;
    } else if (is("--timeout")) {
      o.check.runTimeout = toDouble(value("--timeout"), "--timeout");
    } else if (is("--cost-budget")) {
      o.gen.costBudget = toUnsigned(value("--cost-budget"), "--cost-budget");
    } else if (is("--lines")) {
      o.gen.targetLines = static_cast<int>(toUnsigned(value("--lines"), "--lines"));
    } else if (is("--features")) {
      for (const std::string& item : splitComma(value("--features"))) {
        bool off = item[0] == '-';
        std::string name = off || item[0] == '+' ? item.substr(1) : item;
        int f = featureByName(name);
        if (f < 0) usageError("unknown feature '" + name + "'");
        o.gen.force[size_t(f)] = off ? -1 : 1;
      }
    } else if (a == "--no-swarm") {
      o.gen.swarm = false;
    } else if (is("--work-dir")) {
      o.workDir = value("--work-dir");
    } else if (a == "--verbose" || a == "-v") {
      o.verbose = true;
    } else if (is("--print")) {
      o.print = true;
      o.printSeed = toUnsigned(value("--print"), "--print");
    } else {
      usageError("unknown argument '" + a + "'");
    }
  }
  if (!o.print && !o.haveSimplec) usageError("--simplec PATH is required");
  if (o.count < 0) o.count = o.timeBudget > 0 ? -1 : 300;
  if (o.reduce && o.keepDir.empty()) o.keepDir = "fuzz-failures";
  return o;
}

// Arguments and optimizer seed for a program: a function of its seed only.
ProgramSetup setupForSeed(uint64_t seed) {
  Rng r(seed ^ 0x5EED5EED5EED5EEDull);
  ProgramSetup s;
  int nArgs = static_cast<int>(r.below(4));
  for (int k = 0; k < nArgs; k++) s.args.push_back("x" + std::to_string(k + 1));
  s.optSeed = r.below(1000000);
  return s;
}

bool writeFile(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  return static_cast<bool>(f);
}

std::string readFile(const std::string& path, bool* ok) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  *ok = static_cast<bool>(f) || f.eof();
  return ss.str();
}

std::string makeWorkDir(const std::string& requested) {
  if (!requested.empty()) {
    fs::create_directories(requested);
    return fs::absolute(requested).string();
  }
  std::string tmpl = (fs::temp_directory_path() / "simplec_fuzz.XXXXXX").string();
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) {
    std::cerr << "simplec_fuzz: cannot create a work directory in " << fs::temp_directory_path() << "\n";
    std::exit(1);
  }
  return buf.data();
}

int reduceFileMode(const Options& o, const std::string& workDir) {
  bool ok = false;
  std::string text = readFile(o.reduceFile, &ok);
  if (!ok) {
    std::cerr << "simplec_fuzz: cannot read '" << o.reduceFile << "'\n";
    return 1;
  }
  ReduceOptions ro;
  ro.timeBudget = o.reduceTime;
  ro.verbose = o.verbose;
  ReduceResult r = reduceProgram(text, setupFromSource(text), o.check, "", workDir, ro);
  if (!r.reproduced) {
    std::cout << o.reduceFile << ": no failure to reduce (the program passes)\n";
    return 1;
  }
  fs::path in(o.reduceFile);
  fs::path out = in.parent_path() / (in.stem().string() + ".reduced.smp");
  if (!writeFile(out.string(), r.text)) {
    std::cerr << "simplec_fuzz: cannot write '" << out.string() << "'\n";
    return 1;
  }
  std::cout << "failure: " << r.signature << "\n"
            << "reduced " << std::count(text.begin(), text.end(), '\n') << " lines to "
            << std::count(r.text.begin(), r.text.end(), '\n') << " in " << r.tests << " tests (" << r.accepted
            << " kept): " << out.string() << "\n";
  return 0;
}

struct Result {
  uint64_t seed = 0;
  bool done = false;
  bool ok = true;
  std::string signature, report, savedAs;
  int exitCode = 0;
  bool runtimeError = false;
};

}  // namespace

int main(int argc, char** argv) {
  simplec::golden::ignoreSigpipe();
  Options o = parseOptions(argc, argv);
  if (o.print) {
    std::cout << setupHeader(setupForSeed(o.printSeed)) << generateProgram(o.printSeed, o.gen);
    return 0;
  }
  bool hasInterpret = false;
  o.check.simplec = fs::absolute(o.check.simplec).string();
  detectFeatures(o.check, &hasInterpret);
  o.check.interpret = hasInterpret && !o.noInterpret;
  std::string workDir = makeWorkDir(o.workDir);
  if (!o.reduceFile.empty()) {
    int rc = reduceFileMode(o, workDir);
    if (o.workDir.empty()) fs::remove_all(workDir);
    return rc;
  }
  if (!o.keepDir.empty()) fs::create_directories(o.keepDir);

  unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  if (o.count >= 0) jobs = static_cast<unsigned>(std::min<long>(jobs, std::max<long>(o.count, 1)));
  std::cout << "simplec_fuzz: seeds from " << o.seed << ", levels";
  for (const auto& l : o.check.levels) std::cout << " " << l;
  std::cout << (o.check.interpret ? " + evaluator (--interpret) at -O0 and -O2" : " (no --interpret in simplec)") << ", " << jobs
            << " jobs" << (o.check.verifyEach ? ", --verify-each" : "") << "\n"
            << std::flush;

  auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  std::atomic<long> next{0};
  std::mutex mu;
  std::vector<Result> results;
  auto worker = [&](unsigned id) {
    std::string dir = workDir + "/w" + std::to_string(id);
    fs::create_directories(dir);
    for (;;) {
      if (o.timeBudget > 0 && elapsed() >= o.timeBudget) return;
      long idx = next++;
      if (o.count >= 0 && idx >= o.count) return;
      Result r;
      r.seed = o.seed + static_cast<uint64_t>(idx);
      ProgramSetup setup = setupForSeed(r.seed);
      std::string text = setupHeader(setup) + generateProgram(r.seed, o.gen);
      std::string src = dir + "/seed-" + std::to_string(r.seed) + ".smp";
      writeFile(src, text);
      Verdict v = checkProgram(src, setup, o.check, dir);
      r.done = true;
      r.ok = v.ok;
      r.signature = v.signature;
      r.report = v.report;
      if (!v.outcomes.empty()) {
        r.exitCode = v.outcomes[0].exitCode;
        r.runtimeError = v.outcomes[0].err.find("runtime error") != std::string::npos;
      }
      if (!v.ok && v.signature.find(" vs ") != std::string::npos) {
        std::string d = diagnosePasses(src, setup, o.check);
        if (!d.empty()) r.report += "  per-pass check: " + d + "\n";
      }
      if (!v.ok && !o.keepDir.empty()) {
        std::string base = (fs::path(o.keepDir) / ("seed-" + std::to_string(r.seed))).string();
        writeFile(base + ".smp", text);
        writeFile(base + ".txt", r.signature + "\n" + r.report);
        r.savedAs = base + ".smp";
        if (o.reduce) {
          ReduceOptions ro;
          ro.timeBudget = o.reduceTime;
          ro.verbose = o.verbose;
          std::string rdir = dir + "/reduce";
          fs::create_directories(rdir);
          ReduceResult red = reduceProgram(text, setup, o.check, v.signature, rdir, ro);
          if (red.reproduced) {
            writeFile(base + ".reduced.smp", red.text);
            r.savedAs += " (reduced: " + base + ".reduced.smp)";
          }
        }
      } else {
        std::error_code ec;
        fs::remove(src, ec);
      }
      std::lock_guard<std::mutex> lock(mu);
      if (!r.ok) {
        std::cout << "FAIL seed " << r.seed << ": " << r.signature << "\n" << r.report;
        if (!r.savedAs.empty()) std::cout << "  saved as " << r.savedAs << "\n";
        std::cout << std::flush;
      } else if (o.verbose) {
        std::cout << "ok seed " << r.seed << "\n" << std::flush;
      }
      results.push_back(std::move(r));
      if (results.size() % 500 == 0)
        std::cerr << "simplec_fuzz: " << results.size() << " programs in " << static_cast<long>(elapsed()) << " s\n";
    }
  };
  std::vector<std::thread> threads;
  for (unsigned k = 0; k < jobs; k++) threads.emplace_back(worker, k);
  for (auto& t : threads) t.join();

  std::sort(results.begin(), results.end(), [](const Result& a, const Result& b) { return a.seed < b.seed; });
  long passed = 0, failed = 0, runtimeErrors = 0, nonzero = 0;
  for (const auto& r : results) {
    (r.ok ? passed : failed)++;
    if (r.runtimeError) runtimeErrors++;
    else if (r.exitCode != 0) nonzero++;
  }
  if (failed) {
    std::cout << "failures:\n";
    for (const auto& r : results)
      if (!r.ok) std::cout << "  seed " << r.seed << ": " << r.signature << "\n";
  }
  std::cout << results.size() << " programs in " << static_cast<long>(elapsed()) << " s: " << runtimeErrors
            << " ended in a runtime error, " << nonzero << " exited non-zero otherwise\n";
  std::cout << passed << " passed, " << failed << " failed\n";
  if (o.workDir.empty()) fs::remove_all(workDir);
  return failed ? 1 : 0;
}
