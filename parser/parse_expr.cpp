// Expressions, from lowest to highest precedence:
//   expr       = assign
//   assign     = name ('=' | op'=') assign | ternary
//   ternary    = logical ['?' ternary [':' ternary]]
//   logical    = bitwise [('&&' | '||') logical]     (parse_logical.cpp)
//   bitwise    = equality {('&' | '|' | '^') equality}
//   equality   = relational {('==' | '!=') relational}
//   relational = shift {('<' | '<=' | '>' | '>=') shift}   (chains)
//   shift      = additive {('<<' | '>>' | '>>>') additive}
//   additive   = mul {('+' | '-') mul}
//   mul        = unary {('*' | '/' | '%') unary}
//   unary      = ('-' | '!' | '++' | '--') unary | postfix   ('--' is '-' '-'
//                                            unless a numeric variable follows)
//   postfix    = primary {'(' args ')'} | name ('++' | '--')
#include "lexer/literal_value.h"
#include "parser/parser_impl.h"
#include "parser/suggest.h"

namespace simplec {

namespace {
bool isAssignOp(Tok t) {
  switch (t) {
    case Tok::Assign: case Tok::PlusAssign: case Tok::MinusAssign: case Tok::StarAssign:
    case Tok::SlashAssign: case Tok::PercentAssign: case Tok::AmpAssign: case Tok::PipeAssign:
    case Tok::CaretAssign: case Tok::ShlAssign: case Tok::SarAssign: case Tok::ShrAssign:
      return true;
    default: return false;
  }
}
bool isRelOpTok(Tok t) { return t == Tok::Lt || t == Tok::Le || t == Tok::Gt || t == Tok::Ge; }
}  // namespace

bool Parser::isCompoundAssign(Tok t) { return t != Tok::Assign && isAssignOp(t); }

Op Parser::binaryOpFor(Tok t) {
  switch (t) {
    case Tok::Plus: case Tok::PlusAssign: return Op::Add;
    case Tok::Minus: case Tok::MinusAssign: return Op::Sub;
    case Tok::Star: case Tok::StarAssign: return Op::Mul;
    case Tok::Slash: case Tok::SlashAssign: return Op::Div;
    case Tok::Percent: case Tok::PercentAssign: return Op::Mod;
    case Tok::Amp: case Tok::AmpAssign: return Op::And;
    case Tok::Pipe: case Tok::PipeAssign: return Op::Or;
    case Tok::Caret: case Tok::CaretAssign: return Op::Xor;
    case Tok::Shl: case Tok::ShlAssign: return Op::Shl;
    case Tok::Sar: case Tok::SarAssign: return Op::Sar;
    case Tok::Shr: case Tok::ShrAssign: return Op::Shr;
    default: return Op::Add;
  }
}

Val Parser::requireInt(Val v, SrcPos pos, const char* what) {
  if (v.t.isError() || v.t.isIntegral()) return v;
  if (!v.t.hasValue())
    error(pos, "expression has no value");
  else
    error(pos, std::string("operator '") + what + "' needs integer operands, found '" + v.t.str() + "'");
  return {con(0), SType::error()};
}

Val Parser::toBool(Val v) {
  if (v.t.kind == SType::Bool) return v;
  Val r{dataOp(Op::NE, v.n, v.t.isRef() ? nullCon() : con(0)), SType::boolT()};
  r.nnTrue = v.nnTrue;
  r.nnFalse = v.nnFalse;
  return r;
}

// A float condition is true when it is not zero (NaN is true, as in C).
Val Parser::condition(Val v, SrcPos pos) {
  if (!v.t.hasValue()) {
    error(pos, "expression has no value");
    return {con(0), SType::error()};
  }
  if (v.t.isFloat()) return {dataOp(Op::FNE, v.n, fcon(0.0)), SType::boolT()};
  if (v.t.isRef()) return toBool(v);  // a reference is true when not null
  return v;
}

Val Parser::coerce(Val v, const SType& to, SrcPos pos) {
  if (!v.t.hasValue() && !v.t.isError()) {
    error(pos, "expression has no value");
    return zeroOf(to);
  }
  // An array converts to `int`: the address of its element 0 (for C).
  if (v.t.kind == SType::Array && !v.t.nullable && to.kind == SType::Int && to.bits == 64)
    return {dataOp(Op::Add, v.n, con(kArrayHeader)), to};
  if (!assignable(v.t, to)) {
    if (v.t.kind == SType::Struct && to.kind == SType::Struct && v.t.strct == to.strct)
      error(pos, "a value of type '" + v.t.str() + "' might be null, but '" + to.str() + "' is expected");
    else if (v.t.kind == SType::Array && to.kind == SType::Array && v.t.readonly && !to.readonly &&
        sameType(*v.t.elem, *to.elem) && (!v.t.nullable || to.nullable))
      error(pos, "cannot store read-only '" + v.t.str() + "' where '" + to.str() + "' is expected");
    else
      error(pos, "type mismatch: expected '" + to.str() + "', found '" + v.t.str() + "'");
    return zeroOf(to);
  }
  if (to.kind == SType::Struct) {
    // Keeps what is known: a non-null value stored into an `S?` is non-null.
    SType t = to;
    t.nullable = v.t.kind == SType::Null || (to.nullable && v.t.nullable);
    t.readonly = v.t.readonly;
    return {v.n, t};
  }
  if (to.isNullTracked() && to.nullable) {
    // Likewise for arrays and function references.
    SType t = to;
    t.nullable = v.t.kind == SType::Null || v.t.nullable;
    return {v.n, t};
  }
  return storeAs(v, to);
}

Val Parser::narrowTo(Val v, const SType& to) {
  if (!to.isNarrow() || v.t.isError() || !v.t.isIntegral()) return {v.n, to};
  // A value of a type that fits (u8 into i16, bool into anything) stays.
  const Type* fits = to.lattice();
  const Type* has = v.t.lattice();
  if (has->lo() >= fits->lo() && has->hi() <= fits->hi()) return {v.n, to};
  // bool keeps the low bit, like every narrow type.
  if (to.kind == SType::Bool) return {dataOp(Op::And, v.n, con(1)), to};
  if (to.isUnsigned) return {dataOp(Op::And, v.n, con(fits->hi())), to};
  int shift = 64 - to.bits;
  return {dataOp(Op::Sar, dataOp(Op::Shl, v.n, con(shift)), con(shift)), to};
}

Val Parser::arith(Op op, Val a, Val b, SrcPos opPos, const char* opText) {
  bool floatOp = op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Div;
  if (floatOp && (a.t.isFloat() || b.t.isFloat()) && (a.t.isNumeric() || a.t.isError()) &&
      (b.t.isNumeric() || b.t.isError())) {
    if (a.t.isError() || b.t.isError()) return {fcon(0.0), SType::error()};
    return floatArith(op, std::move(a), std::move(b), opPos);
  }
  bool aWasError = a.t.isError();
  a = requireInt(std::move(a), opPos, opText);
  if (a.t.isError() && !aWasError) return {con(0), SType::error()};  // one error per operator
  b = requireInt(std::move(b), opPos, opText);
  if (a.t.isError() || b.t.isError()) return {con(0), SType::error()};
  if (op == Op::Div || op == Op::Mod) {
    // The divisor is checked by an explicit ZeroCheck control node; the
    // division hangs below it so it can never be scheduled above the check.
    Node* zc = mk(Op::ZeroCheck, {ctrl(), b.n}, Type::ctrl());
    zc->pos = opPos;
    Node* z = peep(zc);
    Node* guard = nullptr;
    if (z == zc) {
      setCtrl(zc);
      guard = zc;
    } else {
      G().killIfUnused(zc);
    }
    Node* d = mk(op, {guard, a.n, b.n});
    d->pos = opPos;
    Node* x = peep(d);
    if (x != d) G().killIfUnused(d);
    return {x, SType::intT()};
  }
  bool bothBool = a.t.kind == SType::Bool && b.t.kind == SType::Bool;
  bool logical = op == Op::And || op == Op::Or || op == Op::Xor;
  return {dataOp(op, a.n, b.n, opPos), bothBool && logical ? SType::boolT() : SType::intT()};
}

Val Parser::compare(Tok op, Val a, Val b, SrcPos opPos) {
  const char* txt = tokSpelling(op);
  if ((a.t.isFloat() && b.t.isNumeric()) || (b.t.isFloat() && a.t.isNumeric()))
    return floatCompare(op, std::move(a), std::move(b), opPos);
  if (op == Tok::Eq || op == Tok::Ne) {
    if (a.t.isRef() && b.t.isRef() && !commonType(a.t, b.t).isError()) {
      // Identity; a test against null tells which arm has the other non-null.
      Val r{dataOp(op == Tok::Eq ? Op::EQ : Op::NE, a.n, b.n, opPos), SType::boolT()};
      std::vector<NullPath> facts;
      if (b.t.kind == SType::Null && a.path.valid()) facts.push_back(a.path);
      if (a.t.kind == SType::Null && b.path.valid()) facts.push_back(b.path);
      (op == Tok::Ne ? r.nnTrue : r.nnFalse) = facts;
      return r;
    }
    bool ok = (a.t.isIntegral() && b.t.isIntegral()) || sameType(a.t, b.t) || a.t.isError() || b.t.isError() ||
              (a.t.isRef() && b.t.isRef() && !commonType(a.t, b.t).isError());
    if (!ok || !a.t.hasValue() || !b.t.hasValue()) {
      error(opPos, std::string("cannot compare '") + a.t.str() + "' and '" + b.t.str() + "' with '" + txt + "'");
      return {con(0), SType::boolT()};
    }
    return {dataOp(op == Tok::Eq ? Op::EQ : Op::NE, a.n, b.n, opPos), SType::boolT()};
  }
  bool aWasError = a.t.isError();
  a = requireInt(a, opPos, txt);
  if (a.t.isError() && !aWasError) return {con(0), SType::error()};  // one error per operator
  b = requireInt(b, opPos, txt);
  if (a.t.isError() || b.t.isError()) return {con(0), SType::error()};
  switch (op) {
    case Tok::Lt: return {dataOp(Op::LT, a.n, b.n, opPos), SType::boolT()};
    case Tok::Le: return {dataOp(Op::LE, a.n, b.n, opPos), SType::boolT()};
    case Tok::Gt: return {dataOp(Op::LT, b.n, a.n, opPos), SType::boolT()};
    default: return {dataOp(Op::LE, b.n, a.n, opPos), SType::boolT()};
  }
}

Val Parser::mergeValues(Scope* a, Val va, Scope* b, Val vb, SType t) {
  if (!va.n) va.n = con(0);  // a valueless arm (already reported)
  if (!vb.n) vb.n = con(0);
  // A temporary variable, set on both arms, becomes the Phi of the merge.
  size_t nvars = syms().vars.size(), depth = syms().depth();
  syms().pushBlock();
  int idx = syms().define({"$value", t, false, nullptr, {}});
  a->bind(idx, va.n);
  b->bind(idx, vb.n);
  join(a, b);
  Node* r = scope()->get(idx);
  endBlock(nvars, depth);
  return {r, t};
}

Val Parser::parseExpr() {
  Nesting nest(*this);
  Val v = parseAssign();
  return v;
}

Val Parser::parseAssign() {
  if (at(Tok::Ident) && isAssignOp(peekTok().kind)) {
    Token name = tok();
    pos_++;
    Token op = tok();
    pos_++;
    if (op.kind != Tok::Assign) return compoundAssign(name, op.kind, op.pos());
    int idx = syms().find(name.text);
    SrcPos rhsPos = tok().pos();
    Nesting nest(*this);
    size_t rhsStart = pos_;
    Val v = parseAssign();
    checkSelfAssign(rhsStart - 2, rhsStart - 1, rhsStart, op.pos());
    v.form = ExprForm::Assign;
    int ext = externVarNamed(name.text);
    if (ext >= 0) {
      v = coerce(v, funTypes_[size_t(ext)], rhsPos);
      v.form = ExprForm::Assign;
      storeExternVar(ext, v, op.pos());
      return v;
    }
    if (idx < 0) {
      if (name.text == "sys" || topFuns_.count(name.text))
        error(op.pos(), "cannot assign to '" + name.text + "'");
      else
        error(name.pos(), "undefined name '" + name.text + "'" + didYouMean(name.text, namesInScope()));
      return v;
    }
    SType to = syms().vars[size_t(idx)].type;
    if (regainsWrite(v.t, to) && !syms().vars[size_t(idx)].immutable)
      error(op.pos(), "a read-only '" + v.t.str() + "' cannot be stored in mutable '" + name.text + "'");
    v = coerce(v, to, rhsPos);
    v.form = ExprForm::Assign;
    assignVar(name, idx, v, op.pos());
    return v;
  }
  size_t start = pos_;
  lastField_ = {};
  lastExternField_ = {};
  Val v = parseTernary();
  if (isAssignOp(tok().kind) && lastExternField_.ext >= 0 && lastExternField_.startTok == start &&
      lastExternField_.endTok == pos_) {
    // `sys.libc.errno = v`: an external variable reached through its type.
    int ext = lastExternField_.ext;
    Token op = tok();
    pos_++;
    Nesting nest(*this);
    SrcPos rhsPos = tok().pos();
    Val rhs = parseAssign();
    if (op.kind != Tok::Assign) {
      std::string opText = tokSpelling(op.kind);
      opText.pop_back();  // "+=" -> "+"
      rhs = arith(binaryOpFor(op.kind), v, rhs, op.pos(), opText.c_str());
      rhsPos = op.pos();
    }
    rhs = coerce(rhs, funTypes_[size_t(ext)], rhsPos);
    storeExternVar(ext, rhs, op.pos());
    return rhs;
  }
  if (isAssignOp(tok().kind)) {
    if (lastField_.strct && lastField_.startTok == start && lastField_.endTok == pos_) {
      Token op = tok();
      size_t opTok = pos_++;
      Val r = fieldAssign(op.kind, op.pos());
      if (op.kind == Tok::Assign) {
        checkSelfAssign(start, opTok, opTok + 1, op.pos());
        r.form = ExprForm::Assign;
      }
      return r;
    }
    if (!v.t.isError()) syntaxError(tok().pos(), "cannot assign to this expression");
    // The target was wrong (reported): still parse the value.
    pos_++;
    Nesting nest(*this);
    parseAssign();
    return {con(0), SType::error()};
  }
  return v;
}

void Parser::assignVar(const Token& name, int idx, Val v, SrcPos opPos) {
  const VarInfo& info = syms().vars[size_t(idx)];
  if (info.externVar >= 0) {
    storeExternVar(info.externVar, v, opPos);
    return;
  }
  if (info.field >= 0) {
    // A field named bare inside a method.
    fn_->usedSelf = fn_->wroteSelf = true;
    StructInfo* s = const_cast<StructInfo*>(fn_->selfStruct);
    emitStore(readVar(info.selfVar), *s, info.field, v, opPos);
    return;
  }
  if (info.immutable) {
    if (info.readonlyByBlock)
      error(opPos, "cannot assign to '" + name.text + "': a reference declared with an initializer in an inner block is immutable (use 'var' or '!" + name.text + "')");
    else
      error(opPos, "cannot assign to val '" + name.text + "'");
    return;
  }
  if (info.type.isNullTracked()) scope()->setMaybeNull(idx, v.t.kind == SType::Null || v.t.nullable);
  syms().vars[size_t(idx)].assigned = true;
  scope()->set(idx, v.n);
  noteVarAssigned(idx);
  debugAssign(idx, v.n);
}

Val Parser::compoundAssign(const Token& name, Tok op, SrcPos opPos) {
  int idx = syms().find(name.text);
  Val old = readName(name);
  Nesting nest(*this);
  Val rhs = parseAssign();
  std::string opText = tokSpelling(op);
  opText.pop_back();  // "+=" -> "+"
  Val v = arith(binaryOpFor(op), old, rhs, opPos, opText.c_str());
  if (int ext = externVarNamed(name.text); ext >= 0) {
    v = coerce(v, funTypes_[size_t(ext)], opPos);
    storeExternVar(ext, v, opPos);
    return v;
  }
  if (idx < 0) {
    if (!old.t.isError()) error(opPos, "cannot assign to '" + name.text + "'");
    return v;
  }
  v = coerce(v, syms().vars[size_t(idx)].type, opPos);
  assignVar(name, idx, v, opPos);
  return v;
}

Val Parser::incDec(bool prefix, bool inc, const Token& name, SrcPos opPos) {
  int idx = syms().find(name.text);
  Val old = readName(name);
  Val one{con(1), SType::intT()};
  Val v = arith(inc ? Op::Add : Op::Sub, old, one, opPos, inc ? "++" : "--");
  if (int ext = externVarNamed(name.text); ext >= 0) {
    v = coerce(v, funTypes_[size_t(ext)], opPos);
    storeExternVar(ext, v, opPos);
    return prefix ? v : old;
  }
  if (idx < 0) {
    if (!old.t.isError()) error(opPos, "cannot assign to '" + name.text + "'");
    return v;
  }
  v = coerce(v, syms().vars[size_t(idx)].type, opPos);
  assignVar(name, idx, v, opPos);
  old.path = {};  // the value before: no longer what the variable holds
  return prefix ? v : old;
}

Val Parser::parseTernary() {
  SrcPos cpos = tok().pos();
  Val c = parseLogical();
  if (!at(Tok::Question)) return c;
  SrcPos qpos = tok().pos();
  pos_++;
  c = condition(testOnly(c), cpos);
  Scope* fScope = branch(c.n, qpos);
  applyFacts(scope(), c.nnTrue);
  applyFacts(fScope, c.nnFalse);
  Nesting nest(*this);
  Val a = parseTernary();
  Scope* tScope = scope();
  fn_->scope = fScope;
  Val b;
  if (accept(Tok::Colon)) {
    b = parseTernary();
  } else if (a.t.isNumeric() || a.t.isError()) {
    b = zeroOf(a.t);  // `c ? a` yields a or zero
  } else if (a.t.kind == SType::Struct || a.t.kind == SType::Array) {
    b = nullValue();    // ... or null
  } else {
    error(qpos, "'?' without ':' needs an integer value, found '" + a.t.str() + "'");
    b = a;
  }
  fScope = scope();
  SType t = commonType(a.t, b.t);
  bool ok = (a.t.isNumeric() && b.t.isNumeric()) || sameType(a.t, b.t) || a.t.isError() || b.t.isError() ||
            !t.isError();
  if (!ok || !a.t.hasValue() || !b.t.hasValue()) {
    error(qpos, "the arms of '?' have no common type: '" + a.t.str() + "' and '" + b.t.str() + "'");
    t = SType::error();
  } else if (t.isFloat()) {
    // An integer arm widens (a pure node: where it is made does not matter).
    a = widenToFloat(a);
    b = widenToFloat(b);
  }
  return mergeValues(tScope, a, fScope, b, t);
}

Val Parser::parseBitwise() {
  Val a = parseEquality();
  while (at(Tok::Amp) || at(Tok::Pipe) || at(Tok::Caret)) {
    Token op = tok();
    pos_++;
    Val b = parseEquality();
    checkBitwise(a, b, op);
    a = arith(binaryOpFor(op.kind), std::move(a), std::move(b), op.pos(), tokSpelling(op.kind));
  }
  return a;
}

Val Parser::parseEquality() {
  Val a = parseRelational();
  while (at(Tok::Eq) || at(Tok::Ne)) {
    Token op = tok();
    pos_++;
    uint64_t events = factEvents_;
    Val b = parseRelational();
    if (factEvents_ != events) a.path = {};  // `p == f()`: p's test would come too late
    a = compare(op.kind, std::move(a), std::move(b), op.pos());
    a.form = ExprForm::Compare;
  }
  return a;
}

Val Parser::parseRelational() {
  Val left = parseShift();
  if (!isRelOpTok(tok().kind)) return left;
  Token op = tok();
  pos_++;
  Val mid = parseShift();
  Val res = compare(op.kind, left, mid, op.pos());
  res.form = ExprForm::Compare;
  if (!isRelOpTok(tok().kind)) return res;
  Val chain = chainRest(res, mid, op.kind == Tok::Lt || op.kind == Tok::Le);
  chain.form = ExprForm::Compare;
  return chain;
}

// lo <= x < hi: x is evaluated once, and each later comparison runs only
// where the earlier ones held, so the rest of the chain nests inside the true
// arm (the middle operand is only defined there).
Val Parser::chainRest(Val sofar, Val mid, bool less) {
  Token op = tok();
  bool less2 = op.kind == Tok::Lt || op.kind == Tok::Le;
  if (less2 != less) error(op.pos(), "comparison chain mixes '<' and '>' directions");
  pos_++;
  Scope* skip = branch(sofar.n, op.pos());
  Nesting nest(*this);
  Val right = parseShift();
  Val c = compare(op.kind, mid, right, op.pos());
  if (isRelOpTok(tok().kind)) c = chainRest(c, right, less);
  return mergeValues(scope(), c, skip, Val{con(0), SType::boolT()}, SType::boolT());
}

Val Parser::parseShift() {
  Val a = parseAdditive();
  while (at(Tok::Shl) || at(Tok::Sar) || at(Tok::Shr)) {
    Token op = tok();
    pos_++;
    Val b = parseAdditive();
    a = arith(binaryOpFor(op.kind), std::move(a), std::move(b), op.pos(), tokSpelling(op.kind));
  }
  return a;
}

Val Parser::parseAdditive() {
  Val a = parseMultiplicative();
  while (at(Tok::Plus) || at(Tok::Minus)) {
    Token op = tok();
    pos_++;
    Val b = parseMultiplicative();
    a = arith(binaryOpFor(op.kind), std::move(a), std::move(b), op.pos(), tokSpelling(op.kind));
  }
  return a;
}

Val Parser::parseMultiplicative() {
  Val a = parseUnary();
  while (at(Tok::Star) || at(Tok::Slash) || at(Tok::Percent)) {
    Token op = tok();
    pos_++;
    Val b = parseUnary();
    a = arith(binaryOpFor(op.kind), std::move(a), std::move(b), op.pos(), tokSpelling(op.kind));
  }
  return a;
}

Val Parser::parseUnary() {
  Nesting nest(*this);
  Token op = tok();
  switch (op.kind) {
    case Tok::Minus:
      pos_++;
      return parseNegation(op.pos());
    case Tok::Bang: {
      pos_++;
      SrcPos vpos = tok().pos();
      Val v = condition(testOnly(parseUnary()), vpos);
      Val r{dataOp(Op::Not, v.n, nullptr, op.pos()), SType::boolT()};
      r.nnTrue = v.nnFalse;
      r.nnFalse = v.nnTrue;
      return r;
    }
    case Tok::PlusPlus:
    case Tok::MinusMinus: {
      if (op.kind == Tok::MinusMinus && !namesNumericVar(pos_ + 1)) return parseDoubleMinus();
      pos_++;
      if (!at(Tok::Ident)) syntaxError(tok().pos(), std::string("'") + tokSpelling(op.kind) + "' needs a variable");
      if (peekTok().kind == Tok::Dot || peekTok().kind == Tok::LParen) {
        // ++s.f: the target is a field.
        size_t start = pos_;
        lastField_ = {};
        Val v = parsePrimary();
        while (at(Tok::Dot) || at(Tok::LParen)) {
          if (at(Tok::LParen)) {
            v = parseCall(v, tok().pos());
            lastField_ = {};
          } else {
            SrcPos dot = tok().pos();
            pos_++;
            v = fieldAccess(v, dot, start);
          }
        }
        if (lastField_.strct && lastField_.startTok == start && lastField_.endTok == pos_)
          return fieldIncDec(op.kind == Tok::PlusPlus, op.pos(), true);
        if (!v.t.isError()) error(op.pos(), std::string("'") + tokSpelling(op.kind) + "' needs a variable");
        return {con(0), SType::error()};
      }
      Token name = tok();
      pos_++;
      return incDec(true, op.kind == Tok::PlusPlus, name, op.pos());
    }
    default: return parsePostfix();
  }
}

Val Parser::negate(Val v, SrcPos minusPos) {
  if (v.t.isFloat()) return {dataOp(Op::FNeg, v.n, nullptr, minusPos), SType::floatT(64)};
  v = requireInt(v, minusPos, "-");
  return {dataOp(Op::Neg, v.n, nullptr, minusPos), v.t.isError() ? v.t : SType::intT()};
}

// The operand of a unary minus at minusPos, negated.
Val Parser::parseNegation(SrcPos minusPos) {
  if (at(Tok::IntLit) && !tok().isHex) return parseIntLiteral(true);
  return negate(parseUnary(), minusPos);
}

// A `--` that is no decrement is two minuses. Simple reads characters, so
// the second '-' and a '-' right after it make a `--` again: `---x` is
// `-(--x)` when x is a numeric variable, `-(-(-x))` otherwise.
Val Parser::parseDoubleMinus() {
  Token mm = tok();
  pos_++;
  SrcPos second = mm.pos();
  second.col++;
  bool joined = at(Tok::Minus) && tok().pos().line == endOf(mm).line && tok().pos().col == endOf(mm).col;
  Val inner;
  if (joined && namesNumericVar(pos_ + 1)) {
    pos_++;
    Token name = tok();
    pos_++;
    inner = incDec(true, false, name, second);
  } else {
    inner = parseNegation(second);
  }
  return negate(inner, mm.pos());
}

// Token i names a numeric variable: `--` before it decrements it. Names are
// looked up as readName does (this function's, then enclosing constants).
bool Parser::namesNumericVar(size_t i) {
  if (i >= toks_.size() || toks_[i].kind != Tok::Ident) return false;
  for (FunCtx* c = fn_; c; c = c->outer) {
    int j = c->symbols.find(toks_[i].text);
    if (j >= 0) return c->symbols.vars[size_t(j)].type.isNumeric();
  }
  return false;
}

Val Parser::parsePostfix() {
  if (at(Tok::Ident) && (peekTok().kind == Tok::PlusPlus || peekTok().kind == Tok::MinusMinus)) {
    Token name = tok();
    pos_++;
    Token op = tok();
    pos_++;
    return incDec(false, op.kind == Tok::PlusPlus, name, op.pos());
  }
  size_t start = pos_;
  Val v = parsePrimary();
  bool isField = false;
  for (;;) {
    if (at(Tok::LParen)) {
      v = parseCall(v, tok().pos());
      isField = false;
    } else if (at(Tok::LBracket)) {
      Nesting nest(*this);
      v = parseIndex(v);
      isField = false;
    } else if (at(Tok::Hash)) {
      v = parseLength(v);
      isField = false;
    } else if (at(Tok::Dot)) {
      SrcPos dot = tok().pos();
      pos_++;
      v = fieldAccess(v, dot, start);
      isField = lastField_.strct != nullptr;
    } else {
      break;
    }
  }
  if (at(Tok::PlusPlus) || at(Tok::MinusMinus)) {
    if (isField) {
      Token op = tok();
      pos_++;
      return fieldIncDec(op.kind == Tok::PlusPlus, op.pos());
    }
    if (!v.t.isError()) syntaxError(tok().pos(), std::string("'") + tokSpelling(tok().kind) + "' needs a variable");
    pos_++;
  }
  return v;
}

Val Parser::parseIntLiteral(bool negated) {
  const Token& t = tok();
  pos_++;
  uint64_t v = intLiteralValue(t);
  constexpr uint64_t kMinMagnitude = uint64_t(1) << 63;
  bool tooLarge = t.intTooLarge || (!t.isHex && (negated ? v > kMinMagnitude : v >= kMinMagnitude));
  if (tooLarge) {
    error(t.pos(), "integer literal too large");
    return {con(0), SType::intT()};
  }
  int64_t x = int64_t(v);
  if (negated) x = int64_t(0 - v);
  Val r{con(x), SType::intT()};
  if (negated && t.isHex) r.n = dataOp(Op::Neg, r.n);
  return literal(r);
}

Val Parser::readName(const Token& name) {
  if (constInit_.active) return readNameInConstant(name);
  int idx = syms().find(name.text);
  if (idx >= 0) {
    syms().vars[size_t(idx)].read = true;
    const VarInfo& info = syms().vars[size_t(idx)];
    if (info.externVar >= 0) return loadExternVar(info.externVar, name.pos());
    if (info.field >= 0) {
      // A field named bare inside a method.
      fn_->usedSelf = true;
      StructInfo* s = const_cast<StructInfo*>(fn_->selfStruct);
      Val self = readVar(info.selfVar);
      return fromPath(emitLoad(self, *s, info.field, name.pos()), fieldPath(self, *s, info.field));
    }
    if (info.name == "self" && fn_->selfStruct) fn_->usedSelf = true;
    if ((info.type.kind == SType::Struct || info.type.kind == SType::Array) && !info.type.nullable &&
        scope()->maybeNull(idx)) {
      error(name.pos(), "'" + name.text + "' might not be initialized");
      return {nullCon(), SType::error()};
    }
    return readVar(idx);
  }
  // A method sees its struct's constants bare; enclosing functions show
  // only their constants (functions are not closures).
  for (FunCtx* c = fn_; c; c = c->outer) {
    if (int j = c == fn_ ? -1 : c->symbols.find(name.text); j >= 0) {
      c->symbols.vars[size_t(j)].read = true;
      const VarInfo& v = c->symbols.vars[size_t(j)];
      if (v.constValue) return {conOf(v.constValue), v.type};
      if (v.externVar >= 0) return loadExternVar(v.externVar, name.pos());
      error(name.pos(), "'" + name.text + "' of an enclosing function is not a constant and cannot be used here");
      return {con(0), SType::error()};
    }
    Val k;
    if (c->selfStruct && bareStructConstant(*const_cast<StructInfo*>(c->selfStruct), name, &k)) return k;
  }
  if (topFuns_.count(name.text)) return topFunValue(name.text, name.pos());
  Val later;
  if (laterTopConstant(name, &later)) return later;
  error(name.pos(), "undefined name '" + name.text + "'" + didYouMean(name.text, namesInScope()));
  return {con(0), SType::error()};
}

Val Parser::parsePrimary() {
  const Token& t = tok();
  switch (t.kind) {
    case Tok::IntLit: return parseIntLiteral(false);
    case Tok::CharLit: pos_++; return literal({con(int64_t(charLiteralValue(t))), SType::intT()});
    case Tok::KwTrue: pos_++; return literal({con(1), SType::boolT()});
    case Tok::KwFalse: pos_++; return literal({con(0), SType::boolT()});
    case Tok::LParen: {
      size_t open = pos_++;
      Val v = parseExpr();
      expect(Tok::RParen, open);
      if (v.form == ExprForm::Assign) v.form = ExprForm::Other;  // `if ((x = 4))`: meant
      return v;
    }
    case Tok::StrLit: {
      // A constant u8[~] in read-only data: its length, then its bytes.
      pos_++;
      auto [it, added] = stringIndex_.emplace(t.text, int(u_.strings.size()));
      if (added) u_.strings.push_back(t.text);
      int idx = it->second;
      return {conOf(Type::dataPtr(idx)), SType::strT()};
    }
    case Tok::KwNull: pos_++; return nullValue();
    case Tok::KwNew: return parseNew();
    case Tok::LBrace: {
      auto it = topFunAt_.find(pos_);
      if (it != topFunAt_.end()) {
        std::string name = it->second;
        size_t open = pos_;
        Val v = topFunValue(name, t.pos());
        TopFun& tf = topFuns_[name];
        if (tf.parsing)
          skipPastBrace(open);  // met again inside itself (error recovery): its end is not known yet
        else
          pos_ = tf.endPos;  // parsed already (maybe on demand)
        return v;
      }
      return parseFunLiteral("lambda");
    }
    case Tok::Ident:
      if (t.text == "sys" && syms().find("sys") < 0) return parseSys();
      if (syms().find(t.text) < 0) {
        size_t end = 0;
        if (StructInfo* s = structNameAt(pos_, &end)) {
          size_t start = pos_;
          pos_ = end;
          return typeMember(s, t.pos(), start);
        }
      }
      pos_++;
      if (at(Tok::LParen) && syms().find(t.text) < 0)
        if (FieldInfo* m = selfMethodNamed(t.text)) return bareMethodCall(*m);
      {
        Val v = readName(toks_[pos_ - 1]);
        // A C function used as a value goes through a thunk of ours, so every
        // indirect call reaches a function of ours.
        if (!at(Tok::LParen) && callsExtern(v.n)) v.n = externThunk(v.n->type->fun());
        return v;
      }
    case Tok::FloatLit: pos_++; return literal({fcon(floatLiteralValue(t)), SType::floatT(64)});
    case Tok::TypeName:
      if (peekTok().kind == Tok::LParen) return parseConversion();
      syntaxError(t.pos(), "expected expression");
    default: syntaxError(t.pos(), "expected expression");
  }
}

}  // namespace simplec
