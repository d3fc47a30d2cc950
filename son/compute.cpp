// Transfer functions over the integer-range lattice.
#include "son/compute.h"

#include "son/mem_access.h"

#include <algorithm>
#include <climits>

#include "son/float_fold.h"

namespace simplec {

namespace {

// Unreachable control, or (in an optimistic analysis) not yet known to be reached.
bool isDeadCtrl(const Node* c) {
  return !c || !c->type || c->type->kind() == TKind::XCtrl || c->type->kind() == TKind::Top;
}

const Type* rangeOrBot(__int128 lo, __int128 hi) {
  if (lo < INT64_MIN || hi > INT64_MAX) return Type::intBot();
  return Type::intRange(int64_t(lo), int64_t(hi));
}

// Smallest all-ones mask covering v (v >= 0).
int64_t maskCovering(int64_t v) {
  uint64_t m = 0;
  while (m < uint64_t(v)) m = (m << 1) | 1;
  return int64_t(m);
}

// The values v may take where `v REL b` holds, b ranging over bt.
const Type* castRange(CastRel rel, const Type* v, const Type* bt) {
  int64_t lo = bt->lo(), hi = bt->hi();
  switch (rel) {
    case CastRel::LT: return hi == INT64_MIN ? Type::intTop() : Type::intRange(INT64_MIN, hi - 1);
    case CastRel::LE: return Type::intRange(INT64_MIN, hi);
    case CastRel::GT: return lo == INT64_MAX ? Type::intTop() : Type::intRange(lo + 1, INT64_MAX);
    case CastRel::GE: return Type::intRange(lo, INT64_MAX);
    case CastRel::EQ: return bt;
    case CastRel::NE:
      // Only a constant at an end of v's range can be cut off.
      if (bt->isConst() && v->lo() == lo && lo != INT64_MAX) return Type::intRange(lo + 1, INT64_MAX);
      if (bt->isConst() && v->hi() == lo && lo != INT64_MIN) return Type::intRange(INT64_MIN, lo - 1);
      return Type::intBot();
  }
  return Type::intBot();
}

const Type* computeCast(const Node* n) {
  if (isDeadCtrl(n->in[0])) return n->type ? n->type->dualTop() : Type::top();
  const Type* v = n->in.size() > 1 && n->in[1] ? n->in[1]->type : nullptr;
  const Type* b = n->in.size() > 2 && n->in[2] ? n->in[2]->type : nullptr;
  if (!v) return Type::bottom();
  if (!v->isInt() || !b || !b->isInt()) return v;  // nothing known to narrow by
  if (v->isIntTop() || b->isIntTop()) return Type::intTop();
  return v->join(castRange(CastRel(n->aux), v, b));
}

const Type* computeArith(const Node* n) {
  const Type* a = n->in[1]->type;
  const Type* b = n->in.size() > 2 ? n->in[2]->type : nullptr;
  if (!a || !a->isInt() || (b && !b->isInt())) {
    if (a && a->kind() == TKind::Top) return Type::intTop();
    if (b && b->kind() == TKind::Top) return Type::intTop();
    return Type::intBot();
  }
  if (a->isIntTop() || (b && b->isIntTop())) return Type::intTop();
  if (n->op == Op::Neg) {
    if (a->isConst()) return Type::intConst(int64_t(0 - uint64_t(a->value())));
    return rangeOrBot(-__int128(a->hi()), -__int128(a->lo()));
  }
  if (n->op == Op::Not) {
    if (a->lo() > 0 || a->hi() < 0) return Type::intConst(0);
    if (a->isConst()) return Type::intConst(1);
    return Type::boolType();
  }
  if (a->isConst() && b->isConst()) {
    bool trap = (n->op == Op::Div || n->op == Op::Mod) && b->value() == 0;
    if (!trap) return Type::intConst(foldBinary(n->op, a->value(), b->value()));
  }
  __int128 al = a->lo(), ah = a->hi(), bl = b->lo(), bh = b->hi();
  switch (n->op) {
    case Op::Add: return rangeOrBot(al + bl, ah + bh);
    case Op::Sub: return rangeOrBot(al - bh, ah - bl);
    case Op::Mul: {
      __int128 c[] = {al * bl, al * bh, ah * bl, ah * bh};
      return rangeOrBot(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
    }
    case Op::Div:
      if (b->isConst() && b->value() > 0)
        return Type::intRange(a->lo() / b->value(), a->hi() / b->value());
      return Type::intBot();
    case Op::Mod:
      if (b->isConst() && b->value() != 0 && b->value() != INT64_MIN) {
        int64_t m = b->value() < 0 ? -b->value() : b->value();
        if (a->lo() >= 0) return Type::intRange(0, std::min(a->hi(), m - 1));
        if (a->hi() <= 0) return Type::intRange(std::max(a->lo(), -(m - 1)), 0);
        return Type::intRange(-(m - 1), m - 1);
      }
      return Type::intBot();
    case Op::And:
      if (a->lo() >= 0 && b->lo() >= 0) return Type::intRange(0, std::min(a->hi(), b->hi()));
      if (a->lo() >= 0) return Type::intRange(0, a->hi());
      if (b->lo() >= 0) return Type::intRange(0, b->hi());
      return Type::intBot();
    case Op::Or:
    case Op::Xor:
      if (a->lo() >= 0 && b->lo() >= 0)
        return Type::intRange(0, maskCovering(std::max(a->hi(), b->hi())));
      return Type::intBot();
    case Op::Sar:
      if (b->isConst()) {
        int c = int(b->value() & 63);
        return Type::intRange(a->lo() >> c, a->hi() >> c);
      }
      return Type::intBot();
    case Op::Shr:
      if (b->isConst()) {
        int c = int(b->value() & 63);
        if (a->lo() >= 0) return Type::intRange(a->lo() >> c, a->hi() >> c);
        if (c > 0) return Type::intRange(0, int64_t(UINT64_MAX >> c));
      }
      return Type::intBot();
    case Op::Shl:
      // A constant shift multiplies by 2^c where nothing is shifted out (a
      // peephole turns x * 16 into x << 4: it must keep x * 16's range).
      if (b->isConst()) {
        __int128 m = __int128(1) << int(b->value() & 63);
        return rangeOrBot(al * m, ah * m);
      }
      return Type::intBot();
    case Op::LT:
      if (a->hi() < b->lo()) return Type::intConst(1);
      if (a->lo() >= b->hi()) return Type::intConst(0);
      return Type::boolType();
    case Op::LE:
      if (a->hi() <= b->lo()) return Type::intConst(1);
      if (a->lo() > b->hi()) return Type::intConst(0);
      return Type::boolType();
    case Op::EQ:
    case Op::NE: {
      bool disjoint = a->hi() < b->lo() || b->hi() < a->lo();
      if (disjoint) return Type::intConst(n->op == Op::NE);
      return Type::boolType();
    }
    default: return Type::intBot();
  }
}

// A load gives whatever its slot may hold (TOP while its address has no value).
const Type* computeLoad(const Node* n) {
  MemAccess m = MemAccess::decode(n->aux);
  const Type* p = n->in[2]->type;
  const Type* off = n->in[3]->type;
  if (!p || !off || p->kind() == TKind::Top || (p->isPtr() && p->fun() == Type::kFunTop) || off->isIntTop())
    return m.loadType()->dualTop();
  return m.loadType();
}

// Float nodes fold only constants: a float has no useful range.
const Type* computeFloat(const Node* n) {
  bool toInt = n->op == Op::FEQ || n->op == Op::FNE || n->op == Op::FLT || n->op == Op::FLE ||
               n->op == Op::FToI;
  const Type* top = toInt ? Type::intTop() : Type::fltTop();
  const Type* bot = toInt ? (n->op == Op::FToI ? Type::intBot() : Type::boolType()) : Type::fltBot();
  const Type* a = n->in.size() > 1 ? n->in[1]->type : nullptr;
  const Type* b = n->in.size() > 2 ? n->in[2]->type : nullptr;
  if (!a) return bot;
  if (a->kind() == TKind::Top || a->isFltTop() || a->isIntTop()) return top;
  if (b && (b->kind() == TKind::Top || b->isFltTop())) return top;
  if (n->op == Op::IToF) return a->isInt() && a->isConst() ? Type::fltConst(intToFloat(a->value())) : bot;
  if (!a->isFltConst() || (b && !b->isFltConst())) return bot;
  double x = a->fltValue();
  switch (n->op) {
    case Op::FEQ: case Op::FNE: case Op::FLT: case Op::FLE:
      if (!b) return bot;
      return Type::intConst(foldFloatCompare(n->op, x, b->fltValue()) ? 1 : 0);
    case Op::FToI: return Type::intConst(floatToInt(x));
    case Op::FAdd: case Op::FSub: case Op::FMul: case Op::FDiv: case Op::FMin: case Op::FMax:
      if (!b) return bot;
      return Type::fltConst(foldFloatBinary(n->op, x, b->fltValue()));
    default: return Type::fltConst(foldFloatUnary(n->op, x));
  }
}

}  // namespace

int64_t foldBinary(Op op, int64_t a, int64_t b) {
  uint64_t ua = uint64_t(a), ub = uint64_t(b);
  switch (op) {
    case Op::Add: return int64_t(ua + ub);
    case Op::Sub: return int64_t(ua - ub);
    case Op::Mul: return int64_t(ua * ub);
    case Op::Div:
      if (b == -1) return int64_t(0 - ua);
      return a / b;
    case Op::Mod:
      if (b == -1) return 0;
      return a % b;
    case Op::And: return a & b;
    case Op::Or: return a | b;
    case Op::Xor: return a ^ b;
    case Op::Shl: return int64_t(ua << (b & 63));
    case Op::Sar: return a >> (b & 63);
    case Op::Shr: return int64_t(ua >> (b & 63));
    case Op::EQ: return a == b;
    case Op::NE: return a != b;
    case Op::LT: return a < b;
    case Op::LE: return a <= b;
    default: return 0;
  }
}

const Type* compute(const Node* n) {
  switch (n->op) {
    case Op::Start:
    case Op::Stop:
    case Op::Fun: return Type::ctrl();
    case Op::Con: return n->type;
    case Op::Parm:
      if (n->aux < 0) return Type::mem();
      return n->type ? n->type : Type::intBot();
    case Op::Scope: return Type::bottom();
    case Op::Cast: return computeCast(n);
    case Op::Region: {
      for (size_t i = 1; i < n->in.size(); i++)
        if (!isDeadCtrl(n->in[i])) return Type::ctrl();
      return Type::xctrl();
    }
    case Op::Loop: return isDeadCtrl(n->in[1]) ? Type::xctrl() : Type::ctrl();
    case Op::Return:
    case Op::BoundsCheck:
    case Op::ZeroCheck:
    case Op::Call: return isDeadCtrl(n->in[0]) ? Type::xctrl() : Type::ctrl();
    case Op::If: {
      if (isDeadCtrl(n->in[0])) return Type::tuple({Type::xctrl(), Type::xctrl()});
      const Type* p = n->in[1]->type;
      // A predicate with no value yet (optimistic TOP) takes neither arm.
      if (!p || p->kind() == TKind::Top || p->isIntTop() ||
          (p->kind() == TKind::FunPtr && p->fun() == Type::kFunTop))
        return Type::tuple({Type::xctrl(), Type::xctrl()});
      if (p->isInt()) {
        if (p->lo() > 0 || p->hi() < 0) return Type::tuple({Type::ctrl(), Type::xctrl()});
        if (p->isConst()) return Type::tuple({Type::xctrl(), Type::ctrl()});
      }
      if (p->kind() == TKind::FunPtr)
        return Type::tuple({Type::ctrl(), Type::xctrl()});
      if (p->isPtr() && p->fun() == Type::kFunTop) return Type::tuple({Type::xctrl(), Type::xctrl()});
      if (p->isNonNullPtr()) return Type::tuple({Type::ctrl(), Type::xctrl()});
      if (p->isNullPtr()) return Type::tuple({Type::xctrl(), Type::ctrl()});
      return Type::tuple({Type::ctrl(), Type::ctrl()});
    }
    case Op::Never:
      if (isDeadCtrl(n->in[0])) return Type::tuple({Type::xctrl(), Type::xctrl()});
      return Type::tuple({Type::ctrl(), Type::ctrl()});
    case Op::CallEnd: {
      const Type* c = isDeadCtrl(n->in[0]) ? Type::xctrl() : Type::ctrl();
      const Type* r = n->type && n->type->kind() == TKind::Tuple ? n->type->elems()[2] : Type::intBot();
      return Type::tuple({c, Type::mem(), r});
    }
    case Op::New: {
      const Type* c = isDeadCtrl(n->in[0]) ? Type::xctrl() : Type::ctrl();
      return Type::tuple({c, Type::mem(), Type::dataPtr(Type::kNonNull)});
    }
    case Op::Store:
    case Op::MergeMem: return Type::mem();
    case Op::Load: return computeLoad(n);
    case Op::VSplat: case Op::VAdd: case Op::VSub: case Op::VMul: case Op::VDiv:
    case Op::VMin: case Op::VMax: case Op::VNeg: case Op::VAbs: case Op::VSqrt: return Type::vec();
    case Op::CProj:
    case Op::Proj: {
      const Type* t = n->in[0]->type;
      if (t && t->kind() == TKind::Tuple && size_t(n->aux) < t->elems().size())
        return t->elems()[size_t(n->aux)];
      if (t && t->kind() == TKind::Top) return n->op == Op::CProj ? Type::xctrl() : Type::top();
      return n->op == Op::CProj ? Type::ctrl() : Type::bottom();
    }
    case Op::Select: {
      const Type* c = n->in[1]->type;
      const Type* a = n->in[2]->type;
      const Type* b = n->in[3]->type;
      if (!c || !a || !b) return Type::bottom();
      if (c->isInt() && c->isConst()) return c->value() != 0 ? a : b;
      return a->meet(b);
    }
    case Op::Phi: {
      Node* r = n->in[0];
      if (r->op == Op::Loop && (r->in.size() < 3 || !r->in[2])) return n->type;  // loop being parsed
      if (isDeadCtrl(r)) return n->type ? n->type->dualTop() : Type::top();
      const Type* t = Type::top();
      for (size_t i = 1; i < n->in.size() && i < r->in.size(); i++)
        if (!isDeadCtrl(r->in[i]) && n->in[i]) t = t->meet(n->in[i]->type);
      if (t->kind() == TKind::Top && n->type) return n->type->dualTop();
      return t;
    }
    default: return isFloatOp(n->op) ? computeFloat(n) : computeArith(n);
  }
}

}  // namespace simplec
