// Static types: printing, equality, assignability.
#include "parser/stype.h"

namespace simplec {

SType SType::fun(std::vector<SType> params, SType ret) {
  auto s = std::make_shared<FunSig>();
  s->params = std::move(params);
  s->ret = std::move(ret);
  return {Fun, std::move(s)};
}

std::string SType::str() const {
  switch (kind) {
    case Error: return "<error>";
    case Void: return "void";
    case Int: return "int";
    case Bool: return "bool";
    case Str: return "u8[~]";
    case Fun: {
      std::string s = "{";
      for (auto& p : sig->params) s += " " + p.str();
      s += " -> " + sig->ret.str() + " }";
      return s;
    }
  }
  return "?";
}

const Type* SType::lattice() const {
  switch (kind) {
    case Int: return Type::intBot();
    case Bool: return Type::boolType();
    case Fun: return Type::funAny();
    case Str: return Type::dataPtr(Type::kFunAny);
    default: return Type::bottom();
  }
}

bool sameType(const SType& a, const SType& b) {
  if (a.kind != b.kind) return false;
  if (a.kind != SType::Fun) return true;
  if (a.sig->params.size() != b.sig->params.size()) return false;
  for (size_t i = 0; i < a.sig->params.size(); i++)
    if (!sameType(a.sig->params[i], b.sig->params[i])) return false;
  return sameType(a.sig->ret, b.sig->ret);
}

bool assignable(const SType& from, const SType& to) {
  if (from.isError() || to.isError()) return true;  // already reported
  if (from.isIntegral() && to.isIntegral()) return true;
  return sameType(from, to);
}

SType commonType(const SType& a, const SType& b) {
  if (a.isError()) return b;
  if (b.isError()) return a;
  if (sameType(a, b)) return a;
  if (a.isIntegral() && b.isIntegral()) return SType::intT();
  return SType::error();
}

}  // namespace simplec
