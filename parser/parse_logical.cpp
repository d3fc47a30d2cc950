// `&&` and `||`: short-circuit operators that give a value (LANGUAGE.md 8.3).
//   logical = bitwise [('&&' | '||') logical]
// One right-associative level, as in Simple: `a && b || c` is
// `a && (b || c)`. Mixing the two without parentheses is legal but warned
// (-Wparentheses): a C reader expects the other grouping.
// The value is the last operand evaluated when both operands are integers
// (an `int`; two bools stay a `bool`, the value being the same), or
// references to one struct or `null` (that reference type); otherwise a bool.
// A chain is parsed in a loop (each operator branches, the merges are made
// from the right at the end), so its length is not limited by nesting.
#include "parser/parser_impl.h"

namespace simplec {

namespace {

// Struct references and `null`, which `&&`/`||` keep as references.
bool structOrNull(const SType& t) { return t.kind == SType::Struct || t.kind == SType::Null; }

bool keepsReference(const SType& a, const SType& b) {
  if (!structOrNull(a) || !structOrNull(b)) return false;
  return a.kind == SType::Null || b.kind == SType::Null || a.strct == b.strct;
}

}  // namespace

Val Parser::parseLogical() {
  std::vector<LogicalLeft> lefts;
  for (;;) {
    SrcPos apos = tok().pos();
    Val a = parseBitwise();
    if (!at(Tok::AndAnd) && !at(Tok::OrOr)) {
      // The last operand: merge from the right.
      for (size_t i = lefts.size(); i-- > 0;) a = finishLogical(lefts[i], a, apos);
      return a;
    }
    Token op = tok();
    pos_++;
    bool isAnd = op.kind == Tok::AndAnd;
    if (!lefts.empty() && lefts.back().isAnd != isAnd) {
      std::string x = isAnd ? "||" : "&&", y = tokSpelling(op.kind);
      warn(op.pos(), Warn::Parentheses,
           "'&&' and '||' mixed without parentheses: 'a " + x + " b " + y + " c' groups as 'a " + x + " (b " + y +
               " c)'");
    }
    Val c = condition(a, apos);
    // The current scope evaluates the right operand; `skip` does not.
    Scope* skip = branch(c.n, op.pos());
    applyFacts(scope(), isAnd ? c.nnTrue : c.nnFalse);
    if (!isAnd) {
      // `||` evaluates its right side on the false arm: swap the arms.
      Node* t = ctrl();
      t->keep++;
      setCtrl(skip->ctrl());
      skip->setCtrl(t);
      t->keep--;
    }
    lefts.push_back({isAnd, a, c, skip});
    apos = tok().pos();
  }
}

// `l.a && b` or `l.a || b`, b (at bpos) parsed in the current scope.
Val Parser::finishLogical(const LogicalLeft& l, Val b, SrcPos bpos) {
  const Val &a = l.a, &c = l.cond;
  if (!b.t.hasValue()) b = condition(b, bpos);  // reports it
  // What both operands prove (when `&&` is true, or `||` false) holds
  // after, unless the right one changed what the left one proved.
  std::vector<NullPath> facts = factsHolding(l.isAnd ? c.nnTrue : c.nnFalse);
  for (const NullPath& p : l.isAnd ? b.nnTrue : b.nnFalse) facts.push_back(p);
  Val onB = b, onSkip;
  SType t;
  if (c.t.isError() || b.t.isError()) {
    t = SType::error();
    onSkip = c;
  } else if (a.t.isIntegral() && b.t.isIntegral()) {
    // Skipped by `&&`, `a` is zero; by `||`, it is the value.
    t = a.t.kind == SType::Bool && b.t.kind == SType::Bool ? SType::boolT() : SType::intT();
    onSkip = l.isAnd ? Val{con(0), t} : a;
  } else if (keepsReference(a.t, b.t)) {
    // Skipped by `||`, `a` is not null.
    onSkip = a;
    if (!l.isAnd && a.t.kind == SType::Struct) onSkip.t.nullable = false;
    t = commonType(onSkip.t, b.t);
  } else {
    t = SType::boolT();
    onB = toBool(condition(b, bpos));
    onSkip = {con(l.isAnd ? 0 : 1), t};
  }
  Val r = mergeValues(scope(), onB, l.skip, onSkip, t);
  (l.isAnd ? r.nnTrue : r.nnFalse) = facts;
  return r;
}

}  // namespace simplec
