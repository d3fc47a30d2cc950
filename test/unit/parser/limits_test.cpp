// The compiler's size limits are diagnostics, never crashes (issue 4, part
// 6): the number of nodes in one file's graph ("program too large") and
// nesting (see also test/errors/nesting_too_deep_*.smp). Long but shallow
// inputs (a chain of 20,000 dependent statements, a 20,000-operand sum)
// compile through the whole pipeline: no pass recurses along data chains.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "cmd/compile_to_object.h"
#include "test/unit/parser/parse_helpers.h"

using namespace simplec;
using simplec::parsetest::onBigStack;
using simplec::parsetest::Parsed;

namespace {

Parsed parseWithNodeLimit(const std::string& src, size_t limit) {
  Parsed r;
  r.g->nodeLimit = limit;
  char* buf = nullptr;
  size_t len = 0;
  FILE* out = open_memstream(&buf, &len);
  onBigStack([&] {
    SourceFile file("t.smp", src);
    DiagEngine diag(out);
    r.ok = parseFile(file, diag, *r.g);
    r.errors = diag.errorCount();
  });
  std::fclose(out);
  r.diags.assign(buf, len);
  std::free(buf);
  return r;
}

std::string repeat(const std::string& s, int n) {
  std::string r;
  for (int i = 0; i < n; i++) r += s;
  return r;
}

}  // namespace

TEST_CASE("a graph over the node limit is 'program too large', once", "[parser][limits]") {
  std::string src = "int x = arg;\n" + repeat("x = x * 3 + arg;\n", 2000) + "return x;\n";
  Parsed p = parseWithNodeLimit(src, 1000);
  CHECK_FALSE(p.ok);
  CHECK(p.errors == 1);
  auto lines = p.errorLines();
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find(": program too large") != std::string::npos);
  // The same program is fine under the default limit.
  Parsed q = parseWithNodeLimit(src, Unit{}.nodeLimit);
  CHECK(q.ok);
}

TEST_CASE("long shallow programs compile to objects at -O0 and -O2", "[parser][limits]") {
  for (const std::string& src :
       {"int x = arg;\n" + repeat("x = x * 3 + arg;\n", 20000) + "return x & 255;\n",
        "return " + repeat("arg + ", 20000) + "arg;\n",
        "int x = arg;\n" + repeat("if (x == 7) x = x + 1; else ", 2000) + "x = 0;\nreturn x;\n"}) {
    for (int level : {0, 2}) {
      PassOptions po;
      po.optLevel = level;
      po.verifyEach = true;
      std::string err;
      int status = -1;
      onBigStack([&] {
        DiagEngine diag(stderr);
        try {
          status = compileSourceToObject("t.smp", src, po, diag).status;
        } catch (const InternalError& e) {
          err = e.pass + ": " + e.what();
        }
      });
      INFO("-O" << level << " " << src.substr(0, 40));
      CHECK(err == "");
      CHECK(status == 0);
    }
  }
}
