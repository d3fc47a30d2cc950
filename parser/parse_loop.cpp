// Loops: while and for, with break/continue scopes and lazily created loop
// Phis (see scope.h); a loop nothing leaves gets a Never exit.
//   while = 'while' '(' expr ')' statement
//   for   = 'for' '(' [declaration | expr] ';' [expr] ';' [expr] ')' statement
#include "parser/on_exit.h"
#include "parser/parser_impl.h"

namespace simplec {

Parser::LoopSave Parser::beginLoopCtx(Scope* breakScope) {
  LoopSave s{fn_->breakScope, fn_->continueScope, fn_->inLoop};
  fn_->breakScope = breakScope;
  fn_->continueScope = nullptr;
  fn_->inLoop = true;
  return s;
}

void Parser::endLoopCtx(const LoopSave& s) {
  fn_->breakScope = s.br;
  fn_->continueScope = s.co;
  fn_->inLoop = s.in;
}

// The body of a loop whose test just branched (`exit` holds the false arm):
// break/continue target this loop while it is parsed; continues merge at the
// end of the body.
void Parser::parseLoopBody(Scope* exit) {
  LoopSave save = beginLoopCtx(exit);
  {
    OnExit restore{[this, save] { endLoopCtx(save); }};
    size_t nvars = syms().vars.size(), depth = syms().depth();
    parseStatement();
    endBlock(nvars, depth);
    if (fn_->continueScope) {
      Scope* body = scope();
      fn_->scope = jumpTo(fn_->continueScope);
      scopes_.kill(body);
    }
  }
}

Scope* Parser::enterLoop(size_t loopTok, size_t bodyStart) {
  Node* loop = peep(mk(Op::Loop, {nullptr, ctrl(), nullptr}, Type::ctrl()));
  setCtrl(loop);
  Scope* head = scope();
  assumeLoopFacts(head, loopTok, pos_, statementEnd(bodyStart));
  fn_->scope = scopes_.loopBody(head);
  return head;
}

//   while = 'while' '(' expr ')' statement
void Parser::parseWhile() {
  SrcPos wpos = tok().pos();
  size_t loopTok = pos_++;
  Scope* head = enterLoop(loopTok, at(Tok::LParen) ? closerOf(pos_) + 1 : pos_);
  size_t lp = pos_;
  expect(Tok::LParen);
  SrcPos cpos = tok().pos();
  size_t cstart = pos_;
  Val e = parseExpr();
  Val c = condition(testOnly(e), cpos);
  checkCondition(e, c, cstart, cpos);
  expect(Tok::RParen, lp);
  Scope* exit = branch(c.n, wpos);
  applyFacts(scope(), c.nnTrue);
  applyFacts(exit, c.nnFalse);
  parseLoopBody(exit);
  closeLoop(loopTok, head, exit);
}

void Parser::closeLoop(size_t loopTok, Scope* head, Scope* exit) {
  Scope* back = scope();
  back->forget(head->numVars());
  checkLoopFacts(loopTok, head, back, exit);
  bool endless = exit->ctrl()->type->kind() == TKind::XCtrl && back->ctrl()->type->kind() != TKind::XCtrl;
  if (endless) {
    // Nothing leaves this loop: give it an exit that is never taken, so the
    // loop stays reachable from the function's Return (and from Stop).
    Node* never = peep(mk(Op::Never, {back->ctrl()}, nullptr));
    Node* out = peep(mk(Op::CProj, {never}, nullptr, 0));
    Node* stay = peep(mk(Op::CProj, {never}, nullptr, 1));
    addReturnPath(out, back->allMem(), con(0));
    back->setCtrl(stay);
  }
  scopes_.endLoop(head, back);
  // The exit path left through the test: it folds into the loop body's
  // scope, and that into the head's.
  fn_->scope = scopes_.collapse(scopes_.collapse(exit));
}

//   for = 'for' '(' [declaration | expr] ';' [expr] ';' [expr] ')' statement
void Parser::parseFor() {
  SrcPos fpos = tok().pos();
  size_t loopTok = pos_++;
  size_t bodyStart = at(Tok::LParen) ? closerOf(pos_) + 1 : pos_;
  size_t lp = pos_;
  expect(Tok::LParen);
  size_t outerVars = syms().vars.size(), outerDepth = syms().depth();
  syms().pushBlock();
  if (atDeclaration()) {
    forInit_ = true;
    OnExit reset{[this] { forInit_ = false; }};
    parseDeclaration();
  } else {
    if (!at(Tok::Semi)) parseExpr();
    expect(Tok::Semi);
  }
  Scope* head = enterLoop(loopTok, bodyStart);
  SrcPos cpos = tok().pos();
  Val c;
  if (at(Tok::Semi)) {
    c = {con(1), SType::boolT()};
  } else {
    size_t cstart = pos_;
    Val e = parseExpr();
    c = condition(testOnly(e), cpos);
    checkCondition(e, c, cstart, cpos);
  }
  expect(Tok::Semi);
  // The step is parsed after the body, where it runs; remember where it is.
  size_t stepPos = pos_;
  int parens = 0;
  while (!at(Tok::Eof) && !(parens == 0 && at(Tok::RParen))) {
    if (at(Tok::LParen)) parens++;
    if (at(Tok::RParen)) parens--;
    pos_++;
  }
  expect(Tok::RParen, lp);
  Scope* exit = branch(c.n, fpos);
  applyFacts(scope(), c.nnTrue);
  applyFacts(exit, c.nnFalse);
  parseLoopBody(exit);
  size_t bodyEnd = pos_;
  SrcPos bodyPassed = endOf(prevTok());
  pos_ = stepPos;
  try {
    fn_->stepPassAt = bodyPassed;
    OnExit reset{[this] { fn_->stepPassAt = SrcPos{}; }};
    if (!at(Tok::RParen)) parseExpr();
    if (!at(Tok::RParen)) syntaxError(tok().pos(), "expected ')'");
  } catch (SyntaxError&) {
  }
  pos_ = bodyEnd;
  closeLoop(loopTok, head, exit);
  debugScope(outerVars, fpos, endOf(prevTok()));  // the whole statement
  endBlock(outerVars, outerDepth);
}

// What the current scope holds (cut back to the loop's variables), merged
// into `target` (or becoming it when it does not exist yet). Control here
// dies. Both are overlays on the innermost loop's body scope.
Scope* Parser::jumpTo(Scope* target) {
  Scope* cur = scopes_.snapshot(scope(), fn_->breakScope->parent());
  setCtrl(deadCtrl());
  if (!target) return cur;
  scopes_.merge(target, cur);
  return target;
}

//   break = 'break' ';'      continue = 'continue' ';'
void Parser::parseBreakContinue(bool isBreak) {
  SrcPos p = tok().pos();
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

}  // namespace simplec
