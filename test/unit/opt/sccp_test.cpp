// Tests for opt/sccp.h: the optimistic analysis finds what pessimistic
// peepholes cannot (cycles of Phis, branches never taken), stays sound on
// loops (widening), and leaves a graph that verifies.
#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "opt/iterate.h"
#include "opt/narrow.h"
#include "opt/sccp.h"
#include "parser/parser.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;

namespace {

std::string optimize(const std::string& src, bool withSccp) {
  Unit g;
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
  if (withSccp) {
    sccp(g);
    CHECK(sontest::verifyText(g) == "");
  }
  sontest::onEachFunction(g, [](Graph& fg) { iterPeeps(fg, 0, true); });
  CHECK(sontest::verifyText(g) == "");
  return printGraph(g);
}

const Node* mainReturn(const Unit& g) {
  for (const FunInfo& f : g.funs)
    if (f.isEntry) return f.ret;
  return nullptr;
}

}  // namespace

TEST_CASE("opt/sccp: a Phi cycle that only ever sees 1 is the constant 1", "[opt][sccp]") {
  const char* src =
      "int x = 1;\n"
      "int i = arg;\n"
      "while (i > 0) {\n"
      "    if (x != 1) x = 2;\n"
      "    i = i - 1;\n"
      "}\n"
      "return x;\n";
  // The pessimistic peepholes alone keep x a Phi...
  CHECK(optimize(src, false).find("Phi %") != std::string::npos);
  // ...the combined analysis proves it is 1: only i's Phi is left.
  Unit g;
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
  sccp(g);
  sontest::onEachFunction(g, [](Graph& fg) { iterPeeps(fg, 0, true); });
  const Node* ret = mainReturn(g);
  REQUIRE(ret);
  CHECK(ret->in[2]->isConst());
  CHECK(ret->in[2]->type == Type::intConst(1));
  int phis = 0;
  phis = sontest::countLive(g, Op::Phi);
  CHECK(phis == 1);
}

TEST_CASE("opt/sccp: loop counters are widened, not unrolled", "[opt][sccp]") {
  // i counts up forever as far as ranges know: the analysis must stop and
  // keep the loop, with the comparison undecided.
  std::string ir = optimize("int s = 0; for (int i = 0; i < arg; i++) s += i; return s;", true);
  CHECK(ir.find("Loop") != std::string::npos);
  CHECK(ir.find("LT") != std::string::npos);
}

TEST_CASE("opt/sccp: a branch on a value known only optimistically folds", "[opt][sccp]") {
  // y stays 5 around the loop, so y == 5 always holds and the else arm dies.
  std::string ir = optimize(
      "int y = 5; int s = 0; int i = 0;\n"
      "while (i < arg) { if (y == 5) s = s + 1; else y = 7; i = i + 1; }\n"
      "return s + y;",
      true);
  CHECK(ir.find("Con 7") == std::string::npos);
  CHECK(ir.find("EQ") == std::string::npos);
}

TEST_CASE("opt/sccp: unreachable code contributes nothing, reachable code stays", "[opt][sccp]") {
  std::string ir = optimize("int x = 3; if (x > 5) x = arg; return x * 2;", true);
  CHECK(ir.find("Con 6") != std::string::npos);
  CHECK(ir.find("Parm 0") == std::string::npos);
}

namespace {

// The range sccp gives parameter `index` of function `name` in `src`
// (after the branch Casts are in, as in the pipeline).
const Type* parmRange(const std::string& src, const std::string& name, int index) {
  Unit g;
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
  sontest::onEachFunction(g, insertNarrowingCasts);
  sccp(g);
  CHECK(sontest::verifyText(g) == "");
  sontest::onEachFunction(g, [](Graph& fg) { iterPeeps(fg, 0, true); });
  CHECK(sontest::verifyText(g) == "");
  for (const FunInfo& f : g.funs)
    if (f.name == name && f.fun)
      for (Node* u : f.fun->out)
        if (u->op == Op::Parm && u->aux == index) return u->type;
  return nullptr;
}

}  // namespace

TEST_CASE("opt/sccp: parameters take the range of every call site's argument", "[opt][sccp]") {
  const char* f = "val f = { int v, int k -> return v / k + v % k; };\n";
  CHECK(parmRange(std::string(f) + "return f(arg, 4) + f(arg, 7);", "f", 1) == Type::intRange(4, 7));
  CHECK(parmRange(std::string(f) + "return f(arg, 4) + f(arg, 7);", "f", 0) == Type::intBot());
  CHECK(parmRange(std::string(f) + "return f(arg, 3) + f(2, 3);", "f", 1) == Type::intConst(3));
  // A call in a branch never taken does not count.
  CHECK(parmRange(std::string(f) + "int r = f(arg, 3); if (0) r = f(arg, arg); return r;", "f", 1) ==
        Type::intConst(3));
  // Unknown callers: a function passed as a value keeps its declared type.
  const char* apply = "val apply = { {int, int -> int} fn, int a -> return fn(a, 2); };\n";
  CHECK(parmRange(std::string(f) + apply + "return f(arg, 3) + apply(f, 1);", "f", 1) == Type::intBot());
  CHECK(parmRange(std::string(f) + apply + "return f(arg, 3) + apply(f, 1);", "apply", 1) == Type::intConst(1));
  // Recursion: the range is widened at the end that moves, and stays sound.
  const Type* n = parmRange(
      "val fact = { int n -> if (n <= 1) return 1; return n * fact(n - 1); };\nreturn fact(6);", "fact", 0);
  REQUIRE(n);
  CHECK(n->hi() == 6);
  CHECK(n->lo() <= 1);
}

TEST_CASE("opt/sccp: a library's exported functions keep their declared parameters", "[opt][sccp]") {
  const char* src = "val f = { int v, int k -> return v / k; };\nval g = { int x -> return f(x, 3); };\n";
  CHECK(parmRange(src, "f", 1) == Type::intBot());
}
