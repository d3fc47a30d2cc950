// Tests for opt/load_elim.h: a Load of the same memory state and address as
// a dominating one goes; Loads on other paths, of other memory states (a
// store or call between) or of other addresses stay.
#include <catch2/catch.hpp>

#include "opt/load_elim.h"
#include "test/unit/opt/pass_on_program.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;

namespace {

int loadsIn(const Unit& g) {
  int n = 0;
  for (Node* l : sontest::liveOfKind(g, Op::Load)) n += l->in[0] != nullptr;  // not lengths
  return n;
}

using Result = opttest::PassResult;

// `src` through the -O2 passes before "loadelim", then the pass itself.
Result run(const std::string& src) { return opttest::runPassOnProgram(src, "loadelim", loadsIn, loadElim); }

}  // namespace

TEST_CASE("opt/load_elim: a load below an equal one goes", "[opt][mem]") {
  // The test's load and the arm's load of keys[s].
  Result r = run("val f = { int[] keys, int s -> int x = 0; if (keys[s] == 0) x = keys[s] + 1; return x; };");
  CHECK(r.before == 2);
  CHECK(r.left == 1);
  // Struct fields: p.x read in the test and on the arm.
  CHECK(run("struct P { int x; };\n"
            "val f = { P p -> int r = 0; if (p.x > 3) r = p.x * 2; return r; };")
            .left == 1);
}

TEST_CASE("opt/load_elim: a loop that does not write the array reads before it once", "[opt][mem]") {
  Result r = run(
      "val f = { int[] a, int n -> if (n < 0 || n >= a#) return 0; int first = a[n]; int s = 0;\n"
      "  for (int i = 0; i < 10; i++) s += a[n]; return first + s; };");
  CHECK(r.before == 2);
  CHECK(r.left == 1);
}

TEST_CASE("opt/load_elim: loads that may differ stay", "[opt][mem]") {
  // A store to the array between the two reads (another index: may alias).
  CHECK(run("val f = { int[] a, int i, int j -> int x = a[i]; a[j] = 7; return x + a[i]; };").left == 2);
  // A call in between: the memory may have changed.
  CHECK(run("val g = { int[] a -> a[0] = 1; return 0; };\n"
            "val f = { int[] a, int i -> int x = a[i]; g(a); return x + a[i]; };")
            .left == 2);
  // Loads on two arms: neither dominates the other.
  CHECK(run("val f = { int[] a, int i, int c -> int x = 0; if (c) x = a[i]; else x = a[i] + 1; return x; };").left ==
        2);
  // Another index.
  CHECK(run("val f = { int[] a, int i -> int x = 0; if (a[i] == 0) x = a[i + 1]; return x; };").left == 2);
}

TEST_CASE("opt/load_elim: a hand-built pair of loads on one path", "[opt][mem]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  auto nw = b.newArray(b.fun, b.mem, b.con(4), 8);
  Node* off = b.add(b.parm(0), b.con(8));
  int64_t access = int64_t(8) << 24 | 1;  // 8 bytes, class 1
  Node* first = b.load(nw.ctrl, nw.mem, nw.ptr, off, access);
  auto br = b.branch(nw.ctrl, b.op(Op::LT, first, b.con(3)));
  Node* second = b.load(br.t, nw.mem, nw.ptr, off, access);
  Node* other = b.load(br.t, nw.mem, nw.ptr, b.con(16), access);
  Node* r = b.region({br.t, br.f});
  Node* v = b.phi(r, {b.add(second, other), b.con(0)});
  b.ret(r, v);
  u.funs[0].isGlobal = true;
  REQUIRE(sontest::verifyText(g) == "");
  CHECK(loadElim(g) == 1);
  CHECK(second->dead);
  CHECK_FALSE(other->dead);
  CHECK(v->in[1]->in[1] == first);
  CHECK(sontest::verifyText(g) == "");
}
