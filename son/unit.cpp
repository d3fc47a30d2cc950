// Unit: the functions of one source file and what they share.
#include "son/unit.h"

#include "lexer/work_counters.h"

namespace simplec {

void Unit::reset() {
  funs.clear();
  inlineSites.clear();
  strings.clear();
  aliases.assign(1, "header");
  aliasIndex.clear();
  nodesMade = 0;
  debugTypes.clear();
}

int Unit::aliasClass(const std::string& key) {
  auto [it, added] = aliasIndex.emplace(key, int(aliases.size()));
  if (added) aliases.push_back(key);
  return it->second;
}

Graph& Unit::newGraph(int f) {
  FunInfo& info = funs[size_t(f)];
  info.graph = std::make_unique<Graph>(*this, f);
  info.fun = info.ret = nullptr;
  return *info.graph;
}

int Unit::packSpreadGraphs() {
  int packed = 0;
  std::vector<void*> slots;
  for (FunInfo& f : funs) {
    if (!f.hasBody()) continue;
    Graph& g = *f.graph;
    // Most live nodes are its own: its chunks empty when it goes anyway.
    if (2 * g.size() > nodePool.liveCount()) continue;
    slots.assign(g.nodes().begin(), g.nodes().end());
    size_t needed = g.size() / NodePool::slotsPerChunk() + 1;
    size_t held = nodePool.chunksHolding(slots);
    if (held <= needed + kSpreadSlack) continue;
    g.relocate();
    packed++;
    workCounters().graphsPacked++;
  }
  return packed;
}

size_t Unit::defragmentNodes() {
  // A graph holding most live nodes empties most chunks when it goes
  // anyway, and moving its nodes into holes only scatters it.
  for (const FunInfo& f : funs)
    if (f.hasBody() && 2 * f.graph->size() > nodePool.liveCount()) return 0;
  size_t marked = nodePool.beginEvacuation();
  if (marked > 0)
    for (FunInfo& f : funs)
      if (f.hasBody()) f.graph->moveNodes([&](const Node* n) { return nodePool.evacuating(n); });
  nodePool.endEvacuation();
  workCounters().poolChunksFreed += marked;
  return marked;
}

void Unit::dropGraph(int f) {
  FunInfo& info = funs[size_t(f)];
  info.fun = info.ret = nullptr;
  info.graph.reset();
}

}  // namespace simplec
