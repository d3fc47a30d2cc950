// Insertion of range-narrowing Casts below branches.
#include "opt/narrow.h"

#include <algorithm>
#include <climits>

#include "son/control_flow.h"
#include "son/compute.h"
#include "son/unit.h"
#include "son/verify.h"

namespace simplec {

namespace {

constexpr size_t kMaxUses = 200;      // values used more often are left alone (time)
// Floating uses are looked through this many levels deep. Deeper would
// rewire more arithmetic to Casts inside loops, which hides induction
// variables (i * n + j) from the loop passes.
constexpr int kFloatingDepth = 3;
// A division's dividend is followed deeper: the sign a Cast gives it saves
// the rounding toward zero (isel), and a division is no induction variable.
// strbuild's digit loop needs 4: `y / 10` feeds `q * 10`, `+ '0'`, `- y`.
// That search visits at most kFloatingBudget nodes per use.
constexpr int kDividendDepth = 5;
constexpr int kFloatingBudget = 16;

CastRel negate(CastRel r) {
  switch (r) {
    case CastRel::LT: return CastRel::GE;
    case CastRel::LE: return CastRel::GT;
    case CastRel::GT: return CastRel::LE;
    case CastRel::GE: return CastRel::LT;
    case CastRel::EQ: return CastRel::NE;
    case CastRel::NE: return CastRel::EQ;
  }
  return r;
}

// `a REL b` read from b's side.
CastRel mirror(CastRel r) {
  switch (r) {
    case CastRel::LT: return CastRel::GT;
    case CastRel::LE: return CastRel::GE;
    case CastRel::GT: return CastRel::LT;
    case CastRel::GE: return CastRel::LE;
    default: return r;
  }
}

struct Fact {
  Node* value;
  CastRel rel;
  Node* bound;  // null: the constant 0
};

class Narrower {
 public:
  explicit Narrower(Graph& g) : g_(g), cf_(controlFlow(g)), dom_(*cf_) {}

  int run() {
    int made = 0;
    std::vector<Node*> ifs;
    for (Node* c : dom_.order())
      if (c->op == Op::If && c->in.size() > 1 && c->in[1]) ifs.push_back(c);
    for (Node* iff : ifs)
      for (Node* arm : std::vector<Node*>(iff->out))
        if (arm->op == Op::CProj && !arm->dead && dom_.reached(arm))
          for (const Fact& f : factsOf(iff->in[1], arm->aux == 0)) made += narrow(arm, f);
    return made;
  }

 private:
  // What the arm (true or false) of a branch on p proves, for each operand
  // worth narrowing.
  std::vector<Fact> factsOf(Node* p, bool taken) {
    while (p->op == Op::Not && p->in.size() > 1 && p->in[1]) {
      p = p->in[1];
      taken = !taken;
    }
    CastRel rel;
    Node *a, *b;
    switch (p->op) {
      case Op::LT: rel = CastRel::LT; break;
      case Op::LE: rel = CastRel::LE; break;
      case Op::EQ: rel = CastRel::EQ; break;
      case Op::NE: rel = CastRel::NE; break;
      default: rel = CastRel::NE; break;  // if (x): x != 0
    }
    if (p->op == Op::LT || p->op == Op::LE || p->op == Op::EQ || p->op == Op::NE) {
      if (p->in.size() < 3 || !p->in[1] || !p->in[2]) return {};
      a = p->in[1];
      b = p->in[2];
    } else {
      if (!p->type || !p->type->isInt() || p->isConst()) return {};
      a = p;
      b = nullptr;
    }
    if (!taken) rel = negate(rel);
    std::vector<Fact> facts;
    auto want = [](Node* x) { return x->type && x->type->isInt() && !x->isConst() && x->out.size() <= kMaxUses; };
    if (a != b && want(a)) facts.push_back({a, rel, b});
    if (b && a != b && want(b)) facts.push_back({b, mirror(rel), a});
    return facts;
  }

  bool dominates(Node* a, Node* c) const { return dom_.dominates(a, c); }

  // Does `user`'s use of its input in `slot` happen only below `arm`?
  bool useBelow(Node* user, size_t slot, Node* arm, int depth, int& budget) const {
    if (user->dead) return false;
    if (user->op == Op::Phi) {
      Node* r = user->in[0];
      return r && slot < r->in.size() && r->in[slot] && dominates(arm, r->in[slot]);
    }
    if (user->isCFG()) return dominates(arm, user);
    if ((opInfo(user->op).flags & CTRL) && !user->in.empty() && user->in[0])
      return dominates(arm, user->in[0]);
    if (user->op == Op::Con || user->op == Op::Parm || user->op == Op::Proj || user->op == Op::Scope) return false;
    // Floating: it goes below the arm if all its uses do.
    if (depth == 0 || user->out.empty() || --budget < 0) return false;
    for (Node* u : user->out)
      for (size_t i = 0; i < u->in.size(); i++)
        if (u->in[i] == user && !useBelow(u, i, arm, depth - 1, budget)) return false;
    return true;
  }

  int narrow(Node* arm, const Fact& f) {
    std::vector<std::pair<Node*, size_t>> uses;
    std::vector<Node*> users(f.value->out);
    // By id, not address: the order of use lists steers later worklists.
    std::sort(users.begin(), users.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
    users.erase(std::unique(users.begin(), users.end()), users.end());
    for (Node* u : users)
      for (size_t i = 0; i < u->in.size(); i++)
        if (u->in[i] == f.value) {
          bool dividend = (u->op == Op::Div || u->op == Op::Mod) && i == 1;
          int budget = dividend ? kFloatingBudget : INT_MAX;
          if (useBelow(u, i, arm, dividend ? kDividendDepth : kFloatingDepth, budget)) uses.push_back({u, i});
        }
    if (uses.empty()) return 0;
    Node* bound = f.bound ? f.bound : g_.con(Type::intConst(0));
    Node* cast = g_.make(Op::Cast, {arm, f.value, bound}, nullptr, int64_t(f.rel));
    cast->type = compute(cast);
    for (auto [u, i] : uses) g_.setDef(u, i, cast);
    return 1;
  }

  Graph& g_;
  std::shared_ptr<const ControlFlow> cf_;
  const ControlFlow& dom_;
};

}  // namespace

int insertNarrowingCasts(Graph& g) { return Narrower(g).run(); }

namespace {

// A division whose zero check went because its divisor is this Cast (`if (d
// != 0) ... x / d`) is kept below the test by the Cast alone: without it
// the division floats above the test and traps (fuzz seed 150158).
bool guardsDivision(const Node* cast) {
  for (const Node* u : cast->out)
    if (u && (u->op == Op::Div || u->op == Op::Mod) && u->in.size() > 2 && u->in[2] == cast) return true;
  return false;
}

}  // namespace

int removeIdleCasts(Graph& g) {
  int removed = 0;
  for (Node* n : liveNodes(g))
    if (n->op == Op::Cast && !n->dead && n->in.size() > 1 && n->in[1] && n->in[1]->type == n->type &&
        !guardsDivision(n)) {
      g.subsume(n, n->in[1]);
      removed++;
    }
  // Removing a Cast can leave nodes that nothing reaches from Stop any more
  // (fuzz seed 209115): sweep them, as the other passes do.
  if (removed) sweepUnreachable(g);
  return removed;
}

}  // namespace simplec
