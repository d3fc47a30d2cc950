// Tests for opt/split_compares.h on parsed programs after the passes before
// it: a compare that value numbering made shared by several branches gets
// a copy per branch; one also read as a number stays one; behaviour is kept.
#include <catch2/catch.hpp>

#include "opt/split_compares.h"
#include "test/unit/opt/pass_on_program.h"

using namespace simplec;

namespace {

bool isIntCompare(Op op) { return op == Op::EQ || op == Op::NE || op == Op::LT || op == Op::LE; }

// Uses beyond the first of integer compares whose users all test them
// (branches, selects, `!` before those): the copies the pass makes.
int sharedTests(const Unit& u) {
  int n = 0;
  for (const FunInfo& f : u.funs)
    if (f.hasBody())
      for (const Node* x : liveNodes(*f.graph)) {
        if (!isIntCompare(x->op) || x->out.size() < 2) continue;
        bool allTest = true;
        for (const Node* user : x->out) {
          bool ok = user->op == Op::If || user->op == Op::Select;
          if (user->op == Op::Not) {
            ok = !user->out.empty();
            for (const Node* w : user->out) ok &= w->op == Op::If || w->op == Op::Select;
          }
          allTest &= ok;
        }
        if (allTest) n += int(x->out.size()) - 1;
      }
  return n;
}

opttest::PassResult run(const std::string& src) {
  return opttest::runPassOnProgram(src, "split-compares", sharedTests, splitSharedCompares);
}

}  // namespace

TEST_CASE("opt/split_compares: each branch on one compare gets its own copy", "[opt][split-compares]") {
  // The three tests of x == y are one compare after value numbering (one
  // under a `!`); the arms print, so they stay branches.
  opttest::PassResult r = run(
      "val f = { int x, int y -> int e = 0;\n"
      "  if (x == y) sys.io.p(1);\n"
      "  if (!(x == y)) sys.io.p(4);\n"
      "  while (x == y && e < 100) e += 16;\n"
      "  return e; };");
  CHECK(r.before == 2);
  CHECK(r.left == 0);
  // A float compare stays shared (its values would be reloaded after calls).
  Unit u;
  opttest::parseUpTo(u, "val f = { flt x, flt y -> if (x == y) sys.io.p(1); if (x == y) sys.io.p(2); return 0; };",
                     "split-compares");
  std::vector<Node*> feq = sontest::liveOfKind(u, Op::FEQ);
  REQUIRE(feq.size() == 1);
  CHECK(feq[0]->out.size() == 2);
  CHECK(sontest::onEachFunction(u, splitSharedCompares) == 0);
  // Integers, a select among the users.
  r = run("val g = { int a, int b -> int e = a < b ? 3 : 4; if (a < b) e += 1; return e; };");
  CHECK(r.left == 0);
}

TEST_CASE("opt/split_compares: a compare also read as a number stays one", "[opt][split-compares]") {
  opttest::PassResult r = run("val f = { int a, int b -> bool c = a < b; int e = 0;\n"
                              "  if (c) e += 1; if (a < b) e += 2; return e + c; };");
  CHECK(r.before == 0);
  CHECK(r.left == 0);
  // ... and the number has its compare: nothing was split.
  Unit u;
  opttest::parseUpTo(u, "val f = { int a, int b -> bool c = a < b; int e = 0;\n"
                        "  if (c) e += 1; if (a < b) e += 2; return e + c; };", "split-compares");
  CHECK(sontest::onEachFunction(u, splitSharedCompares) == 0);
}

TEST_CASE("opt/split_compares: behaviour is kept", "[opt][split-compares]") {
  const std::string src =
      "flt nan = 0.0 / 0.0; flt[] v = new flt[4]; v[0] = 1.5; v[1] = nan; v[2] = 1.5; v[3] = arg;\n"
      "int h = 0;\n"
      "for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) {\n"
      "  int e = 0; if (v[i] == v[j]) e += 1; if (!(v[i] == v[j])) e += 2;\n"
      "  if (v[i] < v[j]) e += 4; if (!(v[i] < v[j])) e += 8; h = h * 5 + e; }\n"
      "sys.io.p(h); return h & 255;";
  for (int64_t argc : {1, 2}) {
    Unit g;
    opttest::passKeepsBehaviour(g, src, splitSharedCompares, argc);
  }
}
