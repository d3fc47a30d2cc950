// Command-line parsing (command_line.h). gcc's single-dash options are
// read here, from a table of spellings and how each takes its value,
// because their order among the inputs matters (-lm after the object that
// needs it) and CLI11 keeps no order across options; simplec's own
// `--long` options are collected on the way and parsed by CLI11, which
// checks their values.
#include "cmd/command_line.h"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <ostream>

#include "cmd/dep_file.h"
#include "cmd/input_kind.h"
#include "cmd/response_file.h"
#include "cmd/spelling.h"
#include "opt/pipeline.h"

namespace simplec {

namespace {

// Lines that start with a dash are options (test/cli/install_test.sh checks
// that the man page and the bash completion know each of them).
constexpr const char* kHelp =
    "usage: simplec [options] INPUT... [-- ARGS]\n"
    "An optimizing compiler for the Simple language, used like cc.\n"
    "INPUT: a Simple source (.smp; - reads standard input), a C or assembly source\n"
    "(.c, .s, .S: compiled by cc), an object file, archive or shared library\n"
    "(.o, .a, .so, or ELF or ar content: linked as it is). @FILE reads more\n"
    "arguments from FILE.\n"
    "\n"
    "Compiling:\n"
    "  -o FILE            output file (default a.out; X.o with -c, X.s with -S);\n"
    "                     with -c or -S, '-o -' writes to standard output\n"
    "  -c                 compile each source to an object file, do not link\n"
    "  -S                 write assembly text\n"
    "  -O0, -O1, -O2      optimization level (default -O2); as in gcc, also\n"
    "                     accepts -O3 and -Os (= -O2), -Og and -O (= -O1)\n"
    "  -j N               optimize and generate code on N threads (default: one\n"
    "                     per processor); the output is the same for every N\n"
    "  -g, -g0..-g3       debug information level (-g is -g2, -g0 none): DWARF\n"
    "                     line tables map code to .smp lines, and from -g2 on\n"
    "                     objects describe variables and types; -ggdb is -g\n"
    "  -x LANG            language of the inputs that follow: smp, c, assembler,\n"
    "                     assembler-with-cpp, or none (by suffix and content again)\n"
    "\n"
    "Linking (passed to cc in command-line order among the inputs):\n"
    "  -l LIB             link with library LIB (also -lLIB)\n"
    "  -L DIR             search DIR for libraries (also -LDIR)\n"
    "  -Wl,ARG[,ARG...]   pass the ARGs to the linker\n"
    "  -Xlinker ARG       pass ARG to the linker\n"
    "  --runtime-dir DIR  link with DIR/libsimplec_rt.a (overrides SIMPLEC_RUNTIME_DIR)\n"
    "\n"
    "Running:\n"
    "  --run              compile to a temporary executable (or to -o FILE, which\n"
    "                     is kept) and run it with ARGS; exit with its status\n"
    "  --interpret        run the optimized graph in the graph evaluator instead\n"
    "                     of compiling (with ARGS); prints and exits as the\n"
    "                     compiled program would (stops after 2e9 steps)\n"
    "\n"
    "Make dependency files (as gcc writes them):\n"
    "  -MD                write a dependency file next to the output (X.d)\n"
    "  -MMD               the same (a Simple source includes no system headers)\n"
    "  -MF FILE           write it to FILE instead (- for standard output)\n"
    "  -MT TARGET         name TARGET as the target (repeatable)\n"
    "  -MQ TARGET         the same, quoted for make\n"
    "  -MP                add an empty rule for each prerequisite but the first\n"
    "\n"
    "Warnings (as in gcc; the last of -W<name> and -Wno-<name> wins):\n"
    "  -w                 silence every warning\n"
    "  -Wall, -Wextra     enable the common warnings, and more (see simplec(1))\n"
    "  -Werror[=NAME]     make warnings (or the warning NAME) errors\n"
    "  -Wno-error[=NAME]  undo -Werror\n"
    "WARNINGS\n"
    "\n"
    "Looking inside:\n"
    "  --emit=KIND        print a form instead of compiling: tokens|ir|dot|sched|mir|asm|html\n"
    "                     (html: the graph explorer page, to -o FILE or stdout)\n"
    "  --dump-after=PASS  print the graph after PASS (repeatable)\n"
    "  --verify-each      verify the graph after every pass (and that gcm can schedule it)\n"
    "  --time-passes      print the time and live node count of each pass (stderr)\n"
    "  --check-passes     evaluate main (with ARGS) after parsing and after every\n"
    "                     pass; a pass that changes its output, exit status or\n"
    "                     runtime error is an internal error (exit 70)\n"
    "  --seed N           the optimizer's worklist order: 0 (the default) in order,\n"
    "                     else random from seed N (testing)\n"
    "  -v                 print each step and the cc commands (stderr)\n"
    "  -###               print the steps without running them\n"
    "\n"
    "Other:\n"
    "  --color=WHEN       colour diagnostics: never|always|auto\n"
    "  -h, --help         print this help\n"
    "  --version          print the version\n"
    "  -dumpversion       print just the version number\n";

// How an option takes its value.
enum class Form {
  Flag,              // -c
  Joined,            // -O2, -g3, -Wall: the value is the rest of the word (maybe empty)
  JoinedOrSeparate,  // -o FILE or -oFILE
  Separate,          // -Xlinker ARG
  Long,              // --emit=KIND or --emit KIND
  LongFlag,          // --run
};

enum class Opt {
  Output, Compile, Assembly, Optimize, Jobs, Debug, Language, Lib, LibDir, LinkerComma, Xlinker,
  NoWarnings, Warning, DepFile, DepPhony, DepFilePath, DepTarget, DepQuotedTarget,
  Verbose, DryRun, DumpVersion, Help, Version, Run, Interpret, Emit, DumpAfter,
  VerifyEach, TimePasses, CheckPasses, Color, RuntimeDir, Seed,
};

struct Spec {
  const char* name;
  Form form;
  Opt opt;
};

// -Wl, before -W, which would take it for a warning.
constexpr Spec kOptions[] = {
    {"-o", Form::JoinedOrSeparate, Opt::Output},
    {"-c", Form::Flag, Opt::Compile},
    {"-S", Form::Flag, Opt::Assembly},
    {"-O", Form::Joined, Opt::Optimize},
    {"-j", Form::JoinedOrSeparate, Opt::Jobs},
    {"-g", Form::Joined, Opt::Debug},
    {"-x", Form::JoinedOrSeparate, Opt::Language},
    {"-l", Form::JoinedOrSeparate, Opt::Lib},
    {"-L", Form::JoinedOrSeparate, Opt::LibDir},
    {"-Wl,", Form::Joined, Opt::LinkerComma},
    {"-Xlinker", Form::Separate, Opt::Xlinker},
    {"-w", Form::Flag, Opt::NoWarnings},
    {"-W", Form::Joined, Opt::Warning},
    {"-MD", Form::Flag, Opt::DepFile},
    {"-MMD", Form::Flag, Opt::DepFile},
    {"-MP", Form::Flag, Opt::DepPhony},
    {"-MF", Form::JoinedOrSeparate, Opt::DepFilePath},
    {"-MT", Form::JoinedOrSeparate, Opt::DepTarget},
    {"-MQ", Form::JoinedOrSeparate, Opt::DepQuotedTarget},
    {"-v", Form::Flag, Opt::Verbose},
    {"-###", Form::Flag, Opt::DryRun},
    {"-dumpversion", Form::Flag, Opt::DumpVersion},
    {"-h", Form::Flag, Opt::Help},
    {"--help", Form::LongFlag, Opt::Help},
    {"--version", Form::LongFlag, Opt::Version},
    {"--run", Form::LongFlag, Opt::Run},
    {"--interpret", Form::LongFlag, Opt::Interpret},
    {"--emit", Form::Long, Opt::Emit},
    {"--dump-after", Form::Long, Opt::DumpAfter},
    {"--verify-each", Form::LongFlag, Opt::VerifyEach},
    {"--time-passes", Form::LongFlag, Opt::TimePasses},
    {"--check-passes", Form::LongFlag, Opt::CheckPasses},
    {"--color", Form::Long, Opt::Color},
    {"--runtime-dir", Form::Long, Opt::RuntimeDir},
    {"--seed", Form::Long, Opt::Seed},
};

const char* const kEmitKinds[] = {"tokens", "ir", "dot", "sched", "mir", "asm", "html"};

class Parser {
 public:
  Parser(std::vector<std::string> args, DriverOptions* o, std::ostream& out, std::ostream& err)
      : args_(std::move(args)), o_(*o), out_(out), err_(err) {}

  int parse() {
    for (i_ = 0; i_ < args_.size(); i_++) {
      const std::string& a = args_[i_];
      if (a.size() < 2 || a[0] != '-') {  // an input file, or "-" for standard input
        o_.inputs.push_back({a, language_, {}});
        continue;
      }
      const Spec* spec = nullptr;
      std::string value;
      if (!match(a, &spec, &value)) return 2;
      if (!spec) return error("unrecognized command-line option '" + a + "'" + suggestion(a));
      int status = apply(*spec, a, value);
      if (status >= 0) return status;
    }
    return finish();
  }

 private:
  int error(const std::string& msg) {
    err_ << "simplec: error: " << msg << "\n";
    return 2;
  }

  // Finds the option `a` spells and its value. False after an error (a
  // missing value); *spec stays null for an unknown option.
  bool match(const std::string& a, const Spec** spec, std::string* value) {
    for (const Spec& s : kOptions) {
      std::string name = s.name;
      bool exact = a == name;
      bool prefix = a.size() > name.size() && a.compare(0, name.size(), name) == 0;
      switch (s.form) {
        case Form::Flag:
        case Form::LongFlag:
          if (exact) break;
          if (s.form == Form::LongFlag && prefix && a[name.size()] == '=') {
            error("option '" + name + "' takes no argument");
            return false;
          }
          continue;
        case Form::Joined:
          if (!exact && !prefix) continue;
          *value = a.substr(name.size());
          break;
        case Form::Long:
          if (prefix && a[name.size()] == '=') {
            *value = a.substr(name.size() + 1);
            break;
          }
          [[fallthrough]];
        case Form::JoinedOrSeparate:
        case Form::Separate:
          if (prefix && s.form == Form::JoinedOrSeparate) {
            *value = a.substr(name.size());
            break;
          }
          if (!exact) continue;
          if (i_ + 1 >= args_.size()) {
            error("missing argument to '" + name + "'");
            return false;
          }
          *value = args_[++i_];
          break;
      }
      *spec = &s;
      return true;
    }
    return true;
  }

  // "; did you mean '--emit'?" for a close spelling of a known option.
  static std::string suggestion(const std::string& a) {
    static const std::vector<std::string> spellings = [] {
      std::vector<std::string> v;
      for (const Spec& s : kOptions)
        if (std::string(s.name) != "-Wl,") v.push_back(s.name);
      for (const char* extra : {"-O0", "-O1", "-O2", "-O3", "-Os", "-Og", "-g0", "-g1", "-g2", "-g3", "-ggdb"})
        v.push_back(extra);
      return v;
    }();
    std::string word = a.substr(0, a.find('='));
    std::string best = closestMatch(word, spellings);
    return best.empty() ? "" : "; did you mean '" + best + "'?";
  }

  // Applies one option; -1 to go on, else the exit status.
  int apply(const Spec& spec, const std::string& a, const std::string& v) {
    switch (spec.opt) {
      case Opt::Output: o_.output = v; break;
      case Opt::Compile: o_.compileOnly = true; break;
      case Opt::Assembly: o_.assembly = true; break;
      case Opt::Optimize: {
        static const std::pair<const char*, int> levels[] = {{"", 1},  {"0", 0}, {"1", 1}, {"2", 2},
                                                             {"3", 2}, {"s", 2}, {"g", 1}};
        auto it = std::find_if(std::begin(levels), std::end(levels), [&](auto& l) { return v == l.first; });
        if (it == std::end(levels))
          return error("invalid optimization level '" + a + "' (one of -O0, -O1, -O2, -O3, -Os, -Og, -O)");
        o_.optLevel = it->second;
        o_.optFlag = a;
        break;
      }
      case Opt::Jobs: {
        // As make spells it: -j N or -jN, N from 1.
        char* end = nullptr;
        errno = 0;
        long n = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end || errno || n < 1 || n > kMaxJobs || !std::isdigit(static_cast<unsigned char>(v[0])))
          return error("invalid number of threads '" + v + "' for '-j' (1 to " + std::to_string(kMaxJobs) + ")");
        o_.jobs = int(n);
        break;
      }
      case Opt::Debug: {
        // -g, -g0..-g3, -ggdb, -ggdb0..-ggdb3, as gcc spells them.
        std::string level = v.compare(0, 3, "gdb") == 0 ? v.substr(3) : v;
        if (level.empty()) level = "2";
        if (level.size() != 1 || level[0] < '0' || level[0] > '3')
          return error("unrecognized command-line option '" + a + "'" + suggestion(a));
        o_.debugLevel = level[0] - '0';
        o_.debugInfo = o_.debugLevel > 0;
        break;
      }
      case Opt::Language:
        if (!isKnownLanguage(v))
          return error("language '" + v + "' not recognized (one of smp, c, assembler, assembler-with-cpp, none)");
        language_ = v == "none" ? "" : v;
        break;
      case Opt::Lib: o_.inputs.push_back({"", "", {"-l" + v}}); break;
      case Opt::LibDir: o_.inputs.push_back({"", "", {"-L" + v}}); break;
      case Opt::LinkerComma: o_.inputs.push_back({"", "", {a}}); break;
      case Opt::Xlinker: o_.inputs.push_back({"", "", {"-Xlinker", v}}); break;
      case Opt::NoWarnings: o_.warnings.silenceAll(true); break;
      case Opt::Warning:
        // -Wa, and -Wp, pass options to gcc's assembler and preprocessor.
        if (v.size() >= 2 && v[1] == ',') return error("'-W" + v.substr(0, 2) + "' is not supported");
        warningFlags_.push_back(v.empty() ? "extra" : v);  // a bare -W is gcc's old name for -Wextra
        break;
      case Opt::DepFile: o_.depFile = true; break;
      case Opt::DepPhony: o_.depPhony = true; break;
      case Opt::DepFilePath: o_.depFilePath = v; break;
      case Opt::DepTarget: o_.depTargets.push_back(v); break;
      case Opt::DepQuotedTarget: o_.depTargets.push_back(quoteForMake(v)); break;
      case Opt::Verbose: o_.verbose = true; break;
      case Opt::DryRun: o_.dryRun = true; break;
      case Opt::DumpVersion: out_ << SIMPLEC_VERSION << "\n"; return 0;
      case Opt::Help: out_ << helpText(); return 0;
      case Opt::Version: out_ << "simplec " << SIMPLEC_VERSION << "\n"; return 0;
      case Opt::Run:
      case Opt::Interpret:
      case Opt::Emit:
      case Opt::DumpAfter:
      case Opt::VerifyEach:
      case Opt::TimePasses:
      case Opt::CheckPasses:
      case Opt::Color:
      case Opt::RuntimeDir:
      case Opt::Seed:
        // For CLI11, in one spelling whichever the user chose.
        longArgs_.push_back(spec.form == Form::Long ? std::string(spec.name) + "=" + v : spec.name);
        break;
    }
    return -1;
  }

  // simplec's own options, by CLI11: the last of a repeated one wins,
  // --dump-after accumulates. The values are checked here, with messages
  // in simplec's words.
  int parseLongOptions() {
    CLI::App app{"simplec", "simplec"};
    app.set_help_flag();  // --help is answered above, with the full text
    std::string emit, color = "auto", seed;
    auto last = CLI::MultiOptionPolicy::TakeLast;
    auto oneOf = [](const char* what, std::vector<std::string> names) {
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      return CLI::Validator(
          [=](std::string& v) {
            bool ok = std::find(names.begin(), names.end(), v) != names.end();
            return ok ? std::string() : "invalid argument '" + v + "' to '" + what + "' (one of " + list + ")";
          },
          "");
    };
    app.add_flag("--run", o_.run)->multi_option_policy(last);
    app.add_flag("--interpret", o_.interpret)->multi_option_policy(last);
    app.add_option("--emit", emit)
        ->multi_option_policy(last)
        ->check(oneOf("--emit", {std::begin(kEmitKinds), std::end(kEmitKinds)}));
    app.add_option("--dump-after", o_.dumpAfter)->check(CLI::Validator(
        [](std::string& v) { return isPassName(v) ? std::string() : "unknown pass '" + v + "' for --dump-after"; },
        ""));
    app.add_flag("--verify-each", o_.verifyEach)->multi_option_policy(last);
    app.add_flag("--time-passes", o_.timePasses)->multi_option_policy(last);
    app.add_flag("--check-passes", o_.checkPasses)->multi_option_policy(last);
    app.add_option("--color", color)->multi_option_policy(last)->check(oneOf("--color", {"never", "always", "auto"}));
    app.add_option("--runtime-dir", o_.runtimeDir)->multi_option_policy(last);
    app.add_option("--seed", seed)->multi_option_policy(last)->check(CLI::Validator(
        [](std::string& v) {
          char* end = nullptr;
          errno = 0;
          std::strtoull(v.c_str(), &end, 10);
          bool ok = !v.empty() && !*end && !errno && v[0] != '-';
          return ok ? std::string() : "invalid seed '" + v + "' (a number)";
        },
        ""));
    try {
      std::vector<std::string> words(longArgs_.rbegin(), longArgs_.rend());  // CLI11 pops from the back
      app.parse(words);
    } catch (const CLI::ParseError& e) {
      // "--emit: invalid argument ...": the message without CLI11's prefix.
      std::string msg = e.what();
      if (size_t colon = msg.find(": "); colon != std::string::npos && msg.compare(0, 2, "--") == 0)
        msg = msg.substr(colon + 2);
      return error(msg);
    }
    if (!emit.empty()) {
      static const EmitKind kinds[] = {EmitKind::Tokens, EmitKind::Ir,  EmitKind::Dot,
                                       EmitKind::Sched,  EmitKind::Mir, EmitKind::Asm,
                                       EmitKind::Html};
      o_.emit = kinds[std::find(std::begin(kEmitKinds), std::end(kEmitKinds), emit) - std::begin(kEmitKinds)];
    }
    if (!seed.empty()) o_.seed = std::strtoull(seed.c_str(), nullptr, 10);
    color_ = color;
    return -1;
  }

  // The help text with the warning names of lexer/warnings.h.
  static std::string helpText() {
    std::string names;
    for (size_t w = 0; w < size_t(Warn::kCount); w++) names += std::string(w ? ", " : "") + warnName(Warn(w));
    std::string help = kHelp;
    help.replace(help.find("WARNINGS"), 8, "Warning names for -W<name>, -Wno-<name>, -Werror=<name>: " + names + ".");
    return help;
  }

  int finish() {
    if (int status = parseLongOptions(); status >= 0) return status;
    // -W flags apply in order (the last of -Wfoo/-Wno-foo wins); an unknown
    // name is reported and ignored, as clang does, unless -w was given.
    for (const std::string& w : warningFlags_)
      if (!o_.warnings.apply(w) && !o_.warnings.silenced())
        err_ << "simplec: warning: unknown warning option '-W" << w << "'\n";
    size_t files = 0, stdins = 0;
    for (const Input& in : o_.inputs) {
      files += in.isFile();
      stdins += in.isFile() && in.path == "-";
    }
    if (stdins > 1) return error("standard input ('-') given as an input more than once");
    if (files == 0) {
      if (o_.verbose || o_.dryRun) {  // `simplec -v` alone prints the version, as gcc does
        err_ << "simplec version " << SIMPLEC_VERSION << "\n";
        return 0;
      }
      return error("no input files");
    }
    o_.color = color_ == "always" || (color_ == "auto" && isatty(2));
    return -1;
  }

  std::vector<std::string> args_;
  size_t i_ = 0;
  DriverOptions& o_;
  std::ostream& out_;
  std::ostream& err_;
  std::string language_;                  // of the last -x
  std::string color_ = "auto";            // --color
  std::vector<std::string> warningFlags_;  // what follows each -W, in order
  std::vector<std::string> longArgs_;      // simplec's --options, for CLI11
};

}  // namespace

int parseCommandLine(std::vector<std::string> args, DriverOptions* o, std::ostream& out, std::ostream& err) {
  // Everything after "--" belongs to the program started by --run or
  // --interpret: no @FILE there is expanded. A "--" from a response file
  // ends the options too.
  std::vector<std::string> runArgs;
  for (int pass = 0; pass < 2; pass++) {
    auto dashes = std::find(args.begin(), args.end(), "--");
    if (dashes != args.end()) {
      runArgs.insert(runArgs.begin(), dashes + 1, args.end());
      args.erase(dashes, args.end());
    }
    std::string msg;
    if (pass == 0 && !expandResponseFiles(args, &msg)) {
      err << "simplec: error: " << msg << "\n";
      return 2;
    }
  }
  o->runArgs = runArgs;
  return Parser(std::move(args), o, out, err).parse();
}

}  // namespace simplec
