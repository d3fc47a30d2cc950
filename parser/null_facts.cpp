// Flow-sensitive null facts for references (structs, arrays, functions):
// reading a variable carries the fact "non-null if this is true", tests
// apply facts to the scopes of their arms, loops forget facts about
// variables they assign, and uses of a reference that might be null are
// reported by name.
#include "parser/parser_impl.h"

namespace simplec {

Val Parser::readVar(int idx) {
  const VarInfo& info = syms().vars[size_t(idx)];
  Val v{scope()->get(idx), info.type};
  v.var = idx;
  if (v.t.isNullTracked()) {
    if (!scope()->maybeNull(idx)) v.t.nullable = false;
    v.nnTrue = {idx};
  }
  return v;
}

void Parser::applyFacts(Scope* s, const std::vector<int>& vars) {
  for (int i : vars)
    if (size_t(i) < s->numVars() && s->var(i).type.isNullTracked() && s->var(i).type.nullable)
      s->setMaybeNull(i, false);
}

void Parser::weakenAssignedInLoop(Scope* head, size_t from, size_t to) {
  // A variable assigned anywhere in the loop (its header and its body) may
  // be null again at its head.
  for (size_t p = from; p < to && p < toks_.size() && toks_[p].kind != Tok::Eof; p++) {
    Tok k = toks_[p].kind;
    if (k != Tok::Ident || p + 1 >= toks_.size()) continue;
    Tok next = toks_[p + 1].kind;
    bool assigned = next == Tok::Assign || next == Tok::PlusAssign || next == Tok::MinusAssign;
    if (!assigned) continue;
    int idx = syms().find(toks_[p].text);
    if (idx >= 0 && size_t(idx) < head->numVars() && head->var(idx).type.isNullTracked() &&
        head->var(idx).type.nullable)
      head->setMaybeNull(idx, true);
  }
}

// Names the variable when there is one: that is what a test would narrow.
void Parser::reportMightBeNull(const Val& v, SrcPos pos) {
  if (v.var >= 0)
    error(pos, "'" + syms().vars[size_t(v.var)].name + "' might be null");
  else
    error(pos, "a value of type '" + v.t.str() + "' might be null");
}

}  // namespace simplec
