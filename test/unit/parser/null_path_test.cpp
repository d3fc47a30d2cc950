// Tests for null-fact paths (parser/null_path.h): what a path names, what
// changes it, and its stable text.
#include <catch2/catch.hpp>

#include "parser/null_path.h"

using namespace simplec;

namespace {
PathStep field(int key) {
  PathStep s;
  s.key = key;
  return s;
}
PathStep elem(int key, int indexVar, int64_t index = 0) {
  PathStep s;
  s.element = true;
  s.key = key;
  s.indexVar = indexVar;
  s.index = index;
  return s;
}
}  // namespace

TEST_CASE("parser/null_path: a variable, then fields and elements", "[parser][nullfacts]") {
  NullPath none;
  CHECK_FALSE(none.valid());
  CHECK_FALSE(none.then(field(3)).valid());  // nothing to extend
  NullPath p = NullPath::ofVar(2);
  CHECK(p.isVar());
  NullPath pf = p.then(field(7));
  CHECK(pf.valid());
  CHECK_FALSE(pf.isVar());
  NullPath pfi = pf.then(elem(1, 5));
  CHECK(pfi.str() == "v2.f7[e1:v5]");
  CHECK(p.then(elem(1, -1, 3)).str() == "v2[e1:#3]");
  CHECK(pfi.maxVar() == 5);
  CHECK(pf.maxVar() == 2);
  CHECK(none.maxVar() == -1);
}

TEST_CASE("parser/null_path: what changes a path", "[parser][nullfacts]") {
  NullPath p = NullPath::ofVar(2).then(field(7)).then(elem(1, 5));
  CHECK(p.mentions(2));  // the root
  CHECK(p.mentions(5));  // an index
  CHECK_FALSE(p.mentions(7));
  CHECK(p.readsKey(false, 7));
  CHECK(p.readsKey(true, 1));
  CHECK_FALSE(p.readsKey(true, 7));   // a field key is not an element key
  CHECK_FALSE(p.readsKey(false, 1));
}

TEST_CASE("parser/null_path: equality", "[parser][nullfacts]") {
  NullPath a = NullPath::ofVar(1).then(field(4));
  NullPath b = NullPath::ofVar(1).then(field(4));
  CHECK(a == b);
  CHECK(a != NullPath::ofVar(1).then(field(5)));
  CHECK(a != NullPath::ofVar(2).then(field(4)));
  CHECK(NullPath::ofVar(1).then(elem(0, -1, 1)) != NullPath::ofVar(1).then(elem(0, -1, 2)));
  CHECK(NullPath::ofVar(1).then(elem(0, 3)) != NullPath::ofVar(1).then(elem(0, -1, 3)));
}
