// Tests for external C functions (parser/parse_decl.cpp, parse_fun.cpp): a
// declaration names an extern by its symbol; a direct call flushes
// sys.io.p's buffer first and truncates a narrow result again; used as a
// value it becomes a thunk of ours, so indirect calls never reach C directly.
#include <catch2/catch.hpp>

#include <string>

#include "test/unit/parser/parse_helpers.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::parsetest::Parsed;
using simplec::parsetest::parseText;

namespace {

int countFuns(const Unit& g, const std::string& name, bool isExtern) {
  int n = 0;
  for (const FunInfo& f : g.funs) n += f.name == name && f.isExtern == isExtern;
  return n;
}

int countCallsTo(const Unit& g, const std::string& symbol) {
  int n = 0;
  for (Node* x : sontest::allNodes(g))
    if (x && !x->dead && x->op == Op::Call && x->in[2]->type->kind() == TKind::FunPtr && x->in[2]->type->fun() >= 0 &&
        g.funs[size_t(x->in[2]->type->fun())].symbol == symbol)
      n++;
  return n;
}

}  // namespace

TEST_CASE("parser/extern: a direct call flushes output and narrows the result", "[parser][extern]") {
  Parsed p = parseText("{ i64 -> u8 } labs = \"C\"; return labs(arg);");
  REQUIRE(p.ok);
  CHECK(countFuns((*p.g), "labs", true) == 1);
  CHECK(countFuns((*p.g), "labs", false) == 0);  // no thunk: never used as a value
  CHECK(countCallsTo((*p.g), "labs") == 1);
  CHECK(countCallsTo((*p.g), "__simplec_flush") == 1);
  // The result is masked to 8 bits: C leaves the upper bits undefined.
  bool masked = false;
  for (Node* x : sontest::allNodes(*p.g))
    if (x && !x->dead && x->op == Op::And && x->in[2]->isConst() && x->in[2]->type->value() == 255) masked = true;
  CHECK(masked);
}

TEST_CASE("parser/extern: used as a value it becomes one thunk", "[parser][extern]") {
  Parsed p = parseText("{ i64 -> i64 } labs = \"C\"; val f = { { i64 -> i64 } g -> g(-1); };"
                       "return f(labs) + f(labs);");
  REQUIRE(p.ok);
  CHECK(countFuns((*p.g), "labs", false) == 1);  // the thunk, made once
  CHECK(countCallsTo((*p.g), "labs") == 1);       // only the thunk calls C
}

TEST_CASE("parser/extern: calls to our own functions do not flush", "[parser][extern]") {
  Parsed p = parseText("val f = { int x -> x + 1; }; return f(arg);");
  REQUIRE(p.ok);
  CHECK(countCallsTo((*p.g), "__simplec_flush") == 0);
}
