// Local rewrite rules over the Sea of Nodes.
#include "opt/peephole.h"

#include "son/compute.h"

namespace simplec {

namespace {
bool isCon(const Node* n) { return n && n->isConst() && n->type->isInt() && n->type->isConst(); }
bool isConVal(const Node* n, int64_t v) { return isCon(n) && n->type->value() == v; }
bool isFltCon(const Node* n) { return n && n->isConst() && n->type->isFltConst(); }
// Compares bits: 0.0 and -0.0 are different constants.
bool isFltConVal(const Node* n, double v) { return isFltCon(n) && n->type == Type::fltConst(v); }
bool isDead(const Node* c) { return c && c->type && c->type->kind() == TKind::XCtrl; }
bool loopInProgress(const Node* r) {
  return r->op == Op::Loop && (r->in.size() < 3 || !r->in[2]);
}
}  // namespace

Node* Peephole::con(int64_t v) { return constant(Type::intConst(v)); }

Node* Peephole::constant(const Type* t) {
  if (Node* c = gvn_.findConst(t, g_.start())) return c;
  return run(g_.con(t));
}

Node* Peephole::make(Op op, std::vector<Node*> ins) {
  Node* n = g_.make(op, ins);
  n->pos = at_;
  return run(n);
}

Node* Peephole::run(Node* n) {
  // Iterate rewrites on n until none applies, then value-number. Each round
  // either changes the node or returns, and every rule shrinks the graph or
  // moves constants right, so this terminates.
  changedInPlace_ = false;
  unfinished_ = false;
  // Rules run the peepholes on the nodes they make (make()): the nodes the
  // outermost run touched are kept for its caller.
  if (depth_ == 0) {
    touched_.clear();
    at_ = n->pos;
  }
  struct Depth {
    int& d;
    explicit Depth(int& d) : d(d) { ++d; }
    ~Depth() { --d; }
  } depth(depth_);
  Node* first = n;
  for (int round = 0; round < kMaxRewrites; round++) {
    const Type* t = compute(n);
    // A Cast keeps the range sccp found (unless it becomes a constant or
    // dead): recomputed here, without the analysis's widening, a range cut
    // by a Cast in a loop would shrink by one per visit around the cycle.
    if (n->op == Op::Cast && n->type && n->type->isInt() && !n->type->isIntTop() && t->isInt() &&
        !t->isConst() && !t->isIntTop() && t->isa(n->type))
      t = n->type;
    // A loop Phi's range moves by steps a bounded number of times (see
    // kMaxLoopPhiNarrowings and kMaxLoopPhiWidenings).
    if (n->op == Op::Phi && n->in[0]->op == Op::Loop && n->type && n->type->isInt() && !n->type->isIntTop() &&
        t->isInt() && !t->isIntTop() && t != n->type) {
      if (!t->isConst() && t->isa(n->type) && ++loopPhiNarrowings_[n] > kMaxLoopPhiNarrowings) t = n->type;
      else if (!n->type->isConst() && n->type->isa(t) && ++loopPhiWidenings_[n] > kMaxLoopPhiWidenings)
        t = Type::intRange(t->lo() < n->type->lo() ? INT64_MIN : t->lo(), t->hi() > n->type->hi() ? INT64_MAX : t->hi());
    }
    // The caller sees a change of `first`'s type; a node further along the
    // chain (one that `first` folded into) has its users queued here.
    if (n != first && t != n->type) touched_.insert(touched_.end(), n->out.begin(), n->out.end());
    n->type = t;
    if (!enabled) return n;
    if (!n->isCFG() && !n->isConst() && n->type->isConst() && n->op != Op::Parm) {
      if (Node* c = gvn_.findConst(n->type, g_.start())) return c;
      return gvn_.findOrInsert(g_.con(n->type));
    }
    Node* x = idealize(n);
    if (!x) break;
    if (round + 1 == kMaxRewrites) unfinished_ = true;
    if (x == n) {
      changedInPlace_ = true;
      // Likewise a node further along that changes in place (an existing
      // node `first` folded into, whose constant then moves right): rules
      // read their inputs' inputs, so its users look again.
      if (n != first) touched_.insert(touched_.end(), n->out.begin(), n->out.end());
    }
    if (x != n) {
      // The replacement is new or already canonical; keep peepholing it.
      if (n->unused()) {
        x->keep++;  // n's inputs may include x
        g_.kill(n);
        x->keep--;
      } else if (n != first) {
        // A node a rule made and gave users (the Region that took over a
        // Loop's users) and that now rewrites further: the caller moves the
        // users of `first` only, so this one goes back on the worklist.
        touched_.push_back(n);
      }
      n = x;
    }
  }
  return gvn_.findOrInsert(n);
}

Node* Peephole::idealize(Node* n) {
  switch (n->op) {
    case Op::Region:
    case Op::Loop: return idealizeRegion(n);
    case Op::Phi: return idealizePhi(n);
    case Op::CProj: return idealizeCProj(n);
    case Op::Load: return idealizeLoad(n);
    case Op::Store: return idealizeStore(n);
    case Op::MergeMem: return idealizeMergeMem(n);
    case Op::BoundsCheck: return idealizeBoundsCheck(n);
    case Op::New: return idealizeNew(n);
    case Op::ZeroCheck: {
      const Type* t = n->in[1]->type;
      if (t->isInt() && !t->isIntTop() && (t->lo() > 0 || t->hi() < 0)) return n->in[0];
      return nullptr;
    }
    case Op::Div:
    case Op::Mod:
      // A divisor that cannot be zero needs no guard: let the node float.
      if (n->in[0]) {
        const Type* t = n->in[2]->type;
        if (t->isInt() && !t->isIntTop() && (t->lo() > 0 || t->hi() < 0)) {
          g_.setDef(n, 0, nullptr);
          return n;
        }
      }
      return idealizeArith(n);
    default:
      if (n->in.size() >= 2 && !n->isCFG() && n->op != Op::Con && n->op != Op::Parm &&
          n->op != Op::Proj && n->op != Op::Scope)
        return idealizeArith(n);
      return nullptr;
  }
}

Node* Peephole::idealizeArith(Node* n) {
  Node* a = n->in[1];
  Node* b = n->in.size() > 2 ? n->in[2] : nullptr;
  // Canonical form: a constant operand of a commutative node goes right.
  if (n->isCommutative() && (isCon(a) || isFltCon(a)) && !(isCon(b) || isFltCon(b))) {
    g_.swapInputs(n, 1, 2);
    return n;
  }
  switch (n->op) {
    case Op::Add:
      if (isConVal(b, 0)) return a;
      // (x + c1) + c2 => x + (c1 + c2)
      if (isCon(b) && a->op == Op::Add && isCon(a->in[2]))
        return make(Op::Add, {nullptr, a->in[1], con(foldBinary(Op::Add, a->in[2]->type->value(), b->type->value()))});
      if (a == b) return make(Op::Shl, {nullptr, a, con(1)});
      break;
    case Op::Sub:
      if (isConVal(b, 0)) return a;
      if (a == b) return con(0);
      if (isCon(b) && b->type->value() != INT64_MIN)
        return make(Op::Add, {nullptr, a, con(-b->type->value())});
      if (isConVal(a, 0)) return make(Op::Neg, {nullptr, b});
      break;
    case Op::Mul:
      if (isConVal(b, 1)) return a;
      if (isConVal(b, -1)) return make(Op::Neg, {nullptr, a});
      if (isCon(b)) {
        int64_t v = b->type->value();
        if (v > 0 && (v & (v - 1)) == 0) return make(Op::Shl, {nullptr, a, con(__builtin_ctzll(uint64_t(v)))});
      }
      break;
    case Op::Div:
      if (isConVal(b, 1)) return a;
      break;
    case Op::And:
      if (isConVal(b, -1) || a == b) return a;
      // Truncation to an unsigned width the value already fits in.
      if (isCon(b) && b->type->value() >= 0 && a->type->isInt() && a->type->lo() >= 0 &&
          a->type->hi() <= b->type->value() && ((uint64_t(b->type->value()) + 1) & uint64_t(b->type->value())) == 0)
        return a;
      break;
    case Op::Or:
      if (isConVal(b, 0) || a == b) return a;
      break;
    case Op::Xor:
      if (isConVal(b, 0)) return a;
      if (a == b) return con(0);
      break;
    case Op::Shl:
    case Op::Shr:
      if (isCon(b) && (b->type->value() & 63) == 0) return a;
      break;
    case Op::Sar:
      if (isCon(b) && (b->type->value() & 63) == 0) return a;
      // (x << c) >> c sign-extends the low 64-c bits: nothing to do when x fits.
      if (isCon(b) && a->op == Op::Shl && isCon(a->in[2]) && a->in[2]->type->value() == b->type->value()) {
        int c = int(b->type->value() & 63);
        const Type* x = a->in[1]->type;
        int64_t half = int64_t(1) << (63 - c);
        if (x->isInt() && !x->isIntTop() && x->lo() >= -half && x->hi() <= half - 1) return a->in[1];
      }
      break;
    case Op::Neg:
      if (a->op == Op::Neg) return a->in[1];
      break;
    case Op::Not:
      // !!x is x when x is already 0 or 1.
      if (a->op == Op::Not) {
        const Type* t = a->in[1]->type;
        if (t->isInt() && t->lo() >= 0 && t->hi() <= 1) return a->in[1];
      }
      break;
    case Op::EQ:
    case Op::LE:
      if (a == b) return con(1);
      break;
    case Op::NE:
    case Op::LT:
      if (a == b) return con(0);
      break;
    // Floats: only rewrites exact for every input, -0.0 and NaN included
    // (x + 0.0 is not x when x is -0.0; x - x is not 0 when x is NaN).
    case Op::FAdd:
      if (isFltConVal(b, -0.0)) return a;
      break;
    case Op::FSub:
      if (isFltConVal(b, 0.0)) return a;
      break;
    case Op::FMul:
    case Op::FDiv:
      if (isFltConVal(b, 1.0)) return a;
      break;
    case Op::FNeg:
      if (a->op == Op::FNeg) return a->in[1];
      break;
    case Op::FToF32:
      if (a->op == Op::FToF32) return a;
      break;
    default: break;
  }
  return nullptr;
}

// Dead predecessors leave a Region (with their Phi inputs); a Region left
// with one predecessor is that predecessor.
Node* Peephole::idealizeRegion(Node* n) {
  if (loopInProgress(n)) return nullptr;
  // The region's Phis: kept alive while edges move, since one Phi may be the
  // only user of another (a loop Phi feeding a Phi through the back edge).
  std::vector<Node*> phis;
  for (Node* u : n->out)
    if (u->op == Op::Phi && u->in[0] == n) phis.push_back(u);
  auto release = [&] {
    for (Node* p : phis)
      if (!p->dead) p->keep--;  // subsume() already cleared the dead ones
    for (Node* p : phis) g_.killIfUnused(p);
  };
  for (size_t i = 1; i < n->in.size(); i++) {
    if (!isDead(n->in[i]) && n->in[i]) continue;
    if (n->op == Op::Loop && i == 1) return nullptr;  // dead entry: whole loop dead, left to DCE
    // Remove slot i from the region and every Phi on it.
    for (Node* p : phis) p->keep++;
    for (Node* p : phis) g_.delDef(p, i);
    g_.delDef(n, i);
    if (n->op == Op::Loop) {
      // A loop without its back edge is a plain region.
      Node* r = g_.make(Op::Region, {nullptr, n->in[1]}, Type::ctrl());
      for (Node* p : phis) g_.setDef(p, 0, r);
      touched_.insert(touched_.end(), phis.begin(), phis.end());
      g_.subsume(n, r);
      release();
      return r;
    }
    release();
    return n;
  }
  if (n->in.size() == 2 && n->op == Op::Region) {
    // Phis of a single-entry region become their only input.
    Node* pred = n->in[1];
    for (Node* p : phis) p->keep++;
    for (Node* p : phis) {
      if (p->dead) continue;
      for (Node* u : p->out)
        if (u != p) touched_.push_back(u);
      g_.subsume(p, p->in[1]);
    }
    release();
    return pred;
  }
  return nullptr;
}

Node* Peephole::idealizePhi(Node* n) {
  Node* r = n->in[0];
  if (loopInProgress(r)) return nullptr;
  if (r->op == Op::Region && r->in.size() == 2 && n->in.size() == 2) return n->in[1];
  // All inputs the same (ignoring self-references around loops)?
  Node* same = nullptr;
  for (size_t i = 1; i < n->in.size(); i++) {
    Node* x = n->in[i];
    if (x == n || x == nullptr) continue;
    if (same && same != x) return nullptr;
    same = x;
  }
  return same;
}

// A projection of an If whose other arm is dead is the If's own control.
Node* Peephole::idealizeCProj(Node* n) {
  Node* iff = n->in[0];
  if (iff->op != Op::If) return nullptr;
  const Type* t = iff->type;
  if (!t || t->kind() != TKind::Tuple) return nullptr;
  if (t->elems()[size_t(1 - n->aux)]->kind() == TKind::XCtrl &&
      t->elems()[size_t(n->aux)]->kind() == TKind::Ctrl)
    return iff->in[0];
  return nullptr;
}

}  // namespace simplec
