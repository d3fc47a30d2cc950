// The pass table and its driver.
#include "opt/pipeline.h"

#include <cstring>
#include <optional>

#include "lexer/diag.h"
#include "opt/iterate.h"
#include "opt/sccp.h"
#include "opt/zero_check_elim.h"
#include "son/evaluator.h"
#include "son/printer.h"
#include "son/verify.h"

namespace simplec {

namespace {

void runPeepholes(Graph& g, const PassOptions& o) { iterPeeps(g, o.seed, o.checkFixedPoint); }
void runSccp(Graph& g, const PassOptions&) { sccp(g); }
void runZeroCheckElim(Graph& g, const PassOptions&) { zeroCheckElim(g); }

void verifyOrThrow(const Graph& g, const std::string& pass) {
  std::vector<std::string> errs = verify(g);
  if (errs.empty()) return;
  std::string msg = "graph verification failed after '" + pass + "': " + errs[0];
  if (errs.size() > 1) msg += " (and " + std::to_string(errs.size() - 1) + " more)";
  internalError(pass, msg);
}

void maybeDump(const Graph& g, const PassOptions& o, const std::string& pass) {
  for (const auto& d : o.dumpAfter)
    if (d == pass) {
      std::string text = printGraph(g);
      std::fprintf(o.dumpOut, "// after %s\n%s", pass.c_str(), text.c_str());
    }
}

// The entry function's behaviour on this graph (--check-passes). A graph the
// evaluator rejects is the fault of the pass that produced it.
EvalResult evaluateAfter(const Graph& g, const PassOptions& o, const std::string& pass) {
  EvalOptions eo;
  eo.fileName = eo.programName = o.checkFile;
  try {
    return evaluateProgram(g, o.checkArgc, eo);
  } catch (InternalError& e) {
    internalError(pass, "--check-passes: evaluating the graph after '" + pass + "' failed: " + e.what());
  }
}

void checkBehaviour(const EvalResult& before, const EvalResult& after, const std::string& pass) {
  std::string diff = evalDifference(before, after);
  if (!diff.empty())
    internalError(pass, "--check-passes: pass '" + pass + "' changed the program's behaviour: " + diff);
}

}  // namespace

const std::vector<Pass>& passTable() {
  static const std::vector<Pass> table = {
      // The analysis only lowers types; the peepholes then rewrite by them.
      {"sccp", runSccp, 2, {}},
      {"peephole", runPeepholes, 1, {"sccp"}},
      // After the peepholes, so that equal divisors are one node.
      {"zerocheck", runZeroCheckElim, 2, {"peephole"}},
  };
  return table;
}

void checkPassOrder() {
  const auto& t = passTable();
  for (size_t i = 0; i < t.size(); i++)
    for (const char* before : t[i].after) {
      bool found = false;
      for (size_t j = 0; j < i; j++) found |= std::strcmp(t[j].name, before) == 0;
      SIMPLEC_CHECK(found, "pipeline", std::string("pass '") + t[i].name + "' must follow '" + before + "'");
    }
}

bool isPassName(const std::string& name) {
  if (name == "parse") return true;
  for (const Pass& p : passTable())
    if (name == p.name) return true;
  return false;
}

void afterParse(Graph& g, const PassOptions& opts) {
  if (opts.verifyEach) verifyOrThrow(g, "parse");
  maybeDump(g, opts, "parse");
}

void runPipeline(Graph& g, const PassOptions& opts) {
  std::optional<EvalResult> reference;
  if (opts.checkPasses) reference = evaluateAfter(g, opts, "parse");
  for (const Pass& p : passTable()) {
    if (opts.optLevel < p.minLevel) continue;
    try {
      p.run(g, opts);
    } catch (InternalError& e) {
      if (e.pass.empty() || e.pass == "graph") e.pass = p.name;
      throw;
    }
    if (opts.verifyEach) verifyOrThrow(g, p.name);
    maybeDump(g, opts, p.name);
    if (reference) checkBehaviour(*reference, evaluateAfter(g, opts, p.name), p.name);
  }
}

}  // namespace simplec
