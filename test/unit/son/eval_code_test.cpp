// Tests for the evaluator's function layout (son/eval_code.h): stored slots
// come first, control nodes know their successors and Region edge indices,
// regions their Phis, and stale lists hold exactly the values computed from
// a Region's Phis or a call's result (or give up past kMaxStaleList);
// malformed graphs are internal errors.
#include <catch2/catch.hpp>

#include <algorithm>

#include "lexer/diag.h"
#include "son/eval_code.h"
#include "son/mem_access.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;

namespace {

EvalCode layout(const Graph& g) { return buildEvalCode(g); }

int32_t slotOf(const EvalCode& c, const Node* n) {
  for (size_t i = 0; i < c.nodes.size(); i++)
    if (c.nodes[i].node == n) return int32_t(i);
  return -1;
}

std::vector<const Node*> nodesOf(const EvalCode& c, const std::vector<int32_t>& slots) {
  std::vector<const Node*> r;
  for (int32_t s : slots) r.push_back(c.nodes[size_t(s)].node);
  std::sort(r.begin(), r.end());
  return r;
}

std::vector<const Node*> sorted(std::vector<const Node*> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// f(n, k): i = 0; while (i < n) i = i + 1; return g(i * 2 + k * 3)
struct LoopAndCall {
  Unit u;
  SonBuilder b{u, "f", 2};
  Graph& g = b.g;
  Node *lp, *i, *inc, *cmp, *twice, *k3, *arg, *ret, *plus1;
  SonBuilder::Branch br;
  SonBuilder::CallResult call;
  LoopAndCall() {
    SonBuilder callee(u, "g", 1);
    callee.ret(callee.fun, callee.parm(0));
    lp = b.loop(b.fun);
    i = b.loopPhi(lp, b.con(0));
    inc = b.add(i, b.con(1));
    g.setDef(i, 2, inc);
    cmp = b.op(Op::LT, i, b.parm(0));
    br = b.branch(lp, cmp);
    b.closeLoop(lp, br.t);
    twice = b.op(Op::Mul, i, b.con(2));
    k3 = b.op(Op::Mul, b.parm(1), b.con(3));
    arg = b.add(twice, k3);
    call = b.call(br.f, b.mem, 1, {arg});
    plus1 = b.add(call.value, b.con(1));
    ret = b.ret(call.ctrl, call.mem, plus1);
  }
};

}  // namespace

TEST_CASE("son/eval_code: stored slots first, then constants and control", "[son][evaluator]") {
  LoopAndCall t;
  EvalCode c = layout(t.g);
  CHECK(c.funIndex == 0);
  REQUIRE(c.entry >= 0);
  CHECK(c.nodes[size_t(c.entry)].node == t.b.fun);
  for (size_t s = 0; s < c.nodes.size(); s++) {
    const EvalNode& e = c.nodes[s];
    bool stored = e.cls == SlotClass::Assigned || e.cls == SlotClass::Computed;
    CHECK(stored == (int32_t(s) < c.numStored));
  }
  CHECK(c.nodes[size_t(slotOf(c, t.i))].cls == SlotClass::Assigned);
  CHECK(c.nodes[size_t(slotOf(c, t.call.end))].cls == SlotClass::Assigned);
  CHECK(c.nodes[size_t(slotOf(c, t.arg))].cls == SlotClass::Computed);
  CHECK(c.nodes[size_t(slotOf(c, t.lp))].cls == SlotClass::Control);
  // Memory is a token nothing reads: the memory Parm is not laid out.
  CHECK(nodesOf(c, c.parms) == sorted({t.b.parm(0), t.b.parm(1)}));
  const EvalNode& two = c.nodes[size_t(slotOf(c, t.twice))];
  CHECK(c.nodes[size_t(two.b)].cls == SlotClass::Const);
  CHECK(c.nodes[size_t(two.b)].kind == EvalKind::Int);
  CHECK(c.nodes[size_t(two.b)].imm == 2);
  // The call's function is a constant of kind Fun naming the callee.
  const EvalNode& fp = c.nodes[size_t(c.nodes[size_t(slotOf(c, t.call.call))].ins[2])];
  CHECK(fp.kind == EvalKind::Fun);
  CHECK(fp.imm == 1);
  // The callee's nodes are not part of f.
  CHECK(slotOf(c, t.u.funs[1].fun) == -1);
}

TEST_CASE("son/eval_code: successors, Region edges and Phis", "[son][evaluator]") {
  LoopAndCall t;
  EvalCode c = layout(t.g);
  const EvalNode& fun = c.nodes[size_t(c.entry)];
  CHECK(fun.next[0] == slotOf(c, t.lp));
  CHECK(fun.nextPred[0] == 1);
  const EvalNode& iff = c.nodes[size_t(slotOf(c, t.br.iff))];
  CHECK(iff.a == slotOf(c, t.cmp));
  CHECK(iff.next[0] == slotOf(c, t.br.t));
  CHECK(iff.next[1] == slotOf(c, t.br.f));
  const EvalNode& back = c.nodes[size_t(slotOf(c, t.br.t))];
  CHECK(back.next[0] == slotOf(c, t.lp));
  CHECK(back.nextPred[0] == 2);
  CHECK(c.nodes[size_t(slotOf(c, t.br.f))].next[0] == slotOf(c, t.call.call));
  CHECK(c.nodes[size_t(slotOf(c, t.call.call))].next[0] == slotOf(c, t.call.end));
  CHECK(c.nodes[size_t(slotOf(c, t.call.end))].next[0] == slotOf(c, t.call.ctrl));
  CHECK(c.nodes[size_t(slotOf(c, t.call.ctrl))].next[0] == slotOf(c, t.ret));
  CHECK(c.nodes[size_t(slotOf(c, t.ret))].next[0] == EvalNode::kNoSucc);
  CHECK(nodesOf(c, c.nodes[size_t(slotOf(c, t.lp))].phis) == sorted({t.i}));
  // Memory is a token: the call's memory projection is not evaluated.
  CHECK(slotOf(c, t.call.mem) == -1);
}

TEST_CASE("son/eval_code: stale lists follow data edges up to the next assigned value", "[son][evaluator]") {
  LoopAndCall t;
  EvalCode c = layout(t.g);
  const EvalNode& lp = c.nodes[size_t(slotOf(c, t.lp))];
  CHECK(!lp.staleAll);
  // k * 3 does not depend on the loop; the call's result is not computed.
  CHECK(nodesOf(c, lp.stale) == sorted({t.inc, t.cmp, t.twice, t.arg}));
  const EvalNode& end = c.nodes[size_t(slotOf(c, t.call.end))];
  CHECK(nodesOf(c, end.stale) == sorted({t.call.value, t.plus1}));
}

TEST_CASE("son/eval_code: a stale list too long to keep stales everything", "[son][evaluator]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* lp = b.loop(b.fun);
  Node* i = b.loopPhi(lp, b.con(0));
  Node* v = i;
  for (size_t j = 0; j < kMaxStaleList + 5; j++) v = b.add(v, b.con(1));
  g.setDef(i, 2, v);
  SonBuilder::Branch br = b.branch(lp, b.op(Op::LT, i, b.parm(0)));
  b.closeLoop(lp, br.t);
  b.ret(br.f, i);
  EvalCode c = layout(g);
  const EvalNode& e = c.nodes[size_t(slotOf(c, lp))];
  CHECK(e.staleAll);
  CHECK(e.stale.empty());
}

TEST_CASE("son/eval_code: several successors and missing arms are recorded, not guessed", "[son][evaluator]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  // The If's true arm feeds both a Region and a Return: two successors.
  SonBuilder::Branch br = b.branch(b.fun, b.parm(0));
  Node* r = b.region({br.t});
  b.ret(r, b.parm(0));
  Node* ret2 = g.make(Op::Return, {br.t, b.mem, b.con(1)}, Type::ctrl());
  g.addDef(g.stop(), ret2);
  EvalCode c = layout(g);
  REQUIRE(slotOf(c, br.iff) >= 0);
  REQUIRE(slotOf(c, br.t) >= 0);
  const EvalNode& iff = c.nodes[size_t(slotOf(c, br.iff))];
  CHECK(iff.next[0] == slotOf(c, br.t));
  CHECK(c.nodes[size_t(slotOf(c, br.t))].next[0] == EvalNode::kAmbiguous);
  // The false arm is used by nothing (so it is not even live).
  CHECK(iff.next[1] == EvalNode::kNoSucc);
}

TEST_CASE("son/eval_code: malformed functions are internal errors", "[son][evaluator]") {
  Unit u;
  SonBuilder f(u, "f", 1);
  SonBuilder h(u, "h", 1);
  // Reading h's parameter in f would be an edge between two graphs.
  CHECK_THROWS_AS(f.add(f.parm(0), h.parm(0)), InternalError);
  f.ret(f.fun, f.parm(0));
  h.ret(h.fun, h.parm(0));
  CHECK_NOTHROW(layout(f.g));
  CHECK_NOTHROW(layout(h.g));
  // A graph without its Fun.
  u.funs.emplace_back().name = "empty";
  CHECK_THROWS_AS(layout(u.newGraph(2)), InternalError);
}

TEST_CASE("son/eval_code: stale lists stay linear in the function's size", "[son][evaluator]") {
  // 3000 diamonds, each merging j or 1 into a Phi, and one sum of all the
  // Phis: the Phi of diamond j has 3000 - j dependents, quadratic in total.
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* ctrl = b.fun;
  Node* sum = b.con(0);
  const int kDiamonds = 3000;
  for (int j = 0; j < kDiamonds; j++) {
    SonBuilder::Branch br = b.branch(ctrl, b.op(Op::LT, b.con(j), b.parm(0)));
    Node* r = b.region({br.t, br.f});
    sum = b.add(sum, b.phi(r, {b.con(j), b.con(1)}));
    ctrl = r;
  }
  b.ret(ctrl, sum);
  EvalCode c = layout(g);
  size_t total = 0, all = 0;
  for (const EvalNode& e : c.nodes) {
    total += e.stale.size();
    all += e.staleAll;
  }
  CHECK(total <= 16 * size_t(c.numStored) + 4 * kMaxStaleList);
  CHECK(all > 0);
}

TEST_CASE("eval_code: a store waits for the field load that a control-less length load reads",
          "[son][eval]") {
  // t[1] = -(h[0]#), with the store made before the loads (as inlining makes
  // them): the length load has no control, so the store's group must still
  // order the field load h[0] first (simplec_fuzz seed 11000033).
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  MemAccess elems, refs, header;
  elems.alias = u.aliasClass("[]int");
  refs.alias = u.aliasClass("[]ref");
  refs.value = MemValue::Ptr;
  header.alias = 0;
  SonBuilder::NewResult t = b.newArray(b.fun, b.mem, b.con(4), 8);
  SonBuilder::NewResult h = b.newArray(t.ctrl, t.mem, b.con(2), 8);
  Node* st = b.store(h.ctrl, h.mem, t.ptr, b.con(kArrayHeader + 8), b.con(0), elems.encode());
  Node* field = b.load(h.ctrl, h.mem, h.ptr, b.con(kArrayHeader), refs.encode());
  Node* length = g.make(Op::Load, {nullptr, nullptr, field, b.con(0)}, nullptr, header.encode());
  length->type = compute(length);
  g.setDef(st, 4, b.op(Op::Neg, length));
  b.ret(h.ctrl, st, b.con(0));
  REQUIRE(st->id < field->id);
  EvalCode c = layout(g);
  const std::vector<int32_t>& ops = c.nodes[size_t(slotOf(c, h.ctrl))].memOps;
  auto at = [&](const Node* n) { return std::find(ops.begin(), ops.end(), slotOf(c, n)) - ops.begin(); };
  REQUIRE(at(field) < long(ops.size()));
  REQUIRE(at(st) < long(ops.size()));
  CHECK(at(field) < at(st));
}
