// Tests for external C variables (parser/parse_extern_var.cpp): a variable
// is a data symbol (never called); reads are Loads and writes Stores of
// alias class "extern" at the symbol's address; errno's address comes from
// __errno_location(), which needs no flush of sys.io.p's buffer.
#include <catch2/catch.hpp>

#include <string>

#include "son/mem_access.h"
#include "test/unit/parser/parse_helpers.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::parsetest::Parsed;
using simplec::parsetest::callsTo;
using simplec::parsetest::parseText;

namespace {

// Live Loads (or Stores) of alias class "extern", with their access size.
std::vector<MemAccess> externAccesses(const Unit& g, Op op) {
  std::vector<MemAccess> r;
  for (Node* x : sontest::allNodes(g)) {
    if (!x || x->dead || x->op != op) continue;
    MemAccess m = MemAccess::decode(x->aux);
    if (g.aliases[size_t(m.alias)] == "extern") r.push_back(m);
  }
  return r;
}

}  // namespace

TEST_CASE("parser/extern-var: a C global is a data symbol read and written in memory", "[parser][extern]") {
  Parsed p = parseText("u16 counter = \"C\"; int a = counter; counter = arg; counter += 3; return counter + a;");
  REQUIRE(p.ok);
  int data = 0;
  for (const FunInfo& f : p.g->funs)
    if (f.symbol == "counter") data += f.isExtern && f.isData;
  CHECK(data == 1);
  auto stores = externAccesses(*p.g, Op::Store);
  auto loads = externAccesses(*p.g, Op::Load);
  REQUIRE(!stores.empty());
  REQUIRE(!loads.empty());
  CHECK(stores[0].size == 2);
  CHECK(loads[0].size == 2);
  CHECK(!loads[0].isSigned);
  CHECK(callsTo(*p.g, "counter") == 0);
}

TEST_CASE("parser/extern-var: nested functions see an external variable", "[parser][extern]") {
  Parsed p = parseText("i32 v = \"C\"; val f = { -> v++; }; f(); return v;");
  REQUIRE(p.ok);
  CHECK(externAccesses(*p.g, Op::Store).size() == 1);
}

TEST_CASE("parser/extern-var: errno is *__errno_location(), without a flush", "[parser][extern]") {
  Parsed p = parseText("i32 errno = \"C\"; errno = 0; return errno;");
  REQUIRE(p.ok);
  CHECK(callsTo(*p.g, "__errno_location") >= 1);
  CHECK(callsTo(*p.g, "__simplec_flush") == 0);
  // The address is the call's result, never the symbol `errno`.
  for (Node* x : sontest::allNodes(*p.g))
    if (x && !x->dead && x->op == Op::Load) CHECK(x->in[2]->op == Op::Proj);
}
