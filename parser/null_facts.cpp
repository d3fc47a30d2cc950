// Flow-sensitive null facts: reading a variable or a stable path (p.f,
// a[i]: parser/null_path.h) carries "non-null if this is true", tests apply
// facts to their arms, and what could change a path (an assignment to a
// variable it names, a store with one of its keys, a call) forgets them.
// A loop head assumes its entry facts; closing the loop checks them (a
// broken one a read relied on makes the file parse again without it).
#include <algorithm>

#include "parser/parser_impl.h"

namespace simplec {

Val Parser::readVar(int idx) {
  const VarInfo& info = syms().vars[size_t(idx)];
  Val v{scope()->get(idx), info.type};
  v.var = idx;
  v.path = NullPath::ofVar(idx);
  if (v.t.isNullTracked()) {
    if (!scope()->maybeNull(idx, true, &v.relied)) v.t.nullable = false;
    v.nnTrue = {v.path};
  }
  return v;
}

void Parser::applyFacts(Scope* s, const std::vector<NullPath>& facts) {
  for (const NullPath& p : facts) {
    if (!p.isVar()) {
      s->setPathNonNull(p, true);
      continue;
    }
    int i = p.root;
    if (size_t(i) < s->numVars() && s->var(i).type.isNullTracked() && s->var(i).type.nullable)
      s->setMaybeNull(i, false);
  }
}

Val Parser::testOnly(Val v) {
  // A loop whose reads of p are all tests (`while (p) { ...; p = p.next; }`)
  // need not keep p non-null around it: no parse again for that.
  Scope::unmarkRelied(v.relied);
  v.relied.clear();
  return v;
}

std::vector<NullPath> Parser::factsHolding(const std::vector<NullPath>& facts) {
  std::vector<NullPath> r;
  for (const NullPath& p : facts)
    if (p.isVar() ? !scope()->maybeNull(p.root, false) : scope()->pathNonNull(p, false)) r.push_back(p);
  return r;
}

Val Parser::fromPath(Val v, const NullPath& path) {
  v.path = path;
  if (!path.valid() || !v.t.isNullTracked() || !v.t.nullable) return v;
  if (scope()->pathNonNull(path, true, &v.relied)) v.t.nullable = false;
  v.nnTrue = {path};
  return v;
}

int Parser::fieldKey(StructInfo& s, int field) {
  return u_.aliasClass(s.name + "." + s.fields[size_t(field)].name);
}

NullPath Parser::fieldPath(const Val& obj, StructInfo& s, int field) {
  PathStep st;
  st.key = fieldKey(s, field);
  return obj.path.then(st);
}

namespace {
// An element type as stores see it: arrays that may share elements
// (read-only or not, nullable or not) have the same key.
std::string elemKeyText(const SType& t) {
  if (t.kind == SType::Array) return elemKeyText(*t.elem) + "[]";
  SType u = t;
  u.nullable = false;
  u.readonly = false;
  return u.str();
}
}  // namespace

int Parser::elemKey(const SType& elem) {
  auto [it, added] = elemKeys_.emplace(elemKeyText(elem), int(elemKeys_.size()));
  return it->second;
}

NullPath Parser::elemPath(const Val& arr, const Val& idx, const SType& elem, uint64_t eventsBefore) {
  // The index is stable if it is a variable or a constant, and nothing
  // changed while it was evaluated (`a[i++]` is not `a[i]`).
  if (!arr.path.valid() || factEvents_ != eventsBefore) return {};
  PathStep st;
  st.element = true;
  st.key = elemKey(elem);
  if (idx.path.isVar()) {
    st.indexVar = idx.path.root;
  } else if (idx.n->type && idx.n->type->isInt() && idx.n->type->isConst()) {
    st.index = idx.n->type->value();
  } else {
    return {};
  }
  return arr.path.then(st);
}

void Parser::noteVarAssigned(int idx) {
  factEvents_++;
  scope()->forgetPaths([idx](const NullPath& p) { return p.mentions(idx); });
}

void Parser::noteStore(bool element, int key) {
  factEvents_++;
  scope()->forgetPaths([element, key](const NullPath& p) { return p.readsKey(element, key); });
}

void Parser::noteCall() {
  factEvents_++;
  scope()->forgetPaths([](const NullPath&) { return true; });
}

// ---------------------------------------------------------------- loops

void Parser::assumeLoopFacts(Scope* head, size_t loopTok, size_t from, size_t to) {
  head->clearReliedOn();
  if (pessimisticLoops_) {
    weakenAssignedInLoop(head, from, to);
    head->forgetPaths([](const NullPath&) { return true; });
  }
  auto it = loopHints_.find(loopTok);
  if (it == loopHints_.end()) return;
  for (const NullPath& p : it->second) {
    if (size_t(p.maxVar()) >= head->numVars()) continue;
    if (!p.isVar())
      head->setPathNonNull(p, false);
    else if (head->var(p.root).type.isNullTracked() && head->var(p.root).type.nullable)
      head->setMaybeNull(p.root, true);
  }
}

void Parser::checkLoopFacts(size_t loopTok, Scope* head, Scope* back, Scope* exit) {
  // Only facts the loop itself set can differ between its entry and its
  // back edge: those of the back edge's scope and of the body's (the test).
  Scope* body = back->parent();
  std::vector<NullPath> broken;
  auto brokenHas = [&](const NullPath& p) { return std::find(broken.begin(), broken.end(), p) != broken.end(); };
  if (back->ctrl()->type->kind() != TKind::XCtrl) {
    for (Scope* x : {back, body}) {
      for (int v : x->ownFactVars())
        if (size_t(v) < head->numVars() && !head->maybeNull(v, false) && back->maybeNull(v, false) &&
            !brokenHas(NullPath::ofVar(v)))
          broken.push_back(NullPath::ofVar(v));
      for (const NullPath& p : x->ownPaths())
        if (size_t(p.maxVar()) < head->numVars() && head->pathNonNull(p, false) && !back->pathNonNull(p, false) &&
            !brokenHas(p))
          broken.push_back(p);
    }
  }
  bool exitLive = exit->ctrl()->type->kind() != TKind::XCtrl;
  for (const NullPath& p : broken) {
    if (head->reliedOn(p)) {
      // Parsed again without it: what was decided with it may be wrong.
      std::vector<NullPath>& drop = failedLoops_[loopTok];
      if (std::find(drop.begin(), drop.end(), p) == drop.end()) drop.push_back(p);
      continue;
    }
    // Nothing relied on it: only the code after the loop must not see it.
    bool owned = p.isVar() ? exit->ownsFact(p.root) || body->ownsFact(p.root) : exit->ownsPath(p) || body->ownsPath(p);
    if (!exitLive || owned) continue;
    if (p.isVar())
      exit->setMaybeNull(p.root, true);
    else
      exit->setPathNonNull(p, false);
  }
  head->clearReliedOn();
}

bool Parser::loopFactsHeld(LoopHints* learnt) const {
  for (const auto& [tok, facts] : failedLoops_) {
    std::vector<NullPath>& into = (*learnt)[tok];
    for (const NullPath& p : facts)
      if (std::find(into.begin(), into.end(), p) == into.end()) into.push_back(p);
  }
  return failedLoops_.empty();
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
