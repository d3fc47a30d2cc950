// Tests for NodePool (son/node_pool.h): a slot given back is the next one
// taken, whichever graph gives or takes it; a graph's compact() and its
// destruction give their nodes back; a chunk whose slots are all back is
// released at once, and everything when nothing is live.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <memory>

#include "son/node_pool.h"
#include "lexer/diag.h"
#include "parser/parser.h"
#include "son/evaluator.h"
#include "son/unit.h"
#include "test/unit/son/graph_builder.h"

using simplec::sontest::SonBuilder;

using namespace simplec;

TEST_CASE("son/node_pool: given slots are taken again first", "[son][pool]") {
  NodePool p;
  void* a = p.take();
  void* b = p.take();
  CHECK(a != b);
  CHECK(p.liveCount() == 2);
  size_t carved = p.capacity();
  p.give(a);
  CHECK(p.take() == a);
  CHECK(p.capacity() == carved);
  p.give(a);
  p.give(b);
  // Nothing live: the chunks are released.
  CHECK(p.liveCount() == 0);
  CHECK(p.capacity() == 0);
  void* c = p.take();
  CHECK(c != nullptr);
  CHECK(p.capacity() > 0);
  p.give(c);
}

TEST_CASE("son/node_pool: one graph's freed nodes serve another graph", "[son][pool]") {
  Unit u;
  u.funs.resize(2);
  Graph& g0 = u.newGraph(0);
  Graph& g1 = u.newGraph(1);
  std::vector<Node*> made;
  for (int i = 0; i < 3000; i++) made.push_back(g0.con(Type::intConst(i)));
  size_t carved = u.nodePool.capacity();
  for (Node* n : made) g0.kill(n);
  g0.compact();
  CHECK(g0.size() == 2);
  // g1 builds as many nodes again without the pool growing.
  for (int i = 0; i < 3000; i++) g1.con(Type::intConst(i));
  CHECK(u.nodePool.capacity() == carved);
  CHECK(u.nodePool.liveCount() == 2 + 2 + 3000);
  // Dropping both graphs gives everything back.
  u.dropGraph(0);
  u.dropGraph(1);
  CHECK(u.nodePool.liveCount() == 0);
  CHECK(u.nodePool.capacity() == 0);
}

TEST_CASE("son/node_pool: a chunk whose slots all came back is released while others live", "[son][pool]") {
  NodePool p;
  std::vector<void*> first, rest;
  first.push_back(p.take());
  size_t chunk = p.capacity();  // slots per chunk
  for (size_t i = 1; i < chunk; i++) first.push_back(p.take());
  for (size_t i = 0; i < 2 * chunk; i++) rest.push_back(p.take());
  CHECK(p.capacity() == 3 * chunk);
  // Giving back all of the first chunk (not the one being carved from) but
  // its last slot keeps it; the last one releases it.
  for (size_t i = 0; i + 1 < first.size(); i++) p.give(first[i]);
  CHECK(p.capacity() == 3 * chunk);
  p.give(first.back());
  CHECK(p.capacity() == 2 * chunk);
  CHECK(p.liveCount() == 2 * chunk);
  // A slot of a full chunk given back is taken again before a new chunk is carved.
  p.give(rest[5]);
  void* again = p.take();
  CHECK(again == rest[5]);
  CHECK(p.capacity() == 2 * chunk);
  // A third chunk comes only when both are full.
  void* more = p.take();
  CHECK(p.capacity() == 3 * chunk);
  p.give(more);
  for (void* s : rest) p.give(s);
  CHECK(p.liveCount() == 0);
  CHECK(p.capacity() == 0);
}

TEST_CASE("son/node_pool: a fresh spell carves new slots only, the next spell carries on", "[son][pool]") {
  NodePool p;
  std::vector<void*> old;
  for (size_t i = 0; i < 10; i++) old.push_back(p.take());
  p.give(old[3]);
  p.beginFresh();
  void* a = p.take();
  p.endFresh();
  CHECK(a != old[3]);  // the given-back slot waits
  CHECK(p.chunksHolding({a, old[0]}) == 2);
  p.beginFresh();
  void* b = p.take();
  p.endFresh();
  CHECK(p.chunksHolding({a, b}) == 1);  // packed next to the last spell's
}

namespace {

// Two functions: f (index 0) takes a node now and then while g (index 1)
// takes many, so f's nodes end up spread over all the chunks. Each
// returns the sum of its nodes' constants.
void buildInterleaved(Unit& u, int64_t rounds, int64_t burst) {
  SonBuilder f(u, "f", 0);
  SonBuilder g(u, "g", 0);
  Node* fs = f.con(0);
  Node* gs = g.con(0);
  for (int64_t r = 0; r < rounds; r++) {
    fs = f.add(fs, f.con(r));
    for (int64_t i = 0; i < burst; i++) gs = g.add(gs, g.con(1));
  }
  f.ret(f.fun, fs);
  g.ret(g.fun, gs);
}

}  // namespace

TEST_CASE("son/node_pool: packing a spread graph lets dropping the other free its chunks", "[son][pool]") {
  Unit u;
  buildInterleaved(u, 400, 50);
  REQUIRE(sontest::verifyText(u) == "");
  Graph& f = *u.graph(0);
  std::vector<void*> before(f.nodes().begin(), f.nodes().end());
  CHECK(u.nodePool.chunksHolding(before) > 30);
  Node* oldRet = u.funs[0].ret;
  Node* oldFun = u.funs[0].fun;
  CHECK(u.packSpreadGraphs() == 1);  // f only: g fills the chunks it holds
  std::vector<void*> after(f.nodes().begin(), f.nodes().end());
  CHECK(u.nodePool.chunksHolding(after) <= 2);
  CHECK(sontest::verifyText(u) == "");
  // FunInfo, Start, Stop and every edge follow the moved nodes.
  CHECK(u.funs[0].ret != oldRet);
  CHECK(u.funs[0].fun != oldFun);
  CHECK(f.owns(u.funs[0].ret));
  CHECK(f.owns(u.funs[0].fun));
  CHECK(f.owns(f.start()));
  CHECK(f.owns(f.stop()));
  const Node* v = u.funs[0].ret->in[2];
  REQUIRE(v->op == Op::Add);
  CHECK(v->in[2]->type == Type::intConst(399));
  for (Node* n : f.nodes()) {
    for (Node* d : n->in) CHECK((!d || f.owns(d)));
    for (Node* use : n->out) CHECK(f.owns(use));
  }
  // Dropping g now leaves only f's chunks.
  u.dropGraph(1);
  CHECK(u.nodePool.capacity() <= 2 * NodePool::slotsPerChunk());
  u.dropGraph(0);
  CHECK(u.nodePool.capacity() == 0);
}

namespace {

// Parses a small -g program, moves nodes of every graph with `move`, and
// checks that the graphs verify, compute the same and keep their variables'
// bindings on their own nodes.
void checkMovedProgram(const std::function<void(Graph&)>& move) {
  Unit u;
  u.debugInfo = true;
  SourceFile file("t.smp",
                  "val f = { int n -> int s = 0; for (int i = 0; i < n; i++) { if (i % 3 == 0) s += i; else s -= 1; } "
                  "return s; };\nint t = f(arg + 20); sys.io.p(t); return t % 7;");
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, u));
  EvalResult before = evaluateProgram(u, 1, EvalOptions{});
  for (FunInfo& fi : u.funs)
    if (fi.hasBody()) move(*fi.graph);
  CHECK(sontest::verifyText(u) == "");
  EvalResult after = evaluateProgram(u, 1, EvalOptions{});
  CHECK(evalDifference(before, after) == "");
  CHECK(after.out == before.out);
  CHECK(after.returnValue == before.returnValue);
  size_t bindings = 0;
  for (FunInfo& fi : u.funs) {
    if (!fi.hasBody()) continue;
    for (const DebugName& d : fi.graph->debugNames)
      if (d.at) {
        bindings++;
        CHECK(fi.graph->owns(d.at));
      }
  }
  CHECK(bindings > 0);
}

}  // namespace

TEST_CASE("son/node_pool: a relocated program computes the same, its -g bindings on its nodes", "[son][pool]") {
  checkMovedProgram([](Graph& g) { g.relocate(); });
}

TEST_CASE("son/node_pool: a graph holding most live nodes is not packed", "[son][pool]") {
  Unit u;
  buildInterleaved(u, 400, 50);
  u.dropGraph(1);  // f, spread over many chunks, is all that is left
  std::vector<void*> slots(u.graph(0)->nodes().begin(), u.graph(0)->nodes().end());
  CHECK(u.nodePool.chunksHolding(slots) > 30);
  CHECK(u.packSpreadGraphs() == 0);
}

TEST_CASE("son/node_pool: evacuation marks the emptiest chunks that the others can take in", "[son][pool]") {
  NodePool p;
  size_t chunk = NodePool::slotsPerChunk();
  std::vector<void*> a, b, c;
  for (size_t i = 0; i < chunk; i++) a.push_back(p.take());
  for (size_t i = 0; i < chunk; i++) b.push_back(p.take());
  for (size_t i = 0; i < chunk; i++) c.push_back(p.take());
  // a keeps 10 slots, b half, c all: a fits into b's holes, b does not fit
  // into c (full) and what is left of a's room.
  for (size_t i = 10; i < chunk; i++) p.give(a[i]);
  for (size_t i = 0; i < chunk / 2; i++) p.give(b[i]);
  a.resize(10);
  b.erase(b.begin(), b.begin() + long(chunk / 2));
  REQUIRE(p.capacity() == 3 * chunk);
  CHECK(p.beginEvacuation() == 1);
  for (void* s : a) CHECK(p.evacuating(s));
  CHECK_FALSE(p.evacuating(b[0]));
  CHECK_FALSE(p.evacuating(c[0]));
  // Moving a's slots: new ones come from b's holes, and a goes when empty.
  for (void*& s : a) {
    void* moved = p.take();
    CHECK_FALSE(p.evacuating(moved));
    CHECK(std::find(c.begin(), c.end(), moved) == c.end());
    p.give(s);
    s = moved;
  }
  p.endEvacuation();
  CHECK(p.capacity() == 2 * chunk);
  CHECK(p.liveCount() == 10 + chunk / 2 + chunk);
  CHECK_FALSE(p.evacuating(a[0]));
  // Nothing to gain: nothing marked.
  NodePool q;
  std::vector<void*> full;
  for (size_t i = 0; i < 2 * chunk; i++) full.push_back(q.take());
  CHECK(q.beginEvacuation() == 0);
  q.endEvacuation();
}

namespace {

// Four functions built in step, so that each one's nodes lie in every chunk.
void buildFour(Unit& u, int64_t rounds) {
  std::vector<std::unique_ptr<SonBuilder>> b;
  std::vector<Node*> sum;
  for (const char* name : {"f", "g", "h", "k"}) {
    b.push_back(std::make_unique<SonBuilder>(u, name, 0));
    sum.push_back(b.back()->con(0));
  }
  for (int64_t r = 0; r < rounds; r++)
    for (size_t i = 0; i < b.size(); i++) sum[i] = b[i]->add(sum[i], b[i]->con(r * 4 + int64_t(i)));
  for (size_t i = 0; i < b.size(); i++) b[i]->ret(b[i]->fun, sum[i]);
}

}  // namespace

TEST_CASE("son/node_pool: defragmenting moves nodes out of the emptiest chunks, edges and all", "[son][pool]") {
  Unit u;
  buildFour(u, 3000);
  u.dropGraph(1);  // g's nodes leave a hole in every chunk
  size_t before = u.nodePool.capacity();
  size_t live = u.nodePool.liveCount();
  size_t freed = u.defragmentNodes();
  CHECK(freed > 0);
  CHECK(u.nodePool.capacity() == before - freed * NodePool::slotsPerChunk());
  CHECK(u.nodePool.capacity() < live + live / 4 + 2 * NodePool::slotsPerChunk());
  CHECK(u.nodePool.liveCount() == live);
  CHECK(sontest::verifyText(u) == "");
  for (int f : {0, 2, 3}) {
    Graph& g = *u.graph(f);
    CHECK(g.owns(u.funs[size_t(f)].ret));
    CHECK(g.owns(u.funs[size_t(f)].fun));
    CHECK(g.owns(g.start()));
    CHECK(g.owns(g.stop()));
    // The last addend of each sum is still the function's own constant.
    const Node* v = u.funs[size_t(f)].ret->in[2];
    REQUIRE(v->op == Op::Add);
    CHECK(v->in[2]->type == Type::intConst(2999 * 4 + f));
  }
  // A unit whose one graph holds most live nodes is left alone.
  u.dropGraph(2);
  u.dropGraph(3);
  CHECK(u.defragmentNodes() == 0);
}

TEST_CASE("son/node_pool: a program with some nodes moved computes the same, its -g bindings on its nodes", "[son][pool]") {
  // Every other node moves: edges between moved and unmoved nodes both ways.
  checkMovedProgram([](Graph& g) { g.moveNodes([](const Node* n) { return n->id % 2 == 0; }); });
}
