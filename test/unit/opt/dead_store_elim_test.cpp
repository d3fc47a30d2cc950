// Tests for opt/dead_store_elim.h: a store overwritten on every path before
// any load that may read it goes; a store a load, a call, a merge of paths
// or the function's end may see stays.
#include <catch2/catch.hpp>

#include "opt/dead_store_elim.h"
#include "test/unit/opt/pass_on_program.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;

namespace {

int storesIn(const Unit& g) { return int(sontest::liveOfKind(g, Op::Store).size()); }

using Result = opttest::PassResult;

// `src` through the -O2 passes before "deadstores", then the pass itself.
Result run(const std::string& src) { return opttest::runPassOnProgram(src, "deadstores", storesIn, deadStoreElim); }

}  // namespace

TEST_CASE("opt/dead_store_elim: a store overwritten past other stores goes", "[opt][mem]") {
  Result r = run("val f = { int[] a -> a[0] = 1; a[1] = 2; a[0] = 3; return 0; };");
  CHECK(r.before == 3);
  CHECK(r.left == 2);
  // Past a load of other bytes too.
  CHECK(run("val f = { int[] a -> a[0] = 1; int x = a[1]; a[0] = x; return 0; };").left == 1);
  // Struct fields: each its own class, p.x overwritten past a store to p.y.
  CHECK(run("struct P { int x; int y; };\n"
            "val f = { P p -> p.x = 1; p.y = 2; p.x = 3; return 0; };")
            .left == 2);
}

TEST_CASE("opt/dead_store_elim: stores something may see stay", "[opt][mem]") {
  // (A load of the same bytes in between takes the stored value: see the
  // hand-built test.)
  // A load of an unknown index in between.
  CHECK(run("val f = { int[] a, int i -> a[0] = 1; int x = a[i]; a[0] = x; return 0; };").left == 2);
  // Overwritten on one path only.
  CHECK(run("val f = { int[] a, int c -> a[0] = 1; if (c) a[0] = 2; return 0; };").left == 2);
  // The caller sees the last store.
  CHECK(run("val f = { int[] a -> a[0] = 1; a[1] = 2; return 0; };").left == 2);
  // Another index, not known to differ.
  CHECK(run("val f = { int[] a, int i -> a[0] = 1; a[i] = 2; a[0] = 3; return 0; };").left == 3);
}

TEST_CASE("opt/dead_store_elim: hand-built stores seen by a call or a load stay", "[opt][mem]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  auto nw = b.newArray(b.fun, b.mem, b.con(4), 8);
  int64_t access = int64_t(8) << 24 | 1;  // 8 bytes, class 1
  Node* first = b.store(nw.ctrl, nw.mem, nw.ptr, b.con(8), b.parm(0), access);
  auto call = b.call(nw.ctrl, first, 0, {b.parm(0)});
  Node* second = b.store(call.ctrl, call.mem, nw.ptr, b.con(8), b.con(5), access);
  Node* third = b.store(call.ctrl, second, nw.ptr, b.con(8), b.con(6), access);
  Node* read = b.load(call.ctrl, third, nw.ptr, b.con(8), access);
  Node* fourth = b.store(call.ctrl, third, nw.ptr, b.con(8), b.con(7), access);
  b.ret(call.ctrl, fourth, b.add(call.value, read));
  u.funs[0].isGlobal = true;
  REQUIRE(sontest::verifyText(g) == "");
  CHECK(deadStoreElim(g) == 1);
  CHECK_FALSE(first->dead);  // the call may read it
  CHECK(second->dead);       // overwritten by the third
  CHECK(third->in[1] == call.mem);
  CHECK_FALSE(third->dead);  // read before the fourth overwrites it
  CHECK(sontest::verifyText(g) == "");
}
