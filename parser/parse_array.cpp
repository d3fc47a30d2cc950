// Arrays: allocation, element reads and writes, length, and the memory
// operations they become. An array reference points at its header (the
// length, 8 bytes); element i lives at byte offset 8 + i * size.
//   new     = 'new' type '[' expr ']'
//   index   = postfix '[' expr ']' [('=' | op'=') assign | '++' | '--']
//   length  = postfix '#'
#include "parser/parser_impl.h"
#include "parser/storage.h"
#include "son/mem_access.h"

namespace simplec {

namespace {
int log2Size(int size) { return size == 8 ? 3 : size == 4 ? 2 : size == 2 ? 1 : 0; }
}  // namespace

void Parser::registerArrayAliases() {
  // Every class exists before the first function is parsed: a class that
  // appeared while a loop is open would miss that loop's memory Phis.
  for (const char* t : {"int", "i32", "i16", "i8", "u32", "u16", "u8", "bool", "flt", "f32", "ref", "fun"})
    u_.aliasClass(std::string("[]") + t);
}

MemAccess Parser::elemAccess(const SType& elem) {
  MemAccess m = storageOf(elem);
  switch (elem.kind) {
    case SType::Int: m.alias = u_.aliasClass("[]" + elem.str()); break;
    case SType::Bool: m.alias = u_.aliasClass("[]bool"); break;
    case SType::Float: m.alias = u_.aliasClass(elem.bits == 32 ? "[]f32" : "[]flt"); break;
    case SType::Fun: m.alias = u_.aliasClass("[]fun"); break;
    default: m.alias = u_.aliasClass("[]ref"); break;
  }
  return m;
}

// `v` must be a non-null array to index or measure at `pos`.
bool Parser::checkArrayUse(const Val& v, SrcPos pos, const char* what) {
  if (v.t.isError()) return false;
  if (v.t.kind != SType::Array) {
    error(pos, std::string("cannot ") + what + " a value of type '" + v.t.str() + "'");
    return false;
  }
  if (v.t.nullable) {
    reportMightBeNull(v, pos);
    return false;
  }
  return true;
}

Node* Parser::arrayLength(Node* ptr) {
  // Alias 0: the header, never stored to after allocation. The reference is
  // never null (a nullable one cannot be measured), so the load needs no
  // control and no memory: it is a pure value, shared by every check.
  MemAccess m;
  Node* ld = mk(Op::Load, {nullptr, nullptr, ptr, con(0)}, nullptr, m.encode());
  Node* x = peep(ld);
  if (x != ld) G().killIfUnused(ld);
  return x;
}

// Traps unless 0 <= idx < length of `ptr`; the check is the new control.
void Parser::boundsCheck(Node* ptr, Node* idx, SrcPos pos) {
  Node* len = arrayLength(ptr);
  Node* bc = mk(Op::BoundsCheck, {ctrl(), idx, len}, Type::ctrl());
  bc->pos = pos;
  Node* x = peep(bc);
  if (x == bc) {
    setCtrl(bc);
  } else {
    G().killIfUnused(bc);
  }
}

Node* Parser::elemOffset(Node* idx, int size) {
  Node* scaled = log2Size(size) ? dataOp(Op::Shl, idx, con(log2Size(size))) : idx;
  return dataOp(Op::Add, scaled, con(kArrayHeader));
}

Node* Parser::loadElem(Node* ptr, Node* idx, const SType& elem) {
  MemAccess m = elemAccess(elem);
  Node* off = elemOffset(idx, m.size);
  Node* ld = mk(Op::Load, {ctrl(), scope()->memOf(m.alias), ptr, off}, nullptr, m.encode());
  Node* x = peep(ld);
  if (x != ld) G().killIfUnused(ld);
  return x;
}

void Parser::storeElem(Node* ptr, Node* idx, const SType& elem, Node* v) {
  MemAccess m = elemAccess(elem);
  Node* off = elemOffset(idx, m.size);
  Node* st = mk(Op::Store, {ctrl(), scope()->memOf(m.alias), ptr, off, v}, Type::mem(), m.encode());
  scope()->setMemOf(m.alias, peep(st));
  if (elem.isNullTracked()) noteStore(true, elemKey(elem));
}

//   new = 'new' type '[' expr ']'
Val Parser::parseNew() {
  size_t end = 0;
  if (structNameAt(pos_ + 1, &end) && toks_[end].kind != Tok::LBracket && toks_[end].kind != Tok::Question)
    return parseNewStruct();
  // `new Pointt;`: an unknown struct (reported there), not an array of one.
  Tok after = peekTok(2).kind;
  if (peekTok().kind == Tok::Ident && !structNameAt(pos_ + 1, &end) && after != Tok::LBracket && after != Tok::Question)
    return parseNewStruct();
  SrcPos newPos = tok().pos();
  pos_++;
  if (!at(Tok::TypeName) && !at(Tok::LBrace) && !at(Tok::Ident)) syntaxError(tok().pos(), "expected a type after 'new'");
  SrcPos typePos = tok().pos();
  // The element type: every '[]' suffix before the last '[' belongs to it.
  SType elem = parseType(/*stopAtSize=*/true);
  if (!at(Tok::LBracket)) syntaxError(tok().pos(), "expected '[' and an array size");
  SrcPos lb = tok().pos();
  size_t open = pos_++;
  SrcPos npos = tok().pos();
  Val n = requireInt(parseExpr(), npos, "new");
  expect(Tok::RBracket, open);
  if (elem.isRef() && !elem.nullable && !elem.isError()) {
    error(typePos, "array elements of reference type '" + elem.str() + "' must be nullable");
    elem = elem.withNullable(true);
  }
  (void)lb;
  SType t = SType::arrayT(elem);
  if (n.t.isError() || elem.isError()) return {con(0), SType::error()};
  return {allocate(elemAccess(elem), n.n, newPos), t};
}

Node* Parser::allocate(const MemAccess& slots, Node* count, SrcPos pos) {
  Node* nw = mk(Op::New, {ctrl(), scope()->memOf(slots.alias), count}, nullptr, slots.encode());
  nw->pos = pos;
  nw = peep(nw);
  nw->keep++;
  Node* c = peep(mk(Op::CProj, {nw}, nullptr, 0));
  Node* mem = peep(mk(Op::Proj, {nw}, nullptr, 1));
  Node* ptr = peep(mk(Op::Proj, {nw}, nullptr, 2));
  nw->keep--;
  setCtrl(c);
  scope()->setMemOf(slots.alias, mem);
  return ptr;
}

// a[i], a[i] = v, a[i] op= v, a[i]++, a[i]--: the array and index are
// evaluated once, then the right side, then the bounds are checked.
Val Parser::parseIndex(Val arr) {
  if (!arr.n) arr.n = con(0);  // a call without a value (reported below)
  SrcPos lb = tok().pos();
  size_t open = pos_++;
  SrcPos ipos = tok().pos();
  uint64_t events = factEvents_;
  Val idx = requireInt(parseExpr(), ipos, "[]");
  expect(Tok::RBracket, open);
  bool ok = checkArrayUse(arr, lb, "index");
  SType elem = ok ? *arr.t.elem : SType::error();
  Tok op = tok().kind;
  bool assign = op == Tok::Assign || isCompoundAssign(op);
  bool incdec = op == Tok::PlusPlus || op == Tok::MinusMinus;
  if (!assign && !incdec) {
    if (!ok || idx.t.isError()) return {con(0), SType::error()};
    boundsCheck(arr.n, idx.n, lb);
    Val v = fromPath({loadElem(arr.n, idx.n, elem), elem}, elemPath(arr, idx, elem, events));
    // Deep immutability: what a read-only array reaches is read-only.
    if (arr.t.readonly && (elem.kind == SType::Struct || elem.kind == SType::Array)) v.t.readonly = true;
    return v;
  }
  SrcPos opPos = tok().pos();
  pos_++;
  // The array and index stay alive (and unchanged) while the right side is parsed.
  arr.n->keep++;
  idx.n->keep++;
  struct Release {
    Node *a, *i;
    ~Release() {
      a->keep--;
      i->keep--;
    }
  } release{arr.n, idx.n};
  if (ok && arr.t.readonly) {
    if (arr.var >= 0 && syms().vars[size_t(arr.var)].readonlyByBlock) {
      const std::string& n = syms().vars[size_t(arr.var)].name;
      error(opPos, "cannot assign to an element of '" + n +
                       "': an array declared with an initializer in an inner block is read-only (use 'var' or '!" +
                       n + "')");
    } else {
      error(opPos, "cannot assign to an element of read-only '" + arr.t.str() + "'");
    }
    ok = false;
  }
  if (op == Tok::Assign) {
    SrcPos rhsPos = tok().pos();
    Nesting nest(*this);
    Val v = parseAssign();
    if (!ok || idx.t.isError()) return v;
    v = coerce(v, elem, rhsPos);
    boundsCheck(arr.n, idx.n, lb);
    storeElem(arr.n, idx.n, elem, v.n);
    v.form = ExprForm::Assign;
    return v;
  }
  // Read, modify, write: one bounds check covers both accesses.
  Val old{con(0), SType::error()};
  if (ok && !idx.t.isError()) {
    boundsCheck(arr.n, idx.n, lb);
    old = {loadElem(arr.n, idx.n, elem), elem};
  }
  Val v;
  if (incdec) {
    v = arith(op == Tok::PlusPlus ? Op::Add : Op::Sub, old, {con(1), SType::intT()}, opPos,
              op == Tok::PlusPlus ? "++" : "--");
  } else {
    Nesting nest(*this);
    Val rhs = parseAssign();
    std::string opText = tokSpelling(op);
    opText.pop_back();  // "+=" -> "+"
    v = arith(binaryOpFor(op), old, rhs, opPos, opText.c_str());
  }
  if (!ok || idx.t.isError()) return {con(0), SType::error()};
  v = coerce(v, elem, opPos);
  storeElem(arr.n, idx.n, elem, v.n);
  return incdec ? old : v;
}

//   length = postfix '#'
Val Parser::parseLength(Val arr) {
  SrcPos pos = tok().pos();
  pos_++;
  if (!checkArrayUse(arr, pos, "take the length of")) return {con(0), SType::error()};
  return {arrayLength(arr.n), SType::intT()};
}

}  // namespace simplec
