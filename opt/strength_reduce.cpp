// Strength reduction of IV * invariant, loop by loop (see the header).
#include "opt/strength_reduce.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "lexer/work_counters.h"
#include "opt/induction_vars.h"
#include "opt/iterate.h"
#include "son/control_flow.h"

namespace simplec {

namespace {

bool powerOfTwo(const Node* n) {
  if (n->op != Op::Con || !n->type->isInt() || !n->type->isConst()) return false;
  int64_t v = n->type->value();
  return v > 0 && (v & (v - 1)) == 0;
}

// A product some Cast narrows by a comparison (`j < n` bounds j by n),
// directly or through values computed from it (s = s / 256 + i * 9, then a
// later loop `j < s`: fuzz seed 240112). The new IV is typed as any int
// where the product had a range; the ranges the Casts derived from it would
// have to widen, and types may only narrow here (fuzz seed 8003791: a loop
// counter bounded by it grew one step per peephole round; widening them
// instead undid facts other rewrites had used, such as a divisor known
// non-zero). So such a product stays. The values followed are those with a
// range that could widen (any int cannot); past kMaxFollowed of them the
// product stays too.
bool narrowsRanges(const Node* mul) {
  constexpr size_t kMaxFollowed = 256;
  if (mul->type == Type::intBot()) return false;
  std::vector<const Node*> values{mul};
  for (size_t k = 0; k < values.size(); k++) {
    for (const Node* u : values[k]->out) {
      if (!u) continue;
      if (u->op == Op::Cast) return true;
      if (u->isCFG() || !u->type || !u->type->isInt() || u->type == Type::intBot()) continue;
      if (std::find(values.begin(), values.end(), u) != values.end()) continue;
      if (values.size() == kMaxFollowed) return true;
      values.push_back(u);
    }
  }
  return false;
}

// The Muls of iv (or of a Cast of it) by an invariant, with that factor.
std::vector<std::pair<Node*, Node*>> products(const BasicIV& iv, LoopInvariance& inv) {
  std::vector<std::pair<Node*, Node*>> r;
  std::vector<Node*> values{iv.phi};
  for (size_t k = 0; k < values.size() && k < 16; k++) {
    for (Node* u : values[k]->out) {
      workCounters().loopOptSteps++;
      if (u->op == Op::Cast && u->in.size() > 1 && u->in[1] == values[k]) {
        values.push_back(u);
      } else if (u->op == Op::Mul && u->in.size() == 3 && !u->dead && !narrowsRanges(u)) {
        Node* s = u->in[1] == values[k] ? u->in[2] : u->in[1];
        if (withoutCasts(s) != iv.phi && s->type && s->type->isInt() && !powerOfTwo(s) && inv.invariant(s))
          r.push_back({u, s});
      }
    }
  }
  return r;
}

// Does x * y stay within int64 for every x in a's range and y in b's?
bool productFits(const Type* a, const Type* b) {
  if (!a || !b || !a->isInt() || !b->isInt() || a->isIntTop() || b->isIntTop()) return false;
  for (__int128 x : {__int128(a->lo()), __int128(a->hi())})
    for (__int128 y : {__int128(b->lo()), __int128(b->hi())}) {
      __int128 p = x * y;
      if (p < INT64_MIN || p > INT64_MAX) return false;
    }
  return true;
}

// Linear-function test replacement: once iv's products have become the new
// IV j = iv * s, iv may be left with nothing to do but count and be
// compared: `iv < lim` is then `j < lim * s` (s > 0, and neither product
// overflows over the ranges of iv, lim and s), and iv dies. That is done
// only when iv would die: everything that reads it (transitively) is its
// increment, a Cast, or such a comparison of iv's value with an invariant.
// A Cast of iv (or of such a Cast) carries iv's value; a Cast of another
// value bounded by iv (`lim > iv` narrows lim in the loop) only depends on
// iv, and a comparison of it is not one of iv (`lim < 300` in the loop
// must stay as it is). Otherwise iv stays, and the rewrite would only add
// a product.
// Returns the comparisons replaced; new nodes go to `made`.
int replaceTests(Graph& g, const BasicIV& iv, Node* s, Node* j, LoopInvariance& inv, std::vector<Node*>& made) {
  constexpr size_t kMaxDying = 32;
  if (!s->type->isInt() || s->type->isIntTop() || s->type->lo() <= 0 || !productFits(iv.phi->type, s->type))
    return 0;
  Node* next = iv.phi->in[2];
  if (!next || next->op != (iv.down ? Op::Sub : Op::Add)) return 0;
  std::vector<Node*> dying{iv.phi};   // iv, its increment, the Casts that read them
  std::vector<Node*> values{iv.phi};  // those of them that are iv's value
  std::vector<Node*> tests;
  auto has = [](const std::vector<Node*>& v, Node* n) { return std::find(v.begin(), v.end(), n) != v.end(); };
  for (size_t k = 0; k < dying.size(); k++) {
    Node* v = dying[k];
    for (Node* u : v->out) {
      workCounters().loopOptSteps++;
      if (has(dying, u) || has(tests, u)) continue;
      if (u == next || u->op == Op::Cast) {
        if (dying.size() == kMaxDying) return 0;
        dying.push_back(u);
        if (u->op == Op::Cast && u->in.size() > 1 && has(values, u->in[1])) values.push_back(u);
        continue;
      }
      bool compare = (u->op == Op::LT || u->op == Op::LE) && u->in.size() == 3 && !u->in[0];
      bool left = compare && has(values, u->in[1]), right = compare && has(values, u->in[2]);
      Node* lim = left ? u->in[2] : right ? u->in[1] : nullptr;
      if (left == right || has(dying, lim) || !inv.invariant(lim) || !productFits(lim->type, s->type))
        return 0;  // iv (or what depends on it) has another use: it stays, and so do its tests
      tests.push_back(u);
    }
  }
  // iv itself must be compared, and the increment must be iv's.
  if (tests.empty() || !has(dying, next)) return 0;
  const Type* any = Type::intBot();
  for (Node* t : tests) {
    bool ivLeft = has(values, t->in[1]);
    Node* lim = ivLeft ? t->in[2] : t->in[1];
    Node* scaled = g.make(Op::Mul, {nullptr, lim, s}, any);
    Node* c = g.make(t->op, {nullptr, ivLeft ? j : scaled, ivLeft ? scaled : j}, t->type);
    c->pos = t->pos;
    made.insert(made.end(), {scaled, c});
    g.subsume(t, c);
  }
  return int(tests.size());
}

}  // namespace

int strengthReduce(Graph& g, uint64_t seed) {
  if (g.loops().empty()) return 0;  // before the control-flow analysis a huge loopless body would pay for
  auto cf = controlFlow(g);
  std::vector<Node*> loops;
  for (Node* c : cf->order())
    if (c->op == Op::Loop && c->in.size() == 3 && c->in[1] && c->in[2] && cf->reached(c->in[2])) loops.push_back(c);
  int replaced = 0;
  std::vector<Node*> made;  // new nodes (the products' users follow them)
  const Type* any = Type::intBot();
  for (Node* loop : loops) {
    LoopInvariance inv(*cf, loop);
    std::vector<BasicIV> ivs = findBasicIVs(inv);
    for (const BasicIV& iv : ivs) {
      // One new IV per factor: Muls of different Casts of the IV share it.
      std::vector<std::pair<Node*, Node*>> phis;  // factor -> new Phi
      for (auto [mul, s] : products(iv, inv)) {
        if (mul->dead) continue;
        Node* phi = nullptr;
        for (auto& [f, p] : phis)
          if (f == s) phi = p;
        if (!phi) {
          Node* init = g.make(Op::Mul, {nullptr, iv.init, s}, any);
          Node* step = g.make(Op::Mul, {nullptr, iv.step, s}, any);
          phi = g.make(Op::Phi, {loop, init, nullptr}, any);
          phi->pos = mul->pos;
          Node* next = g.make(iv.down ? Op::Sub : Op::Add, {nullptr, phi, step}, any);
          g.setDef(phi, 2, next);
          phis.push_back({s, phi});
          made.insert(made.end(), {init, step, phi, next});
        }
        g.subsume(mul, phi);
        replaced++;
      }
      // With one factor, the tests of iv can count in the new IV instead.
      if (phis.size() == 1) workCounters().testsReplaced += replaceTests(g, iv, phis[0].first, phis[0].second, inv, made);
    }
  }
  // Fold the new products (constants, GVN) and type the new nodes: the
  // loops changed, not the whole function.
  if (!replaced) return 0;
  peepsFrom(g, made, seed);
  return replaced;
}

}  // namespace simplec
