// Declarations and type syntax.
//   declaration = ('var' | 'val' | type) ['!'] name ['=' expr] {',' ['!'] name ['=' expr]} ';'
//   type        = typename | '{' type* '->' [type] '}'
#include "parser/on_exit.h"
#include "parser/parser_impl.h"
#include "parser/suggest.h"

namespace simplec {

size_t Parser::skipType(size_t p, int depth) const {
  // Returns the index past a type starting at p, or 0 if there is none.
  if (p >= toks_.size() || depth > 64) return 0;
  size_t end = 0;
  if (toks_[p].kind == Tok::TypeName) {
    p++;
  } else if (structNameAt(p, &end)) {
    p = end;
  } else if (toks_[p].kind == Tok::LBrace) {
    // { type* -> [type] }
    size_t q = p + 1;
    while (q < toks_.size() && toks_[q].kind != Tok::Arrow) {
      size_t r = skipType(q, depth + 1);
      if (!r) return 0;
      q = r;
      if (q < toks_.size() && toks_[q].kind == Tok::Comma) q++;
    }
    if (q >= toks_.size()) return 0;
    q++;  // ->
    if (q < toks_.size() && toks_[q].kind != Tok::RBrace) {
      size_t r = skipType(q, depth + 1);
      if (!r) return 0;
      q = r;
    }
    if (q >= toks_.size() || toks_[q].kind != Tok::RBrace) return 0;
    p = q + 1;
  } else {
    return 0;
  }
  // Suffixes: '?', '[]', '[~]'.
  for (;;) {
    if (p < toks_.size() && toks_[p].kind == Tok::Question) {
      p++;
    } else if (p + 1 < toks_.size() && toks_[p].kind == Tok::LBracket && toks_[p + 1].kind == Tok::RBracket) {
      p += 2;
    } else if (p + 2 < toks_.size() && toks_[p].kind == Tok::LBracket && toks_[p + 1].kind == Tok::Tilde &&
               toks_[p + 2].kind == Tok::RBracket) {
      p += 3;
    } else {
      return p;
    }
  }
}

bool Parser::isFunTypeAt(size_t p) const {
  if (p >= toks_.size() || toks_[p].kind != Tok::LBrace) return false;
  size_t q = skipType(p);
  if (q && q < toks_.size() && toks_[q].kind == Tok::Bang) q++;  // `{int->int}? !f`
  return q && q < toks_.size() && toks_[q].kind == Tok::Ident;
}

bool Parser::isStructDeclAt(size_t p) const {
  // `S x`, `S? x`, `S !x`, `A.B x`: a struct type followed by a name.
  size_t end = 0;
  if (!structNameAt(p, &end)) return false;
  size_t q = skipType(p);
  if (!q || q >= toks_.size()) return false;
  if (toks_[q].kind == Tok::Bang) q++;
  return q < toks_.size() && toks_[q].kind == Tok::Ident;
}

bool Parser::isUnknownTypeDeclAt(size_t p) const {
  // `Strng s = ...;`, `Nde? n;`, `Pont[] !ps, qs;`: a name nothing defines,
  // then type suffixes and a declared name, is a declaration with a
  // misspelt type (as an expression it could only be a syntax error).
  size_t n = toks_.size(), end = 0;
  if (p >= n || toks_[p].kind != Tok::Ident || structNameAt(p, &end)) return false;
  const std::string& name = toks_[p].text;
  if (name == "sys" || (fn_ && fn_->symbols.find(name) >= 0) || topFuns_.count(name) || topVals_.count(name)) return false;
  size_t q = p + 1;
  for (;;) {
    if (q < n && toks_[q].kind == Tok::Question)
      q++;
    else if (q + 1 < n && toks_[q].kind == Tok::LBracket && toks_[q + 1].kind == Tok::RBracket)
      q += 2;
    else if (q + 2 < n && toks_[q].kind == Tok::LBracket && toks_[q + 1].kind == Tok::Tilde &&
             toks_[q + 2].kind == Tok::RBracket)
      q += 3;
    else
      break;
  }
  if (q < n && toks_[q].kind == Tok::Bang) q++;
  if (q + 1 >= n || toks_[q].kind != Tok::Ident) return false;
  Tok after = toks_[q + 1].kind;
  return after == Tok::Assign || after == Tok::Semi || after == Tok::Comma;
}

bool Parser::atDeclaration() {
  switch (tok().kind) {
    case Tok::KwVar:
    case Tok::KwVal: return true;
    case Tok::TypeName: return peekTok().kind != Tok::LParen;  // int(x) is a conversion
    case Tok::LBrace: return isFunTypeAt(pos_);
    case Tok::Ident: return isStructDeclAt(pos_) || isUnknownTypeDeclAt(pos_);
    default: return false;
  }
}

//   type = (typename | '{' type* '->' [type] '}') {'?' | '[' ['~'] ']'}
SType Parser::parseType(bool stopAtSize) {
  Nesting nest(*this);
  SType t;
  if (at(Tok::TypeName)) {
    const std::string& n = tok().text;
    t = primitiveTypeNamed(n);
    if (t.isError()) {
      error(tok().pos(), "unknown type '" + n + "'");
      t = SType::intT();
    }
    pos_++;
  } else if (at(Tok::Ident)) {
    size_t end = 0;
    StructInfo* s = structNameAt(pos_, &end);
    if (s) {
      pos_ = end;
      t = SType::structT(s);
    } else {
      // One error for the type; what it declares gets the error type, so
      // its uses report nothing more.
      error(tok().pos(), "unknown type '" + tok().text + "'" + didYouMean(tok().text, typeNames()));
      pos_++;
      t = SType::error();
    }
  } else if (at(Tok::LBrace)) {
    pos_++;
    std::vector<SType> params;
    while (!at(Tok::Arrow) && !at(Tok::Eof)) {
      params.push_back(parseType());
      accept(Tok::Comma);
    }
    expect(Tok::Arrow);
    SType ret = at(Tok::RBrace) ? SType::voidT() : parseType();
    expect(Tok::RBrace);
    t = SType::fun(std::move(params), ret);
  } else {
    syntaxError(tok().pos(), "expected a type");
  }
  for (;;) {
    if (t.isError() && (at(Tok::Question) || (at(Tok::LBracket) && peekTok().kind == Tok::RBracket))) {
      pos_ += at(Tok::Question) ? 1 : 2;  // an unknown type stays one error, whatever its suffixes
    } else if (t.isError() && at(Tok::LBracket) && peekTok().kind == Tok::Tilde && peekTok(2).kind == Tok::RBracket) {
      pos_ += 3;
    } else if (at(Tok::Question)) {
      if (!t.isRef() && !t.isError()) error(tok().pos(), "'" + t.str() + "' cannot be nullable");
      else t.nullable = true;
      pos_++;
    } else if (at(Tok::LBracket)) {
      bool ro = peekTok().kind == Tok::Tilde;
      if (stopAtSize && !ro && peekTok().kind != Tok::RBracket) break;
      SrcPos lb = tok().pos();
      pos_++;
      accept(Tok::Tilde);
      expect(Tok::RBracket);
      if (t.isRef() && !t.nullable && !t.isError())
        error(lb, "array elements of reference type '" + t.str() + "' must be nullable");
      t = SType::arrayT(t.isRef() ? t.withNullable(true) : t, ro);
    } else {
      break;
    }
  }
  return t;
}

//   declaration = ('var' | 'val' | type) ['!'] name ['=' expr] {',' ['!'] name ['=' expr]} ';'
void Parser::parseDeclaration() {
  bool isVar = at(Tok::KwVar), isVal = at(Tok::KwVal);
  SType declared;
  if (isVar || isVal) {
    pos_++;
  } else {
    declared = parseType();
  }
  for (;;) {
    if (at(Tok::TypeName) || (at(Tok::Ident) == false && tok().kind >= Tok::KwIf && tok().kind <= Tok::KwVal)) {
      syntaxError(tok().pos(), "'" + tok().text + "' cannot be used as a name");
    }
    bool bang = accept(Tok::Bang);  // `S !s = ...`: mutable through this name
    if (!at(Tok::Ident)) syntaxError(tok().pos(), "expected a name");
    Token name = tok();
    if (name.text == "sys") error(name.pos(), "'sys' cannot be redefined");
    pos_++;
    Val v;
    SrcPos initPos = tok().pos();
    // `T name = "C";` declares a C function or variable, when a string could
    // not be T's value anyway (`u8[~] s = "C";` is a string).
    bool externDecl = !isVar && !isVal && at(Tok::Assign) && peekTok().kind == Tok::StrLit && peekTok().text == "C" &&
                      (peekTok(2).kind == Tok::Semi || peekTok(2).kind == Tok::Comma) &&
                      (declared.kind == SType::Fun || declared.isNumeric());
    if (externDecl) {
      declareExternal(name, declared);
      if (!accept(Tok::Comma)) break;
      continue;
    }
    bool hasInit = at(Tok::Assign);
    SrcPos assignPos = tok().pos();
    if (accept(Tok::Assign)) {
      initPos = tok().pos();
      // A top-level `val main = {...}` is the function-form entry.
      bool isMain = topLevel_ && isVal && name.text == "main" && at(Tok::LBrace) && fn_ == mainCtx_;
      bool topVarFun = topLevel_ && isVar && at(Tok::LBrace) && fn_ == mainCtx_;
      try {
        v = parseExpr();
      } catch (SyntaxError&) {
        // Define the name anyway, so later uses do not pile up errors.
        if (!syms().definedInInnermost(name.text))
          scope()->define({name.text, SType::error(), false, nullptr, name.pos()}, con(0));
        throw;
      }
      if (isMain && v.t.kind == SType::Fun && v.n->isConst()) {
        if (valMainFun_ >= 0) error(name.pos(), "redefinition of 'main'");
        valMainFun_ = v.n->type->fun();
        valMainPos_ = name.pos();
      }
      if (topVarFun && v.t.kind == SType::Fun && v.n->isConst() && v.n->type->kind() == TKind::FunPtr)
        topVarFuns_.push_back({name.text, v.n->type->fun()});
      if (!v.t.hasValue()) {
        error(initPos, "expression has no value");
        v = {con(0), SType::error()};
      }
    } else if (isVar || isVal) {
      error(endOf(name), std::string("'") + (isVar ? "var" : "val") + "' needs an initializer");
      v = {con(0), SType::error()};
    } else if (declared.kind == SType::Fun && !declared.nullable) {
      error(name.pos(), "function reference '" + name.text + "' needs an initializer");
      v = {con(0), SType::error()};
    } else if (declared.kind == SType::Struct) {
      v = {nullCon(), declared.nullable ? SType::nullT() : declared};  // null, or not assigned yet
    } else if (declared.kind == SType::Array && !declared.nullable) {
      error(name.pos(), "array reference '" + name.text + "' needs an initializer");
      v = {con(0), SType::error()};
    } else if (declared.isRef()) {
      v = {conOf(Type::nullPtr()), SType::nullT()};
    } else {
      v = zeroOf(declared);
    }
    // Deep immutability: a reference declared with an initializer in an
    // inner block (or with val) is read-only through its name. An array
    // name gets the read-only type (`T[~]`), so a read-only value fits it.
    bool ro = hasInit && readonlyDecl(isVal, isVar, bang);
    SType want = declared;
    if (ro && want.kind == SType::Array) want.readonly = true;
    SType t = want;
    bool maybeNull = !hasInit || v.t.kind == SType::Null || v.t.nullable;
    if (isVar || isVal) {
      // Inference never picks a narrow type: a bool or u8 initializer makes an int.
      // Likewise an f32 initializer makes a flt.
      t = v.t.isNarrow() ? SType::intT() : v.t.isFloat() ? SType::floatT(64) : v.t;
      // ... and a reference is nullable (`var x = new S;` is an `S?`).
      if (t.kind == SType::Null) {
        error(initPos, "cannot infer a type from 'null'");
        t = SType::error();
      }
      // A `val` can never be reassigned: keep its array or function value
      // non-null (named functions are `val`s, seen from nested functions).
      if (isVar || t.kind == SType::Struct) t = t.asNullable();
    } else {
      if (hasInit && regainsWrite(v.t, want) && !ro)
        error(assignPos, "a read-only '" + v.t.str() + "' cannot be stored in mutable '" + name.text + "'");
      if (hasInit) v = coerce(v, want, initPos);
    }
    bool immutable = isVal;
    if ((t.kind == SType::Struct || t.kind == SType::Array) && ro) {
      t.readonly = true;
      immutable = true;
    }
    // `!` on a primitive, or on a name that is mutable anyway, changes nothing.
    VarInfo info{name.text, t, immutable, nullptr, name.pos()};
    info.readonlyByBlock = ro && !isVal && (t.kind == SType::Struct || t.kind == SType::Array);
    info.maybeNull = t.isNullTracked() && maybeNull;
    if (isVal && v.n->isConst() && t.kind != SType::Struct) info.constValue = v.n->type;
    info.kind = declKind(t, info.constValue);
    warnShadow(name);
    int idx = scope()->define(info, v.n);
    if (idx < 0) error(name.pos(), "redefinition of '" + name.text + "'");
    debugDeclare(idx, v.n, 0);
    if (!accept(Tok::Comma)) break;
  }
  expect(Tok::Semi);
}

// `{ i32 i64 u32 -> i64 } write = "C";` names a C function by its symbol.
void Parser::declareExternal(const Token& name, const SType& declared) {
  pos_++;  // =
  pos_++;  // "C"
  if (declared.kind != SType::Fun) {
    int v = declareExternVar(name.text, declared);
    if (u_.funs[size_t(v)].isData != true || !sameType(funTypes_[size_t(v)], declared)) {
      error(name.pos(), "external variable '" + name.text + "' declared again with another type");
    } else {
      VarInfo info{name.text, declared, false, nullptr, name.pos()};
      info.externVar = v;
      if (scope()->define(info, con(0)) < 0) error(name.pos(), "redefinition of '" + name.text + "'");
      return;
    }
  } else {
    int f = declareExtern(name.text, declared.sig->params, declared.sig->ret);
    if (u_.funs[size_t(f)].isData || !sameType(funTypes_[size_t(f)], declared))
      error(name.pos(), "external function '" + name.text + "' declared again with another type");
    Node* fp = conOf(Type::funPtr(f));
    VarInfo info{name.text, declared, true, fp->type, name.pos()};
    if (scope()->define(info, fp) < 0) error(name.pos(), "redefinition of '" + name.text + "'");
    return;
  }
  if (!syms().definedInInnermost(name.text))
    scope()->define({name.text, SType::error(), true, nullptr, name.pos()}, con(0));
}

bool Parser::readonlyDecl(bool isVal, bool isVar, bool bang) {
  if (isVal) return true;
  if (isVar || bang || forInit_) return false;
  // Locals of a function's outermost block (and of the script's top level)
  // are mutable by default.
  return syms().depth() > fn_->bodyDepth;
}

}  // namespace simplec
