// The parser's entry, token helpers, and statements.
//   program   = statement* EOF
//   statement = block | if | while | for | break | continue | return
//             | declaration | expr ';' | ';'
#include "parser/parser.h"

#include <algorithm>

#include "lexer/lexer.h"
#include "parser/parser_impl.h"
#include "son/verify.h"

namespace simplec {

namespace {
// Runs a cleanup when the enclosing block is left, normally or by exception.
template <class F>
struct OnExit {
  F f;
  ~OnExit() { f(); }
};
template <class F>
OnExit(F) -> OnExit<F>;
}  // namespace

bool parseFile(const SourceFile& file, DiagEngine& diag, Graph& g) {
  // A recursive function's result type is needed at its recursive calls
  // before its body is finished. The parser assumes one; when an assumption
  // proves wrong, the file is parsed again with what was learnt (each round
  // only widens a type, so this ends quickly).
  Parser::RetHints hints;
  for (int round = 0;; round++) {
    g.reset();
    diag.hold();
    Parser p(file, diag, g, hints);
    bool ok = p.parseFile();
    Parser::RetHints failed;
    bool held = p.assumptionsHeld(&failed);
    if (held || round == 4) {
      // Still changing after several rounds: the type grows without end
      // (a function returning itself).
      if (!held) p.reportUnresolvedRecursion(failed);
      diag.release();
      return ok && held && !diag.hasErrors();
    }
    diag.discard();
    for (auto& [name, t] : failed) hints[name] = t;
  }
}

Parser::Parser(const SourceFile& file, DiagEngine& diag, Graph& g, const RetHints& hints)
    : file_(file), diag_(diag), hints_(hints), g_(g), peep_(g), scopes_(g, peep_) {}

void Parser::reportUnresolvedRecursion(const RetHints& failed) {
  std::vector<std::pair<SrcPos, std::string>> where;
  for (const auto& [name, tf] : topFuns_)
    if (failed.count(name) && tf.funIdx >= 0) where.push_back({g_.funs[size_t(tf.funIdx)].pos, name});
  std::sort(where.begin(), where.end(), [](auto& a, auto& b) {
    return a.first.line != b.first.line ? a.first.line < b.first.line : a.first.col < b.first.col;
  });
  for (auto& [pos, name] : where) error(pos, "cannot infer the result type of recursive function '" + name + "'");
}

bool Parser::assumptionsHeld(RetHints* learnt) const {
  bool held = true;
  for (const auto& [name, tf] : topFuns_) {
    if (!tf.retAssumed || tf.funIdx < 0) continue;
    const SType& actual = funTypes_[size_t(tf.funIdx)].sig->ret;
    // A result that is itself an error teaches nothing: keep the assumption.
    if (actual.isError()) continue;
    if (tf.assumptionsDiffer || !sameType(tf.assumedRet, actual)) {
      held = false;
      (*learnt)[name] = actual;
    }
  }
  return held;
}

// ---------------------------------------------------------------- tokens

const Token& Parser::peekTok(size_t k) const {
  size_t i = pos_ + k;
  return i < toks_.size() ? toks_[i] : toks_.back();
}

bool Parser::accept(Tok k) {
  if (!at(k)) return false;
  if (!at(Tok::Eof)) pos_++;
  return true;
}

void Parser::expect(Tok k) {
  if (accept(k)) return;
  // At the end of the file one "expected" is enough: everything still open
  // would report its own.
  if (at(Tok::Eof) && eofReported_) throw SyntaxError{};
  if (at(Tok::Eof)) eofReported_ = true;
  // A missing token is reported just past the previous one.
  SrcPos p = pos_ ? prevTok().endPos : tok().pos;
  syntaxError(p, "expected " + tokDescription(k));
}

void Parser::skipPastBrace(size_t open) {
  // From the '{' at `open` to just past its matching '}' (or the end).
  int depth = 0;
  for (pos_ = open; !at(Tok::Eof); pos_++) {
    if (at(Tok::LBrace)) depth++;
    if (at(Tok::RBrace) && --depth == 0) {
      pos_++;
      return;
    }
  }
}

void Parser::error(SrcPos pos, const std::string& msg) { diag_.error(file_, pos, msg); }

void Parser::syntaxError(SrcPos pos, const std::string& msg) {
  error(pos, msg);
  throw SyntaxError{};
}

void Parser::syncStatement() {
  // Skip to just after the next ';' or to the next '}' of this nesting level.
  int depth = 0;
  while (!at(Tok::Eof)) {
    if (at(Tok::LBrace) || at(Tok::LParen) || at(Tok::LBracket)) depth++;
    if (at(Tok::RBrace) || at(Tok::RParen) || at(Tok::RBracket)) {
      if (depth == 0) {
        if (at(Tok::RBrace)) return;
      } else {
        depth--;
      }
    }
    if (at(Tok::Semi) && depth == 0) {
      pos_++;
      return;
    }
    pos_++;
  }
}

void Parser::enterNesting() {
  if (++depth_ > kMaxDepth) {
    error(tok().pos, "nesting too deep");
    throw ParseAbort{};
  }
}

// ---------------------------------------------------------------- nodes

Node* Parser::mk(Op op, std::vector<Node*> ins, const Type* t, int64_t aux) {
  if (g_.size() > g_.nodeLimit) {
    error(tok().pos, "program too large");
    throw ParseAbort{};
  }
  return g_.make(op, ins, t, aux);
}

Node* Parser::con(int64_t v) { return peep(mk(Op::Con, {g_.start()}, Type::intConst(v))); }

Node* Parser::dataOp(Op op, Node* a, Node* b, SrcPos pos) {
  Node* n = mk(op, b ? std::vector<Node*>{nullptr, a, b} : std::vector<Node*>{nullptr, a});
  n->pos = pos;
  Node* x = peep(n);
  if (x != n) g_.killIfUnused(n);
  return x;
}

// ---------------------------------------------------------------- file

bool Parser::parseFile() {
  toks_ = tokenize(file_, diag_);
  g_.deferKills = true;
  try {
    preDeclareTopFunctions();
    // The script body is the function `main` taking `arg`.
    mainFun_ = newFunction("main", SrcPos{1, 1});
    FunCtx ctx;
    ctx.funIdx = mainFun_;
    Node* fun = g_.funs[size_t(mainFun_)].fun;
    Node* mem = nullptr;
    for (Node* u : fun->out)
      if (u->op == Op::Parm && u->aux < 0) mem = u;
    ctx.scope = scopes_.fresh(fun, mem);
    Node* argParm = peep(mk(Op::Parm, {fun}, Type::intBot(), 0));
    ctx.scope->define({"arg", SType::intT(), false, nullptr, SrcPos{1, 1}}, argParm);
    g_.funs[size_t(mainFun_)].paramTypes = {Type::intBot()};
    funTypes_[size_t(mainFun_)] = SType::fun({SType::intT()}, SType::intT());
    fn_ = mainCtx_ = &ctx;
    topLevel_ = true;
    while (!at(Tok::Eof)) {
      if (at(Tok::RBrace)) {
        error(tok().pos, "unexpected '}'");
        pos_++;
        continue;
      }
      parseStatement();
    }
    topLevel_ = false;
    // Script form: the top level returns, or at least does something
    // (calls, control flow); then falling off its end returns 0.
    bool script = ctx.numReturns() != 0 || ctx.scope->ctrl() != fun || ctx.scope->mem() != mem;
    FunInfo& mainInfo = g_.funs[size_t(mainFun_)];
    if (script && valMainFun_ >= 0) {
      error(valMainPos_, "a program cannot have both top-level statements and 'val main'");
    }
    if (script) {
      if (!deadCode()) addReturn({con(0), SType::intT()}, tok().pos);
      finishFunction(ctx, tok().pos, true);
      mainInfo.isEntry = mainInfo.isGlobal = true;
      mainInfo.symbol = "main";
    } else {
      scopes_.kill(ctx.scope);
      mainInfo.fun = nullptr;  // no script body: the unit is a library or uses `val main`
      mainInfo.isExtern = false;
      if (valMainFun_ >= 0) {
        FunInfo& m = g_.funs[size_t(valMainFun_)];
        m.isEntry = m.isGlobal = true;
        m.symbol = "main";
      } else {
        for (auto& [name, tf] : topFuns_)
          if (tf.funIdx >= 0) g_.funs[size_t(tf.funIdx)].isGlobal = true;
      }
    }
    fn_ = nullptr;
  } catch (SyntaxError&) {
    // Reported already; a syntax error outside any statement ends parsing.
  } catch (ParseAbort&) {
  } catch (InternalError&) {
    // An invariant broken while recovering from reported errors is not a
    // compiler bug worth an ICE: the user has diagnostics to act on.
    if (!diag_.hasErrors()) throw;
  }
  g_.deferKills = false;
  if (diag_.hasErrors()) return false;
  // Scope nodes are gone; drop everything they alone kept alive.
  sweepUnreachable(g_);
  return true;
}

// ---------------------------------------------------------------- statements

void Parser::parseStatement() {
  enterNesting();
  OnExit leave{[this] { leaveNesting(); }};
  bool isExpr = false;
  Val exprVal;
  try {
    switch (tok().kind) {
      case Tok::LBrace:
        if (isFunTypeAt(pos_)) {
          parseDeclaration();
        } else {
          parseBlock();
        }
        break;
      case Tok::KwIf: parseIf(); break;
      case Tok::KwWhile: parseWhile(); break;
      case Tok::KwFor: parseFor(); break;
      case Tok::KwBreak: parseBreakContinue(true); break;
      case Tok::KwContinue: parseBreakContinue(false); break;
      case Tok::KwReturn: parseReturn(); break;
      case Tok::Semi: pos_++; break;
      case Tok::KwStruct: {
        error(tok().pos, "'struct' is not supported yet");
        while (!at(Tok::Eof) && !at(Tok::LBrace) && !at(Tok::Semi)) pos_++;
        if (at(Tok::LBrace)) skipPastBrace(pos_);
        accept(Tok::Semi);
        break;
      }
      default:
        if (atDeclaration()) {
          parseDeclaration();
          break;
        }
        exprVal = parseExpr();
        // The final ';' of a function body may be left out.
        if (!at(Tok::RBrace)) expect(Tok::Semi);
        isExpr = true;
        break;
    }
  } catch (SyntaxError&) {
    syncStatement();
  }
  fn_->lastWasExpr = isExpr;
  fn_->lastExpr = exprVal;
}

//   block = '{' statement* '}'
void Parser::parseBlock() {
  expect(Tok::LBrace);
  size_t nvars = scope()->vars.size(), depth = scope()->depth();
  scope()->pushBlock();
  {
    // The current scope may be replaced inside (loops, ifs), but every
    // replacement starts with the same variables, so cutting back works.
    OnExit pop{[this, nvars, depth] { scope()->truncate(nvars, depth); }};
    while (!at(Tok::RBrace) && !at(Tok::Eof)) parseStatement();
  }
  expect(Tok::RBrace);
}

Scope* Parser::branch(Node* cond, SrcPos pos) {
  Node* iff = mk(Op::If, {ctrl(), cond}, nullptr);
  iff->pos = pos;
  iff = peep(iff);
  iff->keep++;
  Node* t = peep(mk(Op::CProj, {iff}, nullptr, 0));
  Node* f = peep(mk(Op::CProj, {iff}, nullptr, 1));
  iff->keep--;
  Scope* other = scopes_.dup(scope(), false);
  other->setCtrl(f);
  setCtrl(t);
  g_.killIfUnused(iff);
  return other;
}

//   if = 'if' '(' expr ')' statement ['else' statement]
void Parser::parseIf() {
  SrcPos ifPos = tok().pos;
  pos_++;
  expect(Tok::LParen);
  SrcPos cpos = tok().pos;
  Val c = condition(parseExpr(), cpos);
  expect(Tok::RParen);
  Scope* fScope = branch(c.n, ifPos);
  size_t nslots = scope()->numSlots();
  if (atDeclaration()) error(tok().pos, "cannot define a new name on one arm of an if");
  parseStatement();
  Scope* tScope = scope();
  fn_->scope = fScope;
  if (accept(Tok::KwElse)) {
    if (atDeclaration()) error(tok().pos, "cannot define a new name on one arm of an if");
    parseStatement();
    fScope = scope();
  }
  fn_->scope = tScope;
  // Names declared by a (reported) bad arm are dropped before merging.
  if (tScope->numSlots() != nslots) tScope->truncate(nslots - Scope::kFirstVar, tScope->depth());
  if (fScope->numSlots() != nslots) fScope->truncate(nslots - Scope::kFirstVar, fScope->depth());
  scopes_.merge(tScope, fScope);
}

Parser::LoopSave Parser::beginLoopCtx(Scope* breakScope) {
  LoopSave s{fn_->breakScope, fn_->continueScope, fn_->loopVars, fn_->loopBlocks, fn_->inLoop};
  fn_->breakScope = breakScope;
  fn_->continueScope = nullptr;
  fn_->loopVars = breakScope->vars.size();
  fn_->loopBlocks = breakScope->depth();
  fn_->inLoop = true;
  return s;
}

void Parser::endLoopCtx(const LoopSave& s) {
  fn_->breakScope = s.br;
  fn_->continueScope = s.co;
  fn_->loopVars = s.vars;
  fn_->loopBlocks = s.blocks;
  fn_->inLoop = s.in;
}

//   while = 'while' '(' expr ')' statement
void Parser::parseWhile() {
  SrcPos wpos = tok().pos;
  pos_++;
  Node* loop = peep(mk(Op::Loop, {nullptr, ctrl(), nullptr}, Type::ctrl()));
  setCtrl(loop);
  Scope* head = scope();
  head->node->keep++;
  fn_->scope = scopes_.dup(head, true);
  expect(Tok::LParen);
  SrcPos cpos = tok().pos;
  Val c = condition(parseExpr(), cpos);
  expect(Tok::RParen);
  Scope* exit = branch(c.n, wpos);
  LoopSave save = beginLoopCtx(exit);
  {
    OnExit restore{[this, save] { endLoopCtx(save); }};
    parseStatement();
    if (fn_->continueScope) fn_->scope = jumpTo(fn_->continueScope);
  }
  closeLoop(head, exit);
}

void Parser::closeLoop(Scope* head, Scope* exit) {
  Scope* back = scope();
  back->truncate(head->vars.size(), head->depth());
  bool endless = exit->ctrl()->type->kind() == TKind::XCtrl && back->ctrl()->type->kind() != TKind::XCtrl;
  if (endless) {
    // Nothing leaves this loop: give it an exit that is never taken, so the
    // loop stays reachable from the function's Return (and from Stop).
    Node* never = peep(mk(Op::Never, {back->ctrl()}, nullptr));
    Node* out = peep(mk(Op::CProj, {never}, nullptr, 0));
    Node* stay = peep(mk(Op::CProj, {never}, nullptr, 1));
    addReturnPath(out, back->mem(), con(0));
    back->setCtrl(stay);
  }
  scopes_.endLoop(head, back, exit);
  head->node->keep--;
  scopes_.kill(head);
  fn_->scope = exit;
}

//   for = 'for' '(' [declaration | expr] ';' [expr] ';' [expr] ')' statement
void Parser::parseFor() {
  SrcPos fpos = tok().pos;
  pos_++;
  expect(Tok::LParen);
  size_t outerVars = scope()->vars.size(), outerDepth = scope()->depth();
  scope()->pushBlock();
  if (atDeclaration()) {
    parseDeclaration();
  } else {
    if (!at(Tok::Semi)) parseExpr();
    expect(Tok::Semi);
  }
  Node* loop = peep(mk(Op::Loop, {nullptr, ctrl(), nullptr}, Type::ctrl()));
  setCtrl(loop);
  Scope* head = scope();
  head->node->keep++;
  fn_->scope = scopes_.dup(head, true);
  SrcPos cpos = tok().pos;
  Val c = at(Tok::Semi) ? Val{con(1), SType::boolT()} : condition(parseExpr(), cpos);
  expect(Tok::Semi);
  // The step is parsed after the body, where it runs; remember where it is.
  size_t stepPos = pos_;
  int parens = 0;
  while (!at(Tok::Eof) && !(parens == 0 && at(Tok::RParen))) {
    if (at(Tok::LParen)) parens++;
    if (at(Tok::RParen)) parens--;
    pos_++;
  }
  expect(Tok::RParen);
  Scope* exit = branch(c.n, fpos);
  LoopSave save = beginLoopCtx(exit);
  {
    OnExit restore{[this, save] { endLoopCtx(save); }};
    parseStatement();
    if (fn_->continueScope) fn_->scope = jumpTo(fn_->continueScope);
  }
  size_t bodyEnd = pos_;
  pos_ = stepPos;
  try {
    if (!at(Tok::RParen)) parseExpr();
    if (!at(Tok::RParen)) syntaxError(tok().pos, "expected ')'");
  } catch (SyntaxError&) {
  }
  pos_ = bodyEnd;
  closeLoop(head, exit);
  exit->truncate(outerVars, outerDepth);
}

// A copy of the current scope, cut back to the loop's shape, merged into
// `target` (or becoming it when it does not exist yet). Control here dies.
Scope* Parser::jumpTo(Scope* target) {
  Scope* cur = scopes_.dup(scope(), false);
  setCtrl(scopes_.deadCtrl());
  cur->truncate(fn_->loopVars, fn_->loopBlocks);
  if (!target) return cur;
  scopes_.merge(target, cur);
  return target;
}

//   break = 'break' ';'      continue = 'continue' ';'
void Parser::parseBreakContinue(bool isBreak) {
  SrcPos p = tok().pos;
  pos_++;
  if (!fn_->inLoop) {
    error(p, std::string("'") + (isBreak ? "break" : "continue") + "' outside of a loop");
  } else if (isBreak) {
    jumpTo(fn_->breakScope);
  } else {
    fn_->continueScope = jumpTo(fn_->continueScope);
  }
  expect(Tok::Semi);
}

//   return = 'return' [expr] ';'
void Parser::parseReturn() {
  SrcPos p = tok().pos;
  pos_++;
  Val v{nullptr, SType::voidT()};
  if (!at(Tok::Semi) && !at(Tok::RBrace)) {
    p = tok().pos;  // type errors point at the returned value
    v = parseExpr();
  }
  if (!at(Tok::RBrace)) expect(Tok::Semi);
  addReturn(v, p);
}

// ---------------------------------------------------------------- declarations

size_t Parser::skipType(size_t p, int depth) const {
  // Returns the index past a type starting at p, or 0 if there is none.
  if (p >= toks_.size() || depth > 64) return 0;
  if (toks_[p].kind == Tok::TypeName) {
    p++;
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
  while (p < toks_.size() && toks_[p].kind == Tok::Question) p++;
  return p;
}

bool Parser::isFunTypeAt(size_t p) const {
  if (p >= toks_.size() || toks_[p].kind != Tok::LBrace) return false;
  size_t q = skipType(p);
  return q && q < toks_.size() && toks_[q].kind == Tok::Ident;
}

bool Parser::atDeclaration() {
  switch (tok().kind) {
    case Tok::KwVar:
    case Tok::KwVal: return true;
    case Tok::TypeName: return peekTok().kind != Tok::LParen;  // int(x) is a conversion
    case Tok::LBrace: return isFunTypeAt(pos_);
    default: return false;
  }
}

//   type = typename | '{' type* '->' [type] '}'
SType Parser::parseType() {
  enterNesting();
  OnExit leave{[this] { leaveNesting(); }};
  SType t;
  if (at(Tok::TypeName)) {
    const std::string& n = tok().text;
    if (n == "int" || n == "i64") {
      t = SType::intT();
    } else if (n == "bool" || n == "u1") {
      t = SType::boolT();
    } else {
      error(tok().pos, "type '" + n + "' is not supported yet");
      t = SType::intT();
    }
    pos_++;
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
    syntaxError(tok().pos, "expected a type");
  }
  if (at(Tok::Question)) {
    error(tok().pos, "nullable types are not supported yet");
    pos_++;
  }
  return t;
}

//   declaration = ('var' | 'val' | type) name ['=' expr] {',' name ['=' expr]} ';'
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
      syntaxError(tok().pos, "'" + tok().text + "' cannot be used as a name");
    }
    if (!at(Tok::Ident)) syntaxError(tok().pos, "expected a name");
    Token name = tok();
    if (name.text == "sys") error(name.pos, "'sys' cannot be redefined");
    pos_++;
    Val v;
    SrcPos initPos = tok().pos;
    if (accept(Tok::Assign)) {
      initPos = tok().pos;
      // A top-level `val main = {...}` is the function-form entry.
      bool isMain = topLevel_ && isVal && name.text == "main" && at(Tok::LBrace) && fn_ == mainCtx_;
      try {
        v = parseExpr();
      } catch (SyntaxError&) {
        // Define the name anyway, so later uses do not pile up errors.
        if (!scope()->definedInInnermost(name.text))
          scope()->define({name.text, SType::error(), false, nullptr, name.pos}, con(0));
        throw;
      }
      if (isMain && v.t.kind == SType::Fun && v.n->isConst()) {
        if (valMainFun_ >= 0) error(name.pos, "redefinition of 'main'");
        valMainFun_ = v.n->type->fun();
        valMainPos_ = name.pos;
      }
      if (!v.t.hasValue()) {
        error(initPos, "expression has no value");
        v = {con(0), SType::error()};
      }
    } else if (isVar || isVal) {
      error(name.endPos, std::string("'") + (isVar ? "var" : "val") + "' needs an initializer");
      v = {con(0), SType::error()};
    } else if (declared.kind == SType::Fun) {
      error(name.pos, "function reference '" + name.text + "' needs an initializer");
      v = {con(0), SType::error()};
    } else {
      v = {con(0), declared};
    }
    SType t = declared;
    if (isVar || isVal) {
      // Inference never picks a narrow type: a bool initializer makes an int.
      t = v.t.kind == SType::Bool ? SType::intT() : v.t;
      if (t.kind == SType::Str) error(initPos, "string values are not supported yet");
    } else {
      v = coerce(v, declared, initPos);
    }
    VarInfo info{name.text, t, isVal, nullptr, name.pos};
    if (isVal && v.n->isConst()) info.constValue = v.n;
    if (scope()->define(info, v.n) < 0) error(name.pos, "redefinition of '" + name.text + "'");
    if (!accept(Tok::Comma)) break;
  }
  expect(Tok::Semi);
}

}  // namespace simplec
