// Static types: printing, equality, assignability.
#include "parser/stype.h"

#include "parser/struct_info.h"

namespace simplec {


SType SType::intN(int bits, bool isUnsigned) {
  SType t = of(Int);
  t.bits = uint8_t(bits);
  t.isUnsigned = isUnsigned && bits < 64;
  return t;
}

SType SType::floatT(int bits) {
  SType t = of(Float);
  t.bits = uint8_t(bits == 32 ? 32 : 64);
  return t;
}

SType primitiveTypeNamed(const std::string& n) {
  if (n == "flt" || n == "f64") return SType::floatT(64);
  if (n == "f32") return SType::floatT(32);
  return intTypeNamed(n);
}

SType intTypeNamed(const std::string& n) {
  if (n == "int" || n == "i64") return SType::intT();
  if (n == "bool" || n == "u1") return SType::boolT();
  if (n == "i32") return SType::intN(32, false);
  if (n == "i16") return SType::intN(16, false);
  if (n == "i8") return SType::intN(8, false);
  if (n == "u32") return SType::intN(32, true);
  if (n == "u16") return SType::intN(16, true);
  if (n == "u8" || n == "byte") return SType::intN(8, true);
  return SType::error();
}

SType SType::structT(const StructInfo* s, bool nullable) {
  SType t = of(Struct);
  t.strct = s;
  t.nullable = nullable;
  return t;
}

SType SType::arrayT(const SType& elem, bool readonly, bool nullable) {
  SType t = of(Array);
  t.elem = std::make_shared<const SType>(elem);
  t.readonly = readonly;
  t.nullable = nullable;
  return t;
}

SType SType::fun(std::vector<SType> params, SType ret) {
  auto s = std::make_shared<FunSig>();
  s->params = std::move(params);
  s->ret = std::move(ret);
  SType t = of(Fun);
  t.sig = std::move(s);
  return t;
}

std::string SType::str() const {
  switch (kind) {
    case Error: return "<error>";
    case Void: return "void";
    case Int: return bits == 64 ? "int" : (isUnsigned ? "u" : "i") + std::to_string(bits);
    case Bool: return "bool";
    case Float: return bits == 32 ? "f32" : "flt";
    case Null: return "null";
    case Struct: return strct->name + (nullable ? "?" : "");
    case Array: return elem->str() + (readonly ? "[~]" : "[]") + (nullable ? "?" : "");
    case Fun: {
      std::string s = "{";
      for (auto& p : sig->params) s += " " + p.str();
      s += " -> " + sig->ret.str() + " }";
      return s + (nullable ? "?" : "");
    }
  }
  return "?";
}

const Type* SType::lattice() const {
  switch (kind) {
    case Int:
      if (bits == 64) return Type::intBot();
      if (isUnsigned) return Type::intRange(0, int64_t((uint64_t(1) << bits) - 1));
      return Type::intRange(-(int64_t(1) << (bits - 1)), (int64_t(1) << (bits - 1)) - 1);
    case Bool: return Type::boolType();
    case Float: return Type::fltBot();
    case Fun: return Type::funAny();
    case Null: return Type::nullPtr();
    case Struct:
    case Array: return nullable ? Type::anyPtr() : Type::dataPtr(Type::kNonNull);
    default: return Type::bottom();
  }
}

bool sameType(const SType& a, const SType& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == SType::Int) return a.bits == b.bits && a.isUnsigned == b.isUnsigned;
  if (a.kind == SType::Struct) return a.strct == b.strct && a.nullable == b.nullable;
  if (a.kind == SType::Array)
    return a.nullable == b.nullable && a.readonly == b.readonly && sameType(*a.elem, *b.elem);
  if (a.kind == SType::Float) return a.bits == b.bits;
  if (a.kind != SType::Fun) return true;
  if (a.sig->params.size() != b.sig->params.size()) return false;
  for (size_t i = 0; i < a.sig->params.size(); i++)
    if (!sameType(a.sig->params[i], b.sig->params[i])) return false;
  return sameType(a.sig->ret, b.sig->ret);
}

// Every value of `a` is a value of `b` (u8 in i16, bool in anything).
static bool intFits(const SType& a, const SType& b) {
  if (!a.isIntegral() || !b.isIntegral()) return false;
  const Type *ta = a.lattice(), *tb = b.lattice();
  return ta->lo() >= tb->lo() && ta->hi() <= tb->hi();
}

bool assignable(const SType& from, const SType& to) {
  if (from.isError() || to.isError()) return true;  // already reported
  if (from.isIntegral() && to.isIntegral()) return true;
  // Integers widen to floats; f64 rounds into f32. Never float to integer.
  if (from.isNumeric() && to.isFloat()) return true;
  // A function whose integer result fits the wanted result type will do:
  // our functions return narrow results extended to 64 bits.
  if (from.kind == SType::Fun && to.kind == SType::Fun && from.sig->params.size() == to.sig->params.size()) {
    for (size_t i = 0; i < from.sig->params.size(); i++)
      if (!sameType(from.sig->params[i], to.sig->params[i])) return false;
    return sameType(from.sig->ret, to.sig->ret) || intFits(from.sig->ret, to.sig->ret);
  }
  if (to.kind == SType::Struct) {
    if (from.kind == SType::Null) return to.nullable;
    return from.kind == SType::Struct && from.strct == to.strct && (to.nullable || !from.nullable);
  }
  if (from.kind == SType::Null) return to.isRef() && (to.nullable || to.kind == SType::Null);
  if (from.kind == SType::Array && to.kind == SType::Array) {
    // Nullability and read-only-ness can be added, never dropped.
    if (from.nullable && !to.nullable) return false;
    if (from.readonly && !to.readonly) return false;
    return sameType(*from.elem, *to.elem);
  }
  return sameType(from, to);
}

bool regainsWrite(const SType& from, const SType& to) {
  return from.kind == SType::Struct && to.kind == SType::Struct && from.readonly && !to.readonly;
}

SType commonType(const SType& a, const SType& b) {
  if (a.isError()) return b;
  if (b.isError()) return a;
  if (a.kind == SType::Struct && b.kind == SType::Struct && a.strct == b.strct) {
    SType t = a;
    t.nullable = a.nullable || b.nullable;
    t.readonly = a.readonly || b.readonly;
    return t;
  }
  if (sameType(a, b)) return a;
  if (a.isIntegral() && b.isIntegral()) return SType::intT();
  if (a.isNumeric() && b.isNumeric()) return SType::floatT(64);
  if (a.kind == SType::Null && b.isRef()) return b.withNullable(true);
  if (b.kind == SType::Null && a.isRef()) return a.withNullable(true);
  if (a.kind == SType::Array && b.kind == SType::Array && sameType(*a.elem, *b.elem))
    return SType::arrayT(*a.elem, a.readonly || b.readonly, a.nullable || b.nullable);
  // Functions with the same parameters and integer results: the function
  // type whose result holds both (either function is assignable to it).
  if (a.kind == SType::Fun && b.kind == SType::Fun && a.sig->params.size() == b.sig->params.size() &&
      a.sig->ret.isIntegral() && b.sig->ret.isIntegral()) {
    for (size_t i = 0; i < a.sig->params.size(); i++)
      if (!sameType(a.sig->params[i], b.sig->params[i])) return SType::error();
    const SType &ra = a.sig->ret, &rb = b.sig->ret;
    SType r = intFits(ra, rb) ? rb : intFits(rb, ra) ? ra : SType::intT();
    return SType::fun(a.sig->params, r).withNullable(a.nullable || b.nullable);
  }
  return SType::error();
}

}  // namespace simplec
