// Tests for the graph verifier (son/verify.h): a sound graph (a diamond, a
// loop, a call and a guarded division) passes, and each kind of corruption is
// reported, naming the node; sweepUnreachable collects garbage cycles.
#include <catch2/catch.hpp>

#include <algorithm>

#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;
using simplec::sontest::useListsExact;
using simplec::sontest::verifyText;

namespace {

// f(x, y): a loop summing y into s while s < x, then x / y when x, else s.
struct Sound {
  Unit u;
  SonBuilder b{u, "f", 2};
  Graph& g = b.g;
  Node *lp, *phi, *sum, *cmp, *iff, *body, *exit, *zc, *div, *region, *res, *call, *ret;
  Sound() {
    Node* x = b.parm(0);
    Node* y = b.parm(1);
    lp = b.loop(b.fun);
    phi = b.loopPhi(lp, b.con(0));
    sum = b.add(phi, y);
    g.setDef(phi, 2, sum);
    cmp = b.op(Op::LT, phi, x);
    SonBuilder::Branch loopBr = b.branch(lp, cmp);
    iff = loopBr.iff;
    body = loopBr.t;
    exit = loopBr.f;
    b.closeLoop(lp, body);
    SonBuilder::Branch br = b.branch(exit, x);
    zc = b.zeroCheck(br.t, y);
    div = b.div(Op::Div, zc, x, y);
    region = b.region({zc, br.f});
    res = b.phi(region, {div, phi});
    auto c = b.call(region, b.mem, 0, {res});
    call = c.call;
    ret = b.ret(c.ctrl, c.mem, c.value);
  }
  // Some finding mentions all of `parts`.
  bool reports(std::initializer_list<std::string> parts) {
    for (const std::string& e : verify(g)) {
      bool all = true;
      for (const std::string& p : parts) all &= e.find(p) != std::string::npos;
      if (all) return true;
    }
    return false;
  }
  static std::string ref(const Node* n) { return "node " + std::to_string(n->id) + " (" + n->label() + ")"; }
};

}  // namespace

TEST_CASE("son/verify: a sound graph passes", "[son][verify]") {
  Sound s;
  CHECK(verifyText(s.g) == "");
  CHECK(useListsExact(s.g));
}

TEST_CASE("son/verify: each corruption is reported", "[son][verify]") {
  Sound s;
  Graph& g = s.g;
  SECTION("a use missing from a use list") {
    auto& out = s.b.parm(1)->out;
    out.erase(size_t(std::find(out.begin(), out.end(), s.sum) - out.begin()));
    CHECK(s.reports({Sound::ref(s.sum), "use list of " + Sound::ref(s.b.parm(1)), "out of sync"}));
  }
  SECTION("a use too many") {
    s.b.parm(1)->out.push_back(s.sum, 1);  // sum uses y once, not twice
    CHECK(s.reports({Sound::ref(s.sum), "out of sync"}));
  }
  SECTION("a use list naming a node that is no user") {
    s.b.parm(0)->out.push_back(s.sum, 0);
    CHECK(s.reports({Sound::ref(s.b.parm(0)), "lists " + Sound::ref(s.sum), "no input"}));
  }
  SECTION("an input's link pointing past its def's use list") {
    size_t i = 0;
    while (!s.sum->in[i]) i++;
    s.sum->in.link(i) = uint32_t(s.sum->in[i]->out.size());
    CHECK(s.reports({Sound::ref(s.sum), "edge positions out of sync"}));
  }
  SECTION("a use's link naming another input of its user") {
    Node* y = s.b.parm(1);
    size_t k = size_t(std::find(y->out.begin(), y->out.end(), s.sum) - y->out.begin());
    y->out.link(k) = 0;  // sum's input 0 is its control, not y
    CHECK(s.reports({Sound::ref(y), "edge positions out of sync"}));
  }
  SECTION("Phi arity differs from its region's") {
    g.addDef(s.res, s.b.parm(0));
    CHECK(s.reports({Sound::ref(s.res), "has 3 values for 2 predecessors"}));
  }
  SECTION("a Phi not on a region") {
    g.setDef(s.res, 0, s.zc);
    CHECK(s.reports({Sound::ref(s.res), "is not on a region"}));
  }
  SECTION("a data node in the control slot of a CFG node") {
    g.setDef(s.call, 0, s.b.parm(0));
    CHECK(s.reports({Sound::ref(s.call), "has no control input"}));
  }
  SECTION("a data node in slot 0 of a data node") {
    g.setDef(s.div, 0, s.b.parm(0));
    CHECK(s.reports({Sound::ref(s.div), "slot 0 must be control or empty"}));
  }
  SECTION("a region predecessor that is no control") {
    g.setDef(s.region, 2, s.b.parm(0));
    CHECK(s.reports({Sound::ref(s.region), "predecessor 2 is not control"}));
  }
  SECTION("a Loop without its back edge slot") {
    g.delDef(s.lp, 2);
    CHECK(s.reports({Sound::ref(s.lp), "must have 2 predecessors"}));
  }
  SECTION("a type more precise than compute allows") {
    s.sum->type = Type::intConst(5);
    CHECK(s.reports({Sound::ref(s.sum), "type 5 is more precise than its inputs allow (int)"}));
    // A dead arm that the types do not prove dead.
    s.sum->type = Type::intBot();
    s.exit->type = Type::xctrl();
    CHECK(s.reports({Sound::ref(s.exit), "type xctrl is more precise"}));
  }
  SECTION("a less precise type is fine") {
    s.cmp->type = Type::intBot();  // compute says [0,1]
    s.iff->type = Type::tuple({Type::ctrl(), Type::ctrl()});
    CHECK(verifyText(g) == "");
  }
  SECTION("a node without a type") {
    s.cmp->type = nullptr;
    CHECK(s.reports({Sound::ref(s.cmp), "has no type"}));
  }
  SECTION("a live node unreachable from Stop") {
    Node* orphan = g.make(Op::Add, {nullptr, s.b.parm(0), s.b.parm(1)}, Type::intBot());
    CHECK(s.reports({Sound::ref(orphan), "is live but unreachable from Stop"}));
  }
  SECTION("a reachable node marked dead") {
    s.sum->dead = true;
    CHECK(s.reports({Sound::ref(s.sum), "is reachable but marked dead"}));
  }
  SECTION("a parser scope that survived") {
    Node* sc = g.make(Op::Scope, {s.b.fun, s.b.mem}, Type::bottom());
    g.addDef(g.stop(), sc);
    CHECK(s.reports({Sound::ref(sc), "a parser scope survived"}));
  }
}

TEST_CASE("son/verify: sweepUnreachable collects garbage cycles", "[son][verify]") {
  Sound s;
  Graph& g = s.g;
  // An unreachable loop-shaped cycle: kill() cannot take it (each node is used).
  Node* lp = s.b.loop(s.b.fun);
  Node* p = s.b.loopPhi(lp, s.b.parm(0));
  Node* inc = s.b.add(p, s.b.con(1));
  g.setDef(p, 2, inc);
  g.kill(p);
  CHECK_FALSE(p->dead);
  CHECK(verifyText(g).find("unreachable from Stop") != std::string::npos);
  sweepUnreachable(g);
  CHECK(p->dead);
  CHECK(inc->dead);
  CHECK(lp->dead);
  CHECK_FALSE(s.b.parm(0)->dead);
  CHECK(std::find(s.b.parm(0)->out.begin(), s.b.parm(0)->out.end(), p) == s.b.parm(0)->out.end());
  CHECK(std::find(s.b.fun->out.begin(), s.b.fun->out.end(), lp) == s.b.fun->out.end());
  CHECK(useListsExact(g));
  CHECK(verifyText(g) == "");
  // Everything reachable survived.
  for (Node* n : liveNodes(g)) CHECK_FALSE(n->dead);
}
