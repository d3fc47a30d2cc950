// compileSourceToObject: the compiler as one library call (used in process by
// the libFuzzer targets). It must give an ELF object or diagnostics, never
// exit, and be callable many times in one process.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "cmd/compile_to_object.h"

using namespace simplec;

namespace {

struct Captured {
  FILE* f = std::tmpfile();
  ~Captured() { std::fclose(f); }
  std::string text() {
    std::fflush(f);
    std::rewind(f);
    std::string s;
    char buf[256];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    return s;
  }
};

}  // namespace

TEST_CASE("compileSourceToObject writes an ELF object at every level", "[cmd]") {
  for (int level = 0; level <= 2; level++) {
    Captured err;
    DiagEngine diag(err.f);
    PassOptions po;
    po.optLevel = level;
    po.verifyEach = true;
    CompileResult r = compileSourceToObject("ok.smp", "int x = arg * 3;\nreturn x / arg;\n", po, diag);
    INFO("level " << level << ": " << err.text() << r.message);
    CHECK(r.status == 0);
    REQUIRE(r.object.size() > 64);
    CHECK(r.object[0] == 0x7f);
    CHECK(r.object[1] == 'E');
    CHECK(r.object[2] == 'L');
    CHECK(r.object[3] == 'F');
    CHECK(err.text().empty());
  }
}

TEST_CASE("compileSourceToObject reports errors through the DiagEngine, without an object", "[cmd]") {
  Captured err;
  DiagEngine diag(err.f);
  CompileResult r = compileSourceToObject("bad.smp", "return y;\n", PassOptions{}, diag);
  CHECK(r.status == 1);
  CHECK(r.object.empty());
  CHECK(err.text().find("bad.smp:1:8: error: undefined name 'y'") != std::string::npos);
}

TEST_CASE("compileSourceToObject gives the same bytes when called again", "[cmd]") {
  std::string src = "val f = { int a -> a < 2 ? a : f(a - 1) + f(a - 2); };\nreturn f(arg);\n";
  DiagEngine diag(stderr);
  CompileResult a = compileSourceToObject("f.smp", src, PassOptions{}, diag);
  CompileResult b = compileSourceToObject("f.smp", src, PassOptions{}, diag);
  REQUIRE(a.status == 0);
  CHECK(a.object == b.object);
}
