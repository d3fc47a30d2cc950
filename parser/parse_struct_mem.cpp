// Memory operations on struct objects: allocation, field loads and stores.
// Layout: an object is allocated like an array of 8-byte slots (son's New,
// with the slot count in its header word); the field with storage index i
// lives at byte offset 8 + 8 * i and is always accessed as 8 bytes, a
// narrow field holding its value already truncated (and so extended).
// Each field is its own alias class, `S.f`; the New itself uses the
// struct's class `S`, so allocations of different structs are independent.
#include <cmath>

#include "parser/parser_impl.h"
#include "son/mem_access.h"

namespace simplec {

namespace {
int64_t fieldOffset(const StructInfo& s, int field) {
  int slot = 0;
  for (int i = 0; i < field; i++)
    if (!s.fields[size_t(i)].isConst()) slot++;
  return kArrayHeader + 8 * int64_t(slot);
}

MemValue slotKind(const SType& t) {
  if (t.kind == SType::Struct || t.kind == SType::Array) return MemValue::Ptr;
  if (t.kind == SType::Fun) return MemValue::Fun;
  if (t.isFloat()) return MemValue::Float;  // a double, also for f32 (rounded)
  return MemValue::Int;
}
}  // namespace

void Parser::registerStructAliases() {
  // Every class exists before the first function is parsed: a class that
  // appeared while a loop is open would miss that loop's memory Phis.
  for (auto& s : structs_) {
    u_.aliasClass(s->name);
    for (auto& f : s->fields)
      if (!f.isConst()) u_.aliasClass(s->name + "." + f.name);
  }
}

Node* Parser::nullCon() { return conOf(Type::nullPtr()); }

Node* Parser::emitNew(StructInfo& s, const std::vector<Node*>& fieldValues, SrcPos pos) {
  int objClass = u_.aliasClass(s.name);
  // An object is allocated like an array of 8-byte slots (one per field).
  MemAccess slots;
  slots.alias = objClass;
  slots.size = 8;
  Node* ptr = allocate(slots, con(int64_t(fieldValues.size())), pos);
  // Initial values: the memory is zero-filled, so zeros need no store.
  size_t v = 0;
  for (size_t i = 0; i < s.fields.size(); i++) {
    if (s.fields[i].isConst()) continue;
    Node* x = fieldValues[v++];
    if (x->isConst() && ((x->type->isInt() && x->type->value() == 0) || x->type->isNullPtr() ||
                         (x->type->isFltConst() && x->type->fltValue() == 0.0 && !std::signbit(x->type->fltValue()))))
      continue;
    emitStore({ptr, SType::structT(&s)}, s, int(i), {x, s.fields[i].type}, pos, /*init=*/true);
  }
  return ptr;
}

Val Parser::emitLoad(Val obj, StructInfo& s, int field, SrcPos pos) {
  const FieldInfo& f = s.fields[size_t(field)];
  MemAccess m;
  m.alias = u_.aliasClass(s.name + "." + f.name);
  m.value = slotKind(f.type);
  Node* ld = mk(Op::Load, {ctrl(), scope()->memOf(m.alias), obj.n, con(fieldOffset(s, field))}, nullptr, m.encode());
  ld->pos = pos;
  Node* x = peep(ld);
  if (x != ld) G().killIfUnused(ld);
  Val v{x, f.type};
  return v;
}

void Parser::emitStore(Val obj, StructInfo& s, int field, Val v, SrcPos pos, bool init) {
  const FieldInfo& f = s.fields[size_t(field)];
  MemAccess m;
  m.alias = u_.aliasClass(s.name + "." + f.name);
  m.value = slotKind(f.type);
  Node* st = mk(Op::Store, {ctrl(), scope()->memOf(m.alias), obj.n, con(fieldOffset(s, field)), v.n}, Type::mem(),
                m.encode());
  st->pos = pos;
  scope()->setMemOf(m.alias, peep(st));
  if (!init) noteStore(false, m.alias);
}

}  // namespace simplec
