// Tests for opt/peephole_worklist.h: seed 0 hands nodes out first in, first
// out (each waiting once); another seed hands out every waiting node once, in
// an order that depends only on the seed.
#include <catch2/catch.hpp>

#include <algorithm>

#include "opt/peephole_worklist.h"
#include "son/unit.h"

using namespace simplec;

namespace {

std::vector<Node*> someNodes(Graph& g, int n) {
  std::vector<Node*> v;
  for (int i = 0; i < n; i++) v.push_back(g.make(Op::Add, {nullptr, nullptr, nullptr}));
  return v;
}

std::vector<Node*> drain(PeepholeWorklist& w) {
  std::vector<Node*> out;
  while (!w.empty()) out.push_back(w.pop());
  return out;
}

}  // namespace

TEST_CASE("opt/peephole_worklist: seed 0 is first in, first out, each node once", "[opt][peephole]") {
  Unit u;
  u.funs.resize(1);
  Graph& g = u.newGraph(0);
  std::vector<Node*> v = someNodes(g, 10000);
  PeepholeWorklist w(0);
  for (Node* n : v) w.push(n);
  w.push(v[5]);  // already waiting: no second entry
  // Past the point where the consumed front is given back, still in order.
  for (size_t i = 0; i < 6000; i++) REQUIRE(w.pop() == v[i]);
  w.push(v[0]);  // taken out already: waits again, at the end
  std::vector<Node*> rest = drain(w);
  REQUIRE(rest.size() == 4001);
  CHECK(std::equal(rest.begin(), rest.end() - 1, v.begin() + 6000));
  CHECK(rest.back() == v[0]);
}

TEST_CASE("opt/peephole_worklist: another seed hands out all, in an order fixed by the seed", "[opt][peephole]") {
  Unit u;
  u.funs.resize(1);
  Graph& g = u.newGraph(0);
  std::vector<Node*> v = someNodes(g, 200);
  auto order = [&](uint64_t seed) {
    PeepholeWorklist w(seed);
    for (Node* n : v) w.push(n);
    return drain(w);
  };
  std::vector<Node*> a = order(7), b = order(7), c = order(8);
  CHECK(a == b);
  CHECK(a != v);
  CHECK(a != c);
  std::vector<Node*> sorted = a;
  std::sort(sorted.begin(), sorted.end(), [](Node* x, Node* y) { return x->id < y->id; });
  CHECK(sorted == v);
}
