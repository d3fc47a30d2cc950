// Facts along the dominator tree, and proofs of `a < b` from them.
//
// Everything is about the values nodes hold wherever the walk is: a fact
// recorded at a dominating node still holds there (SSA: no value it
// mentions can change between a dominator and the nodes it dominates).
// Every answer is bounded: a few levels of reasoning and a step budget per
// query, so a pathological graph costs time linear in its checks.
#include "opt/index_facts.h"

#include <algorithm>
#include <climits>

#include "opt/array_length.h"
#include "son/mem_access.h"

namespace simplec {

namespace {

constexpr int kDepth = 4;        // levels of chained reasoning per query
constexpr int kRangeDepth = 3;   // levels of arithmetic a range looks through
constexpr size_t kFanout = 8;    // most recent facts looked at per value
constexpr size_t kScan = 64;     // entries of a value's fact list scanned at most
constexpr int kBudget = 4000;    // steps per query
constexpr int kShapeDepth = 6;   // levels of invariance / monotony looked through

// The value under any narrowing Casts: the same number.
Node* uncast(Node* n) {
  while (n && n->op == Op::Cast && n->in.size() > 1 && n->in[1]) n = n->in[1];
  return n;
}

bool isIntNode(const Node* n) { return n && n->type && n->type->isInt() && !n->type->isIntTop(); }

bool intCon(const Node* n, int64_t* v) {
  if (!n || n->op != Op::Con || !isIntNode(n) || !n->type->isConst()) return false;
  *v = n->type->value();
  return true;
}

// The node's own range (the analysis's, sound wherever the node is used).
bool typeRange(const Node* n, int64_t* lo, int64_t* hi) {
  if (!isIntNode(n)) return false;
  *lo = n->type->lo();
  *hi = n->type->hi();
  return true;
}

// An array length: the header load. Never negative (New traps on that).
bool isLength(const Node* n) {
  if (n->op != Op::Load || n->in.size() < 4) return false;
  MemAccess m = MemAccess::decode(n->aux);
  int64_t off;
  return m.alias == 0 && m.value == MemValue::Int && intCon(n->in[3], &off) && off == 0;
}

bool fits(__int128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

}  // namespace

// One node per value compared: Casts stripped, and every load of one
// array's length is the first such load seen (the header never changes),
// or the length all the array's allocations got (opt/array_length.h).
Node* IndexFacts::canon(Node* n) {
  n = uncast(n);
  if (!n || !isLength(n)) return n;
  Node* array = uncast(n->in[2]);
  if (array->id >= lengthOf_.size()) lengthOf_.resize(size_t(array->id) + 1, nullptr);
  Node*& known = lengthOf_[array->id];
  if (!known) {
    Node* common = commonArrayLength(array);
    known = common ? uncast(common) : n;
  }
  return known;
}

IndexFacts::IndexFacts(const Graph& g)
    : onPath_(g.size(), -1), loHead_(g.size() + 1, -1), hiHead_(g.size() + 1, -1),
      lengthOf_(g.size(), nullptr) {}

// v[k], the table grown (with -1) if a node is newer than the tables.
int32_t& IndexFacts::at(std::vector<int32_t>& v, size_t k) {
  if (k >= v.size()) v.resize(k + 1, -1);
  return v[k];
}

void IndexFacts::enter(Node* n) {
  at(onPath_, n->id) = int32_t(path_.size());
  path_.push_back(n);
  marks_.push_back(facts_.size());
  if (n->op == Op::BoundsCheck && n->in.size() > 2 && isIntNode(n->in[1]) && isIntNode(n->in[2])) {
    add(nullptr, n->in[1], false);   // passed: 0 <= index
    add(n->in[1], n->in[2], true);   // and index < length
  } else if (n->op == Op::New && n->in.size() > 2 && isIntNode(n->in[2])) {
    add(nullptr, n->in[2], false);   // allocated: 0 <= length
  } else if (n->op == Op::CProj) {
    addBranchFacts(n);
  }
}

void IndexFacts::leave() {
  size_t mark = marks_.back();
  while (facts_.size() > mark) {
    const Fact& f = facts_.back();
    loHead_[key(f.lo)] = f.prevLo;
    hiHead_[key(f.hi)] = f.prevHi;
    facts_.pop_back();
  }
  marks_.pop_back();
  onPath_[path_.back()->id] = -1;
  path_.pop_back();
}

void IndexFacts::add(Node* lo, Node* hi, bool strict) {
  lo = canon(lo);
  hi = canon(hi);
  if (lo == hi) return;
  int32_t& loHead = at(loHead_, key(lo));
  // Already known (a repeated check): one entry is enough.
  for (int32_t k = loHead, n = 0; k >= 0 && n < 4; k = facts_[size_t(k)].prevLo, n++)
    if (facts_[size_t(k)].hi == hi && facts_[size_t(k)].strict >= strict) return;
  int32_t& hiHead = at(hiHead_, key(hi));
  int32_t self = int32_t(facts_.size());
  facts_.push_back({lo, hi, strict, int(path_.size()) - 1, loHead, hiHead});
  loHead = self;
  hiHead = self;
}

// The arm of `if (x < y)` proves x < y (true) or y <= x (false); `<=`,
// `==`, `!=` and `!` likewise.
void IndexFacts::addBranchFacts(Node* proj) {
  Node* iff = proj->in.empty() ? nullptr : proj->in[0];
  if (!iff || iff->op != Op::If || iff->in.size() < 2 || !iff->in[1]) return;
  bool taken = proj->aux == 0;
  Node* p = canon(iff->in[1]);
  while (p->op == Op::Not && p->in.size() > 1 && p->in[1]) {
    p = canon(p->in[1]);
    taken = !taken;
  }
  if (p->op != Op::LT && p->op != Op::LE && p->op != Op::EQ && p->op != Op::NE) return;
  if (p->in.size() < 3 || !isIntNode(p->in[1]) || !isIntNode(p->in[2])) return;
  Node *x = p->in[1], *y = p->in[2];
  switch (p->op) {
    case Op::LT: taken ? add(x, y, true) : add(y, x, false); break;
    case Op::LE: taken ? add(x, y, false) : add(y, x, true); break;
    default:
      if (taken == (p->op == Op::EQ)) {
        add(x, y, false);
        add(y, x, false);
      }
      break;
  }
}

bool IndexFacts::spend() { return budget_-- > 0; }

// The most recent facts about `n` (as lo, or as hi) that hold above depth
// `limit`. A chain runs from the deepest fact up the path, so those below
// the limit come first; at most kScan entries are looked at, whatever its
// length.
std::vector<const IndexFacts::Fact*> IndexFacts::recent(bool byLo, Node* n, int limit) {
  std::vector<const Fact*> r;
  std::vector<int32_t>& heads = byLo ? loHead_ : hiHead_;
  size_t k0 = key(n);
  if (k0 >= heads.size()) return r;
  for (int32_t k = heads[k0], scanned = 0; k >= 0 && scanned < int32_t(kScan) && r.size() < kFanout; scanned++) {
    const Fact& f = facts_[size_t(k)];
    if (f.depth < limit) r.push_back(&f);
    k = byLo ? f.prevLo : f.prevHi;
  }
  return r;
}

int IndexFacts::depthOnPath(Node* ctrl) const {
  return ctrl && ctrl->id < onPath_.size() ? onPath_[ctrl->id] : -1;
}

bool IndexFacts::provesInBounds(Node* index, Node* length) {
  if (!isIntNode(index) || !isIntNode(length)) return false;
  return provesLess(nullptr, index, false) && provesLess(index, length, true);
}

bool IndexFacts::provesLess(Node* a, Node* b, bool strict) {
  budget_ = kBudget;
  return less(a, b, strict, INT_MAX, kDepth);
}

bool IndexFacts::less(Node* a, Node* b, bool strict, int limit, int depth) {
  if (!spend()) return false;
  Node *ua = canon(a), *ub = canon(b);
  if (ua == ub) return !strict;
  Range ra = rangeOf(a, limit, kRangeDepth), rb = rangeOf(b, limit, kRangeDepth);
  if (strict ? ra.hi < rb.lo : ra.hi <= rb.lo) return true;
  if (depth <= 0) return false;
  return lessByFacts(ua, ub, a, b, strict, limit, depth) || lessByOffsets(ua, ub, a, b, strict, limit, depth) ||
         lessByInduction(ua, ub, a, b, strict, limit, depth);
}

// a R m and m R' b (or a R m' with m' R' b known), chained.
bool IndexFacts::lessByFacts(Node* ua, Node* ub, Node* a, Node* b, bool strict, int limit, int depth) {
  (void)ub;
  for (const Fact* f : recent(true, ua, limit)) {
    if (f->hi == canon(b) && (f->strict || !strict)) return true;
    if (less(f->hi, b, strict && !f->strict, limit, depth - 1)) return true;
  }
  for (const Fact* f : recent(false, canon(b), limit))
    if (less(a, f->lo, strict && !f->strict, limit, depth - 1)) return true;
  return false;
}

// a = x + y with y <= 0 (no wrap-around) is at most x; b = y + z with
// z >= 0 is at least y. Likewise for subtraction.
bool IndexFacts::lessByOffsets(Node* ua, Node* ub, Node* a, Node* b, bool strict, int limit, int depth) {
  (void)a;
  if (ua && (ua->op == Op::Add || ua->op == Op::Sub) && ua->in.size() > 2) {
    for (int order = 0; order < (ua->op == Op::Add ? 2 : 1); order++) {
      Node* x = ua->in[order ? 2 : 1];
      Node* y = ua->in[order ? 1 : 2];
      Range rx = rangeOf(x, limit, 0), ry = rangeOf(y, limit, 1);
      // The step's largest and smallest effect on x: a = x + step.
      __int128 stepHi = ua->op == Op::Add ? __int128(ry.hi) : -__int128(ry.lo);
      __int128 stepLo = ua->op == Op::Add ? __int128(ry.lo) : -__int128(ry.hi);
      if (stepHi > 0 || !fits(__int128(rx.lo) + stepLo)) continue;
      if (less(x, b, strict && stepHi == 0, limit, depth - 1)) return true;
    }
  }
  // Terms over one base: a = x + c and b = x + e, or a = x + c with a fact
  // `x < y + d` and b = y + e. All exact (nothing wraps around).
  Node *x = nullptr, *y = nullptr;
  int64_t c = 0, e = 0;
  splitOffset(b, limit, &y, &e);
  if (splitOffset(a, limit, &x, &c)) {
    if (lessOnOneBase(a, b, strict, limit)) return true;
    for (const Fact* f : c > 0 ? recent(true, x, limit) : std::vector<const Fact*>{}) {
      Node* fy;
      int64_t d;
      if (!splitOffset(f->hi, limit, &fy, &d)) continue;
      // a = x + c < (or <=) fy + gap
      __int128 gap = __int128(d) + c;
      if (gap <= 0) {
        bool below = f->strict || gap < 0;  // a < fy, else a <= fy
        if (less(fy, b, strict && !below, limit, depth - 1)) return true;
      } else if (fy == y) {
        // a <= fy + gap - (strict fact), b = fy + e
        __int128 top = gap - (f->strict ? 1 : 0);
        if (strict ? top < e : top <= e) return true;
      }
    }
  }
  if (ub && (ub->op == Op::Add || ub->op == Op::Sub) && ub->in.size() > 2) {
    for (int order = 0; order < (ub->op == Op::Add ? 2 : 1); order++) {
      Node* y = ub->in[order ? 2 : 1];
      Node* z = ub->in[order ? 1 : 2];
      Range ry = rangeOf(y, limit, 0), rz = rangeOf(z, limit, 1);
      __int128 stepLo = ub->op == Op::Add ? __int128(rz.lo) : -__int128(rz.hi);
      __int128 stepHi = ub->op == Op::Add ? __int128(rz.hi) : -__int128(rz.lo);
      if (stepLo < 0 || !fits(__int128(ry.hi) + stepHi)) continue;
      if (less(a, y, strict && stepLo == 0, limit, depth - 1)) return true;
    }
  }
  return false;
}

// n = x + c as the machine computes it (c = 0: n itself).
void IndexFacts::rawOffset(Node* n, Node** base, int64_t* k) {
  Node* u = canon(n);
  *base = u;
  *k = 0;
  int64_t c;
  if (!u || (u->op != Op::Add && u->op != Op::Sub) || u->in.size() < 3) return;
  if (intCon(u->in[2], &c) && !(u->op == Op::Sub && c == INT64_MIN)) {
    *base = canon(u->in[1]);
    *k = u->op == Op::Sub ? -c : c;
  } else if (u->op == Op::Add && intCon(u->in[1], &c)) {
    *base = canon(u->in[2]);
    *k = c;
  }
}

// The range of x where n = x + c (wrapping) holds: x's own, and what n's
// says: adding c > 0 wraps only into [MIN, MIN + c), so a sum known above
// that did not wrap (likewise below for c < 0).
IndexFacts::Range IndexFacts::baseRange(Node* n, int64_t c, int limit, Range rx) {
  if (c == 0) return rx;
  Range rn = rangeOf(n, limit, 1);
  if ((c > 0 && rn.lo >= __int128(INT64_MIN) + c) || (c < 0 && rn.hi <= __int128(INT64_MAX) + c)) {
    rx.lo = std::max<int64_t>(rx.lo, int64_t(rn.lo - __int128(c)));
    rx.hi = std::min<int64_t>(rx.hi, int64_t(rn.hi - __int128(c)));
  }
  return rx;
}

bool IndexFacts::splitOffset(Node* n, int limit, Node** base, int64_t* k) {
  if (!n) return false;
  rawOffset(n, base, k);
  if (*k == 0) return true;
  Range rx = baseRange(n, *k, limit, rangeOf(*base, limit, 0));
  if (fits(__int128(rx.lo) + *k) && fits(__int128(rx.hi) + *k)) return true;
  *base = canon(n);
  *k = 0;
  return true;
}

// a = x + c and b = x + e: a < b when c < e, if neither wraps around (what
// each sum's range says about x counts for both).
bool IndexFacts::lessOnOneBase(Node* a, Node* b, bool strict, int limit) {
  Node *x, *y;
  int64_t c, e;
  rawOffset(a, &x, &c);
  rawOffset(b, &y, &e);
  if (!a || !b || x != y || !(strict ? c < e : c <= e)) return false;
  Range rx = baseRange(b, e, limit, baseRange(a, c, limit, rangeOf(x, limit, 0)));
  return fits(__int128(rx.lo) + c) && fits(__int128(rx.hi) + c) && fits(__int128(rx.lo) + e) &&
         fits(__int128(rx.hi) + e);
}

// A loop Phi that starts below an invariant bound and never grows stays
// below it (by induction over the iterations); one that starts above and
// never shrinks stays above. The start is proven with the facts that hold
// at the loop's entry: those established above the loop.
bool IndexFacts::lessByInduction(Node* ua, Node* ub, Node* a, Node* b, bool strict, int limit, int depth) {
  auto loopPhi = [](Node* p) {
    return p && p->op == Op::Phi && p->in.size() == 3 && p->in[0] && p->in[0]->op == Op::Loop && p->in[1] &&
           p->in[2];
  };
  if (loopPhi(ua)) {
    int ld = depthOnPath(ua->in[0]);
    if (ld >= 0 && ld < limit && invariant(ub, ld, kShapeDepth) && monotoneFrom(ua->in[2], ua, false, kShapeDepth) &&
        less(ua->in[1], b, strict, std::min(limit, ld), depth - 1))
      return true;
  }
  if (loopPhi(ub)) {
    int ld = depthOnPath(ub->in[0]);
    if (ld >= 0 && ld < limit && invariant(ua, ld, kShapeDepth) && monotoneFrom(ub->in[2], ub, true, kShapeDepth) &&
        less(a, ub->in[1], strict, std::min(limit, ld), depth - 1))
      return true;
  }
  return false;
}

bool IndexFacts::monotoneFrom(Node* v, Node* p, bool grows, int depth) {
  Node* u = canon(v);
  if (u == p) return true;
  if (!u || depth <= 0 || !spend()) return false;
  if ((u->op == Op::Add || u->op == Op::Sub) && u->in.size() > 2) {
    for (int order = 0; order < (u->op == Op::Add ? 2 : 1); order++) {
      Node* x = u->in[order ? 2 : 1];
      Node* y = u->in[order ? 1 : 2];
      int64_t xl, xh, yl, yh;
      if (!typeRange(x, &xl, &xh) || !typeRange(y, &yl, &yh)) continue;
      // The types hold at every evaluation: the step never changes sign
      // and the sum never wraps around.
      __int128 sLo = u->op == Op::Add ? __int128(yl) : -__int128(yh);
      __int128 sHi = u->op == Op::Add ? __int128(yh) : -__int128(yl);
      bool ok = grows ? sLo >= 0 && fits(__int128(xh) + sHi) : sHi <= 0 && fits(__int128(xl) + sLo);
      if (ok && monotoneFrom(x, p, grows, depth - 1)) return true;
    }
    return false;
  }
  if (u->op == Op::Phi && u->in[0] && u->in[0]->op == Op::Region) {
    for (size_t i = 1; i < u->in.size(); i++)
      if (!u->in[i] || !monotoneFrom(u->in[i], p, grows, depth - 1)) return false;
    return true;
  }
  return false;
}

bool IndexFacts::invariant(Node* n, int loopDepth, int depth) {
  n = canon(n);
  if (!n || n->op == Op::Con || n->op == Op::Parm) return true;
  if (depth <= 0 || n->isCFG() || n->op == Op::Scope || !spend()) return false;
  // Values made once per arrival at their region or control node: those
  // that strictly dominate the loop are fixed before it starts.
  if (n->op == Op::Phi) {
    int d = depthOnPath(n->in[0]);
    return d >= 0 && d < loopDepth;
  }
  if (n->op == Op::Proj) {
    int d = depthOnPath(n->in[0]);
    return d >= 0 && d < loopDepth;
  }
  // Anything else is a function of its data inputs (slot 0 only guards).
  for (size_t i = 1; i < n->in.size(); i++)
    if (!invariant(n->in[i], loopDepth, depth - 1)) return false;
  return true;
}

IndexFacts::Range IndexFacts::rangeOf(Node* n, int limit, int depth) {
  if (!n) return {0, 0};
  Range r{INT64_MIN, INT64_MAX};
  int64_t lo, hi;
  Node* u = canon(n);
  for (Node* x : {n, u})
    if (typeRange(x, &lo, &hi)) r = {std::max(r.lo, lo), std::min(r.hi, hi)};
  if (isLength(u) || isLength(uncast(n))) r.lo = std::max<int64_t>(r.lo, 0);  // headers are never negative
  const Range typed = r;
  // Bounds by constants (or by ranges) the facts give.
  for (const Fact* f : recent(true, u, limit))
    if (typeRange(f->hi, &lo, &hi) && fits(__int128(hi) - f->strict)) r.hi = std::min<int64_t>(r.hi, hi - f->strict);
  for (const Fact* f : recent(false, u, limit)) {
    Range m{0, 0};
    if (f->lo && !typeRange(f->lo, &m.lo, &m.hi)) continue;
    if (fits(__int128(m.lo) + f->strict)) r.lo = std::max<int64_t>(r.lo, m.lo + f->strict);
  }
  // Arithmetic over the operands' ranges, where nothing can wrap around.
  if (depth > 0 && u->in.size() > 2 && (u->op == Op::Add || u->op == Op::Sub || u->op == Op::Mul || u->op == Op::Shl) &&
      spend()) {
    Range x = rangeOf(u->in[1], limit, depth - 1), y = rangeOf(u->in[2], limit, depth - 1);
    __int128 c[4];
    bool ok = true;
    switch (u->op) {
      case Op::Add: c[0] = c[1] = __int128(x.lo) + y.lo; c[2] = c[3] = __int128(x.hi) + y.hi; break;
      case Op::Sub: c[0] = c[1] = __int128(x.lo) - y.hi; c[2] = c[3] = __int128(x.hi) - y.lo; break;
      case Op::Mul:
        c[0] = __int128(x.lo) * y.lo;
        c[1] = __int128(x.lo) * y.hi;
        c[2] = __int128(x.hi) * y.lo;
        c[3] = __int128(x.hi) * y.hi;
        break;
      default:  // Shl by a constant below 63: a multiplication by 2^k
        ok = y.lo == y.hi && y.lo >= 0 && y.lo < 63;
        if (ok) {
          c[0] = c[1] = __int128(x.lo) * (__int128(1) << y.lo);
          c[2] = c[3] = __int128(x.hi) * (__int128(1) << y.lo);
        }
        break;
    }
    if (ok) {
      __int128 mn = *std::min_element(c, c + 4), mx = *std::max_element(c, c + 4);
      if (fits(mn) && fits(mx)) r = {std::max<int64_t>(r.lo, int64_t(mn)), std::min<int64_t>(r.hi, int64_t(mx))};
    }
  }
  // Contradicting facts mean this point is never reached; claim nothing.
  if (r.lo <= r.hi) return r;
  return typed.lo <= typed.hi ? typed : Range{INT64_MIN, INT64_MAX};
}

}  // namespace simplec
