// Memory operations on struct objects: allocation, field loads and stores.
// An object is allocated like an array of bytes (son's New, with its size
// in its header word); each field sits at its offset in the struct's layout
// (parser/struct_layout.h) and is accessed in its own width, as an array
// element of its type is. Each field is its own alias class, `S.f`; the New
// itself uses the struct's class `S`, so allocations of different structs
// are independent.
#include <cmath>

#include "parser/parser_impl.h"
#include "parser/storage.h"
#include "parser/struct_layout.h"
#include "son/mem_access.h"

namespace simplec {

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
  MemAccess bytes;
  bytes.alias = objClass;
  bytes.size = 1;
  bytes.isSigned = false;
  Node* ptr = allocate(bytes, con(layoutFor(s).bytes), pos);
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
  MemAccess m = storageOf(f.type);
  m.alias = u_.aliasClass(s.name + "." + f.name);
  Node* ld = mk(Op::Load, {ctrl(), scope()->memOf(m.alias), obj.n, con(layoutFor(s).offset[size_t(field)])}, nullptr,
                m.encode());
  ld->pos = pos;
  Node* x = peep(ld);
  if (x != ld) G().killIfUnused(ld);
  Val v{x, f.type};
  return v;
}

void Parser::emitStore(Val obj, StructInfo& s, int field, Val v, SrcPos pos, bool init) {
  const FieldInfo& f = s.fields[size_t(field)];
  MemAccess m = storageOf(f.type);
  m.alias = u_.aliasClass(s.name + "." + f.name);
  Node* st = mk(Op::Store, {ctrl(), scope()->memOf(m.alias), obj.n, con(layoutFor(s).offset[size_t(field)]), v.n},
                Type::mem(), m.encode());
  st->pos = pos;
  scope()->setMemOf(m.alias, peep(st));
  if (!init) noteStore(false, m.alias);
}

}  // namespace simplec
