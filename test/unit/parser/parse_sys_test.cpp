// Tests for the sys library (parser/parse_sys.cpp, runtime/sys.smp): it is
// loaded only when a program names it, only the methods used are parsed
// (so only they reach the graph, at any -O level), sys.io.stdin and
// sys.args are runtime calls, and sys.libc.errno can be assigned.
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

bool hasFun(const Unit& g, const std::string& name) {
  for (const FunInfo& f : g.funs)
    if (f.name == name && f.fun) return true;
  return false;
}

bool hasAlias(const Unit& g, const std::string& name) {
  for (const std::string& a : g.aliases)
    if (a == name) return true;
  return false;
}

}  // namespace

TEST_CASE("parser/sys: a program that does not name the library does not load it", "[parser][sys]") {
  Parsed p = parseText("sys.io.p(sys.math.abs(-arg)); return 0;");
  INFO(p.diags);
  REQUIRE(p.ok);
  CHECK(!hasAlias(*p.g, "sys.aryu8.len"));
  CHECK(!hasAlias(*p.g, "extern"));
}

TEST_CASE("parser/sys: only the methods a program uses are parsed", "[parser][sys]") {
  Parsed p = parseText("sys.aryu8 !b = new sys.aryu8 { buf = new u8[1]; }; b.add('x'); return b.len;");
  INFO(p.diags);
  REQUIRE(p.ok);
  CHECK(hasFun(*p.g, "sys.aryu8.add"));
  CHECK(hasFun(*p.g, "sys.aryu8.reserve"));  // add calls it
  CHECK(hasFun(*p.g, "sys.ary.copy"));       // reserve calls it
  CHECK(!hasFun(*p.g, "sys.aryu8.num"));
  CHECK(!hasFun(*p.g, "sys.aryu8.write"));
  CHECK(!hasFun(*p.g, "sys.parseAryI64"));
  CHECK(!hasFun(*p.g, "sys.Scan.number"));
  CHECK(p.verifyErrors() == "");
}

TEST_CASE("parser/sys: sys.io.stdin and sys.args call the runtime", "[parser][sys]") {
  Parsed p = parseText("u8[] in = sys.io.stdin(); u8[~]?[~] a = sys.args; return in# + a#;");
  INFO(p.diags);
  REQUIRE(p.ok);
  CHECK(callsTo(*p.g, "__simplec_stdin") == 1);
  CHECK(callsTo(*p.g, "__simplec_args") == 1);
  CHECK(callsTo(*p.g, "__simplec_flush") == 0);  // runtime calls need no flush
}

TEST_CASE("parser/sys: sys.libc.errno is read and assigned through the type", "[parser][sys]") {
  Parsed p = parseText("sys.libc.errno = arg; sys.libc.errno += 2; return sys.libc.errno;");
  INFO(p.diags);
  REQUIRE(p.ok);
  int stores = 0;
  for (Node* x : sontest::allNodes(*p.g))
    if (x && !x->dead && x->op == Op::Store &&
                            p.g->aliases[size_t(MemAccess::decode(x->aux).alias)] == "extern")
      stores++;
  CHECK(stores == 2);
  CHECK(callsTo(*p.g, "__errno_location") >= 1);
}

TEST_CASE("parser/sys: a C function of sys.libc flushes before it runs", "[parser][sys]") {
  Parsed p = parseText("sys.io.p(1); return sys.libc.write(1, 0, 0);");
  INFO(p.diags);
  REQUIRE(p.ok);
  CHECK(callsTo(*p.g, "write") == 1);
  CHECK(callsTo(*p.g, "__simplec_flush") == 1);
}

TEST_CASE("parser/sys: misuse is reported in the user's file", "[parser][sys]") {
  Parsed p = parseText("sys.aryu8 !b = new sys.aryu8 { buf = new u8[1]; };\nb.add(\"x\"); sys.nope(); return 0;");
  CHECK(!p.ok);
  CHECK(p.diags.find("t.smp:2:7: error: type mismatch: expected 'u8', found 'u8[~]'") != std::string::npos);
  CHECK(p.diags.find("t.smp:2:13: error: unknown name 'sys.nope'") != std::string::npos);
  CHECK(p.diags.find("sys.smp") == std::string::npos);
}
