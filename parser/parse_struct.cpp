// Structs and references: declarations (known before any statement is
// parsed, so that types may be used before their declaration), per-type
// constants, `null`, `new`, field access and assignment.
//   struct = 'struct' name '{' {struct | field} '}' [';']
//   field  = ('val' | type) ['!'] name ['=' expr] ';'
//   new    = 'new' structname ['{' statement* '}']
#include <algorithm>

#include "parser/on_exit.h"
#include "parser/parser_impl.h"
#include "parser/suggest.h"

namespace simplec {

// ---------------------------------------------------------------- declarations

void Parser::preDeclareStructs() {
  // Every `struct NAME {` of the file, nested ones as `OUTER.NAME`.
  struct Open {
    StructInfo* s;
    int depth;
  };
  std::vector<Open> open;
  int depth = 0;
  for (size_t i = 0; i + 2 < toks_.size(); i++) {
    Tok k = toks_[i].kind;
    if (k == Tok::Eof) {  // the program's end; the sys library follows
      depth = 0;
      open.clear();
    }
    if (k == Tok::LBrace) depth++;
    if (k == Tok::RBrace) {
      depth--;
      if (!open.empty() && depth == open.back().depth) open.pop_back();
    }
    if (k != Tok::KwStruct || toks_[i + 1].kind != Tok::Ident || toks_[i + 2].kind != Tok::LBrace) continue;
    std::string name = toks_[i + 1].text;
    if (open.empty() && name == "sys" && (sysStart_ == 0 || i < sysStart_)) {
      error(toks_[i + 1].pos(), "'sys' cannot be redefined");
      continue;
    }
    if (!open.empty()) name = open.back().s->name + "." + name;
    if (structByName_.count(name)) continue;  // reported where it is parsed
    auto s = std::make_unique<StructInfo>();
    s->name = name;
    s->pos = toks_[i + 1].pos();
    s->bodyTok = i + 2;
    structByName_[name] = s.get();
    open.push_back({s.get(), depth});
    structs_.push_back(std::move(s));
  }
  for (auto& s : structs_) parseStructFields(*s);
}

StructInfo* Parser::lookupStruct(const std::string& name) const {
  // Inside struct A.B, `C` may name A.B.C, A.C or C.
  std::string ctx = typeContext_ ? typeContext_->name : "";
  for (;;) {
    auto it = structByName_.find(ctx.empty() ? name : ctx + "." + name);
    if (it != structByName_.end()) return it->second;
    if (ctx.empty()) return nullptr;
    size_t dot = ctx.rfind('.');
    ctx = dot == std::string::npos ? "" : ctx.substr(0, dot);
  }
}

StructInfo* Parser::structNameAt(size_t p, size_t* end) const {
  if (p >= toks_.size() || toks_[p].kind != Tok::Ident) return nullptr;
  StructInfo* s = lookupStruct(toks_[p].text);
  if (!s) return nullptr;
  p++;
  // A.B: follow the dots while they name nested structs.
  while (p + 1 < toks_.size() && toks_[p].kind == Tok::Dot && toks_[p + 1].kind == Tok::Ident) {
    auto it = structByName_.find(s->name + "." + toks_[p + 1].text);
    if (it == structByName_.end()) break;
    s = it->second;
    p += 2;
  }
  *end = p;
  return s;
}

void Parser::parseStructFields(StructInfo& s) {
  size_t saved = pos_;
  const StructInfo* savedCtx = typeContext_;
  typeContext_ = &s;
  OnExit restore{[this, saved, savedCtx] {
    pos_ = saved;
    typeContext_ = savedCtx;
  }};
  pos_ = s.bodyTok + 1;
  while (!at(Tok::RBrace) && !at(Tok::Eof)) {
    try {
      if (at(Tok::KwStruct)) {
        // A nested struct: declared by the pre-scan, parsed on its own.
        while (!at(Tok::Eof) && !at(Tok::LBrace)) pos_++;
        skipPastBrace(pos_);
        accept(Tok::Semi);
        continue;
      }
      if (accept(Tok::Semi)) continue;
      FieldInfo f;
      if (accept(Tok::KwVal)) {
        f.isVal = true;
      } else if (at(Tok::KwVar)) {
        syntaxError(tok().pos(), "a field needs a type or 'val'");
      } else {
        f.type = parseType();
      }
      f.mutableRef = accept(Tok::Bang);
      if (!at(Tok::Ident)) syntaxError(tok().pos(), "expected a field name");
      f.name = tok().text;
      f.pos = tok().pos();
      pos_++;
      bool externDecl = !f.isVal && at(Tok::Assign) && peekTok().kind == Tok::StrLit && peekTok().text == "C" &&
                        (peekTok(2).kind == Tok::Semi || peekTok(2).kind == Tok::RBrace) &&
                        (f.type.kind == SType::Fun || f.type.isNumeric());
      if (externDecl) {
        // `T name = "C";`: a C function or variable, reached through the type.
        pos_++;
        f.initTok = pos_++;
        f.isVal = f.externDecl = true;
      } else if (accept(Tok::Assign)) {
        f.initTok = pos_;
        // Skip the initializer: it is parsed where it is used.
        int nest = 0;
        while (!at(Tok::Eof) && !(nest == 0 && (at(Tok::Semi) || at(Tok::RBrace)))) {
          if (at(Tok::LBrace) || at(Tok::LParen) || at(Tok::LBracket)) nest++;
          if (at(Tok::RBrace) || at(Tok::RParen) || at(Tok::RBracket)) nest--;
          pos_++;
        }
      } else if (f.isVal) {
        error(f.pos, "'val' field '" + f.name + "' needs an initializer");
        f.isVal = false;
        f.type = SType::error();
      }
      if (f.isVal) {
        f.isMethod = toks_[f.initTok].kind == Tok::LBrace && !isFunTypeAt(f.initTok);
      }
      if (s.find(f.name) >= 0)
        error(f.pos, "redefinition of field '" + f.name + "'");
      else
        s.fields.push_back(f);
      if (!at(Tok::RBrace)) expect(Tok::Semi);
    } catch (SyntaxError&) {
      syncStatement();
    }
  }
  s.fieldsParsed = true;
}

//   struct = 'struct' name '{' ... '}' [';']
void Parser::parseStructStatement() {
  SrcPos kw = tok().pos();
  pos_++;
  if (!at(Tok::Ident)) syntaxError(tok().pos(), "expected a struct name");
  Token name = tok();
  pos_++;
  if (!at(Tok::LBrace)) syntaxError(tok().pos(), "expected '{'");
  size_t open = pos_;
  skipPastBrace(open);
  if (prevTok().kind != Tok::RBrace || pos_ - 1 == open) expect(Tok::RBrace, open);  // unterminated: at the end of file
  accept(Tok::Semi);
  StructInfo* s = nullptr;
  for (auto& x : structs_)
    if (x->bodyTok == open) s = x.get();
  if (!s) {
    // A struct `sys` was refused when structs were declared.
    if (name.text != "sys") error(name.pos(), "redefinition of struct '" + name.text + "'");
    return;
  }
  (void)kw;
  // The per-type constants are evaluated here (if not used before), so that
  // their errors are reported even when nothing uses them.
  for (auto& f : s->fields)
    if (f.isConst() && !f.externDecl) fieldConst(*s, f);
}

Node* Parser::fieldConst(StructInfo& s, FieldInfo& f) {
  if (f.constValue) return conOf(f.constValue);
  if (f.evaluating) {
    if (f.isMethod && f.funIdx >= 0) {
      // A recursive call: assume a result type as for top-level functions
      // (an earlier parse's, the returns so far, else bool); parseFile()
      // checks the assumption afterwards.
      FunCtx* c = fn_;
      while (c && c->funIdx != f.funIdx) c = c->outer;
      SType ret = SType::boolT();
      auto hint = hints_.find(s.name + "." + f.name);
      if (hint != hints_.end()) ret = remapStructs(hint->second);
      else if (c && c->retTypeKnown) ret = c->retType;
      if (f.retAssumed && !sameType(f.assumedRet, ret)) f.assumptionsDiffer = true;
      f.assumedRet = ret;
      f.retAssumed = true;
      f.type = SType::fun(f.methodParams, ret);
      return conOf(Type::funPtr(f.funIdx));
    }
    if (f.isMethod) {
      error(tok().pos(), "method '" + f.name + "' is used in its own parameter list");
    } else {
      std::string cycle = constCycle(s.name + "." + f.name);
      if (cycle.empty())
        error(f.pos, "constant '" + f.name + "' is defined by itself");
      else
        error(f.pos, "constant '" + f.name + "' depends on itself: " + cycle);
    }
    return nullptr;
  }
  f.evaluating = true;
  size_t saved = pos_;
  const StructInfo* savedCtx = typeContext_;
  pos_ = f.initTok;
  typeContext_ = &s;
  Val v;
  if (!f.isMethod) constStack_.push_back(s.name + "." + f.name);
  ConstInit savedConstInit = constInit_;
  if (!f.isMethod) constInit_ = {true, &s};
  try {
    if (f.isMethod) parsingMethod_ = &f;
    if (f.isMethod)
      v = parseFunLiteral(s.name + "." + f.name, &s);
    else
      v = parseExpr();
  } catch (SyntaxError&) {
    v = {con(0), SType::error()};
  }
  if (!f.isMethod) constStack_.pop_back();
  constInit_ = savedConstInit;
  parsingMethod_ = nullptr;
  pos_ = saved;
  typeContext_ = savedCtx;
  f.evaluating = false;
  // A call without a value (`val k = sys.io.p(1);`) gives no node at all.
  if (!v.t.isError() && (!v.n || !v.t.hasValue())) {
    error(toks_[f.initTok].pos(), "expression has no value");
    v = {con(0), SType::error()};
  } else if (!v.t.isError() && !v.n->isConst()) {
    error(toks_[f.initTok].pos(), "the value of constant field '" + f.name + "' is not a constant");
    v = {con(0), SType::error()};
  }
  if (!v.n || !v.t.hasValue()) v = {con(0), SType::error()};
  f.type = v.t.isNarrow() ? SType::intT() : v.t;
  if (f.isMethod) {
    f.methodUsesSelf = lastMethodUsedSelf_;
    f.methodWritesSelf = lastMethodWroteSelf_;
  }
  // Kept as a type: any function may use it, each in its own graph.
  f.constValue = v.n->type;
  return v.n;
}

// "C.k -> base -> C.k" when `name` is being evaluated further out than
// the innermost constant; "" when the cycle is the constant alone.
std::string Parser::constCycle(const std::string& name) const {
  auto it = std::find(constStack_.begin(), constStack_.end(), name);
  if (it == constStack_.end() || it + 1 == constStack_.end()) return "";
  std::string path;
  for (; it != constStack_.end(); ++it) path += *it + " -> ";
  return path + name;
}

Val Parser::readNameInConstant(const Token& name) {
  Val v;
  if (constInit_.strct && bareStructConstant(*constInit_.strct, name, &v)) return v;
  const SymbolTable& top = mainCtx_->symbols;
  if (auto it = top.blocks[0].find(name.text); it != top.blocks[0].end()) {
    const VarInfo& info = top.vars[size_t(it->second)];
    if (info.constValue) return {conOf(info.constValue), info.type};
    if (info.externVar >= 0) return loadExternVar(info.externVar, name.pos());
    // Read as a value, it gives "... is not a constant" where it is used.
    if (fn_ == mainCtx_) return readVar(it->second);
    error(name.pos(), "'" + name.text + "' is not a constant, so a constant cannot use it");
    return {con(0), SType::error()};
  }
  if (topFuns_.count(name.text)) return topFunValue(name.text, name.pos());
  if (laterTopConstant(name, &v)) return v;
  error(name.pos(), "undefined name '" + name.text + "'");
  return {con(0), SType::error()};
}

bool Parser::bareStructConstant(StructInfo& s, const Token& name, Val* out) {
  int fi = s.find(name.text);
  if (fi < 0) return false;
  FieldInfo& f = s.fields[size_t(fi)];
  // Methods are called bare through selfMethodNamed; here only values.
  if (!f.isConst() || f.isMethod || f.externDecl) return false;
  Node* n = fieldConst(s, f);
  *out = n ? Val{n, f.type} : Val{con(0), SType::error()};
  return true;
}

// A top-level `val` declared after the struct constant that uses it: its
// initializer is evaluated here, once, and must be a constant.
bool Parser::laterTopConstant(const Token& name, Val* out) {
  auto it = topVals_.find(name.text);
  if (constStack_.empty() || it == topVals_.end()) return false;
  TopVal& tv = it->second;
  if (tv.value) {
    *out = {conOf(tv.value), tv.type};
    return true;
  }
  if (std::find(constStack_.begin(), constStack_.end(), name.text) != constStack_.end()) {
    error(name.pos(), "constant '" + name.text + "' depends on itself: " + constCycle(name.text));
    *out = {con(0), SType::error()};
    return true;
  }
  size_t saved = pos_;
  pos_ = tv.initTok;
  constStack_.push_back(name.text);
  ConstInit savedConstInit = constInit_;
  constInit_ = {true, nullptr};  // a file-level val: no struct's constants
  Val v;
  try {
    v = parseExpr();
  } catch (SyntaxError&) {
    v = {con(0), SType::error()};
  }
  constInit_ = savedConstInit;
  constStack_.pop_back();
  pos_ = saved;
  if (!v.t.isError() && (!v.n || !v.t.hasValue() || !v.n->isConst())) {
    error(name.pos(), "'" + name.text + "' is not a constant, so a struct constant cannot use it before its declaration");
    v = {con(0), SType::error()};
  }
  if (v.t.isError()) {
    *out = v;
    return true;
  }
  tv.type = v.t.isNarrow() ? SType::intT() : v.t.isFloat() ? SType::floatT(64) : v.t;
  tv.value = v.n->type;
  *out = {v.n, tv.type};
  return true;
}

SType Parser::remapStructs(const SType& t) const {
  SType r = t;
  if (t.kind == SType::Struct) {
    auto it = structByName_.find(t.strct->name);
    if (it == structByName_.end()) return SType::error();
    r.strct = it->second;
  } else if (t.kind == SType::Fun) {
    std::vector<SType> params;
    for (auto& p : t.sig->params) params.push_back(remapStructs(p));
    r = SType::fun(params, remapStructs(t.sig->ret));
  }
  return r;
}

// ---------------------------------------------------------------- values

Val Parser::nullValue() { return {nullCon(), SType::nullT()}; }

bool Parser::checkDeref(const Val& obj, SrcPos dotPos) {
  if (obj.t.isError()) return false;
  if (obj.t.kind == SType::Null) {
    error(dotPos, "'null' has no fields");
    return false;
  }
  if (obj.t.kind != SType::Struct) {
    error(dotPos, "a value of type '" + obj.t.str() + "' has no fields");
    return false;
  }
  if (obj.t.nullable) {
    reportMightBeNull(obj, dotPos);
    return false;
  }
  return true;
}

// A name that is a struct type, used as a value: `A.k`, `A.B.f(x)`.
Val Parser::typeMember(StructInfo* s, SrcPos pos, size_t startTok) {
  if (!accept(Tok::Dot)) syntaxError(pos, "struct '" + s->name + "' is not a value");
  if (!at(Tok::Ident)) syntaxError(tok().pos(), "expected a name after '.'");
  Token name = tok();
  pos_++;
  int fi = s->find(name.text);
  if (fi < 0 || !s->fields[size_t(fi)].isConst()) {
    error(name.pos(), "struct '" + s->name + "' has no constant '" + name.text + "'");
    return {con(0), SType::error()};
  }
  FieldInfo& f = s->fields[size_t(fi)];
  if (f.externDecl) return externField(f, name.pos(), startTok);
  Node* c = fieldConst(*s, f);
  if (!c) return {con(0), SType::error()};
  if (f.isMethod && f.type.kind == SType::Fun) {
    if (f.methodUsesSelf) {
      error(name.pos(), "method '" + name.text + "' needs an object");
      return {con(0), SType::error()};
    }
    // A method that never uses `self` may be called through its type; it
    // gets null for `self`.
    if (!at(Tok::LParen)) syntaxError(tok().pos(), "expected '(' after method '" + name.text + "'");
    return methodCall(nullValue(), *s, f, tok().pos());
  }
  return {c, f.type};
}

// ---------------------------------------------------------------- new

//   new = 'new' structname ['{' statement* '}']
Val Parser::parseNewStruct() {
  SrcPos newPos = tok().pos();
  pos_++;
  size_t end = 0;
  StructInfo* s = structNameAt(pos_, &end);
  if (!s) {
    if (at(Tok::TypeName) || at(Tok::Ident))
      syntaxError(tok().pos(), at(Tok::Ident) ? "unknown struct '" + tok().text + "'" + didYouMean(tok().text, structNames())
                                            : "expected '[' and an array size");
    syntaxError(tok().pos(), "expected a struct name after 'new'");
  }
  pos_ = end;
  if (s->replaying) {
    // `struct S { S s = new S; }`: every new S would make another.
    error(newPos, "'new " + s->name + "' in a field initializer of '" + s->name + "' never ends");
    return {nullCon(), SType::error()};
  }
  // The fields become locals of a block: initializers run in order, then
  // the constructor block, where field names shadow outer names.
  size_t nvars = syms().vars.size(), depth = syms().depth();
  syms().pushBlock();
  std::vector<int> slots(s->fields.size(), -1);
  {
    OnExit pop{[this, nvars, depth] { endBlock(nvars, depth); }};
    for (size_t i = 0; i < s->fields.size(); i++) {
      FieldInfo& f = s->fields[i];
      if (f.isConst()) continue;
      Val v{nullptr, f.type};
      if (f.initTok) {
        size_t saved = pos_;
        pos_ = f.initTok;
        s->replaying = true;
        OnExit done{[s] { s->replaying = false; }};
        SrcPos ipos = tok().pos();
        try {
          v = coerce(parseExpr(), f.type, ipos);
        } catch (SyntaxError&) {
          v = {con(0), SType::error()};
        }
        pos_ = saved;
      }
      bool isNull = !v.n;
      if (isNull) v.n = zeroOf(f.type).n;  // 0, 0.0 or null: what the zero-filled object holds
      VarInfo info{f.name, f.type, false, nullptr, f.pos};
      info.kind = VarKind::Field;
      // A reference or array field: null until set, if it has no initializer.
      bool ref = f.type.kind == SType::Struct || f.type.kind == SType::Array;
      info.maybeNull = ref && (isNull || v.t.nullable || v.t.kind == SType::Null);
      syms().definedInInnermost(f.name);
      slots[i] = scope()->define(info, v.n);
    }
    if (at(Tok::LBrace)) {
      size_t open = pos_++;
      while (!at(Tok::RBrace) && !at(Tok::Eof)) parseStatement();
      expect(Tok::RBrace, open);
    }
    std::vector<Node*> values;
    for (size_t i = 0; i < s->fields.size(); i++) {
      if (slots[i] < 0) continue;
      const VarInfo& info = syms().vars[size_t(slots[i])];
      if ((info.type.kind == SType::Struct || info.type.kind == SType::Array) && !info.type.nullable &&
          scope()->maybeNull(slots[i]))
        error(newPos, "'" + s->name + "' is not fully initialized: field '" + info.name + "' is not set");
      values.push_back(scope()->get(slots[i]));
    }
    Node* obj = emitNew(*s, values, newPos);
    SType t = SType::structT(s);
    return {obj, t};
  }
}

// ---------------------------------------------------------------- fields

Val Parser::fieldAccess(Val obj, SrcPos dotPos, size_t startTok) {
  if (!at(Tok::Ident)) syntaxError(tok().pos(), "expected a field name after '.'");
  Token name = tok();
  pos_++;
  lastField_ = {};
  if (obj.t.kind == SType::Array) {
    // `a.length`, `a.size`: a Java or C++ habit; Simple writes `a#`.
    error(dotPos, "arrays have no fields; use '" + spelling(startTok, pos_ - 2, "a") + "#' for the length");
    return {con(0), SType::error()};
  }
  if (!checkDeref(obj, dotPos)) return {con(0), SType::error()};
  StructInfo* s = const_cast<StructInfo*>(obj.t.strct);
  int fi = s->find(name.text);
  if (fi < 0) {
    error(name.pos(), "struct '" + s->name + "' has no field '" + name.text + "'" + didYouMean(name.text, fieldNames(*s)));
    return {con(0), SType::error()};
  }
  FieldInfo& f = s->fields[size_t(fi)];
  if (f.externDecl) return externField(f, name.pos(), startTok);
  if (f.isConst()) {
    if (f.isMethod) {
      if (!at(Tok::LParen)) syntaxError(tok().pos(), "expected '(' after method '" + name.text + "'");
      return methodCall(obj, *s, f, tok().pos());
    }
    Node* c = fieldConst(*s, f);
    return c ? Val{c, f.type} : Val{con(0), SType::error()};
  }
  Val v = fromPath(emitLoad(obj, *s, fi, dotPos), fieldPath(obj, *s, fi));
  // Deep immutability: what a read-only reference reaches is read-only, and
  // so is a reference field declared with an initializer (unless `!`).
  bool ref = v.t.kind == SType::Struct || v.t.kind == SType::Array;
  if (ref && (obj.t.readonly || (f.initTok && !f.mutableRef))) v.t.readonly = true;
  lastField_ = {obj, s, fi, startTok, pos_};
  return v;
}

Val Parser::methodCall(Val obj, StructInfo& s, FieldInfo& f, SrcPos pos) {
  Node* fn = fieldConst(s, f);
  if (!fn || f.type.kind != SType::Fun) {
    parseCall({con(0), SType::error()}, pos);
    return {con(0), SType::error()};
  }
  // A method that calls a field-writing method on its own `self` writes
  // fields too (a read-only reference must not reach either). Within a
  // cycle of recursive methods the callee's answer is not known yet.
  if (f.methodWritesSelf && fn_->selfStruct && obj.var >= 0 && syms().vars[size_t(obj.var)].name == "self")
    fn_->wroteSelf = true;
  // The method's first parameter is the hidden `self`.
  const FunSig& sig = *f.type.sig;
  std::vector<Val> args;
  std::vector<SrcPos> argPos;
  SrcPos lparen = tok().pos();  // where traces show the call
  parseArguments(&args, &argPos);
  if (args.size() + 1 != sig.params.size()) {
    error(pos, "wrong number of arguments: expected " + std::to_string(sig.params.size() - 1) + ", found " +
                   std::to_string(args.size()));
    return {con(0), sig.ret.hasValue() ? sig.ret : SType::error()};
  }
  if (obj.t.readonly && f.methodWritesSelf)
    error(pos, "cannot call method '" + f.name + "' through a read-only reference: it assigns to fields");
  std::vector<Node*> ns{obj.n};
  for (size_t i = 0; i < args.size(); i++) {
    if (regainsWrite(args[i].t, sig.params[i + 1]))
      error(argPos[i], "a read-only '" + args[i].t.str() + "' cannot be passed as a mutable argument");
    checkIntConversion(args[i], sig.params[i + 1], fn, i + 1, argPos[i]);
    ns.push_back(coerce(args[i], sig.params[i + 1], argPos[i]).n);
  }
  Val r = callFunction(fn, sig, ns, lparen);
  if (!r.n) r.n = con(0);
  return r;
}

// Inside a method, another method of the same struct named bare: `m(a)`
// means `self.m(a)`, as a bare field name means `self.f`.
FieldInfo* Parser::selfMethodNamed(const std::string& name) {
  if (!fn_->selfStruct) return nullptr;
  StructInfo* s = const_cast<StructInfo*>(fn_->selfStruct);
  int fi = s->find(name);
  if (fi < 0 || !s->fields[size_t(fi)].isMethod) return nullptr;
  return &s->fields[size_t(fi)];
}

Val Parser::bareMethodCall(FieldInfo& m) {
  StructInfo& s = *const_cast<StructInfo*>(fn_->selfStruct);
  // A callee that never uses `self` gets null for it, so calling it does
  // not make this method need an object either. A call within a cycle of
  // methods still being parsed cannot know yet: it counts as a use, except
  // a method calling itself (it uses `self` only if its body does).
  if (!m.evaluating) {
    fieldConst(s, m);
    if (m.constValue && !m.methodUsesSelf) return methodCall(nullValue(), s, m, tok().pos());
  }
  if (!m.evaluating || m.funIdx != fn_->funIdx) fn_->usedSelf = true;
  Val self = readVar(syms().find("self"));
  return methodCall(self, s, m, tok().pos());
}

// `obj.f op= v` where the target was just parsed as a field load.
Val Parser::fieldAssign(Tok op, SrcPos opPos) {
  FieldRef ref = lastField_;
  lastField_ = {};
  Nesting nest(*this);
  SrcPos rhsPos = tok().pos();
  Val rhs = parseAssign();
  FieldInfo& f = ref.strct->fields[size_t(ref.field)];
  Val v = rhs;
  if (op != Tok::Assign) {
    Val old = emitLoad(ref.obj, *ref.strct, ref.field, opPos);
    std::string opText = tokSpelling(op);
    opText.pop_back();  // "+=" -> "+"
    v = arith(binaryOpFor(op), old, rhs, opPos, opText.c_str());
    rhsPos = opPos;
  }
  v = coerce(v, f.type, rhsPos);
  if (regainsWrite(rhs.t, f.type) && op == Tok::Assign)
    error(opPos, "a read-only '" + rhs.t.str() + "' cannot be stored in mutable field '" + f.name + "'");
  if (ref.obj.t.readonly) {
    error(opPos, "cannot assign to field '" + f.name + "' through a read-only reference");
    return v;
  }
  if ((f.type.kind == SType::Struct || f.type.kind == SType::Array) && f.initTok && !f.mutableRef) {
    error(opPos, "cannot assign to immutable field '" + f.name + "'");
    return v;
  }
  noteSelfWrite(ref.obj);
  emitStore(ref.obj, *ref.strct, ref.field, v, opPos);
  return v;
}

void Parser::noteSelfWrite(const Val& obj) {
  if (fn_->selfStruct && obj.var >= 0 && syms().vars[size_t(obj.var)].name == "self") fn_->wroteSelf = true;
}

Val Parser::fieldIncDec(bool inc, SrcPos opPos, bool prefix) {
  FieldRef ref = lastField_;
  lastField_ = {};
  FieldInfo& f = ref.strct->fields[size_t(ref.field)];
  Val old = emitLoad(ref.obj, *ref.strct, ref.field, opPos);
  Val v = arith(inc ? Op::Add : Op::Sub, old, Val{con(1), SType::intT()}, opPos, inc ? "++" : "--");
  v = coerce(v, f.type, opPos);
  if (ref.obj.t.readonly) {
    error(opPos, "cannot assign to field '" + f.name + "' through a read-only reference");
    return old;
  }
  noteSelfWrite(ref.obj);
  emitStore(ref.obj, *ref.strct, ref.field, v, opPos);
  return prefix ? v : old;
}

}  // namespace simplec
