// golden_runner: compiles and runs every golden test (.smp files with
// `// EXPECT-...` comments, TOOL.md) at each optimization level in parallel,
// prints a report for each failing (test, level) pair in a fixed order, then
// "N passed, N failed"; exit status 0 iff nothing failed (2: bad usage).
// With --bless it first rewrites each test's EXPECT lines from its -O0 run;
// with --interpret, simplec's graph evaluator runs the programs instead.
// Installed (cmake --install) as `simplec-golden`, next to `simplec`.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "test/golden_runner/golden_check.h"
#include "test/golden_runner/golden_spec.h"
#include "test/golden_runner/subprocess.h"

namespace fs = std::filesystem;
using namespace simplec::golden;

namespace {

constexpr int kExitUsage = 2;

// The name this runner was started as: golden_runner in the build tree,
// simplec-golden once installed.
std::string gProg = "golden_runner";

std::string usage() {
  std::string pad(gProg.size(), ' ');
  return "usage: " + gProg + " [--simplec PATH] [--bless] [--jobs N] [--opt -O0,-O2]\n" +
         "       " + pad + " [--timeout SECONDS] [--verbose] [--simplec-arg ARG]...\n" +
         "       " + pad + " [--interpret] FILE_OR_DIR...\n" +
         "Runs golden tests (directories are searched recursively for *.smp).\n"
         "Without --simplec, the simplec next to " + gProg + " is used, else the one in PATH.\n"
         "--interpret runs each test with `simplec OPT --interpret FILE -- ARGS`\n"
         "(the graph evaluator) instead of compiling and running it.\n";
}

// The default compiler: `simplec` in this executable's own directory (an
// installed bin/), else `simplec` looked up in PATH; "" if there is none.
std::string defaultSimplec() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path sibling = self.parent_path() / "simplec";
    if (access(sibling.c_str(), X_OK) == 0) return sibling.string();
  }
  const char* path = getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    if (!dir.empty() && access((dir + "/simplec").c_str(), X_OK) == 0) return "simplec";
  return "";
}

struct Options {
  RunConfig cfg;
  bool bless = false;
  bool verbose = false;
  unsigned jobs = 0;
  std::vector<std::string> opts{"-O0", "-O2"};
  std::vector<std::string> inputs;
};

[[noreturn]] void usageError(const std::string& msg) {
  std::cerr << gProg << ": " << msg << "\n" << usage();
  std::exit(kExitUsage);
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
    auto value = [&](const std::string& name) -> std::string {
      std::string prefix = name + "=";
      if (a.rfind(prefix, 0) == 0) return a.substr(prefix.size());
      if (i + 1 >= argc) usageError(name + " needs a value");
      return argv[++i];
    };
    auto is = [&](const std::string& name) { return a == name || a.rfind(name + "=", 0) == 0; };
    if (a == "--help" || a == "-h") {
      std::cout << usage();
      std::exit(0);
    } else if (is("--simplec")) {
      o.cfg.simplec = value("--simplec");
      if (o.cfg.simplec.empty()) usageError("--simplec needs a path");
    } else if (is("--simplec-arg")) {
      o.cfg.compilerArgs.push_back(value("--simplec-arg"));
    } else if (a == "--interpret") {
      o.cfg.interpret = true;
    } else if (a == "--bless") {
      o.bless = true;
    } else if (a == "--verbose" || a == "-v") {
      o.verbose = true;
    } else if (is("--jobs") || a == "-j") {
      std::string v = a == "-j" ? (i + 1 < argc ? argv[++i] : "") : value("--jobs");
      char* end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || n < 1 || n > 1024) usageError("--jobs needs a number from 1 to 1024");
      o.jobs = static_cast<unsigned>(n);
    } else if (is("--opt")) {
      o.opts = splitComma(value("--opt"));
      if (o.opts.empty()) usageError("--opt needs a list such as -O0,-O2");
      for (const auto& lvl : o.opts)
        if (lvl.rfind("-O", 0) != 0) usageError("bad optimization level '" + lvl + "'");
    } else if (is("--timeout")) {
      std::string v = value("--timeout");
      char* end = nullptr;
      double t = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(t > 0) || t > 86400) usageError("--timeout needs seconds > 0");
      o.cfg.timeoutSeconds = t;
    } else if (a == "--") {
      for (i++; i < argc; i++) o.inputs.push_back(argv[i]);
    } else if (!a.empty() && a[0] == '-') {
      usageError("unknown option '" + a + "'");
    } else {
      o.inputs.push_back(a);
    }
  }
  if (o.cfg.simplec.empty()) o.cfg.simplec = defaultSimplec();
  if (o.cfg.simplec.empty()) usageError("no simplec next to " + gProg + " or in PATH: give --simplec PATH");
  if (o.inputs.empty()) usageError("no test files or directories given");
  if (o.cfg.simplec.find('/') != std::string::npos && access(o.cfg.simplec.c_str(), X_OK) != 0)
    usageError("compiler '" + o.cfg.simplec + "' is not an executable file");
  if (o.jobs == 0) o.jobs = std::max(1u, std::thread::hardware_concurrency());
  return o;
}

// Every .smp under the inputs: each directory's files sorted, inputs in the
// order given, duplicates dropped. Missing inputs are reported in `missing`.
std::vector<std::string> collectTests(const std::vector<std::string>& inputs,
                                      std::vector<std::string>& missing) {
  std::vector<std::string> tests;
  for (const auto& in : inputs) {
    std::error_code ec;
    fs::file_status st = fs::status(in, ec);
    if (ec || !fs::exists(st)) {
      missing.push_back(in);
    } else if (fs::is_directory(st)) {
      std::vector<std::string> found;
      fs::recursive_directory_iterator it(in, fs::directory_options::skip_permission_denied, ec), end;
      for (; !ec && it != end; it.increment(ec)) {
        std::error_code fec;
        if (it->path().extension() == ".smp" && it->is_regular_file(fec)) found.push_back(it->path().string());
      }
      if (ec) missing.push_back(in + " (" + ec.message() + ")");
      std::sort(found.begin(), found.end());
      tests.insert(tests.end(), found.begin(), found.end());
    } else {
      tests.push_back(in);
    }
  }
  std::vector<std::string> unique;
  for (const auto& t : tests)
    if (std::find(unique.begin(), unique.end(), t) == unique.end()) unique.push_back(t);
  return unique;
}

bool readFile(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return !f.bad();
}

// Replaces `path` atomically (write a sibling, then rename over it).
bool writeFileAtomic(const std::string& path, const std::string& text) {
  std::string tmp = path + ".bless-tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return false;
    f << text;
    f.close();
    if (!f) return false;
  }
  std::error_code ec;
  fs::permissions(tmp, fs::status(path, ec).permissions(), ec);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

// Runs fn(i) for i in [0, n) on `jobs` threads.
template <typename Fn>
void parallelFor(size_t n, unsigned jobs, Fn fn) {
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<size_t>(jobs, n); t++)
    pool.emplace_back([&] {
      for (size_t i; (i = next.fetch_add(1)) < n;) fn(i);
    });
  for (auto& th : pool) th.join();
}

struct TestFile {
  std::string path;
  bool readable = false;
  TestSpec spec;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc > 0 && argv[0][0]) gProg = fs::path(argv[0]).filename().string();
  Options o = parseOptions(argc, argv);
  ignoreSigpipe();

  std::vector<std::string> missing;
  std::vector<std::string> paths = collectTests(o.inputs, missing);
  size_t failed = 0, passed = 0;
  for (const auto& m : missing) {
    std::cout << "FAIL " << m << ": no such file or directory\n";
    failed++;
  }

  std::vector<TestFile> tests(paths.size());
  for (size_t i = 0; i < paths.size(); i++) tests[i].path = paths[i];
  auto load = [&](TestFile& t) {
    std::string text;
    t.readable = readFile(t.path, text);
    if (t.readable) t.spec = parseSpec(text);
  };
  for (auto& t : tests) load(t);

  if (o.bless) {
    std::mutex printMu;
    parallelFor(tests.size(), o.jobs, [&](size_t i) {
      TestFile& t = tests[i];
      std::string text, why, msg;
      if (!t.readable || !readFile(t.path, text)) return;  // reported below
      if (t.spec.argsMalformed) {
        msg = "bless skipped " + t.path + ": its ARGS line is malformed\n";
      } else if (auto outcome = observeTest(o.cfg, t.path, t.spec, "-O0", why)) {
        std::string blessed = blessSource(text, *outcome);
        if (blessed == text) {
          msg = o.verbose ? "unchanged " + t.path + "\n" : "";
        } else if (writeFileAtomic(t.path, blessed)) {
          msg = "blessed " + t.path + "\n";
          t.spec = parseSpec(blessed);
        } else {
          msg = "bless failed " + t.path + ": cannot write the file\n";
        }
      } else {
        msg = "bless skipped " + t.path + ": " + why;
        if (msg.back() != '\n') msg += '\n';
      }
      std::lock_guard<std::mutex> lock(printMu);
      std::cout << msg << std::flush;
    });
  }

  // One job per (test, level); reports are printed in job order as soon as
  // every earlier job has finished, so output is deterministic.
  size_t nJobs = tests.size() * o.opts.size();
  std::vector<CheckResult> results(nJobs);
  std::vector<char> done(nJobs, 0);
  std::mutex mu;
  size_t nextToPrint = 0;
  parallelFor(nJobs, o.jobs, [&](size_t j) {
    const TestFile& t = tests[j / o.opts.size()];
    const std::string& opt = o.opts[j % o.opts.size()];
    CheckResult r;
    if (!t.readable)
      r.report = "  cannot read the file\n";
    else
      r = checkTest(o.cfg, t.path, t.spec, opt);
    std::lock_guard<std::mutex> lock(mu);
    results[j] = std::move(r);
    done[j] = 1;
    for (; nextToPrint < nJobs && done[nextToPrint]; nextToPrint++) {
      const CheckResult& pr = results[nextToPrint];
      const std::string& path = tests[nextToPrint / o.opts.size()].path;
      const std::string& lvl = o.opts[nextToPrint % o.opts.size()];
      if (pr.passed) {
        passed++;
        if (o.verbose) std::cout << "PASS " << path << " [" << lvl << "]\n";
      } else {
        failed++;
        std::cout << "FAIL " << path << " [" << lvl << "]\n" << pr.report;
      }
      std::cout << std::flush;
    }
  });

  std::cout << passed << " passed, " << failed << " failed\n" << std::flush;
  return failed == 0 ? 0 : 1;
}
