// Loop vectorization by two: see vectorize.h.
#include "opt/vectorize.h"

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lexer/diag.h"
#include "lexer/work_counters.h"
#include "opt/induction_vars.h"
#include "opt/iterate.h"
#include "opt/loop_invariance.h"
#include "opt/loop_plans.h"
#include "son/compute.h"
#include "son/control_flow.h"
#include "son/mem_access.h"
#include "son/unit.h"

namespace simplec {

namespace {

constexpr int kMaxAccesses = 12;     // loads and stores of a body
constexpr int kMinTrips = 16;        // iterations a loop may run at most, below which it stays
constexpr int kMaxAliasTests = 6;    // run-time tests of two arrays being one
constexpr int kMaxTerms = 8;         // invariant terms of an index
constexpr int kMaxAffineDepth = 12;  // operations looked through in an index
constexpr int64_t kVectorBytes = 16;  // two lanes of 8 bytes
// Lane pairs per iteration of the copy: two, so that the loop's own work
// (the counter, its test, index arithmetic) is shared by four iterations
// (the second pair's addresses differ by a displacement).
constexpr int kPairs = 2;
constexpr int64_t kStride = 2 * kPairs;  // iterations per round of the copy

// What a node of the body is in the copy.
enum class Kind : uint8_t {
  Index,   // an integer computed from j: rebuilt from the copy's j
  Inv,     // the value of an invariant (a Cast pinned in the body)
  Vector,  // a flt value: one per lane
  Mem,     // memory: the copy's own
  Header,  // the header's test
};

// coef * j + k + sum(mult * term), mod 2^64, terms invariant.
struct Affine {
  uint64_t coef = 0, k = 0;
  std::vector<std::pair<Node*, uint64_t>> terms;

  void scale(uint64_t m) {
    coef *= m;
    k *= m;
    for (auto& t : terms) t.second *= m;
  }
  bool add(const Affine& o, bool negate) {
    uint64_t s = negate ? ~uint64_t(0) : 1;  // -1 mod 2^64
    coef += s * o.coef;
    k += s * o.k;
    for (auto [n, m] : o.terms) {
      bool found = false;
      for (auto& t : terms)
        if (t.first == n) {
          t.second += s * m;
          found = true;
        }
      if (!found) terms.push_back({n, s * m});
    }
    std::vector<std::pair<Node*, uint64_t>> kept;
    for (auto& t : terms)
      if (t.second != 0) kept.push_back(t);
    terms = std::move(kept);
    return int(terms.size()) <= kMaxTerms;
  }
};

struct Access {
  Node* node;  // a Load or Store of the body
  Affine off;  // its byte offset
};

// A loop chosen, read from the graph before any edit.
struct Plan {
  Node* loop = nullptr;
  Node* iff = nullptr;    // the header's test
  Node* body = nullptr;   // its arm into the body (the back edge)
  Node* phi = nullptr;    // j
  Node* limit = nullptr;  // j < limit (or <= limit) keeps the loop going
  bool inclusive = false;
  std::vector<Node*> memPhis;
  std::vector<Node*> order;  // the body's data nodes, inputs first
  std::unordered_map<const Node*, Kind> kind;
  std::vector<Access> accesses;
  // Pairs of accesses (indices into `accesses`, at least one a store) that
  // may be to one array at offsets 1 to 15 bytes apart: each gets a test.
  std::vector<std::pair<int, int>> aliasTests;
};

// The control node a data node hangs from, or null when it floats.
Node* pinnedTo(const Node* n) {
  if (n->isCFG() || n->in.empty() || !n->in[0]) return nullptr;
  if (n->op == Op::Phi || n->op == Op::Parm || (opInfo(n->op).flags & CTRL)) return n->in[0];
  if (n->op == Op::Proj && n->in[0]->isCFG()) return n->in[0];
  return nullptr;
}

bool isFltValue(const Node* n) { return n->type && n->type->isFlt(); }

// The value a pointer of the body has before the loop (through the body's
// Casts, which only narrow it).
Node* pointerBefore(const Plan& p, Node* n) {
  while (n && n->op == Op::Cast && p.kind.count(n)) n = n->in[1];
  return n;
}

class Planner {
 public:
  Planner(Graph& g, const ControlFlow& cf) : g_(g), cf_(cf) {}

  bool plan(Node* loop, Plan* p) {
    p->loop = loop;
    if (!header(loop, p)) return false;
    LoopInvariance inv(cf_, loop);
    if (!inv.invariant(p->limit) || !inv.invariant(p->phi->in[1])) return false;
    bool counts = false;
    for (const BasicIV& iv : findBasicIVs(inv))
      if (iv.phi == p->phi && !iv.down && iv.step->isConst() && iv.step->type->value() == 1) counts = true;
    if (!counts || fewTrips(*p)) return false;
    return collect(p, inv) && classify(p, inv) && dependences(p);
  }

 private:
  bool header(Node* loop, Plan* p) {
    if (loop->in.size() != 3 || !loop->in[1] || !loop->in[2] || !cf_.reached(loop->in[2])) return false;
    for (Node* u : loop->out) {
      if (u->isCFG()) {
        if (p->iff || u->op != Op::If) return false;
        p->iff = u;
      } else if (u->op == Op::Phi && u->in[0] == loop && u->in.size() == 3) {
        if (u->type && u->type->kind() == TKind::Mem) p->memPhis.push_back(u);
        else if (p->phi) return false;  // a second value carried around: a reduction or another IV
        else p->phi = u;
      } else if (u->op == Op::Phi) {
        return false;
      }
    }
    Node* iff = p->iff;
    if (!iff || !p->phi || iff->in.size() != 2 || !iff->in[1] || iff->out.size() != 2) return false;
    for (Node* proj : iff->out) {
      if (proj->op != Op::CProj) return false;
      if (proj->aux == 0) p->body = proj;
    }
    // One block: the body's arm goes straight back to the header.
    if (!p->body || loop->in[2] != p->body) return false;
    for (Node* u : p->body->out)
      if (u->isCFG() && u != loop) return false;
    Node* cmp = iff->in[1];
    if ((cmp->op != Op::LT && cmp->op != Op::LE) || cmp->in.size() != 3 || !cmp->in[1] || !cmp->in[2]) return false;
    if (withoutCasts(cmp->in[1]) != p->phi) return false;
    p->limit = cmp->in[2];
    p->inclusive = cmp->op == Op::LE;
    return p->phi->type && p->phi->type->isInt() && !p->phi->type->isIntTop() && p->limit->type &&
           p->limit->type->isInt() && !p->limit->type->isIntTop();
  }

  // At most kMinTrips iterations, by the types of init and limit: the copy
  // would run a round or two, and its 16-byte loads may wait for the
  // 8-byte stores just before them to reach memory (a store cannot hand
  // its value on to a wider load): nbody's five-body update ran 10% slower.
  static bool fewTrips(const Plan& p) {
    const Type* init = p.phi->in[1]->type;
    if (!init || !init->isInt() || init->isIntTop()) return false;
    __int128 trips = __int128(p.limit->type->hi()) - init->lo() + (p.inclusive ? 1 : 0);
    return trips < kMinTrips;
  }

  bool isLoopPhi(const Plan& p, const Node* n) const {
    return n == p.phi || std::find(p.memPhis.begin(), p.memPhis.end(), n) != p.memPhis.end();
  }
  bool inBody(const Plan& p, const Node* n) const { return p.kind.count(n) != 0; }

  // The body: what the back edge, the header's test and the nodes pinned
  // in the loop compute from j and memory, in an order inputs first.
  bool collect(Plan* p, LoopInvariance& inv) {
    std::vector<Node*> roots{p->iff->in[1], p->phi->in[2]};
    for (Node* m : p->memPhis)
      if (m->in[2] != m) roots.push_back(m->in[2]);
    for (Node* c : {p->loop, p->body})
      for (Node* u : c->out)
        if (!u->isCFG() && u->op != Op::Phi) roots.push_back(u);
    // Depth-first, post-order: a node is listed after its inputs.
    std::unordered_map<const Node*, char> state;  // 1: entered, 2: listed
    std::vector<std::pair<Node*, size_t>> stack;
    for (Node* r : roots) {
      if (!r || state.count(r) || isLoopPhi(*p, r)) continue;
      stack.push_back({r, 0});
      state[r] = 1;
      while (!stack.empty()) {
        auto& [n, i] = stack.back();
        workCounters().loopOptSteps++;
        if (i < n->in.size()) {
          Node* d = n->in[i++];
          if (!d || d->isCFG() || state.count(d) || isLoopPhi(*p, d)) continue;
          Node* at = pinnedTo(d);
          if (at ? at != p->loop && at != p->body : inv.invariant(d)) continue;  // computed before the loop
          state[d] = 1;
          stack.push_back({d, 0});
          continue;
        }
        state[n] = 2;
        p->order.push_back(n);
        p->kind[n] = Kind::Inv;  // settled by classify
        stack.pop_back();
        if (int(p->order.size()) > kMaxVectorizedNodes) return false;
      }
    }
    // No value of the body is used after the loop (only the Phis'), and
    // every node pinned in the loop belongs to the body.
    for (Node* n : p->order) {
      if (n->op == Op::Scope || n->keep) return false;
      for (Node* u : n->out)
        if (!inBody(*p, u) && u != p->iff && !(isLoopPhi(*p, u))) return false;
    }
    return true;
  }

  // An input of a body node: its kind, or Inv for an invariant value
  // computed before the loop; false when it is neither.
  bool kindOf(const Plan& p, Node* d, LoopInvariance& inv, Kind* k) {
    if (!d) return false;
    if (d == p.phi) {
      *k = Kind::Index;
    } else if (isLoopPhi(p, d)) {
      *k = Kind::Mem;
    } else if (auto it = p.kind.find(d); it != p.kind.end()) {
      *k = it->second;
    } else {
      if (!inv.invariant(d)) return false;
      *k = Kind::Inv;
    }
    return true;
  }

  bool classify(Plan* p, LoopInvariance& inv) {
    for (Node* n : p->order) {
      Kind a, b, c;
      Kind& k = p->kind[n];
      switch (n->op) {
        case Op::Cast:
          if (n->in.size() < 2 || !kindOf(*p, n->in[1], inv, &a) || (a != Kind::Index && a != Kind::Inv))
            return false;
          k = a;
          break;
        case Op::Add: case Op::Sub: case Op::Mul: case Op::Shl:
          if (!n->type || !n->type->isInt() || !kindOf(*p, n->in[1], inv, &a) || !kindOf(*p, n->in[2], inv, &b))
            return false;
          if ((a != Kind::Index && a != Kind::Inv) || (b != Kind::Index && b != Kind::Inv)) return false;
          k = a == Kind::Index || b == Kind::Index ? Kind::Index : Kind::Inv;
          break;
        case Op::LT: case Op::LE:
          if (n != p->iff->in[1] || !kindOf(*p, n->in[1], inv, &a) || a != Kind::Index) return false;
          k = Kind::Header;
          break;
        case Op::FNeg: case Op::FAbs: case Op::FSqrt:
          if (n->in.size() != 2 || !kindOf(*p, n->in[1], inv, &a) || a != Kind::Vector) return false;
          k = Kind::Vector;
          break;
        case Op::FAdd: case Op::FSub: case Op::FMul: case Op::FDiv: case Op::FMin: case Op::FMax: {
          bool lanes = false;
          for (size_t i = 1; i <= 2; i++) {
            if (!kindOf(*p, n->in[i], inv, &a)) return false;
            if (a == Kind::Vector) lanes = true;
            else if (a != Kind::Inv || !isFltValue(n->in[i])) return false;
          }
          if (!lanes) return false;
          k = Kind::Vector;
          break;
        }
        case Op::Load: case Op::Store: {
          MemAccess m = MemAccess::decode(n->aux);
          bool store = n->op == Op::Store;
          if (n->in[0] != p->body || m.value != MemValue::Float || m.size != 8 || m.alias == 0) return false;
          if (size_t(m.alias) < g_.unit().aliases.size() && g_.unit().aliases[size_t(m.alias)] == "extern")
            return false;
          if (!kindOf(*p, n->in[1], inv, &a) || a != Kind::Mem) return false;
          if (!kindOf(*p, n->in[2], inv, &b) || b != Kind::Inv) return false;
          if (!kindOf(*p, n->in[3], inv, &c) || c != Kind::Index) return false;
          Access acc{n, {}};
          if (!affine(*p, n->in[3], &acc.off, kMaxAffineDepth) || acc.off.coef != 8) return false;
          if (store) {
            Kind v;
            if (!kindOf(*p, n->in[4], inv, &v)) return false;
            if (v != Kind::Vector && !(v == Kind::Inv && isFltValue(n->in[4]))) return false;
          }
          if (int(p->accesses.size()) >= kMaxAccesses) return false;
          p->accesses.push_back(std::move(acc));
          k = store ? Kind::Mem : Kind::Vector;
          break;
        }
        default:
          return false;
      }
    }
    // Each memory Phi goes around through the body's stores (or unchanged).
    for (Node* m : p->memPhis) {
      Node* back = m->in[2];
      if (back != m && !(inBody(*p, back) && back->op == Op::Store)) return false;
    }
    return true;
  }

  // n (an index of the body) as an affine form of j.
  bool affine(const Plan& p, Node* n, Affine* a, int depth) {
    if (!n || depth == 0) return false;
    if (n == p.phi) {
      a->coef = 1;
      return true;
    }
    if (n->op == Op::Con && n->type->isInt()) {
      a->k = uint64_t(n->type->value());
      return true;
    }
    if (!inBody(p, n)) {
      a->terms.push_back({n, 1});
      return true;
    }
    switch (n->op) {
      case Op::Cast: return affine(p, n->in[1], a, depth - 1);
      case Op::Add: case Op::Sub: {
        Affine r;
        if (!affine(p, n->in[1], a, depth - 1) || !affine(p, n->in[2], &r, depth - 1)) return false;
        return a->add(r, n->op == Op::Sub);
      }
      case Op::Mul: case Op::Shl: {
        Node* f = n->in[2];
        Node* x = n->in[1];
        if (n->op == Op::Mul && !(f->op == Op::Con) && x->op == Op::Con) std::swap(f, x);
        if (f->op != Op::Con || !f->type->isInt()) return false;
        int64_t v = f->type->value();
        if (n->op == Op::Shl && (v < 0 || v > 62)) return false;
        if (!affine(p, x, a, depth - 1)) return false;
        a->scale(n->op == Op::Shl ? uint64_t(1) << v : uint64_t(v));
        return true;
      }
      default: return false;
    }
  }

  // Pairs of accesses the copy reorders that may touch a common byte.
  bool dependences(Plan* p) {
    const std::vector<Access>& acc = p->accesses;
    for (size_t x = 0; x < acc.size(); x++)
      for (size_t y = x + 1; y < acc.size(); y++) {
        Node* a = acc[x].node;
        Node* b = acc[y].node;
        if (a->op != Op::Store && b->op != Op::Store) continue;
        if (MemAccess::decode(a->aux).alias != MemAccess::decode(b->aux).alias) continue;
        Node* pa = pointerBefore(*p, a->in[2]);
        Node* pb = pointerBefore(*p, b->in[2]);
        const Node* oa = objectOf(pa);
        const Node* ob = objectOf(pb);
        if (oa && ob && oa != ob) continue;  // two different objects
        Affine d = acc[x].off;
        if (!d.add(acc[y].off, true)) return false;
        if (d.terms.empty()) {
          int64_t dist = int64_t(d.k);
          if (dist == 0 || dist <= -kVectorBytes || dist >= kVectorBytes) continue;
          if (pa == pb) return false;  // one array: they always collide
        }
        if (int(p->aliasTests.size()) >= kMaxAliasTests) return false;
        p->aliasTests.push_back({int(x), int(y)});
      }
    return true;
  }

  Graph& g_;
  const ControlFlow& cf_;
};

Node* made(Graph& g, Op op, std::initializer_list<Node*> ins, int64_t aux = 0) {
  return typed(g.make(op, ins, nullptr, aux));
}

// The value of an affine form at j = 0: nodes computed before the loop.
Node* materialize(Graph& g, const Affine& a) {
  Node* sum = g.con(Type::intConst(int64_t(a.k)));
  for (auto [n, m] : a.terms) {
    Node* t = m == 1 ? n : made(g, Op::Mul, {nullptr, n, g.con(Type::intConst(int64_t(m)))});
    sum = made(g, Op::Add, {nullptr, sum, t});
  }
  return sum;
}

// The tests on the limit that keep the copy's bound from wrapping: it runs
// while j + kStride - 1 is an iteration the loop would run, that is while
// j < limit - c; `<=` loops also need limit < INT64_MAX (j itself would
// wrap at the end).
struct LimitTests {
  int64_t c;      // the copy runs while j < limit - c
  bool low;       // test limit > INT64_MIN + c - 1 (else limit - c wraps)
  bool high;      // test limit < INT64_MAX
};

LimitTests limitTests(const Plan& p) {
  LimitTests t;
  t.c = p.inclusive ? kStride - 2 : kStride - 1;
  t.low = p.limit->type->lo() <= INT64_MIN + t.c - 1;
  t.high = p.inclusive && p.limit->type->hi() == INT64_MAX;
  return t;
}

// limit - c, the limit narrowed first by the tests that held (on the
// arms lowArm and highArm) so that its type says it cannot wrap.
Node* copyBound(Graph& g, const Plan& p, const LimitTests& t, Node* lowArm, Node* highArm) {
  Node* lim = p.limit;
  if (t.low)
    lim = made(g, Op::Cast, {lowArm, lim, g.con(Type::intConst(INT64_MIN + t.c - 1))}, int64_t(CastRel::GT));
  if (t.high) lim = made(g, Op::Cast, {highArm, lim, g.con(Type::intConst(INT64_MAX))}, int64_t(CastRel::LT));
  return made(g, Op::Sub, {nullptr, lim, g.con(Type::intConst(t.c))});
}

// Would the copy's j keep within the type of the loop's j? Its entry
// value flows into the loop's j, whose type may not widen: so the copy's
// j (j + kStride while j < limit - c) must stay in it. Tried on throwaway
// nodes shaped like the copy's.
bool counterFits(Graph& g, const Plan& p, const LimitTests& t) {
  Node* entry = p.loop->in[1];
  Node* bound = copyBound(g, p, t, entry, entry);
  Node* cj = made(g, Op::Cast, {entry, p.phi, bound}, int64_t(CastRel::LT));
  Node* next = made(g, Op::Add, {nullptr, cj, g.con(Type::intConst(kStride))});
  bool fits = p.phi->in[1]->type->meet(next->type)->isa(p.phi->type);
  g.killIfUnused(next);  // and the rest of the throwaway nodes with it
  return fits;
}

// Builds the copy before the loop (see vectorize.h). `anchors`:
// Graph::debugAnchors() before any loop was copied (-g).
bool vectorize(Graph& g, const Plan& p, const std::vector<Graph::DebugAnchor>& anchors) {
  Node* loop = p.loop;
  Node* phi = p.phi;
  LimitTests lt = limitTests(p);
  if (!counterFits(g, p, lt)) return false;

  // The guard: each test true, or the loop as written runs it all.
  std::vector<Node*> tests;
  if (lt.low) tests.push_back(made(g, Op::LT, {nullptr, g.con(Type::intConst(INT64_MIN + lt.c - 1)), p.limit}));
  if (lt.high) tests.push_back(made(g, Op::LT, {nullptr, p.limit, g.con(Type::intConst(INT64_MAX))}));
  for (auto [x, y] : p.aliasTests) {
    const Access& a = p.accesses[size_t(x)];
    const Access& b = p.accesses[size_t(y)];
    Affine d = a.off;
    d.add(b.off, true);
    // One array: far apart, or at the same offset; two: different.
    Node* dist = materialize(g, d);
    Node* ok = made(g, Op::EQ, {nullptr, dist, g.con(Type::intConst(0))});
    ok = made(g, Op::Or, {nullptr, ok, made(g, Op::LE, {nullptr, g.con(Type::intConst(kVectorBytes)), dist})});
    ok = made(g, Op::Or, {nullptr, ok, made(g, Op::LE, {nullptr, dist, g.con(Type::intConst(-kVectorBytes))})});
    Node* pa = pointerBefore(p, a.node->in[2]);
    Node* pb = pointerBefore(p, b.node->in[2]);
    if (pa != pb) ok = made(g, Op::Or, {nullptr, ok, made(g, Op::NE, {nullptr, pa, pb})});
    tests.push_back(ok);
  }
  Node* fastIn = loop->in[1];
  std::vector<Node*> arms;  // after each test
  std::vector<Node*> failed{nullptr};
  for (Node* test : tests) {
    Node* guard = made(g, Op::If, {fastIn, test});
    fastIn = made(g, Op::CProj, {guard}, 0);
    failed.push_back(made(g, Op::CProj, {guard}, 1));
    arms.push_back(fastIn);
  }
  Node* lowArm = lt.low ? arms[0] : nullptr;
  Node* highArm = lt.high ? arms[lt.low ? 1 : 0] : nullptr;
  Node* bound = copyBound(g, p, lt, lowArm, highArm);

  // The copy's header: j < bound takes kStride more iterations.
  Node* vloop = g.make(Op::Loop, {nullptr, fastIn, nullptr}, Type::ctrl());
  Node* vj = g.make(Op::Phi, {vloop, phi->in[1], nullptr}, phi->type);
  Node* vtest = made(g, Op::LT, {nullptr, vj, bound});
  Node* viff = made(g, Op::If, {vloop, vtest});
  Node* vbody = made(g, Op::CProj, {viff}, 0);
  Node* vexit = made(g, Op::CProj, {viff}, 1);
  g.setDef(vloop, 2, vbody);
  Node* cj = made(g, Op::Cast, {vbody, vj, bound}, int64_t(CastRel::LT));
  g.setDef(vj, 2, made(g, Op::Add, {nullptr, cj, g.con(Type::intConst(kStride))}));
  vj->pos = phi->pos;

  std::vector<std::pair<Node*, Node*>> vmem;  // {loop's memory Phi, the copy's}
  for (Node* m : p.memPhis) vmem.push_back({m, g.make(Op::Phi, {vloop, m->in[1], nullptr}, Type::mem())});
  // kPairs copies of the body, one after the other: pair q does the
  // iterations j + 2q and j + 2q + 1, on the memory pair q - 1 left.
  std::unordered_map<const Node*, Node*> splat;  // by value, for all pairs
  std::unordered_map<const Node*, Node*> copy;   // the pair being made
  std::unordered_map<const Node*, Node*> first;  // pair 0's (-g)
  auto lanes = [&](Node* d) -> Node* {  // d in both lanes
    auto it = copy.find(d);
    auto k = p.kind.find(d);
    if (it != copy.end() && k != p.kind.end() && k->second == Kind::Vector) return it->second;
    Node* v = it != copy.end() ? it->second : d;
    Node*& s = splat[v];
    if (!s) s = made(g, Op::VSplat, {nullptr, v});
    return s;
  };
  auto mapped = [&](Node* d) -> Node* {
    auto it = copy.find(d);
    return it == copy.end() ? d : it->second;
  };
  for (int q = 0; q < kPairs; q++) {
    std::unordered_map<const Node*, Node*> before = std::move(copy);
    copy.clear();
    copy[phi] = cj;
    for (auto [m, vm] : vmem) copy[m] = q == 0 || m->in[2] == m ? vm : before.at(m->in[2]);
    for (Node* n : p.order) {
      Node* c = nullptr;
      switch (n->op) {
        case Op::Cast: copy[n] = mapped(n->in[1]); continue;  // a Cast evaluates to its value
        case Op::Add: case Op::Sub: case Op::Mul: case Op::Shl:
          if (q > 0) continue;  // indices only lead to pair 0's offsets
          c = made(g, n->op, {nullptr, mapped(n->in[1]), mapped(n->in[2])});
          break;
        case Op::LT: case Op::LE: continue;  // the copy has its own test
        case Op::FNeg: case Op::FAbs: case Op::FSqrt:
          c = made(g, vecOpOf(n->op), {nullptr, lanes(n->in[1])});
          break;
        case Op::FAdd: case Op::FSub: case Op::FMul: case Op::FDiv: case Op::FMin: case Op::FMax:
          c = made(g, vecOpOf(n->op), {nullptr, lanes(n->in[1]), lanes(n->in[2])});
          break;
        case Op::Load: case Op::Store: {
          MemAccess m = MemAccess::decode(n->aux);
          m.size = int(kVectorBytes);
          // The offset is 8 * j + invariants: pair q's is pair 0's + 16q,
          // a displacement in the address rather than arithmetic.
          Node* off = first.count(n->in[3]) ? first.at(n->in[3]) : mapped(n->in[3]);
          if (q > 0) off = made(g, Op::Add, {nullptr, off, g.con(Type::intConst(kVectorBytes * q))});
          if (n->op == Op::Load)
            c = made(g, Op::Load, {vbody, mapped(n->in[1]), mapped(n->in[2]), off}, m.encode());
          else
            c = made(g, Op::Store, {vbody, mapped(n->in[1]), mapped(n->in[2]), off, lanes(n->in[4])}, m.encode());
          break;
        }
        default: internalError("vectorize", "unexpected " + n->label() + " in a loop body");
      }
      c->pos = n->pos;
      copy[n] = c;
    }
    if (q == 0) first = copy;
  }
  for (auto [m, vm] : vmem) g.setDef(vm, 2, m->in[2] == m ? vm : copy.at(m->in[2]));
  // -g: the copy's values carry the loop's variables. A two-lane value's
  // lane 0, the low half of its register or slot, is iteration j's value,
  // and the copy's j is that iteration's: the debugger sees iteration j.
  if (!g.debugNames.empty()) {
    std::unordered_map<const Node*, Node*> ctrl{{loop, vloop}, {p.body, vbody}, {p.iff, viff}};
    std::vector<Node*> named(p.order);
    named.push_back(phi);
    for (Node* x : named) {
      Node* value = x == phi ? vj : first.count(x) ? first.at(x) : nullptr;
      if (!value) continue;
      for (uint32_t k = x->dbg; k != 0; k = g.debugNames[k].next) {
        DebugName d = g.debugNames[k];  // a copy: the vector grows
        if (k < anchors.size()) d.at = anchors[k].at;
        auto at = ctrl.find(d.at);
        if (at == ctrl.end()) continue;
        d.at = at->second;
        g.addDebugNameCopy(value, d);
      }
    }
  }

  // The loop as written goes on from where the copy stopped, or from the
  // start when the guard failed.
  Node* entry = vexit;
  Node* jIn = vj;
  std::vector<Node*> memIn;
  for (auto [m, vm] : vmem) memIn.push_back(vm);
  if (failed.size() > 1) {
    Node* failIn = failed.size() == 2 ? failed[1] : g.make(Op::Region, failed, Type::ctrl());
    entry = g.make(Op::Region, {nullptr, vexit, failIn}, Type::ctrl());
    jIn = g.make(Op::Phi, {entry, vj, phi->in[1]}, phi->type);
    for (size_t i = 0; i < vmem.size(); i++)
      memIn[i] = g.make(Op::Phi, {entry, vmem[i].second, vmem[i].first->in[1]}, Type::mem());
  }
  g.setDef(loop, 1, entry);
  g.setDef(phi, 1, jIn);
  for (size_t i = 0; i < vmem.size(); i++) g.setDef(vmem[i].first, 1, memIn[i]);
  return true;
}

}  // namespace

int vectorizeLoops(Graph& g, uint64_t seed) {
  if (g.loops().empty()) return 0;  // before the control-flow analysis a huge loopless body would pay for
  auto cf = controlFlow(g);
  if (!hasLoop(*cf)) return 0;
  Planner planner(g, *cf);
  std::vector<Plan> plans = planLoops<Plan>(*cf, planner);
  std::vector<Graph::DebugAnchor> anchors;
  if (!g.debugNames.empty() && !plans.empty()) anchors = g.debugAnchors();
  int done = 0;
  size_t before = g.size();  // the nodes made from here on are the copies
  for (const Plan& p : plans) done += vectorize(g, p, anchors) ? 1 : 0;
  workCounters().loopsVectorized += uint64_t(done);
  // Fold and type the copies (and what now uses them: the loops they feed
  // into), not the whole function.
  if (done) peepsFrom(g, std::vector<Node*>(g.nodes().begin() + ptrdiff_t(before), g.nodes().end()), seed);
  return done;
}

}  // namespace simplec
