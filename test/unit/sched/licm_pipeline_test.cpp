// Loop-invariant code motion happens through global code motion: after the
// -O2 pipeline, arithmetic that does not change inside a loop is scheduled
// outside it (at the shallowest loop depth), also when it came from an
// inlined function; a product with the induction variable becomes an
// induction variable of its own (strength-reduce), so no multiply stays.
#include <catch2/catch.hpp>

#include "codegen/lower.h"
#include "sched/gcm.h"
#include "test/unit/optimized_program.h"

using namespace simplec;

namespace {

struct Placed {
  int invariantDepth = -1;  // loop depth of the block of a * a
  int variantDepth = -1;    // loop depth of the block of the multiplication by i
  std::string text;         // what --emit=sched prints
};

Placed schedule(const std::string& src) {
  Unit g;
  test::optimizeProgram(g, src);
  int main = test::functionIndex(g, "");
  Schedule s = gcm(*g.graph(main));
  Placed p;
  p.text = printSchedules(g);
  for (Node* n : liveNodes(*g.graph(main))) {
    int b = s.blockIndexOf(n);
    if (n->op != Op::Mul || b < 0) continue;
    int depth = s.blocks[size_t(b)].loopDepth;
    if (n->in[1] == n->in[2]) p.invariantDepth = depth;  // a * a
    else if (!n->in[1]->isConst() && !n->in[2]->isConst()) p.variantDepth = depth;
  }
  return p;
}

}  // namespace

TEST_CASE("sched/licm: invariant arithmetic leaves the loop at -O2", "[sched][gcm][licm]") {
  Placed p = schedule(
      "int a = arg * 7; int s = 0;\n"
      "for (int i = 0; i < 100; i++) s = s + (a * a + 3) * i;\n"
      "return s;");
  CHECK(p.invariantDepth == 0);
  // The product with i is an induction variable now (opt/strength_reduce.h):
  // no multiply is left in the loop.
  CHECK(p.variantDepth == -1);
  // In --emit=sched: the entry block computes a * a (%6 = arg * 7), the loop does not.
  INFO(p.text);
  size_t loop = p.text.find("B1 Loop");
  size_t square = p.text.find("Mul _, %6, %6");
  REQUIRE(loop != std::string::npos);
  REQUIRE(square != std::string::npos);
  CHECK(square < loop);
}

TEST_CASE("sched/licm: invariant arithmetic of an inlined callee leaves the loop", "[sched][gcm][licm]") {
  Placed p = schedule(
      "val sq = { int v -> return v * v; };\n"
      "int a = arg * 7; int s = 0;\n"
      "for (int j = 0; j < 10; j++) for (int i = 0; i < 100; i++) s = s + (sq(a) + 3) * i;\n"
      "return s;");
  CHECK(p.invariantDepth == 0);
  CHECK(p.variantDepth == -1);  // strength-reduced, as above
}
