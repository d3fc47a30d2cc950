// Tests for codegen/call_saves.h: which calls an interval crosses, how
// calls with no access between them share one save, the holes left for
// the calls, the block weights that price a save, and where the saves go.
#include <catch2/catch.hpp>

#include "codegen/call_saves.h"
#include "codegen/liveness.h"
#include "test/unit/codegen/interval_ranges.h"
#include "test/unit/codegen/mir_builder.h"

using namespace simplec;
using namespace simplec::mir;
using simplec::test::FnBuilder;
using simplec::test::I;
using simplec::test::P;
using simplec::test::Ranges;
using simplec::test::rangesOf;
using simplec::test::V;

namespace {

// x = rdi; g(); [y = x;] h(); [y = x;] k(x); return y + x: x lives across
// all three calls; the copy into y comes after g (readBetween) or after h.
struct ThreeCalls {
  MFunction f;
  int x;
};
ThreeCalls threeCalls(bool readBetween) {
  FnBuilder b;
  b.at(b.block());
  int x = b.vreg(), y = b.vreg();
  b.mov(V(x), P(RDI));
  b.call("g", {}, -1);
  if (readBetween) b.mov(V(y), V(x));
  b.call("h", {}, -1);
  if (!readBetween) b.mov(V(y), V(x));
  b.call("k", {V(x)}, -1);
  b.op(MOp::Add, V(y), V(x));
  b.ret(V(y));
  return {b.finish(), x};
}

}  // namespace

TEST_CASE("call_saves: crossed calls and the spans that share a save", "[regalloc][call_saves]") {
  ThreeCalls t = threeCalls(false);
  LiveIntervals li = buildLiveIntervals(t.f, computeLiveness(t.f));
  REQUIRE(li.callPositions.size() == 3);
  std::vector<int> calls;
  // x is live across g and h, and is k's argument (read by the move into
  // rdi before k), but needed after k as well: all three are crossed.
  REQUIRE(crossedCalls(li.vregs[size_t(t.x)], li, 32, &calls));
  CHECK(calls == std::vector<int>{0, 1, 2});
  CHECK_FALSE(crossedCalls(li.vregs[size_t(t.x)], li, 2, &calls));
  // g and h have nothing between them: one save before g, one reload after
  // h. k comes after a read of x (y = x; rdi = x): a span of its own.
  std::vector<SaveSpan> spans = saveSpans(t.f, li, t.x, std::vector<int>{0, 1, 2});
  REQUIRE(spans.size() == 2);
  CHECK((spans[0].first == 0 && spans[0].last == 1));
  CHECK((spans[1].first == 2 && spans[1].last == 2));
  // The holes: from g's clobber position to h's, and k's.
  LiveInterval held = withHolesAtCalls(li.vregs[size_t(t.x)], li, spans);
  int g = li.callPositions[0], h = li.callPositions[1], k = li.callPositions[2];
  Ranges want{{li.vregs[size_t(t.x)].start(), g - 1}, {h + 1, k - 1}, {k + 1, li.vregs[size_t(t.x)].end()}};
  CHECK(rangesOf(held) == want);
  // A read between g and h splits them.
  ThreeCalls u = threeCalls(true);
  LiveIntervals lu = buildLiveIntervals(u.f, computeLiveness(u.f));
  REQUIRE(crossedCalls(lu.vregs[size_t(u.x)], lu, 32, &calls));
  CHECK(saveSpans(u.f, lu, u.x, calls).size() == 3);
}

TEST_CASE("call_saves: a call through the value ends its span", "[regalloc][call_saves]") {
  // g(); fp(); fp(): fp must be in its register when called through.
  FnBuilder b;
  b.at(b.block());
  int fp = b.vreg();
  b.mov(V(fp), P(RDI));
  b.call("g", {}, -1);
  b.emit(MOp::Call, {V(fp)});
  b.emit(MOp::Call, {V(fp)});
  b.ret(I(0));
  MFunction& f = b.finish();
  LiveIntervals li = buildLiveIntervals(f, computeLiveness(f));
  std::vector<int> calls;
  REQUIRE(crossedCalls(li.vregs[size_t(fp)], li, 32, &calls));
  CHECK(calls == std::vector<int>{0, 1});  // read by the last call: not crossed
  std::vector<SaveSpan> spans = saveSpans(f, li, fp, calls);
  REQUIRE(spans.size() == 2);
  // The holes leave fp's register to it where each call reads it.
  LiveInterval held = withHolesAtCalls(li.vregs[size_t(fp)], li, spans);
  CHECK(held.covers(li.callPositions[1] - 1));
  CHECK(held.covers(li.callPositions[2] - 1));
}

TEST_CASE("call_saves: a value defined by a call's result or only passed to it crosses nothing",
          "[regalloc][call_saves]") {
  FnBuilder b;
  b.at(b.block());
  int a = b.vreg(), r = b.vreg();
  b.mov(V(a), P(RDI));
  b.call("g", {V(a)}, r);  // a dies as g's argument; r is g's result
  b.ret(V(r));
  MFunction& f = b.finish();
  LiveIntervals li = buildLiveIntervals(f, computeLiveness(f));
  std::vector<int> calls;
  for (int v : {a, r}) {
    REQUIRE(crossedCalls(li.vregs[size_t(v)], li, 32, &calls));
    CHECK(calls.empty());
  }
}

TEST_CASE("call_saves: block weights", "[regalloc][call_saves]") {
  // b0 -> head(1) -> body(1) -> [arm(1)] -> latch(1) -> head; head -> out;
  // inner(2) -> checked(2), or error(2), a cold runtime-error stub.
  FnBuilder b;
  int b0 = b.block(), head = b.block(1), body = b.block(1), arm = b.block(1), latch = b.block(1), out = b.block(),
      inner = b.block(2), checked = b.block(2), error = b.block(2);
  int i = b.vreg();
  b.at(b0);
  b.mov(V(i), I(0));
  b.at(head);
  b.cmp(V(i), I(10));
  b.jcc(Cond::GE, out);
  b.at(body);
  b.cmp(V(i), I(5));
  b.jcc(Cond::NE, latch);
  b.at(arm);
  b.op(MOp::Add, V(i), I(1));
  b.at(latch);
  b.op(MOp::Add, V(i), I(1));
  b.jmp(head);
  b.at(out);
  b.ret(V(i));
  b.at(inner);  // unreachable, deeper: only its depth counts
  b.cmp(V(i), I(3));
  b.jcc(Cond::A, error);
  b.at(checked);  // past a bounds check: not an arm
  b.ret(V(i));
  b.at(error);
  b.call("__simplec_rt_error", {}, -1);
  MFunction& f = b.finish();
  f.blocks[size_t(error)].cold = true;
  std::vector<double> w = blockWeights(f);
  CHECK(w[size_t(b0)] == 1);
  CHECK(w[size_t(head)] == 8);
  CHECK(w[size_t(body)] == 8);   // the loop's test: body or exit
  CHECK(w[size_t(arm)] == 4);    // one arm of body's branch
  CHECK(w[size_t(latch)] == 8);  // a merge
  CHECK(w[size_t(out)] == 1);    // head's other arm, but it leaves the loop
  CHECK(w[size_t(inner)] == 64);
  CHECK(w[size_t(checked)] == 64);
}

TEST_CASE("call_saves: saves go right before their call, reloads right after", "[regalloc][call_saves]") {
  FnBuilder b;
  b.at(b.block());
  b.mov(P(RCX), I(1));
  b.call("g", {}, -1);
  b.call("h", {}, -1);
  b.ret(P(RCX));
  MFunction f = b.finish();
  insertCallSaves(f, {{1, true, RCX, 4}, {0, false, RCX, 4}, {0, false, RSI, 5}, {0, true, RSI, 5}});
  const std::vector<MInst>& in = f.blocks[0].insts;
  REQUIRE(in.size() == 9);
  auto isStore = [](const MInst& mi, int reg, int slot) {
    return mi.op == MOp::Mov && mi.ops[0].kind == Opnd::Slot && mi.ops[0].reg == slot &&
           mi.ops[1].kind == Opnd::PReg && mi.ops[1].reg == reg;
  };
  auto isLoad = [](const MInst& mi, int reg, int slot) {
    return mi.op == MOp::Mov && mi.ops[1].kind == Opnd::Slot && mi.ops[1].reg == slot &&
           mi.ops[0].kind == Opnd::PReg && mi.ops[0].reg == reg;
  };
  CHECK(isStore(in[1], RCX, 4));
  CHECK(isStore(in[2], RSI, 5));
  CHECK(in[3].op == MOp::Call);
  CHECK(isLoad(in[4], RSI, 5));
  CHECK(in[5].op == MOp::Call);
  CHECK(isLoad(in[6], RCX, 4));
}
