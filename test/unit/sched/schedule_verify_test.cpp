// Tests for the schedule checker itself: it accepts gcm's schedules and
// catches each kind of broken schedule (order, block, idom, loop depth,
// missing node, wrong predecessors), so the other tests can rely on it.
#include "sched/schedule_verify.h"

#include <catch2/catch.hpp>

#include "test/unit/sched/sched_builder.h"

using namespace simplec;
using simplec::test::blockOfHead;
using simplec::test::checkedGcm;
using simplec::test::FunBuilder;

namespace {

struct LoopFun {
  Unit u;
  Graph* gp = nullptr;
  Node *loop, *i, *i1, *x, *cmp;
  FunBuilder::Branch br;
  int index;
};

// for (i = 0; i < n; i++) x = i * 5;  return x (via a Phi)
void build(LoopFun& L) {
  FunBuilder f(L.u, "lf", 1);
  L.gp = &f.g;
  L.index = f.index;
  L.loop = f.loop(f.fun);
  L.i = f.loopPhi(L.loop, f.con(0));
  L.cmp = f.cmp(Op::LT, L.i, f.parm(0));
  L.br = f.branch(L.loop, L.cmp);
  L.i1 = f.add(L.i, f.con(1));
  L.x = f.op(Op::Mul, L.i1, f.con(5));
  f.closeLoop(L.loop, L.br.t);
  f.setBack(L.i, L.x);
  f.ret(L.br.f, f.mem, L.i);
}

bool mentions(const std::vector<std::string>& errs, const std::string& what) {
  for (const std::string& e : errs)
    if (e.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("the checker accepts gcm's schedule and rejects broken ones", "[sched][verify]") {
  LoopFun L;
  build(L);
  Schedule good = checkedGcm((*L.gp));
  int body = good.blockIndexOf(L.x);
  REQUIRE(body == blockOfHead(good, L.br.t));

  SECTION("inputs after their use") {
    Schedule s = good;
    auto& ns = s.blocks[size_t(body)].nodes;
    auto a = std::find(ns.begin(), ns.end(), L.i1), b = std::find(ns.begin(), ns.end(), L.x);
    REQUIRE(a < b);
    std::iter_swap(a, b);
    CHECK(mentions(verifySchedule((*L.gp), s), "comes after it"));
  }
  SECTION("a use in a block its input does not dominate") {
    Schedule s = good;
    int exitB = blockOfHead(s, L.br.f);
    // Move i1 from the loop body to the exit block: it no longer dominates x.
    auto& ns = s.blocks[size_t(body)].nodes;
    ns.erase(std::find(ns.begin(), ns.end(), L.i1));
    auto& es = s.blocks[size_t(exitB)].nodes;
    es.insert(es.end() - 1, L.i1);
    s.blockOf[L.i1->id] = exitB;
    CHECK(mentions(verifySchedule((*L.gp), s), "does not dominate"));
  }
  SECTION("blockOf out of sync") {
    Schedule s = good;
    s.blockOf[L.x->id] = 0;
    CHECK(mentions(verifySchedule((*L.gp), s), "blockOf says"));
  }
  SECTION("a missing node") {
    Schedule s = good;
    auto& ns = s.blocks[size_t(body)].nodes;
    ns.erase(std::find(ns.begin(), ns.end(), L.x));
    s.blockOf[L.x->id] = -1;
    CHECK(mentions(verifySchedule((*L.gp), s), "is not scheduled"));
  }
  SECTION("a wrong idom") {
    Schedule s = good;
    int exitB = blockOfHead(s, L.br.f);
    s.blocks[size_t(exitB)].idom = 0;  // shallower than the truth (the loop header)
    CHECK(mentions(verifySchedule((*L.gp), s), "idom is"));
  }
  SECTION("a wrong loop depth") {
    Schedule s = good;
    s.blocks[size_t(blockOfHead(s, L.br.f))].loopDepth = 1;
    CHECK(mentions(verifySchedule((*L.gp), s), "loop depth"));
  }
  SECTION("predecessors out of order") {
    Schedule s = good;
    auto& p = s.blocks[size_t(blockOfHead(s, L.loop))].preds;
    std::swap(p[0], p[1]);
    CHECK(!verifySchedule((*L.gp), s).empty());
  }
  SECTION("the If not last") {
    Schedule s = good;
    auto& ns = s.blocks[size_t(s.blockIndexOf(L.br.iff))].nodes;
    std::iter_swap(ns.end() - 1, ns.end() - 2);
    CHECK(mentions(verifySchedule((*L.gp), s), "must be the last node"));
  }
  SECTION("a Phi after other nodes") {
    Schedule s = good;
    auto& ns = s.blocks[size_t(s.blockIndexOf(L.i))].nodes;
    REQUIRE(ns[1] == L.i);
    std::rotate(ns.begin() + 1, ns.begin() + 2, ns.begin() + 3);
    CHECK(mentions(verifySchedule((*L.gp), s), "does not follow the head"));
  }
}
