// MemAccess: printing, load types and extension.
#include "son/mem_access.h"

namespace simplec {

std::string MemAccess::str() const {
  switch (value) {
    case MemValue::Ptr: return "ptr";
    case MemValue::Fun: return "fun";
    case MemValue::Float: return size == 16 ? "f64x2" : "f" + std::to_string(size * 8);
    default: return (size < 8 && !isSigned ? "u" : "i") + std::to_string(size * 8);
  }
}

const Type* MemAccess::loadType() const {
  switch (value) {
    case MemValue::Ptr: return Type::dataPtr(Type::kFunAny);
    case MemValue::Fun: return Type::funAny();
    case MemValue::Float: return size == 16 ? Type::vec() : Type::fltBot();
    default: break;
  }
  if (alias == 0) return Type::intRange(0, kMaxArrayLength);  // the length
  if (size >= 8) return Type::intBot();
  int bits = size * 8;
  if (!isSigned) return Type::intRange(0, int64_t((uint64_t(1) << bits) - 1));
  return Type::intRange(-(int64_t(1) << (bits - 1)), (int64_t(1) << (bits - 1)) - 1);
}

int64_t MemAccess::extend(int64_t v) const {
  if (size >= 8 || value != MemValue::Int) return v;
  int shift = 64 - size * 8;
  if (isSigned) return int64_t(uint64_t(v) << shift) >> shift;
  return int64_t((uint64_t(v) << shift) >> shift);
}

}  // namespace simplec

namespace simplec {

const Node* newOf(const Node* ptr) {
  if (ptr && ptr->op == Op::Proj && ptr->aux == 2 && !ptr->in.empty() && ptr->in[0] && ptr->in[0]->op == Op::New)
    return ptr->in[0];
  return nullptr;
}

namespace {
bool isString(const Node* p) { return p->op == Op::Con && p->type->isPtr() && p->type->fun() >= 0; }
bool isIntCon(const Node* n) { return n->op == Op::Con && n->type->isInt() && n->type->isConst(); }
}  // namespace

const Node* objectOf(const Node* ptr) {
  if (const Node* n = newOf(ptr)) return n;
  return ptr && isString(ptr) ? ptr : nullptr;
}

bool sameValue(const Node* a, const Node* b) {
  return a == b || (isIntCon(a) && isIntCon(b) && a->type == b->type);
}

bool provablyDisjoint(const Node* a, const Node* b) {
  const Node* pa = a->in[2];
  const Node* pb = b->in[2];
  int sa = MemAccess::decode(a->aux).size, sb = MemAccess::decode(b->aux).size;
  if (sameValue(pa, pb)) {
    const Node* oa = a->in[3];
    const Node* ob = b->in[3];
    if (!isIntCon(oa) || !isIntCon(ob)) return false;
    int64_t x = oa->type->value(), y = ob->type->value();
    return x + sa <= y || y + sb <= x;
  }
  const Node* na = newOf(pa);
  const Node* nb = newOf(pb);
  if (na && nb) return na != nb;
  if ((na || isString(pa)) && (nb || isString(pb))) return true;
  return false;
}

}  // namespace simplec
