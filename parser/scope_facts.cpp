// Null facts in scopes: per variable (maybe null?) and per path (known
// non-null?), overlaid like slot values. An arm's facts merge by "holds on
// every live arm". A non-null answer that comes from the entry of an open
// loop is recorded at its head: the parser checks at the loop's end that
// the back edges keep it (parse_loop.cpp, null_facts.cpp).
#include <algorithm>

#include "parser/scope.h"

namespace simplec {

void Scope::markRelied(const Scope* found, const NullPath& p, ReliedMarks* added) const {
  for (const Scope* x = this; x && x != found; x = x->parent_) {
    if (!x->loopBody_) continue;
    const Scope* head = x->parent_;
    bool made = p.isVar() ? head->reliedVars_.insert(p.root).second : head->reliedPaths_.insert(p).second;
    if (made && added) added->push_back({head, p});
  }
}

void Scope::unmarkRelied(const ReliedMarks& marks) {
  for (const auto& [head, p] : marks) {
    if (p.isVar())
      head->reliedVars_.erase(p.root);
    else
      head->reliedPaths_.erase(p);
  }
}

bool Scope::maybeNull(int i, bool mark, ReliedMarks* added) const {
  const Scope* x = this;
  bool r = var(i).maybeNull;
  for (; x; x = x->parent_) {
    auto it = x->facts_.find(i);
    if (it != x->facts_.end()) {
      r = it->second;
      break;
    }
  }
  if (!r && mark) markRelied(x, NullPath::ofVar(i), added);
  return r;
}

void Scope::setMaybeNull(int i, bool b) {
  if (maybeNull(i, false) != b || !facts_.count(i)) facts_[i] = b;
}

const bool* Scope::ownPath(const NullPath& p) const {
  auto it = paths_.find(p);
  return it == paths_.end() ? nullptr : &it->second;
}

bool Scope::ownsPath(const NullPath& p) const { return ownPath(p) != nullptr; }

bool Scope::pathNonNull(const NullPath& p, bool mark, ReliedMarks* added) const {
  const Scope* x = this;
  bool r = false;
  for (; x; x = x->parent_) {
    if (const bool* e = x->ownPath(p)) {
      r = *e;
      break;
    }
  }
  if (r && mark) markRelied(x, p, added);
  return r;
}

void Scope::setPathNonNull(const NullPath& p, bool nonNull) {
  // A fact is kept here even if the parent has it too: a test in a loop
  // proves it without the loop's entry. "Maybe null" is kept only to hide
  // the parent's fact, so a fact that held on one arm leaves nothing behind.
  if (!nonNull && !(parent_ && parent_->pathNonNull(p, false)))
    paths_.erase(p);
  else
    paths_[p] = nonNull;
}

void Scope::forgetPaths(const std::function<bool(const NullPath&)>& affected) {
  std::set<NullPath> seen;
  std::vector<NullPath> drop;
  for (const Scope* x = this; x; x = x->parent_) {
    for (const auto& [p, nonNull] : x->paths_) {
      if (!seen.insert(p).second) continue;  // the newest entry is the fact
      if (nonNull && affected(p)) drop.push_back(p);
    }
  }
  for (const NullPath& p : drop) setPathNonNull(p, false);
}

std::vector<int> Scope::ownFactVars() const {
  std::vector<int> r;
  for (const auto& [v, b] : facts_) r.push_back(v);
  std::sort(r.begin(), r.end());  // a deterministic order for what is reported
  return r;
}

std::vector<NullPath> Scope::ownPaths() const {
  std::vector<NullPath> r;
  for (const auto& [p, b] : paths_) r.push_back(p);
  return r;
}

bool Scope::reliedOn(const NullPath& p) const {
  return p.isVar() ? reliedVars_.count(p.root) != 0 : reliedPaths_.count(p) != 0;
}

void Scope::clearReliedOn() {
  reliedVars_.clear();
  reliedPaths_.clear();
}

// ---------------------------------------------------------------- table

void ScopeTable::mergeFacts(Scope* s, Scope* that) {
  // A dead arm proves nothing; otherwise a fact holds after the join if it
  // holds on both arms. Only a fact that survives counts as relied on.
  bool sDead = s->ctrl()->type->kind() == TKind::XCtrl;
  bool thatDead = that->ctrl()->type->kind() == TKind::XCtrl;
  std::vector<int> factVars;
  for (const auto& [v, b] : s->facts_) factVars.push_back(v);
  for (const auto& [v, b] : that->facts_)
    if (!s->facts_.count(v)) factVars.push_back(v);
  for (int v : factVars) {
    bool a = s->maybeNull(v, false), b = that->maybeNull(v, false);
    bool r = sDead ? b : thatDead ? a : a || b;
    if (!r) {
      if (!sDead) s->maybeNull(v, true);
      if (!thatDead) that->maybeNull(v, true);
    }
    s->facts_[v] = r;
  }
  std::vector<NullPath> paths = s->ownPaths();
  for (const auto& [p, b] : that->paths_)
    if (!s->ownsPath(p)) paths.push_back(p);
  for (const NullPath& p : paths) {
    bool a = s->pathNonNull(p, false), b = that->pathNonNull(p, false);
    bool r = sDead ? b : thatDead ? a : a && b;
    if (r) {
      if (!sDead) s->pathNonNull(p, true);
      if (!thatDead) that->pathNonNull(p, true);
    }
    s->setPathNonNull(p, r);
  }
}

void ScopeTable::snapshotFacts(Scope* s, Scope* from, Scope* base) {
  // Newest first: the first entry met is the fact; only what the target sees.
  for (Scope* x = from; x != base; x = x->parent_) {
    for (const auto& [v, b] : x->facts_)
      if (size_t(v) < base->numVars_ && !s->facts_.count(v)) s->facts_[v] = b;
    for (const auto& [p, b] : x->paths_)
      if (size_t(p.maxVar()) < base->numVars_) s->paths_.emplace(p, b);  // the newest stays
  }
}

void ScopeTable::collapseFacts(Scope* s, Scope* p) {
  for (const auto& [v, b] : s->facts_) p->facts_[v] = b;
  for (const auto& [path, b] : s->paths_) p->setPathNonNull(path, b);
}

}  // namespace simplec
