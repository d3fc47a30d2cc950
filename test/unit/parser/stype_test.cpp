// Tests for static types (parser/stype.h): printing, structural equality of
// function types, assignability (int and bool interchange, errors absorb),
// the common type of two arms, and the lattice type of each static type.
#include <catch2/catch.hpp>

#include "parser/stype.h"
#include "parser/struct_info.h"

using namespace simplec;

TEST_CASE("parser/stype: str()", "[parser][stype]") {
  CHECK(SType::intT().str() == "int");
  CHECK(SType::boolT().str() == "bool");
  CHECK(SType::voidT().str() == "void");
  CHECK(SType::strT().str() == "u8[~]");
  CHECK(SType::error().str() == "<error>");
  CHECK(SType::fun({SType::intT(), SType::boolT()}, SType::intT()).str() == "{ int bool -> int }");
  CHECK(SType::fun({}, SType::voidT()).str() == "{ -> void }");
  CHECK(SType::fun({SType::fun({SType::intT()}, SType::intT())}, SType::boolT()).str() ==
        "{ { int -> int } -> bool }");
}

TEST_CASE("parser/stype: sameType compares function types structurally", "[parser][stype]") {
  SType f1 = SType::fun({SType::intT()}, SType::intT());
  SType f2 = SType::fun({SType::intT()}, SType::intT());
  CHECK(sameType(f1, f2));
  CHECK_FALSE(sameType(f1, SType::fun({SType::boolT()}, SType::intT())));
  CHECK_FALSE(sameType(f1, SType::fun({SType::intT()}, SType::boolT())));
  CHECK_FALSE(sameType(f1, SType::fun({SType::intT(), SType::intT()}, SType::intT())));
  CHECK_FALSE(sameType(f1, SType::intT()));
  CHECK(sameType(SType::intT(), SType::intT()));
  CHECK_FALSE(sameType(SType::intT(), SType::boolT()));
}

TEST_CASE("parser/stype: assignable and commonType", "[parser][stype]") {
  SType f = SType::fun({SType::intT()}, SType::intT());
  CHECK(assignable(SType::intT(), SType::boolT()));  // bool keeps the low bit
  CHECK(assignable(SType::boolT(), SType::intT()));
  CHECK(assignable(f, SType::fun({SType::intT()}, SType::intT())));
  CHECK_FALSE(assignable(f, SType::intT()));
  CHECK_FALSE(assignable(SType::intT(), f));
  CHECK_FALSE(assignable(SType::strT(), SType::intT()));
  CHECK(assignable(SType::error(), f));  // already reported
  CHECK(assignable(f, SType::error()));

  CHECK(commonType(SType::intT(), SType::boolT()).kind == SType::Int);
  CHECK(commonType(SType::boolT(), SType::boolT()).kind == SType::Bool);
  CHECK(commonType(SType::error(), SType::boolT()).kind == SType::Bool);
  CHECK(commonType(f, SType::intT()).isError());
  CHECK(sameType(commonType(f, SType::fun({SType::intT()}, SType::intT())), f));
}

TEST_CASE("parser/stype: lattice types", "[parser][stype]") {
  CHECK(SType::intT().lattice() == Type::intBot());
  CHECK(SType::boolT().lattice() == Type::boolType());
  CHECK(SType::fun({}, SType::intT()).lattice() == Type::funAny());
  CHECK(SType::strT().lattice() == Type::dataPtr(Type::kNonNull));
  CHECK(SType::strT().withNullable(true).lattice() == Type::anyPtr());
  CHECK(SType::nullT().lattice() == Type::nullPtr());
  CHECK(SType::error().lattice() == Type::bottom());
  CHECK(SType::intT().isIntegral());
  CHECK(SType::boolT().isIntegral());
  CHECK_FALSE(SType::strT().isIntegral());
  CHECK_FALSE(SType::voidT().hasValue());
  CHECK(SType::error().hasValue());
}

TEST_CASE("parser/stype: narrow integers", "[parser][stype]") {
  CHECK(intTypeNamed("i8").str() == "i8");
  CHECK(intTypeNamed("u16").str() == "u16");
  CHECK(intTypeNamed("byte").str() == "u8");
  CHECK(intTypeNamed("i64").str() == "int");
  CHECK(intTypeNamed("u1").kind == SType::Bool);
  CHECK(intTypeNamed("flt").isError());
  CHECK(intTypeNamed("i32").lattice() == Type::intRange(INT32_MIN, INT32_MAX));
  CHECK(intTypeNamed("u32").lattice() == Type::intRange(0, UINT32_MAX));
  CHECK(intTypeNamed("i8").lattice() == Type::intRange(-128, 127));
  CHECK(sameType(intTypeNamed("byte"), intTypeNamed("u8")));
  CHECK_FALSE(sameType(intTypeNamed("u8"), intTypeNamed("i8")));
  CHECK_FALSE(sameType(intTypeNamed("u8"), SType::intT()));
  CHECK(intTypeNamed("u8").isNarrow());
  CHECK(SType::boolT().isNarrow());
  CHECK_FALSE(SType::intT().isNarrow());
  CHECK(assignable(SType::intT(), intTypeNamed("i16")));
  CHECK(commonType(intTypeNamed("u8"), intTypeNamed("i8")).str() == "int");
  CHECK(commonType(intTypeNamed("u8"), intTypeNamed("u8")).str() == "u8");
}

TEST_CASE("parser/stype: floats", "[parser][stype][float]") {
  CHECK(primitiveTypeNamed("flt").str() == "flt");
  CHECK(primitiveTypeNamed("f64").str() == "flt");
  CHECK(primitiveTypeNamed("f32").str() == "f32");
  CHECK(primitiveTypeNamed("u8").str() == "u8");
  CHECK(primitiveTypeNamed("f32").lattice() == Type::fltBot());
  CHECK(sameType(primitiveTypeNamed("flt"), primitiveTypeNamed("f64")));
  CHECK_FALSE(sameType(SType::floatT(32), SType::floatT(64)));
  // Integers widen to floats, f64 rounds into f32, floats never become integers.
  CHECK(assignable(SType::intT(), SType::floatT(64)));
  CHECK(assignable(SType::boolT(), SType::floatT(32)));
  CHECK(assignable(SType::floatT(64), SType::floatT(32)));
  CHECK_FALSE(assignable(SType::floatT(64), SType::intT()));
  CHECK_FALSE(assignable(SType::floatT(32), SType::boolT()));
  CHECK(commonType(SType::intT(), SType::floatT(32)).str() == "flt");
  CHECK(commonType(SType::floatT(32), SType::floatT(32)).str() == "f32");
  CHECK(commonType(SType::floatT(32), SType::floatT(64)).str() == "flt");
  CHECK(commonType(SType::floatT(64), SType::fun({}, SType::intT())).isError());
}

TEST_CASE("parser/stype: struct references, null and read-only", "[parser][stype]") {
  StructInfo a, b;
  a.name = "A";
  b.name = "B";
  SType ta = SType::structT(&a), tan = SType::structT(&a, true), tb = SType::structT(&b);
  CHECK(ta.str() == "A");
  CHECK(tan.str() == "A?");
  CHECK(SType::nullT().str() == "null");
  // A non-null reference goes where a nullable one is expected, not back.
  CHECK(assignable(ta, tan));
  CHECK_FALSE(assignable(tan, ta));
  CHECK(assignable(SType::nullT(), tan));
  CHECK_FALSE(assignable(SType::nullT(), ta));
  CHECK_FALSE(assignable(tb, ta));
  CHECK_FALSE(assignable(SType::intT(), ta));
  CHECK_FALSE(assignable(ta, SType::intT()));
  // A reference and null give a nullable reference; read-only wins.
  CHECK(sameType(commonType(ta, SType::nullT()), tan));
  CHECK(sameType(commonType(SType::nullT(), ta), tan));
  CHECK(sameType(commonType(ta, tan), tan));
  CHECK(commonType(ta, tb).isError());
  SType ro = ta;
  ro.readonly = true;
  CHECK(commonType(ta, ro).readonly);
  // Read-only-ness can be dropped, never regained.
  CHECK(regainsWrite(ro, ta));
  CHECK_FALSE(regainsWrite(ta, ro));
  CHECK_FALSE(regainsWrite(ro, ro));
}
