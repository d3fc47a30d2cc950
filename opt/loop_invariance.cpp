// Loop invariance by dominance of the nodes' control (see the header).
#include "opt/loop_invariance.h"

#include "lexer/work_counters.h"

namespace simplec {

bool LoopInvariance::controlBefore(Node* c) const {
  return c && entry_ && c != loop_ && cf_.dominates(c, entry_);
}

bool LoopInvariance::check(Node* n, int depth) {
  if (!n || n->op == Op::Con || n->op == Op::Start || n->op == Op::Parm) return true;
  if (n->isCFG()) return controlBefore(n);
  // Made once per arrival at their control: fixed when that precedes the loop.
  if (n->op == Op::Phi || (n->op == Op::Proj && n->in[0] && n->in[0]->isCFG())) return controlBefore(n->in[0]);
  if (n->op == Op::Scope) return false;
  auto it = memo_.find(n);
  if (it != memo_.end()) return it->second;
  if (depth <= 0 || budget_ <= 0) return false;
  budget_--;
  workCounters().loopOptSteps++;
  // Otherwise a function of its inputs; a control input (slot 0 of a load
  // or a cast) is where it may run, which must precede the loop too.
  bool ok = true;
  for (Node* d : n->in)
    if (!check(d, depth - 1)) {
      ok = false;
      break;
    }
  memo_[n] = ok;
  return ok;
}

}  // namespace simplec
