// External C variables: `i32 errno = "C";` names a C global by its symbol.
// The variable's address is the symbol's (a FunInfo marked isData, loaded
// from the GOT like any external symbol); every read is a Load and every
// write a Store of alias class "extern", which a call to C also clobbers
// (calls take all of memory). glibc's `errno` is thread-local and not a
// linkable symbol: its address is what `__errno_location()` returns.
#include "parser/parser_impl.h"

namespace simplec {

bool Parser::mentionsExternVar() const {
  // `TYPE NAME = "C"` with a numeric TYPE, anywhere (also in the sys library).
  for (size_t i = 0; i + 3 < toks_.size(); i++)
    if (toks_[i].kind == Tok::TypeName && toks_[i + 1].kind == Tok::Ident && toks_[i + 2].kind == Tok::Assign &&
        toks_[i + 3].kind == Tok::StrLit && toks_[i + 3].text == "C")
      return true;
  return false;
}

int Parser::declareExternVar(const std::string& symbol, const SType& type) {
  auto it = externs_.find(symbol);
  if (it != externs_.end()) return it->second;
  int idx = int(u_.funs.size());
  FunInfo f = claimExternSymbol(symbol);
  f.isData = true;
  u_.funs.push_back(std::move(f));
  funTypes_.push_back(type);
  externs_[symbol] = idx;
  return idx;
}

MemAccess Parser::externVarAccess(int ext) {
  MemAccess m = elemAccess(funTypes_[size_t(ext)]);
  m.alias = u_.aliasClass("extern");
  return m;
}

Node* Parser::externVarAddress(int ext) {
  if (u_.funs[size_t(ext)].symbol != "errno") return conOf(Type::funPtr(ext));
  int loc = declareExtern("__errno_location", {}, SType::intT());
  Node* fp = conOf(Type::funPtr(loc));
  return callFunction(fp, *funTypes_[size_t(loc)].sig, {}).n;
}

Val Parser::loadExternVar(int ext, SrcPos pos) {
  MemAccess m = externVarAccess(ext);
  Node* addr = externVarAddress(ext);
  Node* ld = mk(Op::Load, {ctrl(), scope()->memOf(m.alias), addr, con(0)}, nullptr, m.encode());
  ld->pos = pos;
  Node* x = peep(ld);
  if (x != ld) G().killIfUnused(ld);
  return {x, funTypes_[size_t(ext)]};
}

void Parser::storeExternVar(int ext, Val v, SrcPos pos) {
  MemAccess m = externVarAccess(ext);
  v.n->keep++;
  Node* addr = externVarAddress(ext);
  v.n->keep--;
  Node* st = mk(Op::Store, {ctrl(), scope()->memOf(m.alias), addr, con(0), v.n}, Type::mem(), m.encode());
  st->pos = pos;
  scope()->setMemOf(m.alias, peep(st));
}

int Parser::externVarNamed(const std::string& name) {
  // External variables are visible in nested functions, like constants.
  for (FunCtx* c = fn_; c; c = c->outer) {
    int j = c->symbols.find(name);
    if (j >= 0) return c->symbols.vars[size_t(j)].externVar;
  }
  return -1;
}

}  // namespace simplec
