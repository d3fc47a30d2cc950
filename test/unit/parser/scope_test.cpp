// Tests for the parser's scopes (parser/scope.h), driven directly as the
// parser drives them: blocks and shadowing; merging two scopes makes a Phi
// only for the slots that differ; at a loop head the body's slots are lazy
// (a sentinel), the first read makes the Phi, a variable the loop never
// touches never gets one, and endLoop folds the Phi of a variable only read.
#include <catch2/catch.hpp>

#include "opt/peephole.h"
#include "parser/scope.h"
#include "son/merge_mem.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;
using simplec::sontest::verifyText;

namespace {

VarInfo var(const char* name) { return VarInfo{name, SType::intT(), false, nullptr, {}}; }

// A graph being parsed: one function f(p0, p1, p2), a peephole, its names and scopes.
struct Fixture {
  Unit u;
  SonBuilder b{u, "f", 3};
  Graph& g = b.g;
  Peephole peep{g};
  ScopeTable st;
  Fixture() { g.deferKills = true; }
  SymbolTable symbols;
  Scope* fresh(Node* ctrl, Node* mem) { return st.fresh(g, peep, symbols, ctrl, mem); }
  // The two arms of a branch of `s` on `pred`: {true arm, false arm}.
  std::pair<Scope*, Scope*> branch(Scope* s, Node* pred) {
    Node* iff = run(Op::If, {s->ctrl(), pred});
    Scope* t = st.child(s);
    Scope* e = st.child(s);
    t->setCtrl(run(Op::CProj, {iff}, 0));
    e->setCtrl(run(Op::CProj, {iff}, 1));
    return {t, e};
  }
  Node* deadCtrl() { return peep.run(g.con(Type::xctrl())); }
  Node* run(Op op, std::vector<Node*> ins, int64_t aux = 0) { return peep.run(g.make(op, ins, nullptr, aux)); }
  Node* con(int64_t v) { return peep.run(g.con(Type::intConst(v))); }
  // Returns v from f, drops the scopes and checks the finished graph.
  void finish(Node* ctrl, Node* mem, Node* v, std::vector<Scope*> scopes) {
    b.ret(ctrl, mem, v);
    for (Scope* s : scopes) st.kill(s);
    g.deferKills = false;
    sweepUnreachable(g);
    CHECK(verifyText(g) == "");
  }
};

}  // namespace

TEST_CASE("parser/scope: blocks, definitions and shadowing", "[parser][scope]") {
  Fixture f;
  Scope* s = f.fresh(f.b.fun, f.b.mem);
  SymbolTable& names = f.symbols;
  CHECK(s->ctrl() == f.b.fun);
  CHECK(s->mem() == f.b.mem);
  int ix = s->define(var("x"), f.b.parm(0));
  int iy = s->define(var("y"), f.b.parm(1));
  CHECK(ix == 0);
  CHECK(iy == 1);
  CHECK(s->numVars() == 2);
  CHECK(s->define(var("x"), f.b.parm(2)) == -1);  // same block
  CHECK(s->get(ix) == f.b.parm(0));
  size_t depth = names.depth();
  names.pushBlock();
  int inner = s->define(var("x"), f.b.parm(2));
  CHECK(inner == 2);
  CHECK(names.find("x") == inner);
  CHECK(names.find("y") == iy);
  CHECK(names.definedInInnermost("x"));
  CHECK_FALSE(names.definedInInnermost("y"));
  names.truncate(2, depth);
  s->forget(2);
  CHECK(names.find("x") == ix);
  CHECK(names.find("nope") == -1);
  CHECK(s->numVars() == 2);
  s->set(iy, f.b.parm(2));
  CHECK(s->get(iy) == f.b.parm(2));
  f.finish(s->ctrl(), s->mem(), s->get(iy), {s});
}

TEST_CASE("parser/scope: an arm holds only what it changes", "[parser][scope]") {
  Fixture f;
  Scope* s = f.fresh(f.b.fun, f.b.mem);
  for (int i = 0; i < 1000; i++) s->define(var(("v" + std::to_string(i)).c_str()), f.con(i));
  auto [t, e] = f.branch(s, f.b.parm(0));
  CHECK(t->node->in.size() == 1);  // control only: the values are read through s
  CHECK(t->get(500) == s->get(500));
  t->set(7, f.b.parm(1));
  CHECK(t->node->in.size() == 2);
  CHECK(e->get(7) == s->get(7));  // the other arm does not see it
  CHECK(s->get(7) != f.b.parm(1));
  size_t before = f.g.size();
  f.st.merge(t, e);
  Scope* after = f.st.collapse(t);
  CHECK(after == s);
  CHECK(f.g.size() - before <= 3);  // a Region and one Phi (peepholed), not one per variable
  CHECK(s->get(7)->op == Op::Phi);
  CHECK(s->get(8)->isConst());
  f.finish(s->ctrl(), s->mem(), s->get(7), {s});
}

TEST_CASE("parser/scope: a merge makes Phis only where the arms differ", "[parser][scope]") {
  Fixture f;
  Scope* s = f.fresh(f.b.fun, f.b.mem);
  int ix = s->define(var("x"), f.b.parm(0));
  int iy = s->define(var("y"), f.b.parm(1));
  auto [t, other] = f.branch(s, f.b.parm(2));
  CHECK(other->get(ix) == f.b.parm(0));
  Node* five = f.con(5);
  t->set(ix, five);
  Node* tc = t->ctrl();
  Node* ec = other->ctrl();
  Node* otherNode = other->node;
  Node* r = f.st.merge(t, other);  // `other` is freed
  CHECK(r->op == Op::Region);
  CHECK(r->in == std::vector<Node*>{nullptr, tc, ec});
  CHECK(t->ctrl() == r);
  CHECK(otherNode->in.empty());  // the merged-in scope is dropped
  Scope* m = f.st.collapse(t);
  CHECK(m == s);
  CHECK(s->ctrl() == r);
  Node* px = s->get(ix);
  REQUIRE(px->op == Op::Phi);
  CHECK(px->in == std::vector<Node*>{r, five, f.b.parm(0)});
  CHECK(px->name == "x");
  CHECK(s->get(iy) == f.b.parm(1));  // the same on both arms: no Phi
  CHECK(s->mem() == f.b.mem);
  f.finish(s->ctrl(), s->mem(), f.b.add(px, s->get(iy)), {s});
}

TEST_CASE("parser/scope: merging with a dead arm keeps the live arm's values", "[parser][scope]") {
  Fixture f;
  Scope* s = f.fresh(f.b.fun, f.b.mem);
  int ix = s->define(var("x"), f.b.parm(0));
  Scope* t = f.st.child(s);
  Scope* other = f.st.child(s);
  other->setCtrl(f.deadCtrl());
  other->set(ix, f.con(9));
  Node* r = f.st.merge(t, other);
  CHECK(r == f.b.fun);  // the Region of one live predecessor folds away
  s = f.st.collapse(t);
  CHECK(s->get(ix) == f.b.parm(0));
  f.finish(s->ctrl(), s->mem(), s->get(ix), {s});
}

TEST_CASE("parser/scope: a call on one arm makes every class with a value merge", "[parser][scope]") {
  Fixture f;
  int k = f.u.aliasClass("S.x");
  Scope* s = f.fresh(f.b.fun, f.b.mem);
  // Memory values standing for a store to class k and for a call's result.
  Node* stored = f.g.make(Op::Parm, {f.b.fun}, Type::mem(), -2);
  s->setMemOf(k, stored);
  auto [t, e] = f.branch(s, f.b.parm(0));
  Node* after = f.g.make(Op::Parm, {f.b.fun}, Type::mem(), -3);
  t->setAllMem(after);
  CHECK(t->memOf(k) == after);  // the call made the class the base
  CHECK(e->memOf(k) == stored);
  f.st.merge(t, e);
  s = f.st.collapse(t);
  Node* m = s->memOf(k);
  INFO(m->label() << " " << m->in[1]->label() << " " << m->in[2]->label());
  REQUIRE(m->op == Op::Phi);
  CHECK(m->in[1] == after);
  CHECK(m->in[2] == stored);
  s->setCtrl(f.b.fun);
  f.st.kill(s);
}

TEST_CASE("parser/scope: loop Phis are made lazily", "[parser][scope]") {
  Fixture f;
  Scope* head = f.fresh(f.b.fun, f.b.mem);
  int ix = head->define(var("x"), f.b.parm(0));  // only read in the loop
  int iy = head->define(var("y"), f.b.parm(1));  // written in the loop
  int iz = head->define(var("z"), f.b.parm(2));  // never touched
  // while (x < y) y = y + 1;   -- as parseWhile builds it
  Node* loop = f.run(Op::Loop, {nullptr, head->ctrl(), nullptr});
  loop->type = Type::ctrl();
  head->setCtrl(loop);
  Scope* body = f.st.loopBody(head);
  CHECK(body->ctrl() == loop);
  CHECK(body->node->in.size() == 1);  // nothing of its own yet

  Node* px = body->get(ix);
  REQUIRE(px->op == Op::Phi);
  CHECK(px->in == std::vector<Node*>{loop, f.b.parm(0), nullptr});
  CHECK(px->name == "x");
  CHECK(px->type == Type::intBot());
  CHECK(head->get(ix) == px);  // the head holds it
  CHECK(body->get(ix) == px);  // made once
  Node* py = body->get(iy);
  Node* cond = f.run(Op::LT, {nullptr, px, py});
  auto [t, exit] = f.branch(body, cond);
  Node* inc = f.run(Op::Add, {nullptr, t->get(iy), f.con(1)});
  t->set(iy, inc);
  CHECK(head->get(iz) == f.b.parm(2));  // z: still no Phi

  f.st.endLoop(head, t);
  CHECK(loop->in[2] != nullptr);
  // y: a real loop Phi.
  CHECK(py->in == std::vector<Node*>{loop, f.b.parm(1), inc});
  CHECK(exit->get(iy) == py);
  // x: its Phi only fed itself, so it folded into the entry value.
  CHECK(px->dead);
  CHECK(exit->get(ix) == f.b.parm(0));
  CHECK(cond->in[1] == f.b.parm(0));
  // z and memory: the exit sees the values from before the loop.
  CHECK(exit->get(iz) == f.b.parm(2));
  CHECK(exit->mem() == f.b.mem);
  for (const auto& n : f.g.nodes()) CHECK_FALSE((n->op == Op::Phi && n->name == "z"));
  for (const auto& n : f.g.nodes()) CHECK_FALSE((n->op == Op::Phi && n->type == Type::mem()));
  Scope* s = f.st.collapse(f.st.collapse(exit));
  CHECK(s == head);
  f.finish(s->ctrl(), s->mem(), f.b.add(s->get(iy), s->get(iz)), {s});
  CHECK(sontest::liveOfKind(f.g, Op::Phi) == std::vector<Node*>{py});
}

TEST_CASE("parser/scope: a class sharing the base enters its loop Phi with the base from before the loop",
          "[parser][scope]") {
  // for (...) { call(); a[0] = ... }   -- the call reads all memory first,
  // which gives the head a Phi of the base, then one of each class: the
  // class, which shares the base, enters the loop with the base's value
  // before the loop, not with the base's Phi (no value on the entry edge:
  // the schedule checker found such inputs in most generated programs).
  Fixture f;
  int k = f.u.aliasClass("int[]");
  Scope* head = f.fresh(f.b.fun, f.b.mem);
  Node* loop = f.run(Op::Loop, {nullptr, head->ctrl(), nullptr});
  loop->type = Type::ctrl();
  head->setCtrl(loop);
  Scope* body = f.st.loopBody(head);
  Node* base = body->mem();
  REQUIRE(base->op == Op::Phi);
  CHECK(base->in[1] == f.b.mem);
  Node* cls = body->memOf(k);
  REQUIRE(cls->op == Op::Phi);
  CHECK(cls->in[0] == loop);
  CHECK(cls->in[1] == f.b.mem);
  Node* stored = f.g.make(Op::Parm, {f.b.fun}, Type::mem(), -2);
  Scope* back = f.st.child(body);
  back->setMemOf(k, stored);
  f.st.endLoop(head, back);
  for (const auto& n : f.g.nodes())
    if (n->op == Op::Phi && !n->dead) {
      INFO(n->label() << " " << n->name);
      CHECK_FALSE((n->in[1]->op == Op::Phi && n->in[1]->in[0] == n->in[0]));
    }
  f.st.kill(body);
  f.st.kill(head);
}

TEST_CASE("parser/scope: a call's memory lists only the classes with values of their own", "[parser][scope]") {
  // However many classes the program has: a call costs what its function touched.
  Fixture f;
  for (int i = 0; i < 5000; i++) f.u.aliasClass("S" + std::to_string(i) + ".x");
  int k = f.u.aliasClass("S4999.x");
  Scope* s = f.fresh(f.b.fun, f.b.mem);
  Node* stored = f.g.make(Op::Parm, {f.b.fun}, Type::mem(), -2);
  s->setMemOf(k, stored);
  Node* all = s->allMem();
  REQUIRE(all->op == Op::MergeMem);
  CHECK(all->in.size() == 3);
  CHECK(mergeMemClasses(all) == std::vector<int>{k});
  CHECK(mergeMemOf(all, k) == stored);
  CHECK(mergeMemOf(all, 1) == f.b.mem);
  s->setCtrl(f.b.fun);
  f.st.kill(s);
}

TEST_CASE("parser/scope: a class first stored after a call in the loop goes round inside the base",
          "[parser][scope]") {
  // for (...) { call(); o.x = ... }   -- the call took all memory before the
  // class had a value in the loop: a Phi of the class made later would be
  // missed by that call in the next iteration. The class has none; the base's
  // Phi carries it (a MergeMem on the back edge), and no other class gets a
  // Phi (once every class of the program did, at every such loop).
  Fixture f;
  for (int i = 0; i < 100; i++) f.u.aliasClass("S" + std::to_string(i) + ".x");
  int k = f.u.aliasClass("S7.x");
  Scope* head = f.fresh(f.b.fun, f.b.mem);
  Node* loop = f.run(Op::Loop, {nullptr, head->ctrl(), nullptr});
  loop->type = Type::ctrl();
  head->setCtrl(loop);
  Scope* body = f.st.loopBody(head);
  Node* all = body->allMem();  // the call's memory
  Node* base = body->mem();
  REQUIRE(base->op == Op::Phi);
  CHECK(all == base);
  Node* after = f.g.make(Op::Parm, {f.b.fun}, Type::mem(), -3);
  body->setAllMem(after);
  CHECK(body->memOf(k) == after);  // the class shares the base
  Node* stored = f.g.make(Op::Parm, {f.b.fun}, Type::mem(), -2);
  body->setMemOf(k, stored);
  CHECK(body->memOf(k) == stored);
  Scope* back = f.st.child(body);
  f.st.endLoop(head, back);
  Node* carried = base->in[2];
  REQUIRE(carried->op == Op::MergeMem);
  CHECK(carried->in[1] == after);
  CHECK(mergeMemOf(carried, k) == stored);
  int memPhis = 0;
  for (const auto& n : f.g.nodes())
    if (n->op == Op::Phi && !n->dead && n->type == Type::mem()) memPhis++;
  CHECK(memPhis == 1);  // the base's
  f.st.kill(body);
  f.st.kill(head);
}
