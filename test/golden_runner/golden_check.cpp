// One golden test at one optimization level: `SIMPLEC OPT FILE -o TMP/exe`,
// then `TMP/exe ARGS < STDIN` (in interpret mode both replaced by
// `SIMPLEC OPT --interpret FILE -- ARGS < STDIN`), and a comparison of exit
// status, stdout and the runtime error line; or, for EXPECT-ERROR tests, of
// the set of "FILE:LINE:COL: error: text" lines the compiler printed. The
// compiler's "FILE:LINE:COL: warning: text" lines must always be exactly the
// EXPECT-WARNING lines (none without them), whatever the kind of test.
#include "test/golden_runner/golden_check.h"

#include <cstdlib>
#include <filesystem>
#include <set>
#include <vector>

#include "test/golden_runner/subprocess.h"
#include "test/golden_runner/text_diff.h"

namespace simplec::golden {
namespace {

constexpr std::string_view kErrorTag = ": error: ";
constexpr std::string_view kWarningTag = ": warning: ";
constexpr std::string_view kRuntimeTag = ": runtime error: ";
constexpr size_t kOutputCap = 16u << 20;  // per stream

// A private directory, removed with its contents when this goes away.
class TempDir {
 public:
  TempDir() {
    std::error_code ec;
    auto base = std::filesystem::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string tmpl = (base / "simplec-golden.XXXXXX").string();
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  bool ok() const { return !path_.empty(); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<std::string_view> lines(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string_view::npos) nl = s.size();
    out.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

// The program's runtime error message is the last thing it writes, but for
// the call chain lines after it.
std::string_view lastLine(std::string_view s) {
  for (;;) {
    while (!s.empty() && s.back() == '\n') s.remove_suffix(1);
    size_t nl = s.rfind('\n');
    std::string_view last = nl == std::string_view::npos ? s : s.substr(nl + 1);
    if (!isTraceLine(last) || nl == std::string_view::npos) return last;
    s = s.substr(0, nl);
  }
}

std::string posPrefix(const std::string& path, int line, int col) {
  return path + ":" + std::to_string(line) + ":" + std::to_string(col);
}

// "PATH:LINE:COL" -> (line, col) when the prefix is exactly that form.
std::optional<std::pair<int, int>> parseLocation(std::string_view prefix, const std::string& path) {
  if (prefix.substr(0, path.size()) != path || prefix.size() <= path.size() ||
      prefix[path.size()] != ':')
    return std::nullopt;
  std::string_view rest = prefix.substr(path.size() + 1);
  size_t colon = rest.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  auto num = [](std::string_view s) -> std::optional<int> {
    if (s.empty() || s.size() > 9) return std::nullopt;
    int v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + (c - '0');
    }
    return v;
  };
  auto l = num(rest.substr(0, colon));
  auto c = num(rest.substr(colon + 1));
  if (!l || !c) return std::nullopt;
  return std::make_pair(*l, *c);
}

// The compiler and the program get TMPDIR pointing into our private
// directory, so temporary files they leave behind (say, when killed at the
// deadline) are removed with it.
ProcessResult compile(const RunConfig& cfg, const TempDir& dir, const std::string& path,
                      const TestSpec& spec, const std::string& opt) {
  std::vector<std::string> argv{cfg.simplec, opt};
  argv.insert(argv.end(), cfg.compilerArgs.begin(), cfg.compilerArgs.end());
  argv.insert(argv.end(), spec.flags.begin(), spec.flags.end());
  argv.insert(argv.end(), {path, "-o", dir.path() + "/exe"});
  return runProcess(argv, nullptr,
                    cfg.timeoutSeconds, kOutputCap, {"TMPDIR=" + dir.path()});
}

ProcessResult runProgram(const RunConfig& cfg, const TempDir& dir, const TestSpec& spec) {
  std::vector<std::string> argv{dir.path() + "/exe"};
  argv.insert(argv.end(), spec.args.begin(), spec.args.end());
  return runProcess(argv, spec.stdinData ? &*spec.stdinData : nullptr, cfg.timeoutSeconds,
                    kOutputCap, {"TMPDIR=" + dir.path()});
}

// Interpret mode: simplec runs the program itself, so this one process
// stands for both the compile and the run.
ProcessResult interpretProgram(const RunConfig& cfg, const TempDir& dir, const std::string& path,
                               const TestSpec& spec, const std::string& opt) {
  std::vector<std::string> argv{cfg.simplec, opt};
  argv.insert(argv.end(), cfg.compilerArgs.begin(), cfg.compilerArgs.end());
  argv.insert(argv.end(), spec.flags.begin(), spec.flags.end());
  argv.insert(argv.end(), {"--interpret", path, "--"});
  argv.insert(argv.end(), spec.args.begin(), spec.args.end());
  return runProcess(argv, spec.stdinData ? &*spec.stdinData : nullptr, cfg.timeoutSeconds, kOutputCap,
                    {"TMPDIR=" + dir.path()});
}

std::string section(std::string_view title, std::string_view text) {
  if (text.empty()) return "  " + std::string(title) + ": (empty)\n";
  return "  " + std::string(title) + ":\n" + indentLines(text, "    ", 20);
}

// Warnings are compared as a multiset: a warning printed twice is a bug too.
std::string checkWarnings(const std::string& path, const TestSpec& spec, const ProcessResult& pr) {
  std::multiset<std::string> want, got;
  for (const auto& w : spec.warnings)
    want.insert(posPrefix(path, w.line, w.col) + std::string(kWarningTag) + w.text);
  for (auto l : lines(pr.err))
    if (l.find(kWarningTag) != std::string_view::npos && l.substr(0, path.size()) == path) got.emplace(l);
  std::string report;
  for (const auto& w : want) {
    auto it = got.find(w);
    if (it == got.end()) report += "  missing warning:    " + escapeForDisplay(w) + "\n";
    else got.erase(it);
  }
  for (const auto& g : got) report += "  unexpected warning: " + escapeForDisplay(g) + "\n";
  return report;
}

// The warnings of a compile, in the form of EXPECT-WARNING lines.
std::vector<ExpectedError> observedWarnings(const std::string& path, const ProcessResult& pr) {
  std::vector<ExpectedError> out;
  for (auto l : lines(pr.err)) {
    size_t tag = l.find(kWarningTag);
    if (tag == std::string_view::npos) continue;
    if (auto loc = parseLocation(l.substr(0, tag), path))
      out.push_back({loc->first, loc->second, std::string(l.substr(tag + kWarningTag.size()))});
  }
  return out;
}

CheckResult checkCompileErrors(const RunConfig& cfg, const std::string& path,
                               const TestSpec& spec, const ProcessResult& pr) {
  CheckResult res;
  std::string report;
  if (!pr.exitedWith(1))
    report += "  compiler: " + pr.describeStatus(cfg.timeoutSeconds) + ", expected exit status 1\n";
  std::set<std::string> want, got;
  for (const auto& e : spec.errors)
    want.insert(posPrefix(path, e.line, e.col) + std::string(kErrorTag) + e.text);
  for (auto l : lines(pr.err))
    if (l.find(kErrorTag) != std::string_view::npos) got.emplace(l);
  for (const auto& w : want)
    if (!got.count(w)) report += "  missing error:    " + escapeForDisplay(w) + "\n";
  for (const auto& g : got)
    if (!want.count(g)) report += "  unexpected error: " + escapeForDisplay(g) + "\n";
  report += checkWarnings(path, spec, pr);
  if (!report.empty() && !pr.exitedWith(1) && pr.started) report += section("compiler stderr", pr.err);
  res.passed = report.empty();
  res.report = report;
  return res;
}

}  // namespace

CheckResult checkTest(const RunConfig& cfg, const std::string& path, const TestSpec& spec,
                      const std::string& opt) {
  CheckResult res;
  if (!spec.problems.empty()) {
    for (const auto& p : spec.problems) res.report += "  malformed test: " + p + "\n";
    return res;
  }
  TempDir dir;
  if (!dir.ok()) {
    res.report = "  cannot create a temporary directory\n";
    return res;
  }
  ProcessResult cp = cfg.interpret ? interpretProgram(cfg, dir, path, spec, opt) : compile(cfg, dir, path, spec, opt);
  if (spec.compileOnly()) return checkCompileErrors(cfg, path, spec, cp);
  if (!cfg.interpret && !cp.exitedWith(0)) {
    res.report = "  compile failed: " + cp.describeStatus(cfg.timeoutSeconds) + "\n";
    if (cp.started) res.report += section("compiler stderr", cp.err);
    return res;
  }
  std::string report = checkWarnings(path, spec, cp);

  ProcessResult rp = cfg.interpret ? std::move(cp) : runProgram(cfg, dir, spec);
  int wantExit = spec.expectedExit();
  if (!rp.exitedWith(wantExit)) {
    report += "  " + rp.describeStatus(cfg.timeoutSeconds) + ", expected exit status " +
              std::to_string(wantExit) + "\n";
  }
  if (!rp.timedOut && !stdoutMatches(spec, rp.out)) {
    report += "  stdout differs:\n" + indentLines(unifiedDiff(spec.expectedStdout(), rp.out), "  ", 250);
  }
  if (rp.truncated) report += "  (output was cut at the capture limit)\n";
  if (spec.runtimeError && !rp.timedOut) {
    const auto& re = *spec.runtimeError;
    std::string_view last = lastLine(rp.err);
    std::string suffix = std::string(kRuntimeTag) + re.text;
    bool ok = re.hasPos ? last == posPrefix(path, re.line, re.col) + suffix
                        : last.size() >= suffix.size() &&
                              last.substr(last.size() - suffix.size()) == suffix;
    if (!ok) {
      report += "  runtime error differs:\n    expected: " +
                escapeForDisplay((re.hasPos ? posPrefix(path, re.line, re.col) : "...") + suffix) +
                "\n    actual:   " + escapeForDisplay(last) + "\n";
    }
  }
  if (!spec.trace.empty() && !rp.timedOut) {
    std::vector<std::string> got = traceLines(rp.err, path);
    if (got != spec.trace) {
      report += "  call chain differs:\n";
      for (const auto& t : spec.trace) report += "    expected: " + escapeForDisplay(t) + "\n";
      for (const auto& t : got) report += "    actual:   " + escapeForDisplay(t) + "\n";
    }
  }
  if (!report.empty() && !spec.runtimeError && !rp.err.empty() && !rp.exitedWith(wantExit))
    report += section("stderr", rp.err);
  res.passed = report.empty();
  res.report = report;
  return res;
}

std::optional<ActualOutcome> observeTest(const RunConfig& cfg, const std::string& path,
                                         const TestSpec& spec, const std::string& opt,
                                         std::string& why) {
  TempDir dir;
  if (!dir.ok()) {
    why = "cannot create a temporary directory";
    return std::nullopt;
  }
  ProcessResult cp = cfg.interpret ? interpretProgram(cfg, dir, path, spec, opt) : compile(cfg, dir, path, spec, opt);
  ActualOutcome out;
  out.warnings = observedWarnings(path, cp);
  if (cp.exitedWith(1)) {
    for (auto l : lines(cp.err)) {
      size_t tag = l.find(kErrorTag);
      if (tag == std::string_view::npos) continue;
      auto loc = parseLocation(l.substr(0, tag), path);
      if (!loc) continue;
      out.errors.push_back({loc->first, loc->second, std::string(l.substr(tag + kErrorTag.size()))});
    }
    if (!out.errors.empty()) return out;
    if (!cfg.interpret) {  // interpreted, status 1 may be the program's own
      why = "compiler exited with status 1 without a '" + path + ":LINE:COL: error:' line";
      return std::nullopt;
    }
  }
  if (cfg.interpret ? cp.exitedWith(70) : !cp.exitedWith(0)) {
    why = "compiler: " + cp.describeStatus(cfg.timeoutSeconds) + "\n" + section("compiler stderr", cp.err);
    return std::nullopt;
  }
  ProcessResult rp = cfg.interpret ? std::move(cp) : runProgram(cfg, dir, spec);
  if (!rp.started || rp.timedOut || rp.signaled || rp.truncated) {
    why = "program: " + (rp.truncated ? std::string("output too large") : rp.describeStatus(cfg.timeoutSeconds));
    return std::nullopt;
  }
  out.stdoutText = rp.out;
  out.exitCode = rp.exitCode;
  std::string_view last = lastLine(rp.err);
  size_t tag = last.find(kRuntimeTag);
  if (rp.exitCode == 101 && tag != std::string_view::npos) {
    ExpectedRuntimeError re;
    re.text = std::string(last.substr(tag + kRuntimeTag.size()));
    if (auto loc = parseLocation(last.substr(0, tag), path)) {
      re.hasPos = true;
      re.line = loc->first;
      re.col = loc->second;
    }
    out.runtimeError = re;
    if (!spec.trace.empty()) out.trace = traceLines(rp.err, path);
  }
  return out;
}

}  // namespace simplec::golden
