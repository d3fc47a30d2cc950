// WorkCounters: how much work the compiler did, counted where the work is
// done (a node visited, a worklist entry, a use-list entry scanned). Tests
// compile programs of growing size and check that these grow linearly: a
// quadratic pass shows up in the counts, whatever the machine's speed.
// Counting costs an increment; the counters are per thread.
#pragma once
#include <cstdint>

namespace simplec {

struct WorkCounters {
  uint64_t nodesMade = 0;         // Graph::make
  uint64_t useScans = 0;          // use-list entries looked at to remove a use
  uint64_t scopeReads = 0;        // parser scopes visited to read a slot, scope entries visited to merge or close
  uint64_t peepholeSteps = 0;     // iterative peephole worklist entries run
  uint64_t peepholeRounds = 0;    // whole-graph rounds of the peephole worklist (iterPeeps)
  uint64_t peepholeRuns = 0;      // calls of iterPeeps
  uint64_t sccpSteps = 0;         // combined analysis worklist entries run
  uint64_t liveNodeVisits = 0;    // nodes visited by liveNodes()
  uint64_t antiDepVisits = 0;     // memory users looked at for anti-dependences
  uint64_t inlinedNodes = 0;      // nodes copied by inlining
  uint64_t parseRounds = 0;       // whole-file parses (a file is parsed again when an assumption fails)
  uint64_t loopOptSteps = 0;      // nodes looked at by the loop analyses (invariance, induction variables, lengths)
  uint64_t liveSetEntries = 0;    // registers in the blocks' live-in and live-out sets (register allocation)
  uint64_t memoryWalkSteps = 0;   // memory nodes a load looked through for the store it reads (peephole)
  // Memory rather than work (not in total()): the most parser scopes held
  // at once, which should follow the largest function, not the file.
  uint64_t scopesHeldPeak = 0;
  // Graphs moved into storage of their own before code generation
  // (Unit::packSpreadGraphs), so that dropping them frees memory.
  uint64_t graphsPacked = 0;
  // Chunks of node storage emptied by moving their nodes into the holes of
  // others before code generation (Unit::defragmentNodes).
  uint64_t poolChunksFreed = 0;
  // Loops copied by loop versioning (opt/loop_versioning.h): one copy
  // without the bounds checks a test before the loop made redundant.
  uint64_t loopsVersioned = 0;
  // Loops given a two-lane copy (opt/vectorize.h).
  uint64_t loopsVectorized = 0;
  // Comparisons of an induction variable moved to its product by strength
  // reduction (linear-function test replacement, opt/strength_reduce.h).
  uint64_t testsReplaced = 0;

  uint64_t total() const {
    return nodesMade + useScans + scopeReads + peepholeSteps + sccpSteps + liveNodeVisits + antiDepVisits +
           inlinedNodes + loopOptSteps + liveSetEntries + memoryWalkSteps;
  }
  // Adds another thread's counts (a worker's, when it is done).
  void add(const WorkCounters& o);
  // Each counter by name, for reports.
  template <class F>
  void forEach(F f) const {
    f("nodes made", nodesMade);
    f("use-list scans", useScans);
    f("scope reads", scopeReads);
    f("peephole steps", peepholeSteps);
    f("peephole rounds", peepholeRounds);
    f("peephole runs", peepholeRuns);
    f("sccp steps", sccpSteps);
    f("liveNodes visits", liveNodeVisits);
    f("anti-dependence visits", antiDepVisits);
    f("inlined nodes", inlinedNodes);
    f("parse rounds", parseRounds);
    f("loop analysis steps", loopOptSteps);
    f("live-set entries", liveSetEntries);
    f("memory walk steps", memoryWalkSteps);
    f("parser scopes held at most", scopesHeldPeak);
    f("graphs packed", graphsPacked);
    f("node chunks freed", poolChunksFreed);
    f("loops versioned", loopsVersioned);
    f("loops vectorized", loopsVectorized);
    f("loop tests replaced", testsReplaced);
  }
};

// This thread's counters (zero at start; tests reset them).
WorkCounters& workCounters();

}  // namespace simplec
