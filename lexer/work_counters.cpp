// The per-thread work counters.
#include "lexer/work_counters.h"

namespace simplec {

WorkCounters& workCounters() {
  thread_local WorkCounters counters;
  return counters;
}

void WorkCounters::add(const WorkCounters& o) {
  nodesMade += o.nodesMade;
  useScans += o.useScans;
  scopeReads += o.scopeReads;
  peepholeSteps += o.peepholeSteps;
  peepholeRounds += o.peepholeRounds;
  peepholeRuns += o.peepholeRuns;
  sccpSteps += o.sccpSteps;
  liveNodeVisits += o.liveNodeVisits;
  antiDepVisits += o.antiDepVisits;
  inlinedNodes += o.inlinedNodes;
  parseRounds += o.parseRounds;
  loopOptSteps += o.loopOptSteps;
  liveSetEntries += o.liveSetEntries;
  memoryWalkSteps += o.memoryWalkSteps;
  scopesHeldPeak = scopesHeldPeak > o.scopesHeldPeak ? scopesHeldPeak : o.scopesHeldPeak;
  graphsPacked += o.graphsPacked;
  poolChunksFreed += o.poolChunksFreed;
  loopsVersioned += o.loopsVersioned;
  loopsVectorized += o.loopsVectorized;
  testsReplaced += o.testsReplaced;
}

}  // namespace simplec
