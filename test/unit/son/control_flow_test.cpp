// Tests for ControlFlow (son/control_flow.h): order, dominators and the
// dominator-tree children of a function's control nodes, and the cache in
// the graph -- shared while the control flow stands, recomputed after an
// edit, and freed on demand (the pipeline keeps a unit's cached analyses
// within a budget, opt/pipeline.cpp).
#include <catch2/catch.hpp>

#include <vector>

#include "son/control_flow.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;

namespace {

// f(x): if (x) { A } else { B }; then a second if on the join, whose arms
// return separately.
struct TwoIfs {
  Unit u;
  SonBuilder b{u, "f", 1};
  SonBuilder::Branch first = b.branch(b.fun, b.parm(0));
  Node* join = b.region({first.t, first.f});
  SonBuilder::Branch second = b.branch(join, b.parm(0));
  Node* ret = b.ret(second.t, b.con(1));
  TwoIfs() { b.ret(second.f, b.con(2)); }
};

}  // namespace

TEST_CASE("son/control_flow: order, idoms and children", "[son][dom]") {
  TwoIfs t;
  auto cf = controlFlow(t.b.g);
  const std::vector<Node*>& order = cf->order();
  REQUIRE(!order.empty());
  CHECK(order[0] == t.b.fun);
  for (Node* n : {t.first.iff, t.first.t, t.first.f, t.join, t.second.iff, t.second.t, t.second.f})
    CHECK(cf->reached(n));
  CHECK(cf->idom(t.b.fun) == nullptr);
  CHECK(cf->idom(t.first.t) == t.first.iff);
  CHECK(cf->idom(t.join) == t.first.iff);  // neither arm dominates the join
  CHECK(cf->idom(t.second.f) == t.second.iff);
  CHECK(cf->dominates(t.first.iff, t.second.t));
  CHECK_FALSE(cf->dominates(t.first.t, t.join));
  // The If's children: both arms and the join, in reverse post-order.
  auto kids = cf->children(t.first.iff);
  std::vector<Node*> got(kids.begin(), kids.end());
  REQUIRE(got.size() == 3);
  for (size_t i = 1; i < got.size(); i++) CHECK(cf->index(got[i - 1]) < cf->index(got[i]));
  CHECK(std::count(got.begin(), got.end(), t.join) == 1);
  CHECK(cf->children(t.ret).empty());
  CHECK(cf->children(t.second.t).size() == 1);  // its Return
  // Every reached node but the entry is the child of exactly its idom.
  size_t children = 0;
  for (Node* n : order) children += cf->children(n).size();
  CHECK(children == order.size() - 1);
  CHECK(ControlFlow::successorsOf(t.first.iff) == std::vector<Node*>{t.first.t, t.first.f});
}

TEST_CASE("son/control_flow: the cache is shared until the control flow changes", "[son][dom]") {
  TwoIfs t;
  Graph& g = t.b.g;
  CHECK(cachedControlFlowBytes(g) == 0);
  auto a = controlFlow(g);
  CHECK(controlFlow(g) == a);
  size_t bytes = cachedControlFlowBytes(g);
  CHECK(bytes >= a->order().size() * sizeof(Node*));
  // A data edit keeps it; a control edit makes it stale, and asking for its
  // size frees a stale one.
  t.b.add(t.b.parm(0), t.b.con(3));
  CHECK(controlFlow(g) == a);
  g.setDef(t.second.iff, 0, t.first.t);
  CHECK(cachedControlFlowBytes(g) == 0);
  auto c = controlFlow(g);
  CHECK(c != a);
  CHECK(a->reached(t.join));  // a snapshot stays valid for its holder
  CHECK_FALSE(c->reached(t.join));
  g.dropControlFlow();
  CHECK(cachedControlFlowBytes(g) == 0);
  CHECK(controlFlow(g) != c);
}
