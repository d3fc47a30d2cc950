// Symbol tables, scope overlays, merging and lazy loop Phis.
#include "parser/scope.h"

#include <algorithm>
#include <functional>

#include "lexer/diag.h"
#include "lexer/work_counters.h"
#include "son/compute.h"
#include "son/merge_mem.h"
#include "son/unit.h"

namespace simplec {

// ---------------------------------------------------------------- names

int SymbolTable::define(const VarInfo& v) {
  if (definedInInnermost(v.name)) return -1;
  int idx = int(vars.size());
  blocks.back()[v.name] = idx;
  vars.push_back(v);
  return idx;
}

int SymbolTable::find(const std::string& name) const {
  for (size_t b = blocks.size(); b-- > 0;) {
    auto it = blocks[b].find(name);
    if (it != blocks[b].end()) return it->second;
  }
  return -1;
}

bool SymbolTable::definedInInnermost(const std::string& name) const { return blocks.back().count(name) != 0; }

void SymbolTable::truncate(size_t nvars, size_t nblocks) {
  if (blocks.size() > nblocks) blocks.resize(nblocks);
  // Forget the dropped variables' names (a declaration as the arm of an if
  // leaves its name in the enclosing block): only theirs, from the inside.
  while (vars.size() > nvars) {
    int idx = int(vars.size()) - 1;
    for (size_t b = blocks.size(); b-- > 0;) {
      auto it = blocks[b].find(vars.back().name);
      if (it != blocks[b].end() && it->second == idx) {
        blocks[b].erase(it);
        break;
      }
    }
    vars.pop_back();
  }
}

// ---------------------------------------------------------------- entries

bool Scope::own(int s, Node** v) const {
  auto it = where_.find(s);
  if (it == where_.end()) return false;
  *v = node->in[1 + it->second];
  return true;
}

void Scope::setOwn(int s, Node* v) {
  auto it = where_.find(s);
  if (it != where_.end()) {
    g_->setDef(node, 1 + it->second, v);
    return;
  }
  where_.emplace(s, uint32_t(slots_.size()));
  slots_.push_back(s);
  if (s < 0) classSlots_.push_back(s);
  g_->addDef(node, v);
}

void Scope::dropOwn(int s) {
  auto it = where_.find(s);
  if (it == where_.end()) return;
  g_->setDef(node, 1 + it->second, nullptr);
  slots_[it->second] = 0;
  where_.erase(it);
}

Scope* Scope::enclosingLoopBody() {
  for (Scope* x = this; x; x = x->parent_)
    if (x->loopBody_) return x;
  return nullptr;
}

Node* Scope::read(int s) {
  for (Scope* x = this; x; x = x->parent_) {
    workCounters().scopeReads++;
    Node* v;
    if (x->own(s, &v)) return s < 0 && !v ? read(kMemSlot) : v;  // a class without value shares the base
    if (s < 0 && x->resetsMem_) return read(kMemSlot);
    if (x->loopBody_) {
      Scope* head = x->parent_;
      SIMPLEC_CHECK(s < 2 || size_t(s - 2) < head->numVars_, "parser",
                    "variable " + std::to_string(s - 2) + " has no value in its loop");
      if (head->foldsClass(s)) {
        head->foldClass(s);
        return read(kMemSlot);  // it shares the base, which carries it round
      }
      return head->headPhi(s);
    }
  }
  // A class nothing stored to: the base. Everything else has a root entry.
  SIMPLEC_CHECK(s < 0, "parser", "slot " + std::to_string(s) + " has no value");
  return read(kMemSlot);
}

void Scope::write(int s, Node* v) {
  // A value changed inside a loop is carried around it: the loop heads get
  // their Phis first, so that the back edges have somewhere to go.
  if (s < 0) {
    // A class may read as the base below a call (no Phi made by reading):
    // every open loop gets the class's own Phi, or carries it in the base.
    for (Scope* b = enclosingLoopBody(); b; b = b->parent_->enclosingLoopBody()) {
      Scope* head = b->parent_;
      if (head->foldsClass(s)) head->foldClass(s);
      else head->headPhi(s);
    }
  } else {
    read(s);
  }
  setOwn(s, v);
}

Node* Scope::headPhi(int s) {
  Node* loop = ctrl();
  Node* v;
  if (own(s, &v) && v && v->op == Op::Phi && v->in[0] == loop) return v;
  Node* entry = read(s);
  // A class without a value of its own reads as the base, here the base's
  // Phi when the loop made that first: on entry, the class is the base's
  // value before the loop (a Phi of this loop is no value on its entry edge).
  if (s < 0 && entry->op == Op::Phi && entry->in[0] == loop) entry = entry->in[1];
  Node* phi = g_->make(Op::Phi, {loop, entry, nullptr}, table_->slotType(this, s));
  phi->name = s >= 2 ? var(s - 2).name : s == kMemSlot ? "$mem" : "$mem" + std::to_string(-s);
  setOwn(s, phi);
  loopPhis_.push_back({s, phi});
  if (s >= 2 && table_->onVarMerge) table_->onVarMerge(s - 2, phi, loop);
  return phi;
}

// ---------------------------------------------------------------- API

void Scope::setCtrl(Node* c) { g_->setDef(node, 0, c); }

Node* Scope::memOf(int k) { return read(classSlot(k)); }
void Scope::setMemOf(int k, Node* m) { write(classSlot(k), m); }

Node* Scope::allMem() {
  Node* base = mem();
  // The classes with a value of their own on the way up (older than a
  // call's reset, none counts): every other class shares the base.
  std::vector<int> classes;
  for (Scope* x = this; x; x = x->parent_) {
    workCounters().scopeReads += x->classSlots_.size();
    for (int s : x->classSlots_)
      if (x->where_.count(s)) classes.push_back(-s);
    if (x->resetsMem_) break;
  }
  std::sort(classes.begin(), classes.end());
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  std::vector<std::pair<int, Node*>> own;
  for (int k : classes) {
    Node* m = memOf(k);
    if (m != base) own.push_back({k, m});
  }
  // The loops this memory reaches without a call's reset between: a class
  // touched later in their bodies goes round inside the base (foldsClass).
  for (Scope* x = this; x; x = x->parent_) {
    if (x->resetsMem_) break;
    if (x->loopBody_) x->parent_->callReached_ = true;
  }
  if (own.empty()) return base;
  return peep_->run(makeMergeMem(*g_, base, own));
}

bool Scope::foldsClass(int s) const {
  if (s >= 0 || !callReached_) return false;
  // A class with a value of its own at or above this head (before a call's
  // reset) was read by every allMem that reached here: its Phi exists.
  for (const Scope* x = this; x; x = x->parent_) {
    if (x->where_.count(s)) {
      SIMPLEC_CHECK(x == this, "parser", "memory class " + std::to_string(-s) + " missed by a call in a loop");
      return false;
    }
    if (x->resetsMem_) break;
  }
  return true;
}

void Scope::foldClass(int s) {
  if (std::find(foldedClasses_.begin(), foldedClasses_.end(), s) != foldedClasses_.end()) return;
  foldedClasses_.push_back(s);
  headPhi(kMemSlot);  // the base goes round with a Phi, to carry the class
}

void Scope::carryClasses() {
  if (classesCarried_) return;
  classesCarried_ = true;
  std::vector<int> classes;
  for (Scope* x = this; x; x = x->parent_) {
    workCounters().scopeReads += x->classSlots_.size();
    for (int s : x->classSlots_) {
      auto it = x->where_.find(s);
      if (it != x->where_.end() && x->node->in[1 + it->second]) classes.push_back(s);
    }
    if (x->resetsMem_) break;
  }
  for (int s : classes) headPhi(s);
}

void Scope::setAllMem(Node* m) {
  // Open loops carry the base around, and every class with a value of its
  // own at their heads: after the call it is the base.
  read(kMemSlot);
  for (Scope* b = enclosingLoopBody(); b; b = b->parent_->enclosingLoopBody()) b->parent_->carryClasses();
  for (int s : std::vector<int>(classSlots_)) dropOwn(s);
  classSlots_.clear();
  resetsMem_ = true;
  setOwn(kMemSlot, m);
}

int Scope::define(const VarInfo& info, Node* v) {
  int idx = symbols_->define(info);
  if (idx >= 0) bind(idx, v);
  return idx;
}

void Scope::bind(int i, Node* v) {
  SIMPLEC_CHECK(size_t(i) >= numVars_, "parser", "variable " + std::to_string(i) + " bound twice");
  numVars_ = size_t(i) + 1;
  setOwn(varSlot(i), v);  // new here: no loop carries it yet
  facts_[i] = var(i).maybeNull;
}

void Scope::forget(size_t n) {
  // Only the dropped variables are looked at: a block's exit costs what it declared.
  for (size_t i = n; i < numVars_; i++) {
    dropOwn(varSlot(int(i)));
    facts_.erase(int(i));
  }
  for (auto it = paths_.begin(); it != paths_.end();) it = size_t(it->first.maxVar()) >= n ? paths_.erase(it) : ++it;
  if (numVars_ > n) numVars_ = n;
}

// ---------------------------------------------------------------- table

const Type* ScopeTable::slotType(Scope* s, int slot) const {
  if (slot < 2) return Type::mem();
  return s->var(slot - 2).type.lattice();
}

Scope* ScopeTable::make(Graph& g, Peephole& p, SymbolTable& symbols, Scope* parent, Node* ctrl) {
  auto s = std::make_unique<Scope>();
  s->table_ = this;
  s->g_ = &g;
  s->peep_ = &p;
  s->symbols_ = &symbols;
  s->parent_ = parent;
  s->node = g.make(Op::Scope, {ctrl}, Type::bottom(), int64_t(scopes_.size()));
  s->node->keep = 1;
  if (parent) {
    parent->children_++;
    s->numVars_ = parent->numVars_;
  }
  scopes_.push_back(std::move(s));
  uint64_t& peak = workCounters().scopesHeldPeak;
  if (scopes_.size() > peak) peak = scopes_.size();
  return scopes_.back().get();
}

Scope* ScopeTable::fresh(Graph& g, Peephole& p, SymbolTable& symbols, Node* ctrl, Node* mem) {
  Scope* s = make(g, p, symbols, nullptr, ctrl);
  s->setOwn(Scope::kMemSlot, mem);
  return s;
}

Scope* ScopeTable::child(Scope* s) { return make(*s->g_, *s->peep_, *s->symbols_, s, s->ctrl()); }

Scope* ScopeTable::loopBody(Scope* head) {
  SIMPLEC_CHECK(head->ctrl()->op == Op::Loop, "parser", "a loop body needs its Loop");
  Scope* b = child(head);
  b->loopBody_ = true;
  return b;
}

Scope* ScopeTable::snapshot(Scope* from, Scope* base) {
  Scope* s = child(base);
  s->setCtrl(from->ctrl());
  // Newest first: the first entry met for a slot is its value; class entries
  // older than a call's reset no longer count.
  bool classesDone = false;
  for (Scope* x = from; x != base; x = x->parent_) {
    SIMPLEC_CHECK(x, "parser", "a jump's scope is not inside its target's");
    workCounters().scopeReads += x->slots_.size();
    for (size_t k = 0; k < x->slots_.size(); k++) {
      int slot = x->slots_[k];
      if (slot == 0 || s->where_.count(slot)) continue;
      if (slot < 0 && classesDone) continue;
      if (slot >= 2 && size_t(slot - 2) >= base->numVars_) continue;  // not visible at the target
      s->setOwn(slot, x->node->in[1 + k]);
    }
    if (x->resetsMem_ && !classesDone) {
      classesDone = true;
      s->resetsMem_ = true;
    }
  }
  snapshotFacts(s, from, base);
  return s;
}

void ScopeTable::kill(Scope* s) {
  if (s->dead_) return;
  s->dead_ = true;
  if (s->parent_) s->parent_->children_--;
  Graph& g = *s->g_;
  s->node->keep = 0;
  // Detach the inputs one by one (they may be shared).
  while (!s->node->in.empty()) g.delDef(s->node, s->node->in.size() - 1);
  g.killIfUnused(s->node);
  s->slots_ = {};
  s->classSlots_ = {};
  s->where_ = {};
  s->facts_ = {};
  s->paths_ = {};
  // Scopes die in the reverse order of their making, but for the targets
  // of break and continue, which outlive the body scopes made after them:
  // the dead ones at the end go now, so that a function of 100k ifs holds
  // as many scopes as it nests, not one per if.
  while (!scopes_.empty() && scopes_.back()->dead_) scopes_.pop_back();
}

Scope* ScopeTable::collapse(Scope* s) {
  Scope* p = s->parent_;
  SIMPLEC_CHECK(p && !p->dead_ && p->children_ == 1, "parser", "folding a scope into a parent with other children");
  p->setCtrl(s->ctrl());
  if (s->resetsMem_) {
    // A call in s: what p knew of the classes is older than it.
    for (int slot : std::vector<int>(p->classSlots_)) p->dropOwn(slot);
    p->classSlots_.clear();
    p->resetsMem_ = true;
  }
  workCounters().scopeReads += s->slots_.size();
  for (size_t k = 0; k < s->slots_.size(); k++)
    if (s->slots_[k] != 0) p->setOwn(s->slots_[k], s->node->in[1 + k]);
  collapseFacts(s, p);
  p->numVars_ = s->numVars_;
  kill(s);
  return p;
}

Node* ScopeTable::merge(Scope* s, Scope* that) {
  SIMPLEC_CHECK(s->parent_ && s->parent_ == that->parent_, "parser", "merging scopes that are not siblings");
  SIMPLEC_CHECK(s->numVars_ == that->numVars_, "parser", "merging scopes of different shapes");
  Graph& g = *s->g_;
  Peephole& peep = *s->peep_;
  mergeFacts(s, that);
  // The slots either side changed. After a call on one side every class
  // may differ: those with a value in the common parent count too.
  std::vector<int> slots;
  workCounters().scopeReads += s->slots_.size() + that->slots_.size();
  for (int slot : s->slots_)
    if (slot != 0) slots.push_back(slot);
  for (int slot : that->slots_)
    if (slot != 0 && !s->where_.count(slot)) slots.push_back(slot);
  if (s->resetsMem_ || that->resetsMem_) {
    for (Scope* x = s->parent_; x; x = x->parent_) {
      workCounters().scopeReads += x->classSlots_.size();
      for (int slot : x->classSlots_)
        if (x->where_.count(slot) && std::find(slots.begin(), slots.end(), slot) == slots.end()) slots.push_back(slot);
      if (x->resetsMem_) break;
    }
  }
  Node* r = g.make(Op::Region, {nullptr, s->ctrl(), that->ctrl()}, Type::ctrl());
  r->keep++;
  // Every value read before any is written (a class of s may read s's base).
  std::vector<std::pair<Node*, Node*>> values;
  for (int slot : slots) values.push_back({s->read(slot), that->read(slot)});
  for (size_t i = 0; i < slots.size(); i++) {
    auto [a, b] = values[i];
    if (a == b) continue;
    int slot = slots[i];
    Node* phi = g.make(Op::Phi, {r, a, b}, slotType(s, slot));
    phi->name = slot >= 2 ? s->var(slot - 2).name : slot == Scope::kMemSlot ? "$mem" : "$mem" + std::to_string(-slot);
    Node* merged = peep.run(phi);
    s->setOwn(slot, merged);
    if (slot >= 2 && onVarMerge) onVarMerge(slot - 2, merged, r);
  }
  kill(that);
  r->keep--;
  Node* nr = peep.run(r);
  if (nr != r && !r->dead) g.subsume(r, nr);
  s->setCtrl(nr);
  return nr;
}

namespace {

// A loop Phi has its variable's declared type while the body is parsed;
// closed, it takes the meet of its inputs, which may be wider (an i16 read
// from an 8-byte field is typed int). Nodes typed from the narrower type
// would then look more precise than their inputs allow: widen them, and
// what was typed from them, to the whole type of their kind (at once, so a
// range cannot creep outward around a cycle). `work`: the Phi's users.
void widenUsers(std::vector<Node*> work) {
  while (!work.empty()) {
    Node* u = work.back();
    work.pop_back();
    if (u->dead || !u->type || u->op == Op::Scope) continue;
    const Type* t = compute(u);
    if (t->isa(u->type)) continue;
    u->type = t->isInt() ? Type::intBot() : t->isFlt() ? Type::fltBot() : t;
    work.insert(work.end(), u->out.begin(), u->out.end());
  }
}

}  // namespace

void ScopeTable::endLoop(Scope* head, Scope* back) {
  Graph& g = *head->g_;
  Peephole& peep = *head->peep_;
  Node* loop = head->ctrl();
  SIMPLEC_CHECK(loop->op == Op::Loop && loop->in[2] == nullptr, "parser", "loop closed twice");
  g.setDef(loop, 2, back->ctrl());
  // The head's Phis of this loop (as headPhi made them: a head with
  // thousands of variables pays for the few the loop touched), each closed
  // with the value at the back edge (itself when the loop never changed it).
  std::vector<Node*> phis;
  std::vector<int> slots;
  for (auto [slot, v] : head->loopPhis_) {
    workCounters().scopeReads++;
    Node* now;
    // Still the slot's value at the head (a nested loop may have folded it).
    if (head->own(slot, &now) && now == v && v->op == Op::Phi && v->in[0] == loop && !v->in[2]) {
      phis.push_back(v);
      slots.push_back(slot);
    }
  }
  head->loopPhis_.clear();
  // The classes folded into the base: their values at the back edge go
  // round in the base's Phi, merged into the base there.
  Node* baseBack = nullptr;
  if (!head->foldedClasses_.empty()) {
    std::vector<int> folded = head->foldedClasses_;
    std::sort(folded.begin(), folded.end(), std::greater<int>());  // class 1 first
    Node* bb = back->read(Scope::kMemSlot);
    std::vector<std::pair<int, Node*>> carried;
    for (int s : folded) {
      Node* v = back->read(s);
      if (v != bb) carried.push_back({-s, v});
    }
    if (!carried.empty()) {
      baseBack = peep.run(makeMergeMem(g, bb, carried));
      SIMPLEC_CHECK(std::find(slots.begin(), slots.end(), Scope::kMemSlot) != slots.end(), "parser",
                    "a loop carries memory classes in a base memory without a Phi");
    }
  }
  for (size_t i = 0; i < phis.size(); i++)
    g.setDef(phis[i], 2, baseBack && slots[i] == Scope::kMemSlot ? baseBack : back->read(slots[i]));
  // The head scope may head the next loop too: what it knew of this one goes.
  head->callReached_ = false;
  head->classesCarried_ = false;
  head->foldedClasses_.clear();
  // Closed: reads through the body no longer make Phis at the head.
  SIMPLEC_CHECK(back->parent_ && back->parent_->loopBody_ && back->parent_->parent_ == head, "parser",
                "a loop's back edge outside its body");
  back->parent_->loopBody_ = false;
  kill(back);
  // One round of useless-Phi removal, then the loop itself.
  for (Node* hv : phis) {
    if (hv->dead) continue;
    const Type* declared = hv->type;
    std::vector<Node*> users = hv->out;
    Node* x = peep.run(hv);
    if (x != hv && !hv->dead) g.subsume(hv, x);
    if (declared && x->type && !x->type->isa(declared)) widenUsers(std::move(users));
  }
  Node* nl = peep.run(loop);
  if (nl != loop && !loop->dead) g.subsume(loop, nl);
}

}  // namespace simplec
