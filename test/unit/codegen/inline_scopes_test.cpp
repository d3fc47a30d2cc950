// Tests for codegen/inline_scopes.cpp (the code ranges of inlined calls in a
// finished function) and codegen/inlined_calls.cpp (which inline sites get
// a frame of their own in the debugger).
#include <catch2/catch.hpp>

#include "codegen/inline_scopes.h"
#include "codegen/inlined_calls.h"
#include "test/unit/codegen/mir_builder.h"

using namespace simplec;
using namespace simplec::mir;
using namespace simplec::test;

namespace {

// A frame for user code inlined into `parent` (-1: the function's own code).
InlinedCall frame(int self, int parent) {
  InlinedCall c;
  c.frame = self;
  c.parent = parent;
  c.callee = self;
  return c;
}

// Appends an instruction at `line` (0: none) from inline site `site`.
void at(FnBuilder& b, uint32_t line, int site) {
  MInst& mi = b.emit(MOp::Mov, {P(RAX), I(1)});
  mi.line = line;
  mi.site = site;
}

}  // namespace

TEST_CASE("inline scopes: one call, one range; no calls, no scopes") {
  std::vector<InlinedCall> calls{frame(0, -1)};
  FnBuilder b;
  b.at(b.block());
  at(b, 1, -1);  // 0
  at(b, 2, 0);   // 1
  at(b, 0, -1);  // 2: no line, stays in the call
  at(b, 3, 0);   // 3
  at(b, 4, -1);  // 4
  std::vector<InlineScope> s = inlineScopes(b.f, calls);
  REQUIRE(s.size() == 1);
  CHECK(s[0].call == 0);
  CHECK(s[0].parent == -1);
  CHECK(s[0].ranges == std::vector<InstRange>{{1, 4}});
  CHECK(inlineScopes(b.f, {}).empty());
}

TEST_CASE("inline scopes: interleaved code gives several ranges, across blocks, up to the end") {
  std::vector<InlinedCall> calls{frame(0, -1), frame(1, -1)};
  FnBuilder b;
  b.at(b.block());
  at(b, 2, 0);   // 0
  at(b, 5, 1);   // 1
  b.at(b.block());
  at(b, 2, 0);   // 2
  at(b, 9, -1);  // 3
  at(b, 2, 0);   // 4
  at(b, 0, -1);  // 5
  std::vector<InlineScope> s = inlineScopes(b.f, calls);
  REQUIRE(s.size() == 2);
  CHECK(s[0].call == 0);
  CHECK(s[0].ranges == std::vector<InstRange>{{0, 1}, {2, 3}, {4, 6}});
  CHECK(s[1].call == 1);
  CHECK(s[1].ranges == std::vector<InstRange>{{1, 2}});
}

TEST_CASE("inline scopes: nested calls nest, and library calls belong to their frame") {
  // 0 inlined into the function; 1 inlined into 0's code; 2 is library
  // code inlined into 1 (its frame is 1); 3 inlined into 1 directly.
  std::vector<InlinedCall> calls{frame(0, -1), frame(1, 0), InlinedCall{}, frame(3, 1)};
  calls[2].frame = 1;
  FnBuilder b;
  b.at(b.block());
  at(b, 1, 0);   // 0
  at(b, 1, 1);   // 1
  at(b, 1, 2);   // 2: library code, in frame 1
  at(b, 1, 3);   // 3
  at(b, 1, 0);   // 4
  at(b, 1, 3);   // 5: straight back into 3, reopening 1 as well
  at(b, 1, -1);  // 6
  std::vector<InlineScope> s = inlineScopes(b.f, calls);
  REQUIRE(s.size() == 3);
  CHECK(s[0].call == 0);
  CHECK(s[0].parent == -1);
  CHECK(s[0].ranges == std::vector<InstRange>{{0, 6}});
  CHECK(s[1].call == 1);
  CHECK(s[1].parent == 0);
  CHECK(s[1].ranges == std::vector<InstRange>{{1, 4}, {5, 6}});
  CHECK(s[2].call == 3);
  CHECK(s[2].parent == 1);
  CHECK(s[2].ranges == std::vector<InstRange>{{3, 4}, {5, 6}});
}

TEST_CASE("inlined calls: library callees have no frame; a call inside library code is shown at the user's call") {
  Unit u;
  auto fun = [&](const char* name, SrcFile file, uint32_t line) {
    FunInfo& f = u.funs.emplace_back();
    f.name = f.symbol = name;
    f.pos = SrcPos{line, 1, file, -1};
    return int(u.funs.size()) - 1;
  };
  int g = fun("g", kMainFile, 3);
  int lib = fun("sys.lib", kSysLibraryFile, 40);
  int cb = fun("cb", kMainFile, 7);
  u.inlineSites.push_back({g, SrcPos{10, 5, kMainFile, -1}});       // 0: g in main's code
  u.inlineSites.push_back({lib, SrcPos{4, 2, kMainFile, 0}});       // 1: the library in g
  u.inlineSites.push_back({cb, SrcPos{41, 9, kSysLibraryFile, 1}});  // 2: cb, called by the library
  u.funs[size_t(g)].debugVars = {{"b", 0, SrcPos{3, 9, kMainFile, -1}, 2}, {"a", 0, SrcPos{3, 4, kMainFile, -1}, 1},
                                  {"local", 0, SrcPos{4, 4, kMainFile, -1}, 0}};
  MModule m;
  addInlinedCalls(u, m);
  const std::vector<InlinedCall>& c = m.inlinedCalls;
  REQUIRE(c.size() == 3);
  CHECK(c[0].frame == 0);
  CHECK(c[0].parent == -1);
  CHECK((c[0].line == 10 && c[0].col == 5));
  CHECK(c[1].frame == 0);
  CHECK(c[2].frame == 2);
  CHECK(c[2].parent == 0);
  CHECK((c[2].line == 4 && c[2].col == 2));
  // The functions inlined with a frame: g, then cb; parameters in order.
  REQUIRE(m.inlinedFunctions.size() == 2);
  REQUIRE((c[0].callee == 0 && c[2].callee == 1));
  CHECK(m.inlinedFunctions[0].symbol == "g");
  CHECK(m.inlinedFunctions[0].declLine == 3);
  REQUIRE(m.inlinedFunctions[0].params.size() == 2);
  CHECK(m.inlinedFunctions[0].params[0].name == "a");
  CHECK(m.inlinedFunctions[0].params[1].name == "b");
  CHECK(m.inlinedFunctions[1].symbol == "cb");
}
