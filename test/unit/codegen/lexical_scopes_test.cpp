// Tests for codegen/lexical_scopes.cpp: the code ranges of the source
// blocks that declare variables, nested as in the source.
#include <catch2/catch.hpp>

#include "codegen/lexical_scopes.h"
#include "test/unit/codegen/mir_builder.h"

using namespace simplec;
using namespace simplec::mir;
using namespace simplec::test;

namespace {

void declareIn(FnBuilder& b, SrcPos begin, SrcPos end) {
  DebugVarLoc v;
  v.var.name = "v" + std::to_string(b.f.debugVars.size());
  v.var.scopeBegin = begin;
  v.var.scopeEnd = end;
  b.f.debugVars.push_back(v);
}

void line(FnBuilder& b, uint32_t l, uint32_t c = 1) {
  MInst& mi = b.emit(MOp::Cmp, {P(RAX), I(0)});
  mi.line = l;
  mi.col = c;
}

}  // namespace

TEST_CASE("lexical scopes: sibling and nested blocks get the code of their lines") {
  FnBuilder b;
  b.at(b.block());
  // for (...) { ... }  on lines 2-4, with a block on line 3; another for on lines 6-7.
  declareIn(b, SrcPos{2, 5}, SrcPos{4, 6});
  declareIn(b, SrcPos{3, 9}, SrcPos{3, 30});
  declareIn(b, SrcPos{2, 5}, SrcPos{4, 6});  // a second variable of the same block
  declareIn(b, SrcPos{6, 5}, SrcPos{7, 2});
  declareIn(b, SrcPos{}, SrcPos{});           // a function-level variable
  line(b, 1);      // 0: the function's own code
  line(b, 2, 10);  // 1: the first for
  line(b, 3, 12);  // 2: the inner block
  b.emit(MOp::Ret);  // 3: no line: stays in the inner block
  line(b, 4, 1);   // 4: the first for again
  line(b, 5);      // 5: between the loops
  line(b, 6, 7);   // 6: the second for
  line(b, 8);      // 7: after it
  std::vector<LexicalScope> s = lexicalScopes(b.f);
  REQUIRE(s.size() == 3);
  CHECK(s[0].parent == -1);
  CHECK(s[0].ranges == std::vector<InstRange>{{1, 5}});
  CHECK(s[1].parent == 0);
  CHECK(s[1].ranges == std::vector<InstRange>{{2, 4}});
  CHECK(s[2].parent == -1);
  CHECK(s[2].ranges == std::vector<InstRange>{{6, 7}});
  CHECK(lexicalScopeOf(s, SrcPos{3, 9}, SrcPos{3, 30}) == 1);
  CHECK(lexicalScopeOf(s, SrcPos{3, 9}, SrcPos{3, 31}) == -1);
  CHECK(innermostLexicalScope(s, SrcPos{3, 20}) == 1);
  CHECK(innermostLexicalScope(s, SrcPos{4, 2}) == 0);
  CHECK(innermostLexicalScope(s, SrcPos{5, 1}) == -1);
}

TEST_CASE("lexical scopes: inlined code counts at its call; a block without code is skipped by lookups") {
  FnBuilder b;
  b.at(b.block());
  declareIn(b, SrcPos{2, 1}, SrcPos{3, 1});
  declareIn(b, SrcPos{9, 1}, SrcPos{9, 40});  // never has code
  b.f.dbgSiteCalls = {{0, SrcPos{2, 7}}};
  MInst& mi = b.emit(MOp::Cmp, {P(RAX), I(0)});  // 0: callee code (line 30), inlined on line 2
  mi.line = 30;
  mi.col = 1;
  mi.site = 0;
  line(b, 4);  // 1
  std::vector<LexicalScope> s = lexicalScopes(b.f);
  REQUIRE(s.size() == 2);
  CHECK(s[0].ranges == std::vector<InstRange>{{0, 1}});
  CHECK(s[1].ranges.empty());
  CHECK(innermostLexicalScope(s, SrcPos{9, 5}) == -1);
}
