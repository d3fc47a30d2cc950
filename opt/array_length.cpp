// Array lengths through Phis of allocations (see the header).
#include "opt/array_length.h"

#include <vector>

#include "lexer/work_counters.h"
#include "son/mem_access.h"

namespace simplec {

namespace {

constexpr size_t kMaxWeb = 32;  // Phis and allocations looked at per reference
constexpr int kFixedDepth = 6;

Node* uncast(Node* n) {
  while (n && n->op == Op::Cast && n->in.size() > 1 && n->in[1]) n = n->in[1];
  return n;
}

// n has one value throughout a call of its function.
bool fixedPerCall(const Node* n, int depth) {
  if (!n) return false;
  if (n->op == Op::Con || n->op == Op::Parm) return true;
  if (depth <= 0 || n->isCFG() || n->op == Op::Phi || n->op == Op::Proj || n->op == Op::Load ||
      n->op == Op::Store || n->op == Op::MergeMem || n->op == Op::Scope)
    return false;
  workCounters().loopOptSteps++;
  bool ctrl = opInfo(n->op).flags & CTRL;
  for (size_t i = 0; i < n->in.size(); i++) {
    if (i == 0 && (ctrl || !n->in[0])) continue;  // a control input only guards
    if (!fixedPerCall(n->in[i], depth - 1)) return false;
  }
  return true;
}

}  // namespace

Node* commonArrayLength(Node* ptr) {
  std::vector<Node*> seen, work{uncast(ptr)};
  Node* length = nullptr;
  while (!work.empty()) {
    Node* p = work.back();
    work.pop_back();
    workCounters().loopOptSteps++;
    if (!p) return nullptr;
    bool again = false;
    for (Node* s : seen) again |= s == p;
    if (again) continue;
    if (seen.size() >= kMaxWeb) return nullptr;
    seen.push_back(p);
    if (p->op == Op::Phi) {
      for (size_t i = 1; i < p->in.size(); i++) work.push_back(uncast(p->in[i]));
      continue;
    }
    const Node* nw = newOf(p);
    if (!nw || nw->in.size() < 3 || !nw->in[2]) return nullptr;
    Node* l = nw->in[2];
    if (!length) length = l;
    else if (!sameValue(length, l)) return nullptr;
  }
  return length && fixedPerCall(length, kFixedDepth) ? length : nullptr;
}

}  // namespace simplec
