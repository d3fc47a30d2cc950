// Recognition of basic and derived induction variables (see the header).
#include "opt/induction_vars.h"

#include "lexer/work_counters.h"

namespace simplec {

Node* withoutCasts(Node* n) {
  while (n && n->op == Op::Cast && n->in.size() > 1 && n->in[1]) n = n->in[1];
  return n;
}

namespace {

bool isInt(const Node* n) { return n && n->type && n->type->isInt(); }

}  // namespace

std::vector<BasicIV> findBasicIVs(LoopInvariance& inv) {
  std::vector<BasicIV> ivs;
  Node* loop = inv.loop();
  if (loop->in.size() != 3 || !loop->in[1] || !loop->in[2]) return ivs;
  for (Node* phi : loop->out) {
    workCounters().loopOptSteps++;
    if (phi->op != Op::Phi || phi->in.size() != 3 || phi->in[0] != loop || !isInt(phi)) continue;
    Node* init = phi->in[1];
    Node* next = withoutCasts(phi->in[2]);
    if (!init || !next || (next->op != Op::Add && next->op != Op::Sub) || next->in.size() != 3) continue;
    for (int order = 0; order < (next->op == Op::Add ? 2 : 1); order++) {
      Node* x = next->in[order ? 2 : 1];
      Node* s = next->in[order ? 1 : 2];
      if (withoutCasts(x) != phi || !isInt(s) || !inv.invariant(s)) continue;
      ivs.push_back({phi, init, s, next->op == Op::Sub});
      break;
    }
  }
  return ivs;
}

bool matchDerivedIV(Node* n, const std::vector<BasicIV>& ivs, LoopInvariance& inv, DerivedIV* out) {
  workCounters().loopOptSteps++;
  auto basic = [&](Node* x) -> const BasicIV* {
    x = withoutCasts(x);
    for (const BasicIV& iv : ivs)
      if (iv.phi == x) return &iv;
    return nullptr;
  };
  // iv or iv * s
  auto scaled = [&](Node* x, DerivedIV* d) {
    x = withoutCasts(x);
    if (const BasicIV* iv = basic(x)) {
      *d = {iv, nullptr, nullptr, false};
      return true;
    }
    if (!x || x->op != Op::Mul || x->in.size() != 3) return false;
    for (int order = 0; order < 2; order++) {
      const BasicIV* iv = basic(x->in[order ? 2 : 1]);
      Node* s = x->in[order ? 1 : 2];
      if (iv && isInt(s) && inv.invariant(s)) {
        *d = {iv, s, nullptr, false};
        return true;
      }
    }
    return false;
  };
  n = withoutCasts(n);
  if (scaled(n, out)) return true;
  if (!n || (n->op != Op::Add && n->op != Op::Sub) || n->in.size() != 3) return false;
  for (int order = 0; order < (n->op == Op::Add ? 2 : 1); order++) {
    Node* o = n->in[order ? 1 : 2];
    if (!isInt(o) || !inv.invariant(o) || !scaled(n->in[order ? 2 : 1], out)) continue;
    out->offset = o;
    out->negOffset = n->op == Op::Sub;
    return true;
  }
  return false;
}

}  // namespace simplec
