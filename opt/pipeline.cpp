// The pass table and its driver.
#include "opt/pipeline.h"

#include <cstring>
#include <optional>

#include "lexer/diag.h"
#include "opt/bounds_check_elim.h"
#include "opt/dead_store_elim.h"
#include "opt/inline.h"
#include "opt/iterate.h"
#include "opt/load_elim.h"
#include "opt/narrow.h"
#include "opt/scalar_replace.h"
#include "opt/sccp.h"
#include "opt/split_if.h"
#include "opt/tail_recursion.h"
#include "opt/unused_funs.h"
#include "opt/zero_check_elim.h"
#include "son/evaluator.h"
#include "son/printer.h"
#include "son/verify.h"

namespace simplec {

namespace {

void runPeepholes(Graph& g, const PassOptions& o) { iterPeeps(g, o.seed, o.checkFixedPoint); }
void runSccp(Graph& g, const PassOptions&) { sccp(g); }
void runZeroCheckElim(Graph& g, const PassOptions&) { zeroCheckElim(g); }
void runInline(Graph& g, const PassOptions&) { inlineCalls(g); }
void runBoundsCheckElim(Graph& g, const PassOptions&) { boundsCheckElim(g); }
void runLoadElim(Graph& g, const PassOptions&) { loadElim(g); }
void runDeadStoreElim(Graph& g, const PassOptions&) { deadStoreElim(g); }
void runNarrow(Graph& g, const PassOptions&) { insertNarrowingCasts(g); }
void runTailRec(Graph& g, const PassOptions&) { eliminateTailRecursion(g); }
void runSplitIf(Graph& g, const PassOptions&) { splitIfs(g); }
void runIdleCasts(Graph& g, const PassOptions&) { removeIdleCasts(g); }
void runUnusedFuns(Graph& g, const PassOptions&) { removeUnusedFunctions(g); }
void runScalarReplace(Graph& g, const PassOptions&) { scalarReplace(g); }

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
  eo.fileName = o.checkFile;
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

// A hash of what the evaluator runs: the live nodes and edges, and the
// values of constants (other types, beyond their kind, do not change what
// the evaluator computes).
// --check-passes evaluates again only after a pass that changed it (not
// after one that only refines types), evaluation being far slower than this.
uint64_t fingerprint(const Graph& g) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  for (const Node* n : liveNodes(g)) {
    mix(n->id);
    mix(uint64_t(n->op));
    if (n->op == Op::Con) mix(uint64_t(reinterpret_cast<uintptr_t>(n->type)));
    else mix(n->type ? uint64_t(n->type->kind()) : ~0ull);  // memory or not
    mix(uint64_t(n->aux));
    for (const Node* d : n->in) mix(d ? d->id : ~0ull);
  }
  for (const FunInfo& f : g.funs) mix(f.ret ? f.ret->id : ~0ull);
  return h;
}

}  // namespace

const std::vector<Pass>& passTable() {
  static const std::vector<Pass> table = {
      // First, so that the analyses see callers' arguments inside the copies.
      {"inline", runInline, 2, {}},
      // Before sccp narrows parameter types: their Phis take the declared type.
      {"tailrec", runTailRec, 2, {}},
      // Before narrow: its Casts would pin data to the arms.
      {"split-if", runSplitIf, 2, {}},
      // Casts below branches, for the analysis to narrow ranges by.
      {"narrow", runNarrow, 2, {}},
      // After inline: objects passed to inlined callees stay local. Before
      // sccp and the peepholes, which fold the fields' values and Phis.
      {"scalar-replace", runScalarReplace, 2, {"inline"}},
      // The analysis only lowers types; the peepholes then rewrite by them.
      {"sccp", runSccp, 2, {}},
      {"peephole", runPeepholes, 1, {"sccp"}},
      // After the peepholes, so that equal divisors are one node.
      {"zerocheck", runZeroCheckElim, 2, {"peephole"}},
      // After the peepholes: equal addresses and memory states are one node.
      {"loadelim", runLoadElim, 2, {"peephole"}},
      // After loadelim: an array read from a field twice is one array.
      {"boundscheck", runBoundsCheckElim, 2, {"loadelim"}},
      // After loadelim: loads it removed no longer keep stores alive.
      {"deadstores", runDeadStoreElim, 2, {"loadelim"}},
      {"idle-casts", runIdleCasts, 2, {"peephole"}},
      // Last: calls in dead code are gone, inlined callees have no calls left.
      {"unused-funs", runUnusedFuns, 1, {"peephole"}},
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
  // The dump first: it shows a graph that fails verification.
  maybeDump(g, opts, "parse");
  if (opts.verifyEach) verifyOrThrow(g, "parse");
}

void runPipeline(Graph& g, const PassOptions& opts) {
  std::optional<EvalResult> reference;
  uint64_t checked = 0;  // fingerprint of the graph last evaluated
  if (opts.checkPasses) {
    reference = evaluateAfter(g, opts, "parse");
    checked = fingerprint(g);
  }
  for (const Pass& p : passTable()) {
    if (opts.optLevel < p.minLevel) continue;
    try {
      p.run(g, opts);
    } catch (InternalError& e) {
      if (e.pass.empty() || e.pass == "graph") e.pass = p.name;
      throw;
    }
    maybeDump(g, opts, p.name);
    if (opts.verifyEach) verifyOrThrow(g, p.name);
    if (reference) {
      uint64_t now = fingerprint(g);
      if (now != checked) checkBehaviour(*reference, evaluateAfter(g, opts, p.name), p.name);
      checked = now;
    }
  }
}

}  // namespace simplec
