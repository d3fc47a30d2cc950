// Tests for printSchedule: the exact text of small schedules (a straight
// function and a loop), and that it does not depend on node ids.
#include <catch2/catch.hpp>

#include "test/unit/sched/sched_builder.h"

using namespace simplec;
using simplec::test::checkedGcm;
using simplec::test::FunBuilder;

TEST_CASE("printSchedule of a straight-line function", "[sched][print]") {
  Unit u;
  FunBuilder f(u, "inc", 1);
  Graph& g = f.g;
  Node* x = f.add(f.parm(0), f.con(1));
  f.ret(f.fun, f.mem, x);
  Schedule s = checkedGcm(g);
  CHECK(printSchedule(g, s) ==
        "B0 Fun inc: depth 0, idom -, preds [], succs []\n"
        "  %0 = Fun inc\n"
        "  %1 = Parm mem %0\n"
        "  %2 = Parm 0 %0\n"
        "  %3 = Con 1\n"
        "  %4 = Add _, %2, %3\n"
        "  %5 = Return %0, %1, %4\n");
}

namespace {
// for (i = 0; i < n; i++) {}  return i
Graph& buildCount(Unit& u, int junk) {
  FunBuilder f(u, "count", 1);
  Graph& g = f.g;
  for (int k = 0; k < junk; k++) g.kill(g.make(Op::Con, {g.start()}, Type::intConst(k)));  // shifts ids
  Node* loop = f.loop(f.fun);
  Node* i = f.loopPhi(loop, f.con(0));
  auto br = f.branch(loop, f.cmp(Op::LT, i, f.parm(0)));
  f.closeLoop(loop, br.t);
  f.setBack(i, f.add(i, f.con(1)));
  f.ret(br.f, f.mem, i);
  return g;
}
}  // namespace

TEST_CASE("printSchedule of a loop", "[sched][print]") {
  const char* expect =
      "B0 Fun count: depth 0, idom -, preds [], succs [B1]\n"
      "  %0 = Fun count\n"
      "  %1 = Parm mem %0\n"
      "  %2 = Parm 0 %0\n"
      "  %3 = Con 0\n"
      "  %4 = Con 1\n"
      "B1 Loop: depth 1, idom B0, preds [B0, B2], succs [B2, B3]\n"
      "  %5 = Loop _, %0, %9\n"
      "  %6 = Phi %5, %3, %10\n"
      "  %7 = LT _, %6, %2\n"
      "  %8 = If %5, %7\n"
      "B2 CProj 0: depth 1, idom B1, preds [B1], succs [B1]\n"
      "  %9 = CProj 0 %8\n"
      "  %10 = Add _, %6, %4\n"
      "B3 CProj 1: depth 0, idom B1, preds [B1], succs []\n"
      "  %11 = CProj 1 %8\n"
      "  %12 = Return %11, %1, %6\n";
  Unit u1, u2;
  Graph& g1 = buildCount(u1, 0);
  Graph& g2 = buildCount(u2, 17);
  std::string p1 = printSchedule(g1, checkedGcm(g1));
  std::string p2 = printSchedule(g2, checkedGcm(g2));
  CHECK(p1 == expect);
  CHECK(p2 == expect);  // ids differ, text does not
}
