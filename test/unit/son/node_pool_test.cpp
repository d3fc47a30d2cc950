// Tests for NodePool (son/node_pool.h): a slot given back is the next one
// taken, whichever graph gives or takes it; a graph's compact() and its
// destruction give their nodes back; a chunk whose slots are all back is
// released at once, and everything when nothing is live.
#include <catch2/catch.hpp>

#include "son/node_pool.h"
#include "son/unit.h"

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
