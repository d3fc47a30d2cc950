// The differential oracle: compile at each level, run, compare with -O0.
// Invariant: every child process runs under a deadline (golden runner's
// runProcess), so a hanging compiler or program is a reported difference,
// never a hung fuzzer; nothing here depends on which thread calls it.
#include "test/fuzz/differential.h"

#include <algorithm>
#include <sstream>
#include <string_view>

#include "test/golden_runner/subprocess.h"

namespace simplec::fuzz {

namespace {

using golden::ProcessResult;
using golden::runProcess;

constexpr size_t kOutputCap = 8u << 20;
constexpr size_t kShownLine = 200;

std::string clip(const std::string& s, size_t n = kShownLine) {
  return s.size() <= n ? s : s.substr(0, n) + "...";
}

std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : s) {
    if (c == '\n') {
      lines.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) lines.push_back(cur);
  return lines;
}

// "pass 'gcm'" from "simplec: internal compiler error: in pass 'gcm' while ...".
std::string icePass(const std::string& err) {
  size_t p = err.find("in pass '");
  if (p == std::string::npos) {
    size_t c = err.find("crashed (signal");
    return c == std::string::npos ? "" : "crashed";
  }
  size_t start = p + 9, end = err.find('\'', start);
  return end == std::string::npos ? "" : "pass '" + err.substr(start, end - start) + "'";
}

// The message of the first "error: ..." line, without its position, so that
// the same diagnostic is recognised in a reduced program.
std::string firstError(const std::string& err) {
  for (const std::string& line : splitLines(err)) {
    size_t p = line.find("error: ");
    if (p != std::string::npos) return clip(line.substr(p + 7));
  }
  return "";
}

std::string firstStdoutDifference(const std::string& ref, const std::string& got) {
  std::vector<std::string> a = splitLines(ref), b = splitLines(got);
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) i++;
  std::ostringstream os;
  os << "    first difference at stdout line " << i + 1 << " (reference has " << a.size()
     << " lines, this has " << b.size() << ")\n";
  os << "      reference: " << (i < a.size() ? clip(a[i]) : "<end of output>") << "\n";
  os << "      this:      " << (i < b.size() ? clip(b[i]) : "<end of output>") << "\n";
  if (a.size() == b.size() && i == a.size()) os << "      (lines agree; the difference is in the final newline)\n";
  return os.str();
}

std::string sanitizedName(const std::string& config) {
  std::string s;
  for (char c : config) s += isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

// Stderr without the call chain lines of a runtime error ("  at ...",
// "  ... N more frames"): levels legitimately differ there (tail calls
// become loops at -O2), so only the error line itself is compared.
std::string withoutTrace(const std::string& err) {
  std::string out;
  size_t start = 0;
  while (start < err.size()) {
    size_t nl = err.find('\n', start);
    size_t end = nl == std::string::npos ? err.size() : nl + 1;
    std::string_view line(err.data() + start, end - start);
    if (line.rfind("  at ", 0) != 0 && line.rfind("  ... ", 0) != 0) out.append(line);
    start = end;
  }
  return out;
}

void runBinary(Outcome& o, const std::vector<std::string>& argv, double timeout) {
  ProcessResult r = runProcess(argv, nullptr, timeout, kOutputCap);
  o.ran = r.started;
  o.timedOut = r.timedOut;
  o.crashed = r.signaled;
  o.exitCode = r.exitCode;
  o.status = r.describeStatus(timeout);
  o.out = std::move(r.out);
  o.err = withoutTrace(r.err);
}

Outcome runConfig(const std::string& config, const std::string& src, const ProgramSetup& setup,
                  const CheckConfig& cfg, const std::string& workDir) {
  Outcome o;
  o.config = config;
  if (config.rfind("interpret", 0) == 0) {
    // "interpret-O2": the evaluator on the graph optimized at that level.
    std::string level = config.size() > 10 ? config.substr(9) : "-O2";
    // -w: compile-time warnings would mix with the program's own stderr.
    std::vector<std::string> argv{cfg.simplec, level, "-w"};
    if (cfg.optSeed) argv.insert(argv.end(), {"--seed", std::to_string(setup.optSeed)});
    argv.insert(argv.end(), {"--interpret", src});
    if (!setup.args.empty()) {
      argv.push_back("--");
      argv.insert(argv.end(), setup.args.begin(), setup.args.end());
    }
    runBinary(o, argv, cfg.compileTimeout + cfg.runTimeout);
    // A diagnostic or an internal error is a failure to compile, not a run.
    bool diag = (o.exitCode == 1 || o.exitCode == 70) &&
                (o.err.find(": error:") != std::string::npos ||
                 o.err.find("internal compiler error") != std::string::npos);
    o.compiled = o.ran && !diag;
    if (!o.compiled) {
      o.compileStatus = o.status;
      o.compileErr = o.err;
    }
    return o;
  }
  std::string bin = workDir + "/prog" + sanitizedName(config);
  std::vector<std::string> argv{cfg.simplec, config};
  if (cfg.verifyEach) argv.push_back("--verify-each");
  if (cfg.optSeed) argv.insert(argv.end(), {"--seed", std::to_string(setup.optSeed)});
  argv.insert(argv.end(), {src, "-o", bin});
  ProcessResult c = runProcess(argv, nullptr, cfg.compileTimeout, kOutputCap);
  o.compileStatus = c.describeStatus(cfg.compileTimeout);
  o.compileErr = c.err;
  o.compiled = c.exitedWith(0);
  if (!o.compiled) return o;
  std::vector<std::string> run{bin};
  run.insert(run.end(), setup.args.begin(), setup.args.end());
  runBinary(o, run, cfg.runTimeout);
  return o;
}

// The first way `o` differs from `ref`, or "".
std::string differingAspect(const Outcome& ref, const Outcome& o) {
  if (o.timedOut != ref.timedOut) return "timeout";
  if (o.crashed != ref.crashed) return "signal";
  if (o.out != ref.out) return "stdout";
  if (o.exitCode != ref.exitCode) return "exit";
  if (o.err != ref.err) return "stderr";
  return "";
}

std::string describeRun(const Outcome& o) {
  std::ostringstream os;
  os << "  " << o.config << ": " << o.status << ", " << o.out.size() << " bytes of stdout";
  if (!o.err.empty()) os << ", stderr: " << clip(splitLines(o.err).empty() ? o.err : splitLines(o.err)[0]);
  os << "\n";
  return os.str();
}

}  // namespace

Verdict checkProgram(const std::string& srcPath, const ProgramSetup& setup, const CheckConfig& cfg,
                     const std::string& workDir, const std::vector<std::string>& onlyConfigs) {
  std::vector<std::string> configs = onlyConfigs;
  if (configs.empty()) {
    configs = cfg.levels;
    if (cfg.interpret)
      for (const auto& l : cfg.levels)
        if (l == "-O0" || l == "-O2") configs.push_back("interpret" + l);
  }
  Verdict v;
  for (const auto& c : configs) v.outcomes.push_back(runConfig(c, srcPath, setup, cfg, workDir));

  for (const Outcome& o : v.outcomes) {
    if (o.compiled) continue;
    v.ok = false;
    std::string pass = icePass(o.compileErr);
    std::string what = pass.empty() ? firstError(o.compileErr) : pass;
    v.signature = "compile " + o.config + ": " + o.compileStatus + (what.empty() ? "" : ": " + what);
    v.report = "  " + o.config + " failed to compile (" + o.compileStatus + "):\n" + o.compileErr;
    return v;
  }
  size_t refIdx = 0;
  for (size_t i = 0; i < v.outcomes.size(); i++)
    if (v.outcomes[i].config.rfind("-O", 0) == 0) {
      refIdx = i;
      break;
    }
  const Outcome& ref = v.outcomes[refIdx];
  std::ostringstream report;
  if (ref.timedOut || ref.crashed) {
    // Generated programs finish quickly, so this is a generator or compiler bug.
    v.ok = false;
    v.signature = ref.config + " run: " + (ref.timedOut ? "timeout" : "signal");
    report << describeRun(ref);
  }
  for (size_t i = 0; i < v.outcomes.size(); i++) {
    if (i == refIdx) continue;
    const Outcome& o = v.outcomes[i];
    std::string aspect = differingAspect(ref, o);
    if (aspect.empty()) continue;
    if (v.ok) v.signature = o.config + " vs " + ref.config + ": " + aspect;
    v.ok = false;
    report << "  " << o.config << " differs from " << ref.config << " (" << aspect << ")\n";
    report << describeRun(ref) << describeRun(o);
    if (o.out != ref.out) report << firstStdoutDifference(ref.out, o.out);
    if (o.err != ref.err)
      report << "    stderr\n      reference: " << clip(ref.err) << "\n      this:      " << clip(o.err) << "\n";
  }
  v.report = report.str();
  return v;
}

ProgramSetup setupFromSource(const std::string& text) {
  ProgramSetup s;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("// ARGS:", 0) == 0) {
      std::istringstream words(line.substr(8));
      std::string w;
      while (words >> w) s.args.push_back(w);
    } else if (line.rfind("// fuzz-opt-seed:", 0) == 0) {
      s.optSeed = std::strtoull(line.c_str() + 17, nullptr, 10);
    }
  }
  return s;
}

std::string setupHeader(const ProgramSetup& setup) {
  std::string h;
  if (!setup.args.empty()) {
    h += "// ARGS:";
    for (const auto& a : setup.args) h += " " + a;
    h += "\n";
  }
  h += "// fuzz-opt-seed: " + std::to_string(setup.optSeed) + "\n";
  return h;
}

void detectFeatures(CheckConfig& cfg, bool* hasInterpret) {
  ProcessResult r = runProcess({cfg.simplec, "--help"}, nullptr, 30);
  std::string text = r.out + r.err;
  *hasInterpret = text.find("--interpret") != std::string::npos;
  cfg.optSeed = text.find("--seed") != std::string::npos;
  cfg.checkPasses = *hasInterpret && text.find("--check-passes") != std::string::npos;
}

std::string diagnosePasses(const std::string& srcPath, const ProgramSetup& setup, const CheckConfig& cfg) {
  if (!cfg.checkPasses) return "";
  std::vector<std::string> argv{cfg.simplec, "-O2", "-w", "--check-passes"};
  if (cfg.optSeed) argv.insert(argv.end(), {"--seed", std::to_string(setup.optSeed)});
  argv.insert(argv.end(), {"--interpret", srcPath});
  if (!setup.args.empty()) {
    argv.push_back("--");
    argv.insert(argv.end(), setup.args.begin(), setup.args.end());
  }
  ProcessResult r = runProcess(argv, nullptr, cfg.compileTimeout + cfg.runTimeout, kOutputCap);
  for (const std::string& line : splitLines(r.err))
    if (line.find("--check-passes") != std::string::npos) return clip(line, 600);
  return "";
}

}  // namespace simplec::fuzz
