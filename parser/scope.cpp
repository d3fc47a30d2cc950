// Scope duplication, merging and lazy loop Phis.
#include "parser/scope.h"

#include "lexer/diag.h"
#include "son/compute.h"
#include "son/unit.h"

namespace simplec {

void Scope::setCtrl(Node* c) { g_->setDef(node, kCtrl, c); }
Node* Scope::mem() { return getSlot(kMem); }
void Scope::setMem(Node* m) { setSlot(kMem, m); }

void Scope::setRawClass(size_t k, Node* m) {
  Graph& g = *g_;
  while (mems->in.size() <= k) g.addDef(mems, nullptr);
  g.setDef(mems, k, m);
}

Node* Scope::memOf(int k) {
  Node* v = rawClass(size_t(k));
  if (!v) {
    if (!baseIsLazy()) return mem();
    v = node->in[kMem];  // the base is still bound to a loop head: so is the class
  }
  if (v->op != Op::Scope) return v;
  Node* phi = table_->scopeOfNode(v)->headClassPhi(size_t(k));
  setRawClass(size_t(k), phi);
  return phi;
}

Node* Scope::headClassPhi(size_t k) {
  Node* loop = ctrl();
  Node* hv = rawClass(k);
  if (hv && hv->op == Op::Phi && hv->in[0] == loop) return hv;
  Node* entry;
  Node* base = node->in[kMem];
  if (!hv && base && base->op == Op::Phi && base->in[0] == loop)
    entry = base->in[1];  // the class shares the base: its value on entry
  else
    entry = memOf(int(k));
  Graph& g = *g_;
  Node* phi = g.make(Op::Phi, {loop, entry, nullptr}, Type::mem());
  phi->name = "$mem" + std::to_string(k);
  setRawClass(k, phi);
  return phi;
}

void Scope::setMemOf(int k, Node* m) {
  Node* v = rawClass(size_t(k));
  // A class still bound to a loop head gets its head Phi first, so the back
  // edge has somewhere to go; so do all open loops around (a class first
  // stored inside a loop after a call reset the memory).
  if ((v && v->op == Op::Scope) || (!v && baseIsLazy())) memOf(k);
  for (Scope* h = loopHead; h; h = h->loopHead) h->headClassPhi(size_t(k));
  setRawClass(size_t(k), m);
}

Node* Scope::allMem() {
  Graph& g = *g_;
  std::vector<Node*> ins{nullptr, mem()};
  size_t n = g.unit().aliases.size();
  bool any = false;
  for (size_t k = 1; k < n; k++) {
    Node* v = rawClass(k);
    Node* m = v || baseIsLazy() ? memOf(int(k)) : nullptr;
    if (m == ins[1]) m = nullptr;
    ins.push_back(m);
    any |= m != nullptr;
  }
  if (!any) return ins[1];
  while (ins.back() == nullptr) ins.pop_back();
  return peep_->run(g.make(Op::MergeMem, ins, Type::mem()));
}

void Scope::setAllMem(Node* m) {
  for (size_t k = 1; k < mems->in.size(); k++)
    if (rawClass(k)) setMemOf(int(k), nullptr);
  setMem(m);
}

void Scope::popBlock() {
  size_t n = blocks.back().size();
  blocks.pop_back();
  truncate(vars.size() - n, blocks.size());
}

void Scope::truncate(size_t nvars, size_t nblocks) {
  Graph& g = *g_;
  while (vars.size() > nvars) {
    g.delDef(node, node->in.size() - 1);
    vars.pop_back();
  }
  if (blocks.size() > nblocks) blocks.resize(nblocks);
  // Names of the dropped variables are forgotten too (a declaration as the
  // arm of an if leaves its name in the enclosing block).
  for (auto& b : blocks)
    for (auto it = b.begin(); it != b.end();) it = it->second >= int(nvars) ? b.erase(it) : std::next(it);
}

int Scope::define(const VarInfo& v, Node* value) {
  if (definedInInnermost(v.name)) return -1;
  int idx = int(vars.size());
  blocks.back()[v.name] = idx;
  vars.push_back(v);
  g_->addDef(node, value);
  return idx;
}

bool Scope::definedInInnermost(const std::string& name) const {
  return !blocks.empty() && blocks.back().count(name);
}

int Scope::find(const std::string& name) const {
  for (size_t b = blocks.size(); b-- > 0;) {
    auto it = blocks[b].find(name);
    if (it != blocks[b].end()) return it->second;
  }
  return -1;
}

void Scope::set(int i, Node* v) { setSlot(kFirstVar + size_t(i), v); }

Node* Scope::getSlot(size_t s) {
  Node* v = node->in[s];
  if (!v || v->op != Op::Scope) return v;
  // A class that shares a lazily bound base is bound to the same loop head
  // (it may get its own Phi there): say so before the base is resolved.
  if (s == kMem) {
    size_t n = g_->unit().aliases.size();
    for (size_t k = 1; k < n; k++)
      if (!rawClass(k)) setRawClass(k, v);
  }
  // Lazy loop Phi: the head scope gets the Phi (created once), and this
  // scope then refers to it directly.
  Scope* head = table_->scopeOfNode(v);
  Node* hv = head->node->in[s];
  Node* phi;
  if (hv && hv->op == Op::Phi && hv->in[0] == head->ctrl()) {
    phi = hv;
  } else {
    Node* entry = head->getSlot(s);
    Graph& g = *g_;
    phi = g.make(Op::Phi, {head->ctrl(), entry, nullptr}, table_->slotType(head, s));
    if (s >= kFirstVar) phi->name = head->vars[s - kFirstVar].name;
    head->setSlot(s, phi);
  }
  g_->setDef(node, s, phi);
  return phi;
}

void Scope::setSlot(size_t s, Node* v) {
  Node* old = node->in[s];
  // Writing a slot still lazily bound to a loop head must create the head's
  // Phi first, so the back edge has somewhere to go.
  if (old && old->op == Op::Scope && old != v) getSlot(s);
  g_->setDef(node, s, v);
}

const Type* ScopeTable::slotType(Scope* s, size_t slot) const {
  if (slot == Scope::kMem) return Type::mem();
  return s->vars[slot - Scope::kFirstVar].type.lattice();
}

Scope* ScopeTable::fresh(Graph& g, Peephole& p, Node* ctrl, Node* mem) {
  auto s = std::make_unique<Scope>();
  s->table_ = this;
  s->g_ = &g;
  s->peep_ = &p;
  s->node = g.make(Op::Scope, {ctrl, mem}, Type::bottom(), int64_t(scopes_.size()));
  s->node->keep = 1;
  s->mems = g.make(Op::Scope, {nullptr}, Type::bottom(), int64_t(scopes_.size()));
  s->mems->keep = 1;
  s->blocks.emplace_back();
  scopes_.push_back(std::move(s));
  return scopes_.back().get();
}

Scope* ScopeTable::dup(Scope* src, bool loop) {
  Graph& g = *src->g_;
  auto s = std::make_unique<Scope>();
  s->table_ = this;
  s->g_ = src->g_;
  s->peep_ = src->peep_;
  s->vars = src->vars;
  s->blocks = src->blocks;
  std::vector<Node*> ins{src->ctrl()};
  for (size_t i = 1; i < src->node->in.size(); i++) ins.push_back(loop ? src->node : src->node->in[i]);
  s->node = g.make(Op::Scope, ins, Type::bottom(), int64_t(scopes_.size()));
  s->node->keep = 1;
  std::vector<Node*> mins{nullptr};
  for (size_t k = 1; k < src->mems->in.size(); k++) mins.push_back(loop ? src->node : src->mems->in[k]);
  s->mems = g.make(Op::Scope, mins, Type::bottom(), int64_t(scopes_.size()));
  s->mems->keep = 1;
  s->loopHead = loop ? src : src->loopHead;
  scopes_.push_back(std::move(s));
  return scopes_.back().get();
}

void ScopeTable::kill(Scope* s) {
  Graph& g = *s->g_;
  if (s->node->dead) return;
  s->node->keep = 0;
  // Detach the inputs one by one (they may be shared).
  while (!s->node->in.empty()) g.delDef(s->node, s->node->in.size() - 1);
  g.killIfUnused(s->node);
  s->mems->keep = 0;
  while (!s->mems->in.empty()) g.delDef(s->mems, s->mems->in.size() - 1);
  g.killIfUnused(s->mems);
}

Node* ScopeTable::merge(Scope* s, Scope* that) {
  Graph& g = *s->g_;
  Peephole& peep = *s->peep_;
  SIMPLEC_CHECK(s->g_ == that->g_, "parser", "merging scopes of two functions");
  SIMPLEC_CHECK(s->numSlots() == that->numSlots(), "parser", "merging scopes of different shapes");
  // Null facts: a dead arm proves nothing; otherwise a variable may be null
  // after the join if it may be on either arm.
  bool sDead = s->ctrl()->type->kind() == TKind::XCtrl;
  bool thatDead = that->ctrl()->type->kind() == TKind::XCtrl;
  for (size_t i = 0; i < s->vars.size() && i < that->vars.size(); i++) {
    if (sDead) s->vars[i].maybeNull = that->vars[i].maybeNull;
    else if (!thatDead) s->vars[i].maybeNull = s->vars[i].maybeNull || that->vars[i].maybeNull;
  }
  Node* r = g.make(Op::Region, {nullptr, s->ctrl(), that->ctrl()}, Type::ctrl());
  r->keep++;
  for (size_t i = 1; i < s->numSlots(); i++) {
    if (s->node->in[i] == that->node->in[i]) continue;
    Node* a = s->getSlot(i);
    Node* b = that->getSlot(i);
    if (a == b) continue;
    Node* phi = g.make(Op::Phi, {r, a, b}, nullptr);
    if (i >= Scope::kFirstVar) phi->name = s->vars[i - Scope::kFirstVar].name;
    phi->type = slotType(s, i);
    s->setSlot(i, peep.run(phi));
  }
  size_t nk = std::max(s->mems->in.size(), that->mems->in.size());
  for (size_t k = 1; k < nk; k++) {
    Node* ra = s->rawClass(k);
    Node* rb = that->rawClass(k);
    if (ra == rb && (ra || s->node->in[Scope::kMem] == that->node->in[Scope::kMem])) continue;
    Node* a = s->memOf(int(k));
    Node* b = that->memOf(int(k));
    if (a == b) {
      s->setRawClass(k, a);
      continue;
    }
    Node* phi = g.make(Op::Phi, {r, a, b}, Type::mem());
    phi->name = "$mem" + std::to_string(k);
    s->setRawClass(k, peep.run(phi));
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

void ScopeTable::endLoop(Scope* head, Scope* back, Scope* exit) {
  Graph& g = *head->g_;
  Peephole& peep = *head->peep_;
  Node* loop = head->ctrl();
  SIMPLEC_CHECK(loop->op == Op::Loop && loop->in[2] == nullptr, "parser", "loop closed twice");
  bool exitBaseLazy = exit->node->in[Scope::kMem] == head->node;
  g.setDef(loop, 2, back->ctrl());
  size_t n = head->numSlots();
  for (size_t i = 1; i < n; i++) {
    Node* hv = head->node->in[i];
    bool hasPhi = hv && hv->op == Op::Phi && hv->in[0] == loop;
    if (hasPhi) {
      Node* bv = i < back->numSlots() ? back->node->in[i] : head->node;
      // Unchanged around the loop: the Phi feeds itself and folds away.
      g.setDef(hv, 2, bv == head->node ? hv : back->getSlot(i));
    }
    // The exit still lazily bound to the head sees the head's value (its
    // Phi, or what the head itself holds, possibly an outer loop's sentinel).
    if (i < exit->numSlots() && exit->node->in[i] == head->node) g.setDef(exit->node, i, head->node->in[i]);
  }
  // Memory classes: back edges into the head's class Phis; the exit sees
  // the head's value where it is still bound to the head.
  for (size_t k = 1; k < head->mems->in.size(); k++) {
    Node* hv = head->mems->in[k];
    if (hv && hv->op == Op::Phi && hv->in[0] == loop) {
      Node* bv = back->rawClass(k);
      bool unchanged = bv == head->node || (!bv && back->node->in[Scope::kMem] == head->node);
      g.setDef(hv, 2, unchanged ? hv : back->memOf(int(k)));
    }
    Node* ev = exit->rawClass(k);
    if (ev == head->node || (!ev && exitBaseLazy && hv)) exit->setRawClass(k, hv);
  }
  for (size_t k = head->mems->in.size(); k < exit->mems->in.size(); k++)
    if (exit->mems->in[k] == head->node) exit->setRawClass(k, nullptr);
  kill(back);
  // One round of useless-Phi removal, then the loop itself.
  for (size_t i = 1; i < n; i++) {
    Node* hv = head->node->in[i];
    if (!hv || hv->op != Op::Phi || hv->in[0] != loop) continue;
    const Type* declared = hv->type;
    std::vector<Node*> users = hv->out;
    Node* x = peep.run(hv);
    if (x != hv && !hv->dead) g.subsume(hv, x);
    if (declared && x->type && !x->type->isa(declared)) widenUsers(std::move(users));
  }
  for (size_t k = 1; k < head->mems->in.size(); k++) {
    Node* hv = head->mems->in[k];
    if (!hv || hv->op != Op::Phi || hv->in[0] != loop) continue;
    Node* x = peep.run(hv);
    if (x != hv && !hv->dead) g.subsume(hv, x);
  }
  Node* nl = peep.run(loop);
  if (nl != loop && !loop->dead) g.subsume(loop, nl);
}

}  // namespace simplec
