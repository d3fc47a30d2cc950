// The parser's entry, token helpers, and statements.
//   program   = statement* EOF
//   statement = block | if | while | for | break | continue | return
//             | declaration | expr ';' | ';'
// Loops are in parse_loop.cpp, declarations and types in parse_decl.cpp.
#include "parser/parser.h"

#include <algorithm>

#include "lexer/lexer.h"
#include "lexer/work_counters.h"
#include "parser/on_exit.h"
#include "parser/parser_impl.h"
#include "son/verify.h"

namespace simplec {

bool parseFile(const SourceFile& file, DiagEngine& diag, Unit& g) {
  // A recursive function's result type is needed at its recursive calls
  // before its body is finished. The parser assumes one; when an assumption
  // proves wrong, the file is parsed again with what was learnt (each round
  // only widens a type, so this ends quickly).
  // Likewise a loop head assumes the null facts of the loop's entry; if a
  // back edge breaks one that a read relied on, the file is parsed again
  // without it. Every loop is checked in the same round, and a round only
  // drops facts; after two such rounds loops assume nothing they may change.
  Parser::RetHints hints;
  Parser::LoopHints loopHints;
  // Hints may name structs of an earlier round: those stay alive until the end.
  std::vector<std::unique_ptr<StructInfo>> earlierStructs;
  // A result type that held only because nothing but the function's own
  // calls decide it (`val g = { -> return g(); };`) is not a type: one more
  // round assumes a type no expression mixes with (a function type) for
  // those; if the result follows it without an error, it is reported.
  std::vector<std::string> undetermined;
  bool probed = false;
  int retRounds = 0, loopRounds = 0;
  for (;;) {
    workCounters().parseRounds++;
    g.reset();
    diag.hold();
    Parser p(file, diag, g, hints, loopHints, loopRounds >= 2);
    bool ok = p.parseFile();
    OnExit keep{[&] { p.moveStructsTo(earlierStructs); }};
    Parser::RetHints failed;
    bool held = p.assumptionsHeld(&failed);
    bool loopsHeld = p.loopFactsHeld(&loopHints);
    SIMPLEC_CHECK(loopsHeld || loopRounds < 2, "parser", "loop null facts did not settle");
    if (held && loopsHeld && !probed && ok) {
      probed = true;
      std::vector<std::string> defaulted = p.defaultedResults();
      if (!defaulted.empty()) {
        diag.discard();
        Parser::RetHints probes = hints;
        for (const std::string& name : defaulted) probes[name] = SType::fun({}, SType::voidT());
        g.reset();
        diag.hold();
        {
          workCounters().parseRounds++;
          Parser probe(file, diag, g, probes, loopHints, loopRounds >= 2);
          probe.parseFile();
          probe.moveStructsTo(earlierStructs);
          Parser::RetHints probeOnly;
          for (const std::string& name : defaulted) probeOnly[name] = probes[name];
          undetermined = probe.resultsFollowing(probeOnly);
        }
        diag.discard();
        continue;  // the same round again, to report from it
      }
    }
    // Still changing after several rounds: the type grows without end
    // (a function returning itself).
    bool retDone = held || retRounds == 4;
    if (retDone && loopsHeld) {
      if (!held) p.reportUnresolvedRecursion(failed);
      p.reportUndeterminedResults(undetermined);
      diag.release();
      return ok && held && !diag.hasErrors();
    }
    diag.discard();
    if (!retDone) {
      retRounds++;
      for (auto& [name, t] : failed) hints[name] = t;
    }
    if (!loopsHeld) loopRounds++;
  }
}

std::vector<std::string> Parser::defaultedResults() const {
  std::vector<std::string> out;
  for (const auto& [name, tf] : topFuns_)
    if (tf.retDefaulted && !hints_.count(name) && tf.funIdx >= 0) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> Parser::resultsFollowing(const RetHints& probes) const {
  std::vector<std::string> out;
  for (const auto& [name, t] : probes) {
    auto it = topFuns_.find(name);
    if (it == topFuns_.end() || it->second.funIdx < 0 || it->second.bodyErrors) continue;
    if (sameType(funTypes_[size_t(it->second.funIdx)].sig->ret, t)) out.push_back(name);
  }
  return out;
}

void Parser::reportUndeterminedResults(const std::vector<std::string>& names) {
  std::vector<std::pair<SrcPos, std::string>> where;
  for (const std::string& name : names) {
    auto it = topFuns_.find(name);
    if (it != topFuns_.end() && it->second.funIdx >= 0) where.push_back({u_.funs[size_t(it->second.funIdx)].pos, name});
  }
  std::sort(where.begin(), where.end(), [](auto& a, auto& b) {
    return a.first.line != b.first.line ? a.first.line < b.first.line : a.first.col < b.first.col;
  });
  for (auto& [pos, name] : where)
    error(pos, "cannot determine the result type of '" + name + "': only its own recursive calls return");
}

Parser::Parser(const SourceFile& file, DiagEngine& diag, Unit& u, const RetHints& hints,
               const LoopHints& loopHints, bool pessimisticLoops)
    : loopHints_(loopHints), pessimisticLoops_(pessimisticLoops), file_(file), diag_(diag), hints_(hints), u_(u) {
  if (u_.debugInfo) scopes_.onVarMerge = [this](int var, Node* v, Node* merge) { debugMerge(var, v, merge); };
}

void Parser::reportUnresolvedRecursion(const RetHints& failed) {
  std::vector<std::pair<SrcPos, std::string>> where;
  for (const auto& [name, tf] : topFuns_)
    if (failed.count(name) && tf.funIdx >= 0) where.push_back({u_.funs[size_t(tf.funIdx)].pos, name});
  std::sort(where.begin(), where.end(), [](auto& a, auto& b) {
    return a.first.line != b.first.line ? a.first.line < b.first.line : a.first.col < b.first.col;
  });
  for (auto& [pos, name] : where) error(pos, "cannot infer the result type of recursive function '" + name + "'");
}

// A recursive function with a return that clashed with the assumed type
// (`if (k > 9) return f(k - 1); return new S {..};`): the clashing return's
// type, to assume in the next round; else error. Once a round assumed a
// learnt type, a clash is the program's own error.
SType Parser::clashingReturn(const std::string& name, int funIdx) const {
  auto c = retConflict_.find(funIdx);
  if (c == retConflict_.end() || c->second.isError() || hints_.count(name)) return SType::error();
  return c->second;
}

bool Parser::assumptionsHeld(RetHints* learnt) const {
  bool held = true;
  for (const auto& [name, tf] : topFuns_) {
    if (!tf.retAssumed || tf.funIdx < 0) continue;
    SType actual = funTypes_[size_t(tf.funIdx)].sig->ret;
    if (SType clash = clashingReturn(name, tf.funIdx); !clash.isError()) actual = clash;
    // A result that is itself an error teaches nothing: keep the assumption.
    if (actual.isError()) continue;
    if (tf.assumptionsDiffer || !sameType(tf.assumedRet, actual)) {
      held = false;
      (*learnt)[name] = actual;
    }
  }
  for (const auto& s : structs_) {
    for (const FieldInfo& f : s->fields) {
      if (!f.retAssumed || f.funIdx < 0) continue;
      SType actual = funTypes_[size_t(f.funIdx)].sig->ret;
      if (SType clash = clashingReturn(s->name + "." + f.name, f.funIdx); !clash.isError()) actual = clash;
      if (actual.isError()) continue;
      if (f.assumptionsDiffer || !sameType(f.assumedRet, actual)) {
        held = false;
        (*learnt)[s->name + "." + f.name] = actual;
      }
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

void Parser::expect(Tok k, size_t open) {
  if (accept(k)) return;
  // At the end of the file one "expected" is enough: everything still open
  // would report its own.
  if (at(Tok::Eof) && eofReported_) throw SyntaxError{};
  if (at(Tok::Eof)) eofReported_ = true;
  // A missing token is reported just past the previous one.
  SrcPos p = pos_ ? endOf(prevTok()) : tok().pos();
  error(p, "expected " + tokDescription(k));
  if (open < toks_.size()) note(toks_[open].pos(), "to match this " + tokDescription(toks_[open].kind));
  // A ';' missing at the end of a line: go on as if it were there. Skipping
  // to the next ';' instead would swallow the next line's statement, and a
  // declaration there would come back as "undefined name" errors.
  if (k == Tok::Semi && pos_ && !at(Tok::Eof) && tok().pos().line > endOf(prevTok()).line) return;
  throw SyntaxError{};
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

void Parser::error(SrcPos pos, const std::string& msg) {
  // The sys library is part of the compiler: an error in it is a bug of ours.
  if (inSysLibrary())
    internalError("parser", "in the sys library, sys.smp:" + std::to_string(pos.line) + ":" + std::to_string(pos.col) +
                                ": " + msg);
  diag_.error(file_, pos, msg);
}

void Parser::warn(SrcPos pos, Warn w, const std::string& msg) {
  if (inSysLibrary() || !warned_.insert({pos.line, pos.col, w}).second) return;
  int before = diag_.errorCount();
  diag_.warn(file_, pos, w, msg);
  warningErrors_ += diag_.errorCount() - before;  // -Werror
}

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

void Parser::matchBrackets() {
  size_t n = toks_.size();
  openers_.clear();
  closers_.clear();
  std::vector<uint32_t> open;  // ordinals in openers_ of the unclosed ones
  for (size_t i = 0; i < n; i++) {
    Tok k = toks_[i].kind;
    if (k == Tok::LParen || k == Tok::LBracket || k == Tok::LBrace) {
      open.push_back(uint32_t(openers_.size()));
      openers_.push_back(uint32_t(i));
      closers_.push_back(uint32_t(n - 1));
    } else if ((k == Tok::RParen || k == Tok::RBracket || k == Tok::RBrace) && !open.empty()) {
      closers_[open.back()] = uint32_t(i);
      open.pop_back();
    } else if (k == Tok::Eof) {
      open.clear();  // the program's end; the sys library follows
    }
  }
  openers_.shrink_to_fit();
  closers_.shrink_to_fit();
}

size_t Parser::closerOf(size_t open) const {
  auto it = std::lower_bound(openers_.begin(), openers_.end(), uint32_t(open));
  SIMPLEC_CHECK(it != openers_.end() && *it == open, "parser", "not an opening bracket");
  return closers_[size_t(it - openers_.begin())];
}

size_t Parser::statementEnd(size_t p) const {
  // A chain of `if (..) S else`, `while (..)`, `for (..)` prefixes, then a
  // block or a simple statement.
  size_t n = toks_.size();
  for (int guard = 0; p < n && guard < kMaxDepth; guard++) {
    Tok k = toks_[p].kind;
    if (k == Tok::LBrace) {
      p = closerOf(p) + 1;
    } else if (k == Tok::KwWhile || k == Tok::KwFor || k == Tok::KwIf) {
      if (p + 1 >= n || toks_[p + 1].kind != Tok::LParen) return n;
      bool isIf = k == Tok::KwIf;
      p = statementEnd(closerOf(p + 1) + 1);
      if (isIf && p < n && toks_[p].kind == Tok::KwElse) {
        p++;
        continue;
      }
    } else {
      while (p < n && toks_[p].kind != Tok::Semi && toks_[p].kind != Tok::RBrace && toks_[p].kind != Tok::Eof) {
        Tok t = toks_[p].kind;
        p = t == Tok::LParen || t == Tok::LBracket || t == Tok::LBrace ? closerOf(p) + 1 : p + 1;
      }
      if (p < n && toks_[p].kind == Tok::Semi) p++;
    }
    return p;
  }
  return n;
}

void Parser::enterNesting() {
  if (++depth_ > kMaxDepth) {
    error(tok().pos(), "nesting too deep");
    throw ParseAbort{};
  }
}

// ---------------------------------------------------------------- nodes

Node* Parser::mk(Op op, Node* const* ins, size_t count, const Type* t, int64_t aux) {
  if (u_.nodesMade > u_.nodeLimit) {
    error(tok().pos(), "program too large");
    throw ParseAbort{};
  }
  Node* n = G().make(op, ins, count, t, aux);
  // Where the node comes from, for -g line tables (checks get their
  // operator's position instead, set by the caller).
  n->pos = pos_ > 0 ? toks_[pos_ - 1].pos() : tok().pos();
  return n;
}

Node* Parser::conOf(const Type* t) {
  Peephole& p = *fn_->peep;
  if (p.enabled)
    if (Node* c = p.gvn().findConst(t, G().start())) return c;
  return peep(mk(Op::Con, {G().start()}, t));
}

Node* Parser::con(int64_t v) { return conOf(Type::intConst(v)); }

Node* Parser::dataOp(Op op, Node* a, Node* b, SrcPos pos) {
  Node* n = mk(op, b ? std::vector<Node*>{nullptr, a, b} : std::vector<Node*>{nullptr, a});
  n->pos = pos;
  Node* x = peep(n);
  if (x != n) G().killIfUnused(n);
  return x;
}

// ---------------------------------------------------------------- file

bool Parser::parseFile() {
  toks_ = tokenize(file_, diag_);
  if (needsSysLibrary()) appendSysLibrary();
  matchBrackets();
  registerArrayAliases();
  try {
    preDeclareStructs();
    registerStructAliases();
    if (mentionsExternVar()) u_.aliasClass("extern");
    preDeclareTopFunctions();
    // The script body is the function `main` taking `arg`.
    mainFun_ = newFunction("main", SrcPos{1, 1});
    FunCtx ctx;
    enterGraph(ctx, mainFun_);
    Node* fun = u_.funs[size_t(mainFun_)].fun;
    Node* mem = nullptr;
    for (Node* u : fun->out)
      if (u->op == Op::Parm && u->aux < 0) mem = u;
    fn_ = mainCtx_ = &ctx;
    ctx.scope = scopes_.fresh(G(), *ctx.peep, ctx.symbols, fun, mem);
    Node* argParm = peep(mk(Op::Parm, {fun}, Type::intBot(), 0));
    debugDeclare(ctx.scope->define({"arg", SType::intT(), false, nullptr, SrcPos{1, 1}}, argParm), argParm, 1);
    u_.funs[size_t(mainFun_)].paramTypes = {Type::intBot()};
    funTypes_[size_t(mainFun_)] = SType::fun({SType::intT()}, SType::intT());
    topLevel_ = true;
    StatementSeq seq;
    while (!at(Tok::Eof)) {
      if (at(Tok::RBrace)) {
        error(tok().pos(), "unexpected '}'");
        pos_++;
        continue;
      }
      parseStatementIn(seq);
    }
    warnUnused(0);
    topLevel_ = false;
    // Script form: the top level returns, or at least does something
    // (calls, control flow); then falling off its end returns 0.
    bool script = ctx.numReturns() != 0 || topLevelCode_ || ctx.scope->ctrl() != fun || ctx.scope->allMem() != mem;
    FunInfo& mainInfo = u_.funs[size_t(mainFun_)];
    if (script && valMainFun_ >= 0) {
      error(valMainPos_, "a program cannot have both top-level statements and 'val main'");
    }
    if (script) {
      // Falling off the end returns 0 of the result type the returns gave
      // (0 as the exit status when there were none; to a C caller of a
      // script that returns nothing, main is void and ignores it).
      if (!deadCode()) {
        if (!ctx.retTypeKnown) addReturn({con(0), SType::intT()}, tok().pos());
        else if (!ctx.retType.hasValue()) addReturn({nullptr, SType::voidT()}, tok().pos());
        else if (ctx.retType.isRef()) addReturn({nullCon(), SType::nullT()}, tok().pos());
        else addReturn(zeroOf(ctx.retType), tok().pos());
      }
      finishFunction(ctx, tok().pos(), true);
      mainInfo.isEntry = mainInfo.isGlobal = true;
      mainInfo.symbol = "main";
    } else {
      scopes_.kill(ctx.scope);
      // No script body: the unit is a library or uses `val main`. The graph
      // goes (what top-level declarations made in it stays in it).
      u_.dropGraph(mainFun_);
      mainInfo.isExtern = false;
      if (valMainFun_ >= 0) {
        FunInfo& m = u_.funs[size_t(valMainFun_)];
        m.isEntry = m.isGlobal = true;
        m.symbol = "main";
      } else {
        for (auto& [name, tf] : topFuns_)
          if (tf.funIdx >= 0) u_.funs[size_t(tf.funIdx)].isGlobal = true;
        for (auto& [name, idx] : topVarFuns_) exportAs(idx, name);
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
  fn_ = nullptr;
  if (diag_.hasErrors()) return false;
  // Scope nodes are gone; drop everything they alone kept alive.
  for (FunInfo& f : u_.funs)
    if (f.graph && f.graph->deferKills) finishGraph(*f.graph);
  return true;
}

void Parser::finishGraph(Graph& g) {
  g.deferKills = false;
  sweepUnreachable(g);
  g.settle();  // it waits for the rest of the unit
}

// ---------------------------------------------------------------- statements

void Parser::parseStatement() {
  Nesting nest(*this);
  bool isExpr = false;
  Val exprVal;
  // Top-level code other than declarations makes the file a script, even
  // when it folds away entirely (`if (5 == 5) a = 3;`).
  if (topLevel_ && fn_ == mainCtx_ && !at(Tok::Semi) && !at(Tok::KwStruct) && !atDeclaration()) topLevelCode_ = true;
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
      case Tok::KwStruct: parseStructStatement(); break;
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
  size_t open = pos_;
  expect(Tok::LBrace);
  size_t nvars = syms().vars.size(), depth = syms().depth();
  syms().pushBlock();
  {
    // Statements inside leave the current scope as they found it (ifs and
    // loops fold their scopes back into it), so cutting back works.
    OnExit pop{[this, nvars, depth, open] {
      debugScope(nvars, toks_[open].pos(), endOf(tok()));  // through the '}'
      endBlock(nvars, depth);
    }};
    StatementSeq seq;
    while (!at(Tok::RBrace) && !at(Tok::Eof)) parseStatementIn(seq);
  }
  expect(Tok::RBrace, open);
}

void Parser::parseStatementIn(StatementSeq& seq) {
  // Struct and top-level function declarations are not executed in place.
  bool hoisted = at(Tok::KwStruct) || (at(Tok::KwVal) && topFunAt_.count(pos_ + 3));
  if (seq.jumped && !seq.warned && !at(Tok::Semi) && !hoisted) {
    warn(tok().pos(), Warn::UnreachableCode, "code will never be executed");
    seq.warned = true;
  }
  Tok k = tok().kind;
  parseStatement();
  if (k == Tok::KwReturn || k == Tok::KwBreak || k == Tok::KwContinue) seq.jumped = true;
}

void Parser::endBlock(size_t nvars, size_t depth) {
  warnUnused(nvars);
  syms().truncate(nvars, depth);
  scope()->forget(nvars);
}

Scope* Parser::branch(Node* cond, SrcPos pos) {
  Node* iff = mk(Op::If, {ctrl(), cond}, nullptr);
  iff->pos = pos;
  iff = peep(iff);
  iff->keep++;
  Node* t = peep(mk(Op::CProj, {iff}, nullptr, 0));
  Node* f = peep(mk(Op::CProj, {iff}, nullptr, 1));
  iff->keep--;
  Scope* here = scope();
  Scope* yes = scopes_.child(here);
  Scope* no = scopes_.child(here);
  yes->setCtrl(t);
  no->setCtrl(f);
  fn_->scope = yes;
  G().killIfUnused(iff);
  return no;
}

Scope* Parser::join(Scope* a, Scope* b) {
  scopes_.merge(a, b);
  return fn_->scope = scopes_.collapse(a);
}

//   if = 'if' '(' expr ')' statement ['else' statement]
void Parser::parseIf() {
  SrcPos ifPos = tok().pos();
  pos_++;
  size_t lp = pos_;
  expect(Tok::LParen);
  SrcPos cpos = tok().pos();
  size_t cstart = pos_;
  Val e = parseExpr();
  Val c = condition(testOnly(e), cpos);
  checkCondition(e, c, cstart, cpos);
  expect(Tok::RParen, lp);
  Scope* fScope = branch(c.n, ifPos);
  applyFacts(scope(), c.nnTrue);
  applyFacts(fScope, c.nnFalse);
  size_t nvars = syms().vars.size(), depth = syms().depth();
  if (atDeclaration()) error(tok().pos(), "cannot define a new name on one arm of an if");
  parseStatement();
  // Names declared by a (reported) bad arm are dropped.
  endBlock(nvars, depth);
  Scope* tScope = scope();
  fn_->scope = fScope;
  if (accept(Tok::KwElse)) {
    if (atDeclaration()) error(tok().pos(), "cannot define a new name on one arm of an if");
    parseStatement();
    endBlock(nvars, depth);
  }
  join(tScope, fScope);
}

//   return = 'return' [expr] ';'
void Parser::parseReturn() {
  SrcPos p = tok().pos();
  pos_++;
  Val v{nullptr, SType::voidT()};
  if (!at(Tok::Semi) && !at(Tok::RBrace)) {
    p = tok().pos();  // type errors point at the returned value
    v = parseExpr();
  }
  if (!at(Tok::RBrace)) expect(Tok::Semi);
  addReturn(v, p);
}

}  // namespace simplec
