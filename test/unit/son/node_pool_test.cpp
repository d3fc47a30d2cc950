// Tests for NodePool (son/node_pool.h): a slot given back is the next one
// taken, whichever graph gives or takes it; a graph's compact() and its
// destruction give their nodes back; the pool lets go of its memory when
// nothing is live.
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
