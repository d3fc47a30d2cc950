// Tests for parser/struct_layout.h: each field in its own width, the wider
// ones first (declaration order within a width), no overlap, natural
// alignment, constants without storage, the size rounded to 8; and the
// New, Loads and Stores the parser builds for such a struct.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "parser/storage.h"
#include "parser/struct_info.h"
#include "parser/struct_layout.h"
#include "son/mem_access.h"
#include "test/unit/parser/parse_helpers.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::parsetest::Parsed;
using simplec::parsetest::parseText;

namespace {

FieldInfo field(const std::string& name, SType t) {
  FieldInfo f;
  f.name = name;
  f.type = std::move(t);
  return f;
}

}  // namespace

TEST_CASE("parser/struct_layout: fields packed by width, declaration order within a width", "[parser][layout]") {
  StructInfo s;
  s.name = "S";
  s.fields = {field("a", SType::intN(8, true)),   field("g", SType::intT()),
              field("b", SType::intN(16, true)),  field("e", SType::floatT(32)),
              field("c", SType::boolT()),         field("d", SType::intN(32, false)),
              field("f", SType::floatT(64)),      field("h", SType::intN(8, false))};
  FieldInfo k = field("k", SType::intT());
  k.isVal = true;
  k.initTok = 1;  // a per-type constant: no storage
  s.fields.insert(s.fields.begin() + 2, k);
  StructLayout l = layoutOf(s);
  REQUIRE(l.offset.size() == s.fields.size());
  // 8-byte g, f; 4-byte e, d; 2-byte b; 1-byte a, c, h.
  auto at = [&](const char* name) { return l.offset[size_t(s.find(name))]; };
  CHECK(at("g") == 8);
  CHECK(at("f") == 16);
  CHECK(at("e") == 24);
  CHECK(at("d") == 28);
  CHECK(at("b") == 32);
  CHECK(at("a") == 34);
  CHECK(at("c") == 35);
  CHECK(at("h") == 36);
  CHECK(at("k") == -1);
  CHECK(l.bytes == 32);  // 29 bytes of fields, rounded to 8
  // Every stored field aligned to its width, inside the object, no overlap.
  std::vector<bool> used(size_t(kArrayHeader + l.bytes), false);
  for (size_t i = 0; i < s.fields.size(); i++) {
    if (s.fields[i].isConst()) continue;
    int size = storageOf(s.fields[i].type).size;
    CHECK(l.offset[i] % size == 0);
    CHECK(l.offset[i] + size <= kArrayHeader + l.bytes);
    for (int b = 0; b < size; b++) {
      CHECK_FALSE(used[size_t(l.offset[i] + b)]);
      used[size_t(l.offset[i] + b)] = true;
    }
  }
}

TEST_CASE("parser/struct_layout: an empty struct, only constants, only bytes", "[parser][layout]") {
  StructInfo empty;
  CHECK(layoutOf(empty).bytes == 0);
  StructInfo bytes;
  for (const char* n : {"a", "b", "c"}) bytes.fields.push_back(field(n, SType::boolT()));
  StructLayout l = layoutOf(bytes);
  CHECK(l.offset == std::vector<int64_t>{8, 9, 10});
  CHECK(l.bytes == 8);
  StructInfo refs;
  refs.fields = {field("p", SType::intN(16, false)), field("q", SType::intT())};
  l = layoutOf(refs);
  CHECK(l.offset == std::vector<int64_t>{16, 8});
  CHECK(l.bytes == 16);
}

TEST_CASE("parser/struct_layout: the parser allocates bytes and accesses each field in its width", "[parser][layout]") {
  Parsed p = parseText(
      "struct R { u8 a; i16 b; f32 c; int d; bool e; R? next; };\n"
      "val f = { R r, int x -> r.a = x; r.b = x; r.c = 1.5; r.e = x > 3; r.next = r; r.a + r.b + r.d; };\n"
      "return f(new R, arg);");
  INFO(p.diags);
  REQUIRE(p.ok);
  std::vector<Node*> news = sontest::liveOfKind(*p.g, Op::New);
  REQUIRE(news.size() == 1);
  MemAccess nm = MemAccess::decode(news[0]->aux);
  CHECK(nm.size == 1);
  REQUIRE(news[0]->in[2]->type->isConst());
  CHECK(news[0]->in[2]->type->value() == 24);  // d, next; c; b; a, e: 8 + 8 + 4 + 2 + 1 + 1, rounded
  // offset -> width of every field access.
  std::vector<std::pair<int64_t, int>> seen;
  for (Op op : {Op::Load, Op::Store})
    for (Node* n : sontest::liveOfKind(*p.g, op)) {
      REQUIRE(n->in[3]->type->isConst());
      seen.emplace_back(n->in[3]->type->value(), MemAccess::decode(n->aux).size);
    }
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  CHECK(seen == std::vector<std::pair<int64_t, int>>{{8, 8}, {16, 8}, {24, 4}, {28, 2}, {30, 1}, {31, 1}});
}
