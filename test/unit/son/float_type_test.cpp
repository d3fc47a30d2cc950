// Tests for float lattice types (son/type.h) and the float transfer
// functions (son/compute.h): constants are identified by their bits, the
// lattice has three levels, and compute folds only what is exact.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;

TEST_CASE("son/type: float constants are interned by their bits", "[son][type][float]") {
  CHECK(Type::fltConst(1.5) == Type::fltConst(1.5));
  CHECK(Type::fltConst(0.0) != Type::fltConst(-0.0));
  double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(Type::fltConst(nan) == Type::fltConst(nan));
  CHECK(Type::fltConst(1.5)->isConst());
  CHECK(Type::fltConst(1.5)->fltValue() == 1.5);
  CHECK_FALSE(Type::fltBot()->isConst());
  CHECK(Type::fltConst(0.1)->str() == "0.1f");
  CHECK(Type::fltBot()->str() == "flt");
  CHECK(Type::fltTop()->str() == "flt-top");
}

TEST_CASE("son/type: float meet and join", "[son][type][float]") {
  const Type* a = Type::fltConst(1);
  const Type* b = Type::fltConst(2);
  CHECK(a->meet(b) == Type::fltBot());
  CHECK(a->meet(Type::fltTop()) == a);
  CHECK(Type::fltTop()->meet(a) == a);
  CHECK(a->meet(Type::fltBot()) == Type::fltBot());
  CHECK(a->join(b) == Type::fltTop());
  CHECK(a->join(Type::fltBot()) == a);
  CHECK(a->meet(Type::intConst(1)) == Type::bottom());  // a float is no integer
  CHECK(a->dualTop() == Type::fltTop());
  CHECK(a->isa(Type::fltBot()));
  CHECK_FALSE(Type::fltBot()->isa(a));
}

TEST_CASE("son/compute: float nodes fold constants exactly", "[son][compute][float]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  auto fc = [&](double v) { return g.con(Type::fltConst(v)); };
  CHECK(b.op(Op::FAdd, fc(0.1), fc(0.2))->type == Type::fltConst(0.30000000000000004));
  CHECK(b.op(Op::FAdd, fc(-0.0), fc(0.0))->type == Type::fltConst(0.0));
  CHECK(b.op(Op::FDiv, fc(1), fc(0.0))->type == Type::fltConst(std::numeric_limits<double>::infinity()));
  CHECK(b.op(Op::FMul, fc(-0.0), fc(5))->type == Type::fltConst(-0.0));
  CHECK(b.op(Op::FEQ, fc(0.0), fc(-0.0))->type == Type::intConst(1));
  CHECK(b.op(Op::FLT, fc(1), fc(2))->type == Type::intConst(1));
  CHECK(b.op(Op::IToF, b.con(9007199254740993))->type == Type::fltConst(9007199254740992.0));
  CHECK(b.op(Op::FToI, fc(-7.9))->type == Type::intConst(-7));
  CHECK(b.op(Op::FToF32, fc(0.1))->type == Type::fltConst(double(0.1f)));
  CHECK(b.op(Op::FNeg, fc(0.0))->type == Type::fltConst(-0.0));
  // Unknown operands: any float, or a bool for comparisons; FToI any int.
  Node* x = b.op(Op::IToF, b.parm(0));
  CHECK(x->type == Type::fltBot());
  CHECK(b.op(Op::FAdd, x, fc(1))->type == Type::fltBot());
  CHECK(b.op(Op::FNE, x, x)->type == Type::boolType());
  CHECK(b.op(Op::FToI, x)->type == Type::intBot());
}

TEST_CASE("son/compute: float nodes of not-yet-known inputs stay on top", "[son][compute][float]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Node* x = b.op(Op::IToF, b.parm(0));
  Node* add = b.op(Op::FAdd, x, x);
  Node* cmp = b.op(Op::FLT, x, x);
  x->type = Type::fltTop();  // as sccp starts
  CHECK(compute(add) == Type::fltTop());
  CHECK(compute(cmp) == Type::intTop());
}
