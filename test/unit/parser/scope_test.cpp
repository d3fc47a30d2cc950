// Tests for the parser's scopes (parser/scope.h), driven directly as the
// parser drives them: blocks and shadowing; merging two scopes makes a Phi
// only for the slots that differ; at a loop head the body's slots are lazy
// (a sentinel), the first read makes the Phi, a variable the loop never
// touches never gets one, and endLoop folds the Phi of a variable only read.
#include <catch2/catch.hpp>

#include "opt/peephole.h"
#include "parser/scope.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;
using simplec::sontest::verifyText;

namespace {

VarInfo var(const char* name) { return VarInfo{name, SType::intT(), false, nullptr, {}}; }

// A graph being parsed: one function f(p0, p1, p2), a peephole, scopes.
struct Fixture {
  Unit u;
  SonBuilder b{u, "f", 3};
  Graph& g = b.g;
  Peephole peep{g};
  ScopeTable st;
  Fixture() { g.deferKills = true; }
  Scope* fresh(Node* ctrl, Node* mem) { return st.fresh(g, peep, ctrl, mem); }
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
  CHECK(s->ctrl() == f.b.fun);
  CHECK(s->mem() == f.b.mem);
  int ix = s->define(var("x"), f.b.parm(0));
  int iy = s->define(var("y"), f.b.parm(1));
  CHECK(ix == 0);
  CHECK(iy == 1);
  CHECK(s->numSlots() == size_t(Scope::kFirstVar + 2));
  CHECK(s->define(var("x"), f.b.parm(2)) == -1);  // same block
  CHECK(s->get(ix) == f.b.parm(0));
  s->pushBlock();
  int inner = s->define(var("x"), f.b.parm(2));
  CHECK(inner == 2);
  CHECK(s->find("x") == inner);
  CHECK(s->find("y") == iy);
  CHECK(s->definedInInnermost("x"));
  CHECK_FALSE(s->definedInInnermost("y"));
  s->popBlock();
  CHECK(s->find("x") == ix);
  CHECK(s->find("nope") == -1);
  CHECK(s->numSlots() == size_t(Scope::kFirstVar + 2));
  s->set(iy, f.b.parm(2));
  CHECK(s->get(iy) == f.b.parm(2));
  f.finish(s->ctrl(), s->mem(), s->get(iy), {s});
}

TEST_CASE("parser/scope: a merge makes Phis only where the arms differ", "[parser][scope]") {
  Fixture f;
  Scope* s = f.fresh(f.b.fun, f.b.mem);
  int ix = s->define(var("x"), f.b.parm(0));
  int iy = s->define(var("y"), f.b.parm(1));
  Node* iff = f.run(Op::If, {f.b.fun, f.b.parm(2)});
  iff->keep++;
  Node* t = f.run(Op::CProj, {iff}, 0);
  Node* e = f.run(Op::CProj, {iff}, 1);
  iff->keep--;
  Scope* other = f.st.dup(s, false);
  CHECK(other->get(ix) == f.b.parm(0));
  other->setCtrl(e);
  s->setCtrl(t);
  Node* five = f.con(5);
  s->set(ix, five);
  Node* r = f.st.merge(s, other);
  CHECK(r->op == Op::Region);
  CHECK(r->in == std::vector<Node*>{nullptr, t, e});
  CHECK(s->ctrl() == r);
  Node* px = s->get(ix);
  REQUIRE(px->op == Op::Phi);
  CHECK(px->in == std::vector<Node*>{r, five, f.b.parm(0)});
  CHECK(px->name == "x");
  CHECK(s->get(iy) == f.b.parm(1));  // the same on both arms: no Phi
  CHECK(s->mem() == f.b.mem);
  CHECK(other->node->in.empty());  // the merged-in scope is dropped
  f.finish(s->ctrl(), s->mem(), f.b.add(px, s->get(iy)), {s});
}

TEST_CASE("parser/scope: merging with a dead arm keeps the live arm's values", "[parser][scope]") {
  Fixture f;
  Scope* s = f.fresh(f.b.fun, f.b.mem);
  int ix = s->define(var("x"), f.b.parm(0));
  Scope* other = f.st.dup(s, false);
  other->setCtrl(f.deadCtrl());
  other->set(ix, f.con(9));
  Node* r = f.st.merge(s, other);
  CHECK(r == f.b.fun);  // the Region of one live predecessor folds away
  CHECK(s->get(ix) == f.b.parm(0));
  f.finish(s->ctrl(), s->mem(), s->get(ix), {s});
}

TEST_CASE("parser/scope: loop Phis are made lazily", "[parser][scope]") {
  Fixture f;
  Scope* head = f.fresh(f.b.fun, f.b.mem);
  int ix = head->define(var("x"), f.b.parm(0));  // only read in the loop
  int iy = head->define(var("y"), f.b.parm(1));  // written in the loop
  int iz = head->define(var("z"), f.b.parm(2));  // never touched
  const size_t sx = Scope::kFirstVar + size_t(ix), sz = Scope::kFirstVar + size_t(iz);
  // while (x < y) y = y + 1;   -- as parseWhile builds it
  Node* loop = f.run(Op::Loop, {nullptr, head->ctrl(), nullptr});
  loop->type = Type::ctrl();
  head->setCtrl(loop);
  head->node->keep++;
  Scope* body = f.st.dup(head, true);
  CHECK(body->ctrl() == loop);
  for (size_t i = 1; i < body->numSlots(); i++) CHECK(body->node->in[i] == head->node);  // all lazy

  Node* px = body->get(ix);
  REQUIRE(px->op == Op::Phi);
  CHECK(px->in == std::vector<Node*>{loop, f.b.parm(0), nullptr});
  CHECK(px->name == "x");
  CHECK(px->type == Type::intBot());
  CHECK(head->node->in[sx] == px);
  CHECK(body->get(ix) == px);  // made once
  Node* py = body->get(iy);
  Node* cond = f.run(Op::LT, {nullptr, px, py});
  Node* iff = f.run(Op::If, {loop, cond});
  iff->keep++;
  Node* t = f.run(Op::CProj, {iff}, 0);
  Node* e = f.run(Op::CProj, {iff}, 1);
  iff->keep--;
  Scope* exit = f.st.dup(body, false);
  exit->setCtrl(e);
  body->setCtrl(t);
  Node* inc = f.run(Op::Add, {nullptr, body->get(iy), f.con(1)});
  body->set(iy, inc);
  CHECK(head->node->in[sz] != nullptr);
  CHECK(head->node->in[sz] == f.b.parm(2));  // z: still no Phi
  CHECK(exit->node->in[sz] == head->node);   // the exit is lazy there too

  f.st.endLoop(head, body, exit);
  head->node->keep--;
  f.st.kill(head);
  CHECK(loop->in[2] == t);
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
  f.finish(exit->ctrl(), exit->mem(), f.b.add(exit->get(iy), exit->get(iz)), {exit});
  CHECK(sontest::liveOfKind(f.g, Op::Phi) == std::vector<Node*>{py});
}
