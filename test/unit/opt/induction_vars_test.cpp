// Tests for opt/induction_vars.h and opt/loop_invariance.h on parsed
// programs after the -O2 passes that precede strength reduction.
#include <catch2/catch.hpp>

#include "opt/induction_vars.h"
#include "son/control_flow.h"
#include "test/unit/opt/pass_on_program.h"

using namespace simplec;

namespace {

struct Parsed {
  Unit u;
  Graph* g = nullptr;
  std::vector<Node*> loops;  // in reverse post-order: outer loops first
};

void parse(Parsed& p, const std::string& src) {
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, p.u));
  opttest::runPassesBefore(p.u, "strength-reduce");
  int f = sontest::functionNamed(p.u, "f");
  REQUIRE(f >= 0);
  p.g = p.u.graph(f);
  for (Node* c : controlFlow(*p.g)->order())
    if (c->op == Op::Loop) p.loops.push_back(c);
}

bool isCon(const Node* n, int64_t v) { return n && n->op == Op::Con && n->type->isConst() && n->type->value() == v; }

}  // namespace

TEST_CASE("opt/induction_vars: counters with constant and invariant steps", "[opt][iv]") {
  Parsed p;
  parse(p, "val f = { int n, int d -> int s = 0; int x = 1;\n"
           "  for (int i = 0; i < n; i++) { s += i; x = x * 2; }\n"
           "  for (int j = n; j > 0; j -= d) s += j;\n"
           "  return s + x; };");
  REQUIRE(p.loops.size() == 2);
  auto cf = controlFlow(*p.g);
  LoopInvariance first(*cf, p.loops[0]);
  std::vector<BasicIV> ivs = findBasicIVs(first);
  // i steps by 1; x doubles (no IV); s adds i (not invariant: no IV).
  REQUIRE(ivs.size() == 1);
  CHECK(isCon(ivs[0].step, 1));
  CHECK(isCon(ivs[0].init, 0));
  CHECK(!ivs[0].down);
  LoopInvariance second(*cf, p.loops[1]);
  ivs = findBasicIVs(second);
  REQUIRE(ivs.size() == 1);
  CHECK(ivs[0].down);
  CHECK(ivs[0].step->op == Op::Parm);  // d
  CHECK(withoutCasts(ivs[0].init)->op == Op::Parm);  // n
}

TEST_CASE("opt/induction_vars: derived IVs iv * scale + offset", "[opt][iv]") {
  Parsed p;
  parse(p, "val f = { int[] b, int n, int j -> int s = 0;\n"
           "  for (int k = 0; k < n; k++) s += b[k * n + j] + b[k * 3 - 1] + b[s * n];\n"
           "  return s; };");
  REQUIRE(p.loops.size() == 1);
  auto cf = controlFlow(*p.g);
  LoopInvariance inv(*cf, p.loops[0]);
  std::vector<BasicIV> ivs = findBasicIVs(inv);
  REQUIRE(ivs.size() == 1);
  int matched = 0, scaledByN = 0, unmatched = 0;
  for (Node* bc : sontest::liveOfKind(*p.g, Op::BoundsCheck)) {
    DerivedIV d;
    if (!matchDerivedIV(bc->in[1], ivs, inv, &d)) {
      unmatched++;  // s * n: s is no IV
      continue;
    }
    matched++;
    CHECK(d.iv == &ivs[0]);
    REQUIRE(d.scale);
    REQUIRE(d.offset);
    if (d.scale->op == Op::Parm) scaledByN++;
    else CHECK(isCon(d.scale, 3));
  }
  CHECK(matched == 2);
  CHECK(scaledByN == 1);
  CHECK(unmatched == 1);
}

TEST_CASE("opt/loop_invariance: lengths and loads the loop does not write", "[opt][iv]") {
  Parsed p;
  parse(p, "struct Box { int v; };\n"
           "val f = { int[] a, Box box, int[] out -> int s = 0;\n"
           "  for (int i = 0; i < a#; i++) { s += box.v * i; out[i % out#] = s; }\n"
           "  for (int i = 0; i < a#; i++) box.v = box.v + i;\n"
           "  return s; };");
  REQUIRE(p.loops.size() == 2);
  auto cf = controlFlow(*p.g);
  LoopInvariance first(*cf, p.loops[0]), second(*cf, p.loops[1]);
  int lengths = 0, before = 0, inSecond = 0;
  for (Node* n : sontest::liveOfKind(*p.g, Op::Load)) {
    Node* ptr = n->in[2];
    if (!ptr || ptr->op != Op::Parm) continue;
    if (ptr->aux == 0 && !n->in[1]) {
      // a#: the header never changes.
      lengths++;
      CHECK(first.invariant(n));
    } else if (ptr->aux == 1 && n->in[1]->op == Op::Phi && n->in[1]->in[0] == p.loops[1]) {
      // box.v in the loop that stores it.
      inSecond++;
      CHECK(!second.invariant(n));
    } else if (ptr->aux == 1) {
      // box.v read by the first loop, which stores only int elements.
      before++;
      CHECK(first.invariant(n));
    }
  }
  CHECK(lengths >= 1);
  CHECK(before == 1);
  CHECK(inSecond == 1);
  // The loop's own Phis never are invariant.
  for (Node* phi : p.loops[0]->out)
    if (phi->op == Op::Phi) CHECK(!first.invariant(phi));
}
