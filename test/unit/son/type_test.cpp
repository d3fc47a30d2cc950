// Tests for the type lattice (son/type.h): meet/join laws over a sample of
// every kind of type, integer ranges (hull and intersection, the empty range
// as int-top), control, function pointers, tuples, isa, interning and str().
#include <catch2/catch.hpp>

#include <climits>
#include <random>
#include <vector>

#include "son/type.h"

using namespace simplec;

namespace {

// One or more types of every kind, including the tops and bottoms of kinds.
std::vector<const Type*> sampleTypes() {
  return {
      Type::top(),
      Type::bottom(),
      Type::ctrl(),
      Type::xctrl(),
      Type::mem(),
      Type::intTop(),
      Type::intBot(),
      Type::intConst(0),
      Type::intConst(1),
      Type::intConst(-7),
      Type::boolType(),
      Type::intRange(-5, 3),
      Type::intRange(2, 10),
      Type::intRange(20, 30),
      Type::intRange(INT64_MIN, 0),
      Type::intRange(0, INT64_MAX),
      Type::intConst(INT64_MIN),
      Type::funPtr(0),
      Type::funPtr(1),
      Type::funAny(),
      Type::funPtr(Type::kFunTop),
      Type::dataPtr(0),
      Type::dataPtr(1),
      Type::dataPtr(Type::kFunAny),
      Type::dataPtr(Type::kFunTop),
      Type::tuple({Type::ctrl(), Type::xctrl()}),
      Type::tuple({Type::xctrl(), Type::ctrl()}),
      Type::tuple({Type::ctrl(), Type::ctrl()}),
      Type::tuple({Type::xctrl(), Type::xctrl()}),
      Type::tuple({Type::ctrl(), Type::mem(), Type::intBot()}),
      Type::tuple({Type::ctrl(), Type::mem(), Type::boolType()}),
      Type::tuple({Type::xctrl(), Type::mem(), Type::intTop()}),
  };
}

}  // namespace

TEST_CASE("son/type: interning makes equal types the same pointer", "[son][type]") {
  CHECK(Type::intRange(3, 9) == Type::intRange(3, 9));
  CHECK(Type::intConst(42) == Type::intRange(42, 42));
  CHECK(Type::boolType() == Type::intRange(0, 1));
  CHECK(Type::intBot() == Type::intRange(INT64_MIN, INT64_MAX));
  CHECK(Type::funPtr(3) == Type::funPtr(3));
  CHECK(Type::funAny() == Type::funPtr(Type::kFunAny));
  CHECK(Type::tuple({Type::ctrl(), Type::mem()}) == Type::tuple({Type::ctrl(), Type::mem()}));
  CHECK(Type::ctrl() == Type::ctrl());
  // Different values are different pointers.
  CHECK(Type::intConst(0) != Type::intConst(1));
  CHECK(Type::intRange(0, 5) != Type::intRange(0, 6));
  CHECK(Type::funPtr(0) != Type::funPtr(1));
  CHECK(Type::dataPtr(0) != Type::funPtr(0));  // same index, different kind
  CHECK(Type::tuple({Type::ctrl(), Type::mem()}) != Type::tuple({Type::mem(), Type::ctrl()}));
  CHECK(Type::ctrl() != Type::xctrl());
  // Every empty range is the one int-top.
  CHECK(Type::intRange(5, 4) == Type::intTop());
  CHECK(Type::intRange(INT64_MAX, INT64_MIN) == Type::intTop());
  CHECK(Type::intTop()->isIntTop());
  CHECK(Type::intTop()->isInt());
  CHECK_FALSE(Type::intBot()->isIntTop());
}

TEST_CASE("son/type: accessors and isConst", "[son][type]") {
  const Type* r = Type::intRange(-5, 3);
  CHECK(r->kind() == TKind::Int);
  CHECK(r->lo() == -5);
  CHECK(r->hi() == 3);
  CHECK_FALSE(r->isConst());
  CHECK(Type::intConst(-9)->isConst());
  CHECK(Type::intConst(-9)->value() == -9);
  CHECK(Type::intConst(INT64_MIN)->value() == INT64_MIN);
  CHECK_FALSE(Type::intTop()->isConst());
  CHECK(Type::funPtr(2)->isConst());
  CHECK(Type::funPtr(2)->fun() == 2);
  CHECK_FALSE(Type::funAny()->isConst());
  CHECK_FALSE(Type::funPtr(Type::kFunTop)->isConst());
  CHECK(Type::dataPtr(0)->isConst());
  CHECK(Type::dataPtr(0)->isPtr());
  CHECK_FALSE(Type::dataPtr(Type::kFunAny)->isConst());
  CHECK_FALSE(Type::ctrl()->isConst());
  CHECK_FALSE(Type::mem()->isConst());
  CHECK(Type::ctrl()->isCtrlLike());
  CHECK(Type::xctrl()->isCtrlLike());
  CHECK_FALSE(Type::mem()->isCtrlLike());
  CHECK(Type::tuple({Type::ctrl(), Type::mem()})->elems().size() == 2);
}

TEST_CASE("son/type: meet and join are commutative, associative, idempotent", "[son][type]") {
  std::vector<const Type*> ts = sampleTypes();
  for (const Type* a : ts) {
    INFO("a = " << a->str());
    CHECK(a->meet(a) == a);
    CHECK(a->join(a) == a);
    for (const Type* b : ts) {
      INFO("b = " << b->str());
      CHECK(a->meet(b) == b->meet(a));
      CHECK(a->join(b) == b->join(a));
      for (const Type* c : ts) {
        INFO("c = " << c->str());
        CHECK(a->meet(b)->meet(c) == a->meet(b->meet(c)));
        CHECK(a->join(b)->join(c) == a->join(b->join(c)));
      }
    }
  }
}

TEST_CASE("son/type: top and bottom, absorption, and isa agrees with join", "[son][type]") {
  std::vector<const Type*> ts = sampleTypes();
  for (const Type* a : ts) {
    INFO("a = " << a->str());
    CHECK(a->meet(Type::top()) == a);
    CHECK(a->join(Type::top()) == Type::top());
    CHECK(a->meet(Type::bottom()) == Type::bottom());
    CHECK(a->join(Type::bottom()) == a);
    CHECK(a->isa(Type::bottom()));
    CHECK(Type::top()->isa(a));
    for (const Type* b : ts) {
      INFO("b = " << b->str());
      CHECK(a->meet(a->join(b)) == a);
      CHECK(a->join(a->meet(b)) == a);
      // a lies above b exactly when their join is a.
      CHECK(a->isa(b) == (a->join(b) == a));
      // The meet lies below both, the join above both.
      CHECK(a->isa(a->meet(b)));
      CHECK(b->isa(a->meet(b)));
      CHECK(a->join(b)->isa(a));
      CHECK(a->join(b)->isa(b));
    }
  }
}

TEST_CASE("son/type: integer meet is the hull, join the intersection", "[son][type]") {
  CHECK(Type::intRange(1, 3)->meet(Type::intRange(5, 9)) == Type::intRange(1, 9));
  CHECK(Type::intRange(1, 6)->join(Type::intRange(4, 9)) == Type::intRange(4, 6));
  CHECK(Type::intRange(1, 3)->join(Type::intRange(5, 9)) == Type::intTop());  // disjoint: empty
  CHECK(Type::intConst(4)->meet(Type::intConst(-4)) == Type::intRange(-4, 4));
  CHECK(Type::intConst(4)->join(Type::intConst(-4)) == Type::intTop());
  CHECK(Type::intRange(INT64_MIN, 0)->meet(Type::intRange(0, INT64_MAX)) == Type::intBot());
  CHECK(Type::intRange(INT64_MIN, 0)->join(Type::intRange(0, INT64_MAX)) == Type::intConst(0));
  // The empty range is the integer top: neutral for meet, absorbing for join.
  CHECK(Type::intTop()->meet(Type::intRange(3, 4)) == Type::intRange(3, 4));
  CHECK(Type::intTop()->join(Type::intRange(3, 4)) == Type::intTop());
  CHECK(Type::intBot()->join(Type::intRange(3, 4)) == Type::intRange(3, 4));

  // Random ranges: hull and intersection, computed independently.
  std::mt19937_64 rng(12345);
  auto rnd = [&] {
    switch (rng() % 3) {
      case 0: return int64_t(rng() % 41) - 20;
      case 1: return int64_t(rng());
      default: return (rng() & 1) ? INT64_MAX - int64_t(rng() % 4) : INT64_MIN + int64_t(rng() % 4);
    }
  };
  for (int i = 0; i < 2000; i++) {
    int64_t a = rnd(), b = rnd(), c = rnd(), d = rnd();
    const Type* x = Type::intRange(std::min(a, b), std::max(a, b));
    const Type* y = Type::intRange(std::min(c, d), std::max(c, d));
    INFO(x->str() << " and " << y->str());
    const Type* m = x->meet(y);
    CHECK(m->lo() == std::min(x->lo(), y->lo()));
    CHECK(m->hi() == std::max(x->hi(), y->hi()));
    const Type* j = x->join(y);
    int64_t lo = std::max(x->lo(), y->lo()), hi = std::min(x->hi(), y->hi());
    if (lo > hi) {
      CHECK(j == Type::intTop());
    } else {
      CHECK(j->lo() == lo);
      CHECK(j->hi() == hi);
    }
    // isa is range inclusion.
    CHECK(x->isa(y) == (y->lo() <= x->lo() && x->hi() <= y->hi()));
  }
}

TEST_CASE("son/type: control, memory and cross-kind meets", "[son][type]") {
  CHECK(Type::ctrl()->meet(Type::xctrl()) == Type::ctrl());
  CHECK(Type::ctrl()->join(Type::xctrl()) == Type::xctrl());
  CHECK(Type::xctrl()->isa(Type::ctrl()));
  CHECK_FALSE(Type::ctrl()->isa(Type::xctrl()));
  // Kinds that share no lattice point meet at bottom and join at top.
  CHECK(Type::ctrl()->meet(Type::intConst(1)) == Type::bottom());
  CHECK(Type::mem()->meet(Type::intBot()) == Type::bottom());
  CHECK(Type::mem()->join(Type::intBot()) == Type::top());
  CHECK(Type::funAny()->meet(Type::dataPtr(Type::kFunAny)) == Type::bottom());
  CHECK_FALSE(Type::intConst(1)->isa(Type::ctrl()));
  CHECK_FALSE(Type::intConst(1)->isa(Type::mem()));
}

TEST_CASE("son/type: function and data pointers", "[son][type]") {
  const Type* f0 = Type::funPtr(0);
  const Type* f1 = Type::funPtr(1);
  const Type* any = Type::funAny();
  const Type* ftop = Type::funPtr(Type::kFunTop);
  CHECK(f0->meet(f1) == any);
  CHECK(f0->join(f1) == ftop);
  CHECK(f0->meet(ftop) == f0);
  CHECK(f0->join(any) == f0);
  CHECK(any->meet(ftop) == any);
  CHECK(f0->isa(any));
  CHECK(ftop->isa(f0));
  CHECK_FALSE(f0->isa(f1));
  CHECK_FALSE(any->isa(f0));
  const Type* s0 = Type::dataPtr(0);
  const Type* s1 = Type::dataPtr(1);
  const Type* nonNull = Type::dataPtr(Type::kNonNull);
  CHECK(s0->meet(s1) == nonNull);  // two strings: still never null
  CHECK(s0->join(s1) == Type::dataPtr(Type::kFunTop));
  CHECK(s0->isa(Type::dataPtr(Type::kFunAny)));
  CHECK(s0->isa(nonNull));
  // null is a constant below nothing but ptr; with a non-null pointer it gives ptr.
  const Type* null = Type::nullPtr();
  CHECK(null->isConst());
  CHECK(null->meet(s0) == Type::anyPtr());
  CHECK(null->meet(nonNull) == Type::anyPtr());
  CHECK_FALSE(null->isa(nonNull));
  CHECK(nonNull->join(s0) == s0);
  CHECK(nonNull->meet(Type::anyPtr()) == Type::anyPtr());
  CHECK(null->str() == "null");
  CHECK(nonNull->str() == "ptr!");
}

TEST_CASE("son/type: tuples meet and join element-wise", "[son][type]") {
  const Type* tx = Type::tuple({Type::ctrl(), Type::xctrl()});
  const Type* xt = Type::tuple({Type::xctrl(), Type::ctrl()});
  CHECK(tx->meet(xt) == Type::tuple({Type::ctrl(), Type::ctrl()}));
  CHECK(tx->join(xt) == Type::tuple({Type::xctrl(), Type::xctrl()}));
  const Type* a = Type::tuple({Type::ctrl(), Type::mem(), Type::intConst(3)});
  const Type* b = Type::tuple({Type::xctrl(), Type::mem(), Type::intConst(8)});
  CHECK(a->meet(b) == Type::tuple({Type::ctrl(), Type::mem(), Type::intRange(3, 8)}));
  CHECK(a->join(b) == Type::tuple({Type::xctrl(), Type::mem(), Type::intTop()}));
  CHECK(b->isa(Type::tuple({Type::ctrl(), Type::mem(), Type::intBot()})));
  // Tuples of different lengths have nothing in common.
  CHECK(tx->meet(a) == Type::bottom());
  CHECK(tx->join(a) == Type::top());
}

TEST_CASE("son/type: dualTop is the top of each kind", "[son][type]") {
  CHECK(Type::intRange(1, 2)->dualTop() == Type::intTop());
  CHECK(Type::intBot()->dualTop() == Type::intTop());
  CHECK(Type::ctrl()->dualTop() == Type::xctrl());
  CHECK(Type::xctrl()->dualTop() == Type::xctrl());
  CHECK(Type::funPtr(1)->dualTop() == Type::funPtr(Type::kFunTop));
  CHECK(Type::dataPtr(1)->dualTop() == Type::dataPtr(Type::kFunTop));
  CHECK(Type::tuple({Type::ctrl(), Type::intBot()})->dualTop() ==
        Type::tuple({Type::xctrl(), Type::intTop()}));
  CHECK(Type::mem()->dualTop() == Type::top());
  // A kind's top lies above every member of the kind.
  for (const Type* t : sampleTypes()) {
    INFO(t->str());
    CHECK(t->dualTop()->isa(t));
  }
}

TEST_CASE("son/type: str()", "[son][type]") {
  CHECK(Type::top()->str() == "top");
  CHECK(Type::bottom()->str() == "bot");
  CHECK(Type::ctrl()->str() == "ctrl");
  CHECK(Type::xctrl()->str() == "xctrl");
  CHECK(Type::mem()->str() == "mem");
  CHECK(Type::intTop()->str() == "int-top");
  CHECK(Type::intBot()->str() == "int");
  CHECK(Type::intConst(7)->str() == "7");
  CHECK(Type::intConst(-3)->str() == "-3");
  CHECK(Type::intConst(INT64_MIN)->str() == "-9223372036854775808");
  CHECK(Type::boolType()->str() == "[0,1]");
  CHECK(Type::intRange(-5, 3)->str() == "[-5,3]");
  CHECK(Type::intRange(0, INT64_MAX)->str() == "[0,9223372036854775807]");
  CHECK(Type::funAny()->str() == "fun");
  CHECK(Type::funPtr(Type::kFunTop)->str() == "fun-top");
  CHECK(Type::funPtr(2)->str() == "fun#2");
  CHECK(Type::dataPtr(Type::kFunAny)->str() == "ptr");
  CHECK(Type::dataPtr(Type::kFunTop)->str() == "ptr-top");
  CHECK(Type::dataPtr(0)->str() == "str#0");
  CHECK(Type::tuple({Type::ctrl(), Type::mem(), Type::intBot()})->str() == "(ctrl, mem, int)");
  CHECK(Type::tuple({})->str() == "()");
}
