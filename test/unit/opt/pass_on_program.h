// Test helpers for one -O2 pass on a parsed program. runPassOnProgram: the
// program goes through the passes that come before the pass in the pass
// table, then through the pass itself; the count of some node kind is taken
// before and after, and the graph must still verify. passKeepsBehaviour: the
// pass runs on the parsed program alone, and main must print, return and
// fail the same before and after (the graph evaluator).
#pragma once
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <string>

#include "lexer/diag.h"
#include "lexer/work_counters.h"
#include "opt/pipeline.h"
#include "parser/parser.h"
#include "son/evaluator.h"
#include "test/unit/son/graph_builder.h"

namespace simplec::opttest {

struct PassResult {
  int before;  // nodes counted when the pass starts
  int left;    // after it
};

// Runs the passes of the table that come before `pass` on the unit.
inline void runPassesBefore(Unit& u, const char* pass) {
  PassOptions o;
  for (const Pass& p : passTable()) {
    if (std::strcmp(p.name, pass) == 0) break;
    if (p.runUnit) {
      p.runUnit(u, o);
    } else {
      for (FunInfo& f : u.funs)
        if (f.hasBody()) p.runFunction(*f.graph, o);
    }
  }
}

// Parses src into u and runs the passes of the table that come before
// `pass` on it. (The unit does not keep the source file.)
inline void parseUpTo(Unit& u, const std::string& src, const char* pass) {
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, u));
  runPassesBefore(u, pass);
}

// Two runs of main print, fail and return the same.
inline void checkSameRun(const EvalResult& before, const EvalResult& now) {
  CHECK(evalDifference(before, now) == "");
  CHECK(before.out == now.out);
  CHECK(before.error == now.error);
  CHECK(before.returnValue == now.returnValue);
}

// The work a loop pass does on `src` (parsed, then the passes before
// `pass`): loop analysis steps and nodes made; the pass must take
// `expectLoops` loops and leave a verified graph. Tests compare it on
// programs of m and 4m loops to see it grow linearly.
inline uint64_t loopPassWork(const std::string& src, const char* pass, const std::function<int(Graph&)>& runPass,
                             int expectLoops) {
  Unit u;
  parseUpTo(u, src, pass);
  workCounters() = WorkCounters{};
  CHECK(sontest::onEachFunction(u, runPass) == expectLoops);
  CHECK(sontest::verifyText(u) == "");
  return workCounters().loopOptSteps + workCounters().nodesMade;
}

// The peephole steps a pass takes on function f(params) whose body is k
// lines of straight-line code on t (starting from an int parameter x), then
// `tail`; the pass must do something and leave a verified graph. Tests
// compare k = 100 and 1000: a pass's clean-up must stay with what it changed.
inline uint64_t peepholeStepsAfterLines(const std::string& params, int k, const std::string& tail,
                                        const char* pass, const std::function<int(Graph&)>& runPass) {
  std::string s = "val f = { " + params + " -> int t = x;\n";
  for (int i = 0; i < k; i++) s += "  t = (t ^ " + std::to_string(i + 1) + ") * x + " + std::to_string(i) + ";\n";
  Unit u;
  parseUpTo(u, s + tail, pass);
  workCounters() = WorkCounters{};
  CHECK(sontest::onEachFunction(u, runPass) >= 1);
  CHECK(sontest::verifyText(u) == "");
  return workCounters().peepholeSteps;
}

// peepholeStepsAfterLines at 100 and 1000 lines: some work, the same for
// ten times the code around the change (within 1.5x). Returns the first.
inline uint64_t checkPeepholeStepsFlat(const std::string& params, const std::string& tail, const char* pass,
                                       const std::function<int(Graph&)>& runPass) {
  uint64_t small = peepholeStepsAfterLines(params, 100, tail, pass, runPass);
  uint64_t large = peepholeStepsAfterLines(params, 1000, tail, pass, runPass);
  INFO("peephole steps: " << small << " after 100 lines, " << large << " after 1000");
  CHECK(small > 0);
  CHECK(double(large) / double(small) < 1.5);
  return small;
}

// `runPass` runs the pass on one function and returns how many nodes it removed.
inline PassResult runPassOnProgram(const std::string& src, const char* pass,
                                   const std::function<int(const Unit&)>& count,
                                   const std::function<int(Graph&)>& runPass) {
  Unit u;
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, u));
  runPassesBefore(u, pass);
  PassResult r{count(u), 0};
  int removed = sontest::onEachFunction(u, runPass);
  CHECK(sontest::verifyText(u) == "");
  r.left = count(u);
  CHECK(removed == r.before - r.left);
  return r;
}

// Parses `src` into `g`, runs `pass` (returning what it did, a count), and
// checks that the graph verifies and main(argc) behaves as before; returns
// the pass's count and, in `after`, the run after the pass.
inline int passKeepsBehaviour(Unit& g, const std::string& src, const std::function<int(Graph&)>& pass,
                              int64_t argc = 1, EvalResult* after = nullptr) {
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
  EvalResult before = evaluateProgram(g, argc, EvalOptions{});
  int n = sontest::onEachFunction(g, pass);
  CHECK(sontest::verifyText(g) == "");
  EvalResult now = evaluateProgram(g, argc, EvalOptions{});
  checkSameRun(before, now);
  if (after) *after = now;
  return n;
}

}  // namespace simplec::opttest
