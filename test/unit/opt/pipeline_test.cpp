// Tests for the pass table and driver (opt/pipeline.h): the table is in a
// valid order, -O0 skips the peepholes and -O2 runs them (sweeping what they
// leave unreachable), --dump-after prints the named pass's graph, and
// --verify-each turns a broken graph into an InternalError naming the pass
// that left it broken.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "lexer/diag.h"
#include "lexer/pass_timer.h"
#include "lexer/work_counters.h"
#include "opt/pipeline.h"
#include "parser/parser.h"
#include "son/control_flow.h"
#include "son/evaluator.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;
using simplec::sontest::verifyText;

namespace {

// f(x) = (x + 1) + 2, built without peepholes; with `garbage`, plus a node
// unreachable from Stop. f is exported, else -O2 would remove it as unused.
void build(Unit& g, bool garbage) {
  SonBuilder b(g, "f", 1);
  b.ret(b.fun, b.add(b.add(b.parm(0), b.con(1)), b.con(2)));
  g.funs[0].isGlobal = true;
  if (garbage) b.con(99);
}

const char* kRaw =
    "fun f:\n"
    "  %1 = Fun f Start : ctrl\n"
    "  %2 = Parm mem %1 : mem\n"
    "  %3 = Parm 0 %1 : int\n"
    "  %4 = Con 1 Start\n"
    "  %5 = Add _, %3, %4 : int\n"
    "  %6 = Con 2 Start\n"
    "  %7 = Add _, %5, %6 : int\n"
    "  %8 = Return %1, %2, %7 : ctrl\n";

const char* kOptimized =
    "fun f:\n"
    "  %1 = Fun f Start : ctrl\n"
    "  %2 = Parm mem %1 : mem\n"
    "  %3 = Parm 0 %1 : int\n"
    "  %4 = Con 3 Start\n"
    "  %5 = Add _, %3, %4 : int\n"
    "  %6 = Return %1, %2, %5 : ctrl\n";

// Everything written to a FILE*.
struct Capture {
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  ~Capture() {
    std::fclose(f);
    std::free(buf);
  }
  std::string text() {
    std::fflush(f);
    return std::string(buf, len);
  }
};

// The unit of `src` as the parser leaves it.
void parseInto(Unit& u, const std::string& src) {
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, u));
}

}  // namespace

TEST_CASE("opt/pipeline: the pass table", "[opt][pipeline]") {
  REQUIRE_NOTHROW(checkPassOrder());
  CHECK(isPassName("parse"));
  CHECK(isPassName("peephole"));
  CHECK_FALSE(isPassName("bogus"));
  CHECK_FALSE(isPassName(""));
  // Every name is unique, and every pass a table entry depends on comes first.
  const auto& t = passTable();
  for (size_t i = 0; i < t.size(); i++) {
    CHECK(isPassName(t[i].name));
    for (size_t j = 0; j < i; j++) CHECK(std::string(t[i].name) != t[j].name);
  }
}

TEST_CASE("opt/pipeline: -O0 leaves the graph alone, -O2 optimizes", "[opt][pipeline]") {
  PassOptions o;
  o.verifyEach = true;
  SECTION("-O0") {
    Unit g;
    build(g, false);
    o.optLevel = 0;
    runPipeline(g, o);
    CHECK(printGraph(g) == kRaw);
    CHECK(verifyText(g) == "");
  }
  SECTION("-O2") {
    Unit g;
    build(g, true);  // the peepholes also sweep what is unreachable
    o.optLevel = 2;
    o.checkFixedPoint = true;
    runPipeline(g, o);
    CHECK(printGraph(g) == kOptimized);
    CHECK(verifyText(g) == "");
  }
}

TEST_CASE("opt/pipeline: graphs reach code generation compact, with nothing cached", "[opt][pipeline]") {
  // Every function's graph waits for code generation: what the optimizer
  // cached or left dead must not wait with it.
  for (int level : {0, 1, 2}) {
    Unit g;
    build(g, true);
    PassOptions o;
    o.optLevel = level;
    runPipeline(g, o);
    CHECK(g.funs[0].graph->deadCount() == 0);
    CHECK(cachedControlFlowBytes(*g.funs[0].graph) == 0);
  }
}

TEST_CASE("opt/pipeline: --dump-after prints the graph after the named passes", "[opt][pipeline]") {
  Unit g;
  build(g, false);
  Capture out;
  PassOptions o;
  o.dumpOut = out.f;
  o.dumpAfter = {"parse", "peephole"};
  afterParse(g, o);
  runPipeline(g, o);
  CHECK(out.text() == std::string("// after parse\n") + kRaw + "// after peephole\n" + kOptimized);
}

TEST_CASE("opt/pipeline: --verify-each names the pass that broke the graph", "[opt][pipeline]") {
  // A parser Scope node left hooked to Stop survives every pass.
  Unit g;
  SonBuilder b(g, "f", 0);
  b.ret(b.fun, b.con(0));
  b.g.addDef(b.g.stop(), b.g.make(Op::Scope, {b.fun, b.mem}, Type::bottom()));
  PassOptions o;
  o.verifyEach = true;
  SECTION("after parse") {
    try {
      afterParse(g, o);
      FAIL("no error");
    } catch (InternalError& e) {
      CHECK(e.pass == "parse");
      CHECK(std::string(e.what()).find("graph verification failed after 'parse'") != std::string::npos);
      CHECK(std::string(e.what()).find("a parser scope survived") != std::string::npos);
    }
  }
  SECTION("after the peepholes") {
    o.optLevel = 1;  // the peepholes are the first pass at -O1
    try {
      runPipeline(g, o);
      FAIL("no error");
    } catch (InternalError& e) {
      CHECK(e.pass == "peephole");
      CHECK(std::string(e.what()).find("graph verification failed after 'peephole'") != std::string::npos);
    }
  }
  SECTION("without --verify-each nothing is checked") {
    o.verifyEach = false;
    CHECK_NOTHROW(afterParse(g, o));
    CHECK_NOTHROW(runPipeline(g, o));
  }
}

TEST_CASE("opt/pipeline: a function at a time or a pass at a time, the same graphs", "[opt][pipeline]") {
  // Loops, arrays, structs, calls, branches in several functions: every
  // stretch of per-function passes has work in each of them.
  const char* src = R"(
struct P { int x; flt y; };
val sum = { int[] a -> int s = 0; for (int i = 0; i < a#; i++) s = s + a[i] * 3; return s; };
val mk = { int n -> int[] a = new int[n]; for (int i = 0; i < n; i++) a[i] = i * i % 7; return a; };
val pick = { int x, int b -> if (x > b) return x - b; P p = new P { x = b; y = 0.5; }; return p.x + int(p.y * 4.0); };
val dot = { flt[] a, flt[] b -> flt s = 0.0; for (int i = 0; i < a#; i++) s = s + a[i] * b[i]; return s; };
flt[] v = new flt[16];
for (int i = 0; i < v#; i++) v[i] = flt(i) * 0.25;
int t = sum(mk(arg + 9)) + pick(arg, 3) + int(dot(v, v));
return t & 127;
)";
  for (int level : {1, 2}) {
    INFO("-O" << level);
    std::string graphs[2];
    std::string nodes[2];
    for (int passByPass : {0, 1}) {
      Unit u;
      parseInto(u, src);
      PassTimer timer;
      PassOptions o;
      o.optLevel = level;
      o.passByPass = passByPass;
      o.timer = &timer;
      runPipeline(u, o);
      graphs[passByPass] = printGraph(u);
      CHECK(verifyText(u) == "");
      // The live-node column of --time-passes (the times differ).
      std::string report = timer.report("t");
      for (size_t at = report.find('\n'); at != std::string::npos; at = report.find('\n', at + 1)) {
        std::string line = report.substr(at + 1, report.find('\n', at + 1) - at - 1);
        char name[64];
        double secs, share;
        long live;
        if (std::sscanf(line.c_str(), " %63s %lf %lf%% %ld", name, &secs, &share, &live) == 4)
          nodes[passByPass] += std::string(name) + " " + std::to_string(live) + "\n";
      }
    }
    CHECK(graphs[0] == graphs[1]);
    CHECK(nodes[0] == nodes[1]);
    CHECK(nodes[0].find("peephole") != std::string::npos);
  }
}

TEST_CASE("opt/pipeline: on one thread or several, the same graphs", "[opt][pipeline][threads]") {
  // Many functions of different sizes and kinds (loops, arrays, structs,
  // floats, narrow integers, branches, calls), so that threads take them in
  // varying order and every per-function pass has work in several at once.
  std::string src = "struct P { int x; flt y; P? next; };\n";
  for (int i = 0; i < 40; i++) {
    std::string k = std::to_string(i);
    src += "val fn" + k + " = { int a, int[] v ->\n  P p = new P { x = a + " + k + "; y = flt(a) * 0.5; };\n";
    src += "  int t = p.x;\n  u8 b = a;\n";
    for (int j = 0; j < i % 5; j++)
      src += "  for (int i = 0; i < v#; i++) { v[i] = v[i] + i * " + std::to_string(j + 2) + "; t = t + v[i] % 9; }\n";
    if (i % 3 == 0) src += "  if (t > 50) p.x = t; else p.y = p.y * 2.0;\n";
    if (i % 4 == 1) src += "  P q = new P { x = t; y = 1.5; next = p; };\n  P? n = q.next;\n  if (n) t = t + n.x;\n";
    if (i > 0) src += "  if (a > 100) t = t + fn" + std::to_string(i / 2) + "(a / 2, v);\n";
    src += "  return t + b + p.x + int(p.y);\n};\n";
  }
  src += "int[] v = new int[8];\nint s = 0;\n";
  for (int i = 0; i < 40; i++) src += "s = s + fn" + std::to_string(i) + "(arg + " + std::to_string(i) + ", v);\n";
  src += "return s & 127;\n";
  for (int level : {1, 2}) {
    INFO("-O" << level);
    std::string graphs[3];
    WorkCounters counts[3];
    int jobs[3] = {1, 2, 4};
    for (int r = 0; r < 3; r++) {
      Unit u;
      parseInto(u, src);
      PassOptions o;
      o.optLevel = level;
      o.jobs = jobs[r];
      WorkCounters before = workCounters();
      runPipeline(u, o);
      counts[r] = workCounters();
      counts[r].peepholeSteps -= before.peepholeSteps;
      counts[r].nodesMade -= before.nodesMade;
      graphs[r] = printGraph(u);
      CHECK(verifyText(u) == "");
    }
    CHECK(graphs[1] == graphs[0]);
    CHECK(graphs[2] == graphs[0]);
    // The workers' counts are kept: the same work, whoever did it.
    CHECK(counts[1].peepholeSteps == counts[0].peepholeSteps);
    CHECK(counts[2].nodesMade == counts[0].nodesMade);
  }
}

TEST_CASE("opt/pipeline: a loop Phi whose range grows by one per visit widens at once", "[opt][pipeline]") {
  // (s & k) + 1 around the loop, k's range wider than s's: once the
  // peepholes had narrowed s's Phi below what sccp found, each visit widened
  // it by one value, and -O2 stopped with "peepholes did not reach a fixed
  // point" (differential fuzzer, seed 720222, reduced). The Phi's range
  // widens by steps a few times, then to the end of the int range.
  const char* src = "int s = 2;\nval n = s;\nfor (int i = 0; i < n; i++) { s &= (i * 0x11e); s += 1; }\nsys.io.p(s);\n";
  for (uint64_t seed : {uint64_t(0), uint64_t(1), uint64_t(792092)}) {
    INFO("seed " << seed);
    Unit u;
    parseInto(u, src);
    PassOptions o;
    o.seed = seed;
    o.checkFixedPoint = true;
    REQUIRE_NOTHROW(runPipeline(u, o));
    CHECK(verifyText(u) == "");
    CHECK(evaluateProgram(u, 1, EvalOptions{}).out == "1");
  }
}
