// The command line (cmd/command_line.h): gcc's spellings, the last of a
// repeated option wins, linker options kept in order among the inputs,
// and every error a "simplec: error:" line with status 2.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "cmd/command_line.h"

using namespace simplec;

namespace {
struct Parsed {
  int status;
  DriverOptions o;
  std::string out, err;
};

Parsed parse(std::vector<std::string> args) {
  Parsed p;
  std::ostringstream out, err;
  p.status = parseCommandLine(std::move(args), &p.o, out, err);
  p.out = out.str();
  p.err = err.str();
  return p;
}

// The link line's order: files as they are, linker options as cc gets them.
std::vector<std::string> order(const DriverOptions& o) {
  std::vector<std::string> v;
  for (const Input& in : o.inputs) {
    if (in.isFile()) v.push_back(in.path);
    for (const std::string& a : in.linkerArgs) v.push_back(a);
  }
  return v;
}
}  // namespace

TEST_CASE("gcc's optimization levels, the last one winning") {
  CHECK(parse({"a.smp"}).o.optLevel == 2);
  CHECK(parse({"-O0", "a.smp"}).o.optLevel == 0);
  CHECK(parse({"-O3", "a.smp"}).o.optLevel == 2);
  CHECK(parse({"-Os", "a.smp"}).o.optLevel == 2);
  CHECK(parse({"-Og", "a.smp"}).o.optLevel == 1);
  CHECK(parse({"-O", "a.smp"}).o.optLevel == 1);
  Parsed p = parse({"-O2", "a.smp", "-O0"});
  CHECK(p.status == -1);
  CHECK(p.o.optLevel == 0);
  CHECK(p.o.optFlag == "-O0");
  CHECK(parse({"-O3", "a.smp"}).o.optFlag == "-O3");  // what cc gets for C sources
  Parsed bad = parse({"-O7", "a.smp"});
  CHECK(bad.status == 2);
  CHECK(bad.err == "simplec: error: invalid optimization level '-O7' (one of -O0, -O1, -O2, -O3, -Os, -Og, -O)\n");
}

TEST_CASE("debug levels as gcc spells them") {
  auto level = [](std::vector<std::string> a) {
    a.push_back("x.smp");
    Parsed p = parse(a);
    REQUIRE(p.status == -1);
    CHECK(p.o.debugInfo == (p.o.debugLevel > 0));
    return p.o.debugLevel;
  };
  CHECK(level({}) == 0);
  CHECK(level({"-g"}) == 2);
  CHECK(level({"-g0"}) == 0);
  CHECK(level({"-g1"}) == 1);
  CHECK(level({"-g2"}) == 2);
  CHECK(level({"-g3"}) == 3);
  CHECK(level({"-ggdb"}) == 2);
  CHECK(level({"-ggdb3"}) == 3);
  CHECK(level({"-g3", "-g0"}) == 0);
  CHECK(level({"-g0", "-g"}) == 2);
  Parsed bad = parse({"-g4", "x.smp"});
  CHECK(bad.status == 2);
  CHECK(bad.err.rfind("simplec: error: unrecognized command-line option '-g4'", 0) == 0);
}

TEST_CASE("-o: joined or separate, the last one wins") {
  CHECK(parse({"-o", "a", "x.smp", "-o", "b"}).o.output == "b");
  CHECK(parse({"-oprog", "x.smp"}).o.output == "prog");
  Parsed p = parse({"x.smp", "-o"});
  CHECK(p.status == 2);
  CHECK(p.err == "simplec: error: missing argument to '-o'\n");
}

TEST_CASE("linker options stay in order among the inputs") {
  Parsed p = parse({"-L", "libs", "a.smp", "-lm", "b.o", "-l", "x", "-Wl,--as-needed,-z,now", "-Xlinker",
                    "-s", "-Lmore", "c.smp"});
  REQUIRE(p.status == -1);
  CHECK(order(p.o) == std::vector<std::string>{"-Llibs", "a.smp", "-lm", "b.o", "-lx", "-Wl,--as-needed,-z,now",
                                               "-Xlinker", "-s", "-Lmore", "c.smp"});
  CHECK(parse({"x.smp", "-Xlinker"}).err == "simplec: error: missing argument to '-Xlinker'\n");
  CHECK(parse({"-Wa,-x", "x.smp"}).err == "simplec: error: '-Wa,' is not supported\n");
}

TEST_CASE("-x gives the language of the inputs after it") {
  Parsed p = parse({"a.txt", "-x", "smp", "b.txt", "-xc", "c.h", "-x", "none", "d.c", "-"});
  REQUIRE(p.status == -1);
  REQUIRE(p.o.inputs.size() == 5);
  CHECK(p.o.inputs[0].language == "");
  CHECK(p.o.inputs[1].language == "smp");
  CHECK(p.o.inputs[2].language == "c");
  CHECK(p.o.inputs[3].language == "");
  CHECK(p.o.inputs[4].path == "-");
  Parsed bad = parse({"-x", "cobol", "a"});
  CHECK(bad.status == 2);
  CHECK(bad.err.rfind("simplec: error: language 'cobol' not recognized", 0) == 0);
  CHECK(parse({"-", "-"}).err == "simplec: error: standard input ('-') given as an input more than once\n");
}

TEST_CASE("dependency options as in gcc") {
  Parsed p = parse({"-MMD", "-MP", "-MF", "x.d", "-MT", "t$1", "-MQ", "q$ 2", "-MTjoined", "-c", "x.smp"});
  REQUIRE(p.status == -1);
  CHECK(p.o.depFile);
  CHECK(p.o.depPhony);
  CHECK(p.o.depFilePath == "x.d");
  CHECK(p.o.depTargets == std::vector<std::string>{"t$1", "q$$\\ 2", "joined"});
}

TEST_CASE("simplec's own options take --name=value or --name value") {
  Parsed p = parse({"--emit=ir", "--dump-after", "sccp", "--seed=7", "--runtime-dir", "/rt", "--color=never", "x.smp"});
  REQUIRE(p.status == -1);
  CHECK(p.o.emit == EmitKind::Ir);
  CHECK(p.o.dumpAfter == std::vector<std::string>{"sccp"});
  CHECK(p.o.seed == 7);
  CHECK(p.o.runtimeDir == "/rt");
  CHECK(parse({"--emit=asm", "--emit=mir", "x.smp"}).o.emit == EmitKind::Mir);
  CHECK(parse({"--emit=bin", "x.smp"}).err ==
        "simplec: error: invalid argument 'bin' to '--emit' (one of tokens, ir, dot, sched, mir, asm, html)\n");
  CHECK(parse({"--run=yes", "x.smp"}).err == "simplec: error: option '--run' takes no argument\n");
  CHECK(parse({"--seed=x1", "x.smp"}).err == "simplec: error: invalid seed 'x1' (a number)\n");
  CHECK(parse({"--dump-after=nothing", "x.smp"}).err == "simplec: error: unknown pass 'nothing' for --dump-after\n");
}

TEST_CASE("unknown options: an error with the closest known spelling") {
  Parsed p = parse({"--emti=asm", "x.smp"});
  CHECK(p.status == 2);
  CHECK(p.err == "simplec: error: unrecognized command-line option '--emti=asm'; did you mean '--emit'?\n");
  CHECK(parse({"--verfy-each", "x.smp"}).err ==
        "simplec: error: unrecognized command-line option '--verfy-each'; did you mean '--verify-each'?\n");
  CHECK(parse({"--MD", "x.smp"}).err == "simplec: error: unrecognized command-line option '--MD'; did you mean '-MD'?\n");
  CHECK(parse({"-q", "x.smp"}).err == "simplec: error: unrecognized command-line option '-q'\n");
  CHECK(parse({}).err == "simplec: error: no input files\n");
  CHECK(parse({"-lm"}).err == "simplec: error: no input files\n");
}

TEST_CASE("arguments after -- belong to the program, even ones that look like options") {
  Parsed p = parse({"--run", "x.smp", "--", "-o", "@file", "--"});
  REQUIRE(p.status == -1);
  CHECK(p.o.output.empty());
  CHECK(p.o.runArgs == std::vector<std::string>{"-o", "@file", "--"});
}

TEST_CASE("--help, --version and -dumpversion print and stop") {
  Parsed h = parse({"--help"});
  CHECK(h.status == 0);
  CHECK(h.out.find("  -Wl,ARG[,ARG...]") != std::string::npos);
  CHECK(h.out.find("parentheses, unreachable-code") != std::string::npos);  // the warning names
  CHECK(parse({"-h"}).out == h.out);
  std::string version = parse({"-dumpversion"}).out;  // "0.1.0\n"
  CHECK(version.find_first_not_of("0123456789.\n") == std::string::npos);
  CHECK(parse({"--version", "x.smp"}).out == "simplec " + version);
  Parsed v = parse({"-v"});  // gcc -v alone: the version, status 0
  CHECK(v.status == 0);
  CHECK(v.err == "simplec version " + version);
}

TEST_CASE("warning flags apply in order; unknown names are reported") {
  Parsed p = parse({"-Wno-parentheses", "-Wparentheses", "-Wbogus", "x.smp"});
  REQUIRE(p.status == -1);
  CHECK(p.o.warnings.enabled(Warn::Parentheses));
  CHECK(p.err == "simplec: warning: unknown warning option '-Wbogus'\n");
  CHECK(parse({"-Wbogus", "-w", "x.smp"}).err.empty());
}

TEST_CASE("@FILE arguments are read before parsing; a '--' in one ends the options") {
  char dir[] = "/tmp/simplec-cl-XXXXXX";
  REQUIRE(mkdtemp(dir));
  std::string rsp = std::string(dir) + "/args.rsp";
  std::ofstream(rsp) << "-O1 'my prog.smp' -o out -- x 'y z'";
  Parsed p = parse({"-c", "@" + rsp, "-w", "--", "last"});
  unlink(rsp.c_str());
  rmdir(dir);
  REQUIRE(p.status == -1);
  CHECK(p.o.optLevel == 1);
  CHECK(order(p.o) == std::vector<std::string>{"my prog.smp"});
  CHECK(p.o.output == "out");
  CHECK_FALSE(p.o.warnings.silenced());  // -w came after the file's "--"
  CHECK(p.o.runArgs == std::vector<std::string>{"x", "y z", "-w", "last"});
}
