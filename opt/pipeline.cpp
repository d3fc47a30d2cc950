// The pass table and its driver.
#include "opt/pipeline.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <optional>

#include "lexer/diag.h"
#include "lexer/worker_threads.h"
#include "opt/bounds_check_elim.h"
#include "opt/dead_store_elim.h"
#include "opt/if_convert.h"
#include "opt/inline.h"
#include "opt/iterate.h"
#include "opt/load_elim.h"
#include "opt/load_hoist.h"
#include "opt/loop_versioning.h"
#include "opt/narrow.h"
#include "opt/scalar_replace.h"
#include "opt/sccp.h"
#include "opt/split_compares.h"
#include "opt/split_if.h"
#include "opt/strength_reduce.h"
#include "opt/tail_recursion.h"
#include "opt/unused_funs.h"
#include "opt/vectorize.h"
#include "opt/zero_check_elim.h"
#include "son/control_flow.h"
#include "son/evaluator.h"
#include "son/printer.h"
#include "son/shared_graphs.h"
#include "son/verify.h"

namespace simplec {

namespace {

void runPeepholes(Graph& g, const PassOptions& o) { iterPeeps(g, o.seed, o.checkFixedPoint); }
void runSccp(Unit& u, const PassOptions&) { sccp(u); }
void runZeroCheckElim(Graph& g, const PassOptions&) { zeroCheckElim(g); }
void runInline(Unit& u, const PassOptions&) { inlineCalls(u); }
void runSelfInline(Unit& u, const PassOptions&) { inlineSelfCalls(u); }
void runBoundsCheckElim(Graph& g, const PassOptions&) { boundsCheckElim(g); }
void runLoadElim(Graph& g, const PassOptions&) { loadElim(g); }
void runDeadStoreElim(Graph& g, const PassOptions&) { deadStoreElim(g); }
void runNarrow(Graph& g, const PassOptions&) { insertNarrowingCasts(g); }
void runTailRec(Graph& g, const PassOptions&) { eliminateTailRecursion(g); }
void runSplitIf(Graph& g, const PassOptions&) { splitIfs(g); }
void runIdleCasts(Graph& g, const PassOptions&) { removeIdleCasts(g); }
void runIfConvert(Graph& g, const PassOptions&) { convertIfs(g); }
void runUnusedFuns(Unit& u, const PassOptions&) { removeUnusedFunctions(u); }
void runScalarReplace(Graph& g, const PassOptions&) { scalarReplace(g); }
void runHoistLoads(Graph& g, const PassOptions& o) { hoistLoads(g, o.seed); }
void runStrengthReduce(Graph& g, const PassOptions& o) { strengthReduce(g, o.seed); }
void runLoopVersioning(Graph& g, const PassOptions& o) { versionLoops(g, o.seed); }
void runVectorize(Graph& g, const PassOptions& o) { vectorizeLoops(g, o.seed); }
void runSplitCompares(Graph& g, const PassOptions&) { splitSharedCompares(g); }

void verifyOrThrow(const Unit& u, const PassOptions& o, const std::string& pass) {
  std::vector<std::string> errs = verify(u);
  // The schedule needs a sound graph: only then.
  if (errs.empty() && o.checkSchedules) errs = o.checkSchedules(u);
  if (errs.empty()) return;
  std::string msg = "graph verification failed after '" + pass + "': " + errs[0];
  if (errs.size() > 1) msg += " (and " + std::to_string(errs.size() - 1) + " more)";
  internalError(pass, msg);
}

void maybeDump(const Unit& u, const PassOptions& o, const std::string& pass) {
  for (const auto& d : o.dumpAfter)
    if (d == pass) {
      std::string text = printGraph(u);
      std::fprintf(o.dumpOut, "// after %s\n%s", pass.c_str(), text.c_str());
    }
}

// The entry function's behaviour on this graph (--check-passes). A graph the
// evaluator rejects is the fault of the pass that produced it.
EvalResult evaluateAfter(const Unit& u, const PassOptions& o, const std::string& pass) {
  EvalOptions eo;
  eo.fileName = o.checkFile;
  try {
    return evaluateProgram(u, o.checkArgc, eo);
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
uint64_t fingerprint(const Unit& u) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  for (const FunInfo& f : u.funs) {
    if (!f.hasBody()) {
      mix(~0ull);
      continue;
    }
    // Ids are renumbered by compaction: number nodes by their place in the walk.
    std::vector<Node*> live = liveNodes(*f.graph);
    std::vector<uint64_t> num(f.graph->size(), 0);
    for (size_t i = 0; i < live.size(); i++) num[live[i]->id] = i;
    for (const Node* n : live) {
      mix(uint64_t(n->op));
      if (n->op == Op::Con) mix(uint64_t(reinterpret_cast<uintptr_t>(n->type)));
      else mix(n->type ? uint64_t(n->type->kind()) : ~0ull);  // memory or not
      mix(uint64_t(n->aux));
      for (const Node* d : n->in) mix(d ? num[d->id] : ~0ull);
    }
  }
  return h;
}

// Frees what a pass left dead, once it is much of the graph.
void compactIfSparse(Graph& g) {
  if (g.deadCount() * 2 > g.size()) g.compact();
}

// A function's cached control-flow analysis (son/control_flow.h) serves
// the next pass over it when its control flow did not change. Each pass runs
// over every function before the next starts, so in a unit of many
// functions every analysis would be held at once (7 MB for 50k lines):
// past this budget they are freed after the pass, and recomputed when a
// pass asks. A big function's is kept whatever the budget: it is small
// next to its graph, and recomputing it is what costs. Stale ones go.
constexpr size_t kCachedControlFlowBudget = 2 << 20;
constexpr size_t kBigFunctionNodes = 1 << 15;

void cacheWithinBudget(Graph& g, size_t* cached) {
  size_t bytes = cachedControlFlowBytes(g);
  if (g.size() >= kBigFunctionNodes) return;
  if (*cached + bytes > kCachedControlFlowBudget) g.dropControlFlow();
  else *cached += bytes;
}

size_t liveNodeCount(const Unit& u) {
  size_t n = 0;
  for (const FunInfo& f : u.funs)
    if (f.hasBody()) n += f.graph->size() - f.graph->deadCount();
  return n;
}

}  // namespace

const std::vector<Pass>& passTable() {
  static const std::vector<Pass> table = {
      // First, so that the analyses see callers' arguments inside the copies.
      {"inline", runInline, nullptr, 2, {}},
      // Before sccp narrows parameter types: their Phis take the declared type.
      {"tailrec", nullptr, runTailRec, 2, {}},
      // After tailrec: only the calls it could not turn into jumps are copied,
      // and a copy brings the loop tailrec made.
      {"self-inline", runSelfInline, nullptr, 2, {"tailrec"}},
      // Before narrow: its Casts would pin data to the arms.
      {"split-if", nullptr, runSplitIf, 2, {}},
      // Casts below branches, for the analysis to narrow ranges by.
      {"narrow", nullptr, runNarrow, 2, {}},
      // After inline: objects passed to inlined callees stay local. Before
      // sccp and the peepholes, which fold the fields' values and Phis.
      {"scalar-replace", nullptr, runScalarReplace, 2, {"inline"}},
      // The analysis only lowers types; the peepholes then rewrite by them.
      {"sccp", runSccp, nullptr, 2, {}},
      {"peephole", nullptr, runPeepholes, 1, {"sccp"}},
      // After the peepholes, so that equal divisors are one node.
      {"zerocheck", nullptr, runZeroCheckElim, 2, {"peephole"}},
      // After the peepholes: equal addresses and memory states are one node.
      {"loadelim", nullptr, runLoadElim, 2, {"peephole"}},
      // After loadelim: an array read from a field twice is one array.
      {"boundscheck", nullptr, runBoundsCheckElim, 2, {"loadelim"}},
      // After loadelim, which compares loads by where they are tied.
      {"hoist-loads", nullptr, runHoistLoads, 2, {"loadelim"}},
      // After boundscheck (the checks it left are the ones worth a copy of
      // the loop) and hoist-loads (a length read from a field is invariant).
      {"loop-version", nullptr, runLoopVersioning, 2, {"boundscheck", "hoist-loads"}},
      // After boundscheck: its proofs read the ranges of i * n, which the
      // new induction variables (Phis around the loop) do not keep.
      {"strength-reduce", nullptr, runStrengthReduce, 2, {"boundscheck"}},
      // After loadelim: loads it removed no longer keep stores alive.
      {"deadstores", nullptr, runDeadStoreElim, 2, {"loadelim"}},
      {"idle-casts", nullptr, runIdleCasts, 2, {"peephole"}},
      // Late: the arms are as small as they get, and no pass after it looks
      // for the branches it removes.
      {"if-convert", nullptr, runIfConvert, 2, {"idle-casts"}},
      // After if-convert: a body whose branches became selects and single
      // stores is one block. Last of the loop passes: the 16-byte loads and
      // stores it makes are new to the memory passes before it.
      {"vectorize", nullptr, runVectorize, 2, {"if-convert", "loop-version"}},
      // Last: calls in dead code are gone, inlined callees have no calls left.
      {"unused-funs", runUnusedFuns, nullptr, 1, {"peephole"}},
      // After every pass that runs the peepholes (they would merge the copies).
      {"split-compares", nullptr, runSplitCompares, 1, {"vectorize", "peephole"}},
  };
  return table;
}

void checkPassOrder() {
  const auto& t = passTable();
  for (size_t i = 0; i < t.size(); i++) {
    SIMPLEC_CHECK(!t[i].runUnit != !t[i].runFunction, "pipeline",
                  std::string("pass '") + t[i].name + "' must run on the unit or on functions");
    for (const char* before : t[i].after) {
      bool found = false;
      for (size_t j = 0; j < i; j++) found |= std::strcmp(t[j].name, before) == 0;
      SIMPLEC_CHECK(found, "pipeline", std::string("pass '") + t[i].name + "' must follow '" + before + "'");
    }
  }
}

bool isPassName(const std::string& name) {
  if (name == "parse") return true;
  for (const Pass& p : passTable())
    if (name == p.name) return true;
  return false;
}

void afterParse(Unit& u, const PassOptions& opts) {
  // The dump first: it shows a graph that fails verification.
  maybeDump(u, opts, "parse");
  if (opts.observe) opts.observe(u, "parse");
  if (opts.verifyEach) verifyOrThrow(u, opts, "parse");
  if (opts.timer) opts.timer->setNodes("parse", liveNodeCount(u));
}

// A stretch of per-function passes, one function at a time: each function
// goes through all of them while its nodes are in the cache, and its
// control-flow analysis serves every one of them that finds the control
// flow unchanged (run pass by pass over a unit of many functions, the
// analyses past the cache's budget were made again by each pass). A
// per-function pass sees only its own graph, so the order over (function,
// pass) pairs does not change the result.
void runFunctionMajor(Unit& u, const PassOptions& opts, const std::vector<const Pass*>& passes) {
  std::vector<Graph*> graphs;
  for (FunInfo& f : u.funs)
    if (f.hasBody()) graphs.push_back(f.graph.get());
  std::vector<size_t> nodesAfter(passes.size(), 0);
  auto runAll = [&](Graph& g, size_t* cached) {
    for (size_t k = 0; k < passes.size(); k++) {
      const Pass& p = *passes[k];
      try {
        PassScope timed(opts.timer, p.name);
        p.runFunction(g, opts);
        compactIfSparse(g);
      } catch (InternalError& e) {
        if (e.pass.empty() || e.pass == "graph") e.pass = p.name;
        throw;
      }
      // What liveNodeCount(u) gives after the pass ran everywhere: this
      // function's share is final once the pass ran on it.
      if (opts.timer) nodesAfter[k] += g.size() - g.deadCount();
    }
    cacheWithinBudget(g, cached);
  };
  // Each function on one thread, several at once: the passes see only
  // their own graph, so the result is the same (a test compares -j1 and
  // -j2); the timer reports pass by pass, on one thread.
  int jobs = opts.timer ? 1 : opts.jobs;
  if (jobs > 1 && graphs.size() > 1) {
    SharedGraphs shared;
    // The biggest first (one started last would run alone at the end);
    // errors are raised in the unit's order, as on one thread.
    std::vector<size_t> order(graphs.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return graphs[a]->size() > graphs[b]->size(); });
    std::vector<std::exception_ptr> errors(graphs.size());
    std::vector<size_t> cached(size_t(jobs), 0);  // each thread's budget
    parallelFor(graphs.size(), jobs, [&](size_t k, int t) {
      try {
        runAll(*graphs[order[k]], &cached[size_t(t)]);
      } catch (...) {
        errors[order[k]] = std::current_exception();
      }
    });
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
    return;
  }
  size_t cached = 0;  // bytes of control-flow analyses kept for the next pass
  for (Graph* g : graphs) runAll(*g, &cached);
  if (opts.timer)
    for (size_t k = 0; k < passes.size(); k++) opts.timer->setNodes(passes[k]->name, nodesAfter[k]);
}

void runPipeline(Unit& u, const PassOptions& opts) {
  std::optional<EvalResult> reference;
  uint64_t checked = 0;  // fingerprint of the graph last evaluated
  if (opts.checkPasses) {
    reference = evaluateAfter(u, opts, "parse");
    checked = fingerprint(u);
  }
  bool passByPass = opts.passByPass || opts.verifyEach || opts.checkPasses || opts.observe || !opts.dumpAfter.empty();
  const std::vector<Pass>& table = passTable();
  for (size_t i = 0; i < table.size(); i++) {
    const Pass& p = table[i];
    if (opts.optLevel < p.minLevel) continue;
    if (p.runFunction && !passByPass) {
      std::vector<const Pass*> stretch;
      for (; i < table.size() && (table[i].runFunction || opts.optLevel < table[i].minLevel); i++)
        if (opts.optLevel >= table[i].minLevel) stretch.push_back(&table[i]);
      i--;  // the loop's increment passes the last one
      runFunctionMajor(u, opts, stretch);
      continue;
    }
    try {
      PassScope timed(opts.timer, p.name);
      size_t cached = 0;  // bytes of control-flow analyses kept for the next pass
      if (p.runUnit) {
        p.runUnit(u, opts);
        for (FunInfo& f : u.funs)
          if (f.graph) {
            compactIfSparse(*f.graph);
            cacheWithinBudget(*f.graph, &cached);
          }
      } else {
        for (FunInfo& f : u.funs) {
          if (!f.hasBody()) continue;
          p.runFunction(*f.graph, opts);
          compactIfSparse(*f.graph);
          cacheWithinBudget(*f.graph, &cached);
        }
      }
    } catch (InternalError& e) {
      if (e.pass.empty() || e.pass == "graph") e.pass = p.name;
      throw;
    }
    if (opts.timer) opts.timer->setNodes(p.name, liveNodeCount(u));
    maybeDump(u, opts, p.name);
    if (opts.observe) opts.observe(u, p.name);
    if (opts.verifyEach) verifyOrThrow(u, opts, p.name);
    if (reference) {
      uint64_t now = fingerprint(u);
      if (now != checked) checkBehaviour(*reference, evaluateAfter(u, opts, p.name), p.name);
      checked = now;
    }
  }
  // Code generation has its own analyses, and every function's graph waits
  // for it: what the optimizer cached or left dead goes now.
  for (FunInfo& f : u.funs)
    if (f.graph) f.graph->settle();
}

}  // namespace simplec
