// Warnings about expressions, decided while they are parsed from what the
// parser has at hand (the operands' ExprForm, their tokens, their nodes):
// an assignment or a constant as a condition, `x = x`, `&`/`|` between
// comparisons, an array passed as an `int`. None of them changes a node.
#include "parser/parser_impl.h"

namespace simplec {

void Parser::checkCondition(const Val& e, const Val& c, size_t start, SrcPos pos) {
  // As gcc: `if ((x = 4))` says the assignment is meant.
  if (e.form == ExprForm::Assign) {
    warn(pos, Warn::Parentheses, "suggest parentheses around assignment used as truth value");
    return;
  }
  // `while (true)`, `if (0)` are written so on purpose; a condition that
  // folds from named constants (`if (N > 3)`) is likely an oversight.
  if (e.form == ExprForm::Literal || c.t.isError() || !c.n) return;
  if (c.n->type->kind() != TKind::Int || !c.n->type->isConst()) return;
  if (!namesOnlyConstants(start, pos_)) return;
  warn(pos, Warn::ConstantCondition,
       std::string("condition is always ") + (c.n->type->value() != 0 ? "true" : "false"));
}

// Do tokens [start, end) name no variable that may change? A local whose
// value the parser happens to know (`int n = 5; if (n > 3)`) is no constant.
bool Parser::namesOnlyConstants(size_t start, size_t end) {
  for (size_t i = start; i < end && i < toks_.size(); i++) {
    if (toks_[i].kind != Tok::Ident || (i > 0 && toks_[i - 1].kind == Tok::Dot)) continue;
    const std::string& name = toks_[i].text;
    for (FunCtx* c = fn_; c; c = c->outer) {
      int j = c->symbols.find(name);
      if (j < 0) continue;
      if (!c->symbols.vars[size_t(j)].constValue) return false;
      break;
    }
  }
  return true;
}

void Parser::checkSelfAssign(size_t lhsStart, size_t lhsEnd, size_t rhsStart, SrcPos opPos) {
  // Both sides the same path of names (`x`, `p.f`): the same place, read
  // and written back.
  size_t n = lhsEnd - lhsStart;
  if (pos_ - rhsStart != n || n == 0 || n % 2 == 0) return;
  // The lexer drops bytes it cannot read: `x = @x` is no self-assignment.
  if (hadRealErrors()) return;
  for (size_t k = 0; k < n; k++) {
    const Token& a = toks_[lhsStart + k];
    const Token& b = toks_[rhsStart + k];
    Tok want = k % 2 == 0 ? Tok::Ident : Tok::Dot;
    if (a.kind != want || b.kind != want || a.text != b.text) return;
  }
  std::string what;
  for (size_t k = lhsStart; k < lhsEnd; k++) what += toks_[k].kind == Tok::Dot ? "." : toks_[k].text.str();
  std::string msg = "'" + what + "' is assigned to itself";
  // `new S { x = x; }`: the field hides the outer `x` the author meant.
  int idx = n == 1 ? syms().find(what) : -1;
  if (idx >= 0 && syms().vars[size_t(idx)].kind == VarKind::Field && hidesOuterName(what))
    msg += " (the field '" + what + "' hides the outer '" + what + "')";
  warn(opPos, Warn::SelfAssign, msg);
}

bool Parser::hidesOuterName(const std::string& name) const {
  const auto& blocks = fn_->symbols.blocks;
  size_t b = blocks.size();
  while (b > 0 && !blocks[b - 1].count(name)) b--;  // the block that has it
  for (size_t k = 0; k + 1 < b; k++)
    if (blocks[k].count(name)) return true;
  return false;
}

void Parser::checkBitwise(const Val& a, const Val& b, const Token& op) {
  // `^` of two comparisons is their inequality, a common idiom: not warned.
  if (op.kind == Tok::Caret || a.form != ExprForm::Compare || b.form != ExprForm::Compare) return;
  bool isAnd = op.kind == Tok::Amp;
  warn(op.pos(), Warn::BitwiseInsteadOfLogical,
       std::string("'") + (isAnd ? "&" : "|") + "' between comparisons evaluates both; did you mean '" +
           (isAnd ? "&&" : "||") + "'?");
}

void Parser::checkIntConversion(const Val& arg, const SType& to, Node* callee, size_t i, SrcPos pos) {
  if (arg.t.kind != SType::Array || arg.t.nullable || to.kind != SType::Int || to.bits != 64) return;
  // Passing a buffer's address to C is what the conversion is for.
  if (!callee) return;
  if (callee->isConst() && callee->type->kind() == TKind::FunPtr && callee->type->fun() >= 0 &&
      u_.funs[size_t(callee->type->fun())].isExtern)
    return;
  warn(pos, Warn::IntConversion,
       "argument " + std::to_string(i) + " is an array of type '" + arg.t.str() +
           "' where 'int' is expected: its address is passed");
}

}  // namespace simplec
