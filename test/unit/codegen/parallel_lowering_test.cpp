// Lowering on several threads (LowerOptions::jobs, -j): the sink gets the
// same functions in the same order as on one thread, whatever the threads
// did first; what the workers recorded (float constants, work counts) is
// kept; a sink that stops or throws stops the workers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "codegen/lower.h"
#include "lexer/worker_threads.h"
#include "lexer/diag.h"
#include "lexer/work_counters.h"
#include "test/unit/optimized_program.h"

using namespace simplec;
using simplec::test::optimizeProgram;

namespace {

// n functions of different sizes (so that threads finish out of order),
// each with its own float constant, and main calling them; recursive, so
// that they are not inlined away.
std::string program(int n) {
  std::string s = "struct P { int x; flt y; };\n";
  for (int i = 0; i < n; i++) {
    std::string k = std::to_string(i);
    s += "val g" + k + " = { int a ->\n  P p = new P { x = a * " + k + "; y = flt(a) * " + k + ".125; };\n";
    s += "  int t = p.x;\n";
    for (int j = 0; j < i % 7; j++) s += "  for (int k = 0; k < a; k++) t = t + k * " + std::to_string(j + 1) + ";\n";
    s += "  if (a > 1000) t = t + g" + k + "(a / 3) * 2;\n";
    s += "  return t + int(p.y);\n};\n";
  }
  s += "int s = 0;\n";
  for (int i = 0; i < n; i++) s += "s = s + g" + std::to_string(i) + "(arg);\n";
  return s + "return s & 127;\n";
}

// Lowering as the driver does it: graphs dropped as functions are done.
LowerOptions oneByOne(int jobs) {
  LowerOptions lo;
  lo.dropGraphs = true;
  lo.jobs = jobs;
  return lo;
}

// The sink saw the first functions of the unit, in order.
void checkFirstOf(const std::vector<std::string>& seen, const std::vector<std::string>& names) {
  REQUIRE(seen.size() <= names.size());
  for (size_t i = 0; i < seen.size(); i++) CHECK(seen[i] == names[i]);
}

struct Lowered {
  std::string text;  // the module as --emit=mir prints it
  WorkCounters counts;
};

Lowered lower(const std::string& src, int jobs) {
  Unit u;
  optimizeProgram(u, src);
  LowerOptions lo = oneByOne(jobs);
  WorkCounters before = workCounters();
  Lowered r;
  r.text = mir::print(lowerUnit(u, "t.smp", lo));
  r.counts = workCounters();
  r.counts.liveNodeVisits -= before.liveNodeVisits;
  r.counts.liveSetEntries -= before.liveSetEntries;
  r.counts.antiDepVisits -= before.antiDepVisits;
  return r;
}

}  // namespace

TEST_CASE("functions lowered on several threads come out as on one", "[lower][jobs]") {
  std::string src = program(40);
  Lowered one = lower(src, 1);
  REQUIRE(one.text.find("function g39") != std::string::npos);
  // The float constants of the functions (1.125 is g1's) are in the module's
  // read-only data, whichever thread recorded them.
  REQUIRE(one.text.find(IselContext::floatLabel(0x3FF2000000000000)) != std::string::npos);
  for (int jobs : {2, 3, 8}) {
    Lowered many = lower(src, jobs);
    INFO("jobs " << jobs);
    CHECK(many.text == one.text);
    // The workers' counts are added to the caller's thread's.
    CHECK(many.counts.liveNodeVisits == one.counts.liveNodeVisits);
    CHECK(many.counts.liveSetEntries == one.counts.liveSetEntries);
    CHECK(many.counts.antiDepVisits == one.counts.antiDepVisits);
  }
}

TEST_CASE("a sink that stops or throws stops the lowering", "[lower][jobs]") {
  std::string src = program(30);
  for (int jobs : {1, 3}) {
    INFO("jobs " << jobs);
    Unit u;
    optimizeProgram(u, src);
    UnitLowering l(u, "t.smp", oneByOne(jobs));
    std::vector<std::string> names = l.functionNames();  // before graphs go
    std::vector<std::string> seen;
    bool all = l.lowerFunctions([&](mir::MFunction&& f) {
      seen.push_back(f.name);
      return seen.size() < 5;
    });
    CHECK_FALSE(all);
    REQUIRE(seen.size() == 5);
    checkFirstOf(seen, names);

    Unit u2;
    optimizeProgram(u2, src);
    UnitLowering l2(u2, "t.smp", oneByOne(jobs));
    size_t calls = 0;
    CHECK_THROWS_WITH(l2.lowerFunctions([&](mir::MFunction&&) -> bool {
      if (++calls == 3) throw std::runtime_error("sink failed");
      return true;
    }),
                      "sink failed");
    CHECK(calls == 3);
  }
}

TEST_CASE("a function that fails to lower is reported in its turn", "[lower][jobs]") {
  // g7's Return made unreachable: gcm refuses it. Workers may get to later
  // functions first; the error still comes after the functions before g7
  // reached the sink, and it names g7, as on one thread.
  std::string src = program(20);
  for (int jobs : {1, 2, 4}) {
    INFO("jobs " << jobs);
    Unit u;
    optimizeProgram(u, src);
    int bad = simplec::test::functionIndex(u, "g7");
    Graph& g = *u.graph(bad);
    Node* ret = u.funs[size_t(bad)].ret;
    REQUIRE(ret);
    g.setDef(ret, 0, g.make(Op::Region, {nullptr, g.con(Type::xctrl())}, Type::ctrl()));
    UnitLowering l(u, "t.smp", oneByOne(jobs));
    std::vector<std::string> names = l.functionNames();
    std::vector<std::string> seen;
    std::string what;
    try {
      l.lowerFunctions([&](mir::MFunction&& f) {
        seen.push_back(f.name);
        return true;
      });
    } catch (const InternalError& e) {
      what = e.what();
    }
    CHECK(what.find("function 'g7'") != std::string::npos);
    size_t before = size_t(std::find(names.begin(), names.end(), "g7") - names.begin());
    REQUIRE(before >= 7);  // g0..g6 at least come first
    REQUIRE(before < names.size());
    REQUIRE(seen.size() == before);
    checkFirstOf(seen, names);
  }
}

TEST_CASE("worker threads run each body once", "[lower][jobs]") {
  std::atomic<int> ran{0};
  std::vector<int> hits(6, 0);
  {
    WorkerThreads t(6, [&](int i) {
      hits[size_t(i)]++;
      ran++;
    });
    CHECK(t.started() == 6);
    t.join();
    CHECK(ran == 6);
  }
  for (int h : hits) CHECK(h == 1);
  CHECK(availableCores() >= 1);
}
