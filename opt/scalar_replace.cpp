// Scalar replacement of allocations that never escape (see scalar_replace.h).
#include "opt/scalar_replace.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "son/control_flow.h"
#include "son/unit.h"
#include "son/compute.h"
#include "lexer/diag.h"
#include "son/mem_access.h"
#include "son/merge_mem.h"
#include "son/verify.h"

namespace simplec {

namespace {

constexpr int kMaxSteps = 4000;  // memory nodes looked at per field walk

bool isIntCon(const Node* n) { return n && n->op == Op::Con && n->type && n->type->isInt() && n->type->isConst(); }

// One allocation and the walks that find its fields' values.
class Allocation {
 public:
  Allocation(Graph& g, const ControlFlow& dom, Node* nw) : g_(g), dom_(dom), new_(nw) {
    for (Node* u : nw->out)
      if (u->op == Op::Proj && u->aux == 2) ptrs_.push_back(u);
    // By id: the order of rewrites must not depend on addresses.
    std::sort(ptrs_.begin(), ptrs_.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
    ptrs_.erase(std::unique(ptrs_.begin(), ptrs_.end()), ptrs_.end());
  }

  // Is the reference used only as the address of loads and stores at
  // constant offsets, one access kind per offset?
  bool staysLocal() {
    if (!isIntCon(new_->in[2]) || new_->in[2]->type->value() < 0) return false;  // no trap to keep
    std::map<int64_t, int64_t> kindAt;
    for (Node* p : ptrs_)
      for (Node* u : p->out) {
        if (u->op != Op::Load && u->op != Op::Store) return false;
        for (size_t i = 0; i < u->in.size(); i++)
          if (u->in[i] == p && i != 2) return false;  // stored as a value, or an offset
        if (!isIntCon(u->in[3])) return false;
        MemAccess m = MemAccess::decode(u->aux);
        if (m.alias == 0) {
          if (u->op == Op::Store) return false;
          continue;  // the length
        }
        if (m.value == MemValue::Fun) return false;
        auto [it, fresh] = kindAt.emplace(u->in[3]->type->value(), u->aux);
        if (!fresh && it->second != u->aux) return false;
        if (u->op == Op::Load) loads_.push_back(u);
        else stores_.push_back(u);
      }
    return true;
  }

  // Can every load's value be found? (No graph change.)
  bool valuesFound() {
    for (Node* ld : loads_) {
      std::set<Node*> seen;
      steps_ = 0;
      if (!found(ld->in[1], ld, seen)) return false;
    }
    return true;
  }

  // Replaces the loads by their values, then drops the stores and the New.
  void replace() {
    std::vector<Node*> loads = loads_;
    std::sort(loads.begin(), loads.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
    // One value per field and memory state, shared by the field's loads.
    std::map<int64_t, std::map<Node*, Node*>> memo;
    std::vector<Node*> values;
    for (Node* ld : loads) {
      int64_t off = ld->in[3]->type->value();
      values.push_back(valueAt(ld->in[1], off, MemAccess::decode(ld->aux), ld->type, memo[off]));
    }
    // A value may be another of the loads (a field stored into another):
    // that load's own value, then.
    std::map<Node*, Node*> valueOf;
    for (size_t i = 0; i < loads.size(); i++) valueOf[loads[i]] = values[i];
    for (size_t i = 0; i < loads.size(); i++) {
      Node* v = values[i];
      for (size_t hops = 0; valueOf.count(v) && hops <= loads.size(); hops++) v = valueOf[v];
      if (valueOf.count(v)) internalError("scalar-replace", "loads whose values are each other");
      g_.subsume(loads[i], v);
    }
    for (Node* p : ptrs_)
      for (Node* u : std::vector<Node*>(p->out))
        if (u->op == Op::Load && MemAccess::decode(u->aux).alias == 0) g_.subsume(u, new_->in[2]);
    for (Node* st : stores_) g_.subsume(st, st->in[1]);

    for (Node* u : std::vector<Node*>(new_->out)) {
      if (u->op == Op::CProj && u->aux == 0) g_.subsume(u, new_->in[0]);
      else if (u->op == Op::Proj && u->aux == 1) g_.subsume(u, new_->in[1]);
    }
    for (Node* p : ptrs_) g_.killIfUnused(p);
    g_.killIfUnused(new_);
  }

 private:
  bool isPtr(const Node* n) const { return std::find(ptrs_.begin(), ptrs_.end(), n) != ptrs_.end(); }

  // Does the allocation dominate control node c (so memory made at c may
  // hold this instance's fields)? Memory from anywhere else is older.
  bool afterNew(Node* c) const { return dom_.dominates(new_, c); }

  // Where memory node `mem` is made (its control), or null for a MergeMem
  // (no place of its own) and for kinds the walk does not know.
  static Node* placeOf(Node* mem) {
    switch (mem->op) {
      case Op::Store: case Op::Phi: return mem->in[0];
      case Op::Parm: return mem->in[0];  // the Fun
      case Op::Proj: return mem->in[0];  // the New or CallEnd
      default: return nullptr;
    }
  }

  // The memory before `mem` for a field of class `alias`, when `mem` cannot
  // change this object's fields (another object's store or allocation, a
  // call, which cannot reach this object); null when unknown.
  Node* through(Node* mem, int alias) {
    if (mem->op == Op::MergeMem) return mergeMemOf(mem, alias);
    if (mem->op == Op::Store) return mem->in[1];
    if (mem->op == Op::Proj && mem->aux == 1 && mem->in[0]->op == Op::New) return mem->in[0]->in[1];
    if (mem->op == Op::Proj && mem->aux == 1 && mem->in[0]->op == Op::CallEnd) return mem->in[0]->in[0]->in[1];
    return nullptr;
  }

  // Before this allocation (zero), or a store to this field (its value).
  enum class Kind { Zero, Stored, Phi, Through, Unknown };
  Kind classify(Node* mem, int64_t off) {
    if (mem->op != Op::MergeMem) {
      Node* at = placeOf(mem);
      if (!at) return Kind::Unknown;
      if (!afterNew(at)) return Kind::Zero;
    }
    if (mem->op == Op::Proj && mem->in[0] == new_) return Kind::Zero;
    if (mem->op == Op::Store && isPtr(mem->in[2]) && mem->in[3]->type->value() == off) return Kind::Stored;
    if (mem->op == Op::Phi) return Kind::Phi;
    return Kind::Through;
  }

  // The stored value as the load reads it back (narrowed as the store
  // narrows it), or null when it cannot be expressed.
  Node* readBack(Node* st, const MemAccess& m, bool build) {
    Node* v = st->in[4];
    if (!v || !v->type) return nullptr;
    if (m.value == MemValue::Float && m.size == 4) {
      // The load gives the value rounded to single: v itself when it is.
      if (v->op == Op::FToF32 || (v->type->isFltConst() && double(float(v->type->fltValue())) == v->type->fltValue()))
        return v;
      return build ? typed(g_.make(Op::FToF32, {nullptr, v})) : v;
    }
    if (v->type->isa(m.loadType())) return v;
    if (m.value != MemValue::Int || m.size >= 8 || !v->type->isInt()) return nullptr;
    if (!build) return v;
    int shift = 64 - 8 * m.size;
    if (!m.isSigned)
      return typed(g_.make(Op::And, {nullptr, v, typed(g_.con(Type::intConst(int64_t((uint64_t(1) << (8 * m.size)) - 1))))}));
    Node* up = typed(g_.make(Op::Shl, {nullptr, v, typed(g_.con(Type::intConst(shift)))}));
    return typed(g_.make(Op::Sar, {nullptr, up, typed(g_.con(Type::intConst(shift)))}));
  }

  bool found(Node* mem, Node* ld, std::set<Node*>& seen) {
    MemAccess m = MemAccess::decode(ld->aux);
    int64_t off = ld->in[3]->type->value();
    std::vector<Node*> work{mem};
    while (!work.empty()) {
      Node* x = work.back();
      work.pop_back();
      if (!x) return false;
      if (!seen.insert(x).second) continue;
      if (++steps_ > kMaxSteps) return false;
      switch (classify(x, off)) {
        case Kind::Unknown: return false;
        case Kind::Zero: break;
        case Kind::Stored:
          if (x->aux != ld->aux || !readBack(x, m, false)) return false;
          break;
        case Kind::Phi:
          for (size_t i = 1; i < x->in.size(); i++) {
            Node* in = phiInput(x, i);
            if (!in) return false;
            work.push_back(in);
          }
          break;
        case Kind::Through: work.push_back(through(x, m.alias)); break;
      }
    }
    return true;
  }

  Node* zero(const MemAccess& m) {
    if (m.value == MemValue::Ptr) return typed(g_.con(Type::nullPtr()));
    if (m.value == MemValue::Float) return typed(g_.con(Type::fltConst(0.0)));
    return typed(g_.con(Type::intConst(0)));
  }

  // Pre: found() said yes for this field. Loop memory Phis give value Phis,
  // made before their inputs so that cycles close on them.
  Node* valueAt(Node* mem, int64_t off, const MemAccess& m, const Type* t, std::map<Node*, Node*>& memo) {
    for (;;) {
      auto it = memo.find(mem);
      if (it != memo.end()) return it->second;
      switch (classify(mem, off)) {
        case Kind::Zero: return memo[mem] = zero(m);
        case Kind::Stored: return memo[mem] = readBack(mem, m, true);
        case Kind::Phi: {
          std::vector<Node*> ins(mem->in.size(), nullptr);
          ins[0] = mem->in[0];
          Node* phi = g_.make(Op::Phi, ins, t);
          memo[mem] = phi;
          for (size_t i = 1; i < mem->in.size(); i++) g_.setDef(phi, i, valueAt(phiInput(mem, i), off, m, t, memo));
          return phi;
        }
        case Kind::Through: mem = through(mem, m.alias); break;
        case Kind::Unknown: internalError("scalar-replace", "a field's value was found, then lost");
      }
    }
  }

  // The memory of Phi `phi`'s input i as of the end of that predecessor:
  // a memory Phi of the same region there means its own input i (all Phis
  // of a region take their values at once). Null when the input is a Phi
  // of a region that does not dominate the predecessor (no value there).
  Node* phiInput(Node* phi, size_t i) {
    Node* in = phi->in[i];
    for (int hops = 0; in && in->op == Op::Phi && in->in[0] == phi->in[0]; hops++) {
      if (hops > 64 || i >= in->in.size()) return nullptr;
      in = in->in[i];
    }
    if (in && in->op == Op::Phi) {
      if (!dom_.dominates(in->in[0], phi->in[0]->in[i])) return nullptr;
    }
    return in;
  }

  Graph& g_;
  const ControlFlow& dom_;
  Node* new_;
  std::vector<Node*> ptrs_;  // the New's pointer projections (usually one)
  std::vector<Node*> loads_, stores_;
  int steps_ = 0;
};

}  // namespace

int scalarReplace(Graph& g) {
  std::vector<Node*> news = liveNodesOf(g, Op::New);
  if (news.empty()) return 0;
  // Removing a New takes one straight-line node out of the control flow:
  // dominance among the remaining control nodes is unchanged, so one
  // analysis serves every allocation (and no control node is made).
  std::shared_ptr<const ControlFlow> dom = controlFlow(g);
  int removed = 0;
  for (Node* nw : news) {
    if (nw->dead || !dom->reached(nw)) continue;
    Allocation a(g, *dom, nw);
    if (!a.staysLocal() || !a.valuesFound()) continue;
    a.replace();
    removed++;
  }
  // Value cycles through loops whose field nothing reads any more.
  if (removed) sweepUnreachable(g);
  return removed;
}

}  // namespace simplec
