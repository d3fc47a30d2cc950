// Peepholes on memory: a load after a store to the same address takes the
// stored value, a load from a fresh allocation is zero, a load skips stores
// (and allocations) that provably touch other bytes, a store overwriting a
// store nothing else saw replaces it, and a bounds check of an index known
// to be in range goes away. Loads never see stores of other alias classes:
// each class has its own memory chain.
#include "lexer/work_counters.h"
#include "opt/peephole.h"
#include "son/merge_mem.h"
#include "son/unit.h"
#include "son/mem_access.h"

#include <algorithm>

namespace simplec {

namespace {
bool isIntCon(const Node* n) { return n && n->op == Op::Con && n->type->isInt() && n->type->isConst(); }
bool isStringCon(const Node* n) { return n && n->op == Op::Con && n->type->isPtr() && n->type->fun() >= 0; }
Node* untruncated(Node* v, int size);

// An access given all memory (an inlined callee's, whose memory was the
// call's) takes just its own class.
bool narrowMemory(Graph& g, Node* n, int alias) {
  Node* mem = n->in[1];
  if (!mem || mem->op != Op::MergeMem || alias <= 0) return false;
  g.setDef(n, 1, mergeMemOf(mem, alias));
  return true;
}
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
  if (isStringCon(ptr) && isIntCon(off) && size_t(ptr->type->fun()) < g_.unit().strings.size()) {
    const std::string& s = g_.unit().strings[size_t(ptr->type->fun())];
    int64_t o = off->type->value();
    if (m.alias == 0 && o == 0) return con(int64_t(s.size()));
    if (m.size == 1 && o >= kArrayHeader && o - kArrayHeader < int64_t(s.size()))
      return con(m.extend(int64_t(uint8_t(s[size_t(o - kArrayHeader)]))));
  }
  Node* mem = n->in[1];
  if (!mem) return nullptr;
  if (narrowMemory(g_, n, m.alias)) return n;
  for (int step = 0;; step++) {
    if (step == kMaxMemoryWalk) return nullptr;
    workCounters().memoryWalkSteps++;
    Node* before;  // the memory before this store or allocation
    if (mem->op == Op::Store && MemAccess::decode(mem->aux).alias == m.alias) {
      MemAccess sm = MemAccess::decode(mem->aux);
      if (sameValue(mem->in[2], ptr) && sameValue(mem->in[3], off) && sm.size == m.size) {
        Node* v = mem->in[4];
        // Forward what the load itself would read back: the low bytes,
        // extended.
        if (v->type && v->type->isa(m.loadType())) return v;
        if (m.value != MemValue::Int || m.size >= 8 || !v->type || !v->type->isInt()) break;
        int shift = 64 - 8 * m.size;
        if (!m.isSigned) return make(Op::And, {nullptr, v, con(int64_t((uint64_t(1) << (8 * m.size)) - 1))});
        return make(Op::Sar, {nullptr, make(Op::Shl, {nullptr, v, con(shift)}), con(shift)});
      }
      if (!provablyDisjoint(n, mem)) break;
      before = mem->in[1];
    } else if (mem->op == Op::Proj && mem->aux == 1 && mem->in[0]->op == Op::New) {
      Node* nw = mem->in[0];
      if (newOf(ptr) == nw) {
        // Fresh memory is zero-filled.
        if (m.value == MemValue::Int) return con(0);
        if (m.value == MemValue::Ptr) return run(g_.con(Type::nullPtr()));
        break;
      }
      if (!newOf(ptr) && !isStringCon(ptr)) break;
      before = nw->in[1];
    } else {
      break;
    }
    if (!before) break;
    mem = before;
  }
  // Past what cannot change what it reads, up to what may.
  if (mem == n->in[1]) return nullptr;
  g_.setDef(n, 1, mem);
  return n;
}

// v with a truncation to `size` bytes or wider removed: a narrow store
// keeps only the low bytes anyway.
namespace {
Node* untruncated(Node* v, int size) {
  int bits = size * 8;
  if (v->op == Op::And && isIntCon(v->in[2])) {
    uint64_t mask = uint64_t(v->in[2]->type->value());
    uint64_t low = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    if ((mask & low) == low) return v->in[1];
  }
  if (v->op == Op::Sar && isIntCon(v->in[2]) && v->in[1]->op == Op::Shl && isIntCon(v->in[1]->in[2]) &&
      v->in[1]->in[2]->type->value() == v->in[2]->type->value() && v->in[2]->type->value() >= 0 &&
      v->in[2]->type->value() <= 64 - bits)
    return v->in[1]->in[1];
  return nullptr;
}
}  // namespace

Node* Peephole::idealizeNew(Node* n) { return narrowMemory(g_, n, MemAccess::decode(n->aux).alias) ? n : nullptr; }

Node* Peephole::idealizeStore(Node* n) {
  MemAccess m = MemAccess::decode(n->aux);
  if (narrowMemory(g_, n, m.alias)) return n;
  if (m.size < 8 && m.value == MemValue::Int) {
    if (Node* x = untruncated(n->in[4], m.size)) {
      g_.setDef(n, 4, x);
      return n;
    }
  }
  // A store overwriting the same bytes, when nothing else read or kept the
  // memory in between, makes the earlier store useless.
  Node* prev = n->in[1];
  if (prev->op == Op::Store && prev->out.size() == 1 && prev->keep == 0 && sameValue(prev->in[2], n->in[2]) &&
      sameValue(prev->in[3], n->in[3]) && prev->aux == n->aux) {
    g_.setDef(n, 1, prev->in[1]);
    return n;
  }
  return nullptr;
}

Node* Peephole::idealizeMergeMem(Node* n) {
  const std::vector<int>& cs = mergeMemClasses(n);
  std::vector<std::pair<int, Node*>> own;
  // A MergeMem over a MergeMem (an inlined callee's memory over the
  // caller's) is one MergeMem: the outer one's classes over the inner's.
  Node* base = n->in[1];
  if (base->op == Op::MergeMem && base != n) {
    const std::vector<int>& inner = mergeMemClasses(base);
    size_t i = 0, j = 0;
    while (i < cs.size() || j < inner.size()) {
      if (j == inner.size() || (i < cs.size() && cs[i] <= inner[j])) {
        if (j < inner.size() && cs[i] == inner[j]) j++;
        own.push_back({cs[i], n->in[2 + i]});
        i++;
      } else {
        own.push_back({inner[j], base->in[2 + j]});
        j++;
      }
    }
    base = base->in[1];
  } else {
    for (size_t i = 0; i < cs.size(); i++) own.push_back({cs[i], n->in[2 + i]});
  }
  // Classes equal to the base are the base; with none left, just the base.
  size_t before = own.size();
  own.erase(std::remove_if(own.begin(), own.end(), [&](const auto& c) { return c.second == base; }), own.end());
  if (own.empty()) return base;
  if (base == n->in[1] && own.size() == before) return nullptr;
  Node* m = makeMergeMem(g_, base, own);
  m->pos = at_;
  return run(m);
}

Node* Peephole::idealizeBoundsCheck(Node* n) {
  const Type* i = n->in[1]->type;
  const Type* len = n->in[2]->type;
  if (i->isInt() && !i->isIntTop() && len->isInt() && !len->isIntTop() && i->lo() >= 0 && i->hi() < len->lo())
    return n->in[0];
  return nullptr;
}

}  // namespace simplec
