// Peepholes on memory: a load after a store to the same address takes the
// stored value, a load from a fresh allocation is zero, a load skips stores
// (and allocations) that provably touch other bytes, a store overwriting a
// store nothing else saw replaces it, and a bounds check of an index known
// to be in range goes away. Loads never see stores of other alias classes:
// each class has its own memory chain.
#include "opt/peephole.h"
#include "son/mem_access.h"

namespace simplec {

namespace {
bool isIntCon(const Node* n) { return n && n->op == Op::Con && n->type->isInt() && n->type->isConst(); }
bool isStringCon(const Node* n) { return n && n->op == Op::Con && n->type->isPtr() && n->type->fun() >= 0; }
constexpr int kMaxWalk = 64;  // stores looked through per load: bounds the work
}  // namespace

Node* Peephole::idealizeLoad(Node* n) {
  MemAccess m = MemAccess::decode(n->aux);
  Node* ptr = n->in[2];
  Node* off = n->in[3];
  // The length of a fresh array is the length it was made with; strings
  // are constants.
  if (m.alias == 0) {
    if (const Node* nw = newOf(ptr)) return nw->in[2];
  }
  if (isStringCon(ptr) && isIntCon(off) && size_t(ptr->type->fun()) < g_.strings.size()) {
    const std::string& s = g_.strings[size_t(ptr->type->fun())];
    int64_t o = off->type->value();
    if (m.alias == 0 && o == 0) return con(int64_t(s.size()));
    if (m.size == 1 && o >= kArrayHeader && o - kArrayHeader < int64_t(s.size()))
      return con(m.extend(int64_t(uint8_t(s[size_t(o - kArrayHeader)]))));
  }
  Node* mem = n->in[1];
  if (!mem) return nullptr;
  if (mem->op == Op::MergeMem) {
    Node* cls = size_t(m.alias) < mem->in.size() && mem->in[size_t(m.alias)] ? mem->in[size_t(m.alias)] : mem->in[1];
    g_.setDef(n, 1, cls);
    return n;
  }
  bool changed = false;
  for (int step = 0; step < kMaxWalk && mem; step++) {
    if (mem->op == Op::Store && MemAccess::decode(mem->aux).alias == m.alias) {
      MemAccess sm = MemAccess::decode(mem->aux);
      if (mem->in[2] == ptr && mem->in[3] == off && sm.size == m.size) {
        Node* v = mem->in[4];
        // Forward only what the load itself would read back.
        if (v->type && v->type->isa(m.loadType())) return v;
        break;
      }
      if (!provablyDisjoint(n, mem)) break;
    } else if (mem->op == Op::Proj && mem->aux == 1 && mem->in[0]->op == Op::New) {
      Node* nw = mem->in[0];
      if (newOf(ptr) == nw) {
        // Fresh memory is zero-filled.
        if (m.value == MemValue::Int) return con(0);
        if (m.value == MemValue::Ptr) return run(g_.con(Type::nullPtr()));
        break;
      }
      if (!newOf(ptr) && !isStringCon(ptr)) break;
    } else {
      break;
    }
    mem = mem->in[1];  // the memory before the store or allocation
    g_.setDef(n, 1, mem);
    changed = true;
  }
  return changed ? n : nullptr;
}

Node* Peephole::idealizeStore(Node* n) {
  // A store overwriting the same bytes, when nothing else read or kept the
  // memory in between, makes the earlier store useless.
  Node* prev = n->in[1];
  if (prev->op == Op::Store && prev->out.size() == 1 && prev->keep == 0 && prev->in[2] == n->in[2] &&
      prev->in[3] == n->in[3] && prev->aux == n->aux) {
    g_.setDef(n, 1, prev->in[1]);
    return n;
  }
  return nullptr;
}

Node* Peephole::idealizeMergeMem(Node* n) {
  // Classes equal to the base are the base; with none left, just the base.
  bool changed = false;
  for (size_t i = 2; i < n->in.size(); i++)
    if (n->in[i] && n->in[i] == n->in[1]) {
      g_.setDef(n, i, nullptr);
      changed = true;
    }
  while (n->in.size() > 2 && !n->in.back()) {
    g_.delDef(n, n->in.size() - 1);
    changed = true;
  }
  if (n->in.size() == 2) return n->in[1];
  return changed ? n : nullptr;
}

Node* Peephole::idealizeBoundsCheck(Node* n) {
  const Type* i = n->in[1]->type;
  const Type* len = n->in[2]->type;
  if (i->isInt() && !i->isIntTop() && len->isInt() && !len->isIntTop() && i->lo() >= 0 && i->hi() < len->lo())
    return n->in[0];
  return nullptr;
}

}  // namespace simplec
