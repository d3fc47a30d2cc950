// Tests for null facts in scopes (parser/scope_facts.cpp), driven as the
// parser drives them: path facts in arms, merged by "holds on both live
// arms", forgotten selectively, copied by collapse and snapshot, dropped
// with their variables; reads through an open loop's head record the
// entry facts they relied on.
#include <catch2/catch.hpp>

#include "opt/peephole.h"
#include "parser/scope.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;

namespace {

// A nullable reference variable (an `int[]?`: null-tracked without a struct).
VarInfo ref(const char* name, bool maybeNull) {
  VarInfo v{name, SType::arrayT(SType::intT(), false, true), false, nullptr, {}};
  v.maybeNull = maybeNull;
  return v;
}
VarInfo num(const char* name) { return VarInfo{name, SType::intT(), false, nullptr, {}}; }

NullPath fieldOf(int var, int key) {
  PathStep s;
  s.key = key;
  return NullPath::ofVar(var).then(s);
}

struct Fixture {
  Unit u;
  SonBuilder b{u, "f", 3};
  Graph& g = b.g;
  Peephole peep{g};
  ScopeTable st;
  SymbolTable symbols;
  Fixture() { g.deferKills = true; }
  Scope* fresh() { return st.fresh(g, peep, symbols, b.fun, b.mem); }
  std::pair<Scope*, Scope*> branch(Scope* s) {
    Node* iff = peep.run(g.make(Op::If, {s->ctrl(), b.parm(0)}, nullptr));
    Scope* t = st.child(s);
    Scope* e = st.child(s);
    t->setCtrl(peep.run(g.make(Op::CProj, {iff}, nullptr, 0)));
    e->setCtrl(peep.run(g.make(Op::CProj, {iff}, nullptr, 1)));
    return {t, e};
  }
  Node* deadCtrl() { return peep.run(g.con(Type::xctrl())); }
  ~Fixture() {
    g.deferKills = false;
  }
};

}  // namespace

TEST_CASE("parser/scope_facts: an arm's path facts are its own", "[parser][scope][nullfacts]") {
  Fixture f;
  Scope* s = f.fresh();
  int p = s->define(ref("p", true), f.b.parm(1));
  NullPath pf = fieldOf(p, 3);
  CHECK_FALSE(s->pathNonNull(pf));
  auto [t, e] = f.branch(s);
  t->setPathNonNull(pf, true);
  CHECK(t->pathNonNull(pf));
  CHECK_FALSE(e->pathNonNull(pf));
  CHECK_FALSE(s->pathNonNull(pf));
  // Known on one arm only: nothing after the join, and nothing left behind.
  f.st.merge(t, e);
  s = f.st.collapse(t);
  CHECK_FALSE(s->pathNonNull(pf));
  CHECK(s->ownPaths().empty());
  f.st.kill(s);
}

TEST_CASE("parser/scope_facts: a fact on both arms, or on the only live one, survives", "[parser][scope][nullfacts]") {
  Fixture f;
  Scope* s = f.fresh();
  int p = s->define(ref("p", true), f.b.parm(1));
  NullPath a = fieldOf(p, 3), b = fieldOf(p, 4);
  auto [t, e] = f.branch(s);
  t->setPathNonNull(a, true);
  e->setPathNonNull(a, true);
  t->setPathNonNull(b, true);
  f.st.merge(t, e);
  s = f.st.collapse(t);
  CHECK(s->pathNonNull(a));
  CHECK_FALSE(s->pathNonNull(b));
  // `if (!p.g) return;`: the arm that returns is dead and proves nothing.
  auto [t2, e2] = f.branch(s);
  t2->setCtrl(f.deadCtrl());
  e2->setPathNonNull(b, true);
  f.st.merge(t2, e2);
  s = f.st.collapse(t2);
  CHECK(s->pathNonNull(b));
  f.st.kill(s);
}

TEST_CASE("parser/scope_facts: forgetting shadows the facts an event changes", "[parser][scope][nullfacts]") {
  Fixture f;
  Scope* s = f.fresh();
  int p = s->define(ref("p", true), f.b.parm(1));
  int q = s->define(ref("q", true), f.b.parm(2));
  NullPath pf = fieldOf(p, 3), qg = fieldOf(q, 4);
  s->setPathNonNull(pf, true);
  s->setPathNonNull(qg, true);
  auto [t, e] = f.branch(s);
  t->forgetPaths([](const NullPath& x) { return x.readsKey(false, 3); });  // a store to field 3
  CHECK_FALSE(t->pathNonNull(pf));
  CHECK(t->pathNonNull(qg));
  CHECK(s->pathNonNull(pf));  // the parent is untouched
  e->forgetPaths([](const NullPath&) { return true; });  // a call
  CHECK_FALSE(e->pathNonNull(qg));
  f.st.merge(t, e);
  s = f.st.collapse(t);
  CHECK_FALSE(s->pathNonNull(pf));
  CHECK_FALSE(s->pathNonNull(qg));
  f.st.kill(s);
}

TEST_CASE("parser/scope_facts: a block's end drops the facts of its variables", "[parser][scope][nullfacts]") {
  Fixture f;
  Scope* s = f.fresh();
  int p = s->define(ref("p", true), f.b.parm(1));
  size_t depth = f.symbols.depth();
  f.symbols.pushBlock();
  int i = s->define(num("i"), f.b.parm(2));
  PathStep at;
  at.element = true;
  at.indexVar = i;
  NullPath pi = NullPath::ofVar(p).then(at);
  s->setPathNonNull(pi, true);
  s->setPathNonNull(fieldOf(p, 3), true);
  f.symbols.truncate(size_t(i), depth);
  s->forget(size_t(i));
  CHECK_FALSE(s->pathNonNull(pi));
  CHECK(s->pathNonNull(fieldOf(p, 3)));
  f.st.kill(s);
}

TEST_CASE("parser/scope_facts: a jump's snapshot carries the facts it sees", "[parser][scope][nullfacts]") {
  Fixture f;
  Scope* s = f.fresh();
  int p = s->define(ref("p", true), f.b.parm(1));
  auto [t, e] = f.branch(s);
  t->setPathNonNull(fieldOf(p, 3), true);
  t->setMaybeNull(p, false);
  Scope* snap = f.st.snapshot(t, s);
  CHECK(snap->pathNonNull(fieldOf(p, 3)));
  CHECK_FALSE(snap->maybeNull(p));
  for (Scope* x : {snap, t, e, s}) f.st.kill(x);
}

TEST_CASE("parser/scope_facts: reads in a loop record the entry facts they rely on", "[parser][scope][nullfacts]") {
  Fixture f;
  Scope* head = f.fresh();
  int p = head->define(ref("p", false), f.b.parm(1));  // known non-null on entry
  int q = head->define(ref("q", true), f.b.parm(2));
  NullPath qf = fieldOf(q, 3);
  head->setPathNonNull(qf, true);
  Node* loop = f.peep.run(f.g.make(Op::Loop, {nullptr, head->ctrl(), nullptr}, Type::ctrl()));
  head->setCtrl(loop);
  head->clearReliedOn();
  Scope* body = f.st.loopBody(head);
  auto [t, e] = f.branch(body);
  CHECK_FALSE(t->maybeNull(p, /*mark=*/false));
  CHECK_FALSE(head->reliedOn(NullPath::ofVar(p)));  // asked without marking
  CHECK_FALSE(t->maybeNull(p));
  CHECK(head->reliedOn(NullPath::ofVar(p)));
  // A fact the loop set itself is not the entry's.
  t->setMaybeNull(q, false);
  CHECK_FALSE(t->maybeNull(q));
  CHECK_FALSE(head->reliedOn(NullPath::ofVar(q)));
  CHECK(e->pathNonNull(qf));
  CHECK(head->reliedOn(qf));
  // A read that was only a test takes back what it was first to record.
  head->clearReliedOn();
  ReliedMarks first, second;
  CHECK_FALSE(e->maybeNull(p, true, &first));
  CHECK_FALSE(t->maybeNull(p, true, &second));
  CHECK(first.size() == 1);
  CHECK(second.empty());  // recorded already
  Scope::unmarkRelied(first);
  CHECK_FALSE(head->reliedOn(NullPath::ofVar(p)));
  // A test in the loop proves its fact on its own: reads below it do not
  // reach the head's.
  t->setPathNonNull(qf, true);
  CHECK(t->pathNonNull(qf));
  CHECK_FALSE(head->reliedOn(qf));
  head->clearReliedOn();
  CHECK_FALSE(head->reliedOn(qf));
  for (Scope* x : {t, e, body, head}) f.st.kill(x);
}
