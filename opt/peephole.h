// Peepholes: the local rewrites every new or changed node goes through, at
// parse time and in the iterative pass. In order: compute the node's type;
// a pure node whose type is a constant becomes that constant; idealize
// (algebraic identities, dead control removal); value-number.
// Postcondition: the returned node computes the same value as n and is
// already in the GVN table; n itself is left for the caller to replace.
#pragma once
#include <unordered_map>

#include "opt/gvn.h"
#include "son/graph.h"

namespace simplec {

class Peephole {
 public:
  explicit Peephole(Graph& g) : g_(g) {}
  // The node to use instead of n (n itself when nothing better was found).
  Node* run(Node* n);
  // Did the last run() rewrite its node in place (inputs changed)?
  bool changedInPlace() const { return changedInPlace_; }
  // Did the last run() stop while n could still change (kMaxRewrites
  // rewrites in a row)? The caller visits it again rather than leaving it
  // to another round.
  bool unfinished() const { return unfinished_; }
  static constexpr int kMaxRewrites = 64;
  // Memory nodes a load looks through per visit for the store it reads.
  // A load whose answer lies further up stays where it is: moving it part
  // of the way would leave the next visit more to do (no fixed point), and
  // the work would grow with the distance, which grows with the function.
  static constexpr int kMaxMemoryWalk = 256;
  // Nodes whose inputs the last run() changed besides its own node and that
  // node's users (the users of a Phi folded away with its Region): a
  // worklist visits them again.
  const std::vector<Node*>& touched() const { return touched_; }
  // One rewrite step on n: nullptr when no rule applies, n when n was changed
  // in place, otherwise a replacement node.
  Node* idealize(Node* n);
  Gvn& gvn() { return gvn_; }
  // The graph's constant of type t, made only when none exists yet.
  Node* constant(const Type* t);
  Graph& graph() { return g_; }
  // Disable constant folding, idealization and GVN (for -O0 debugging of the
  // parser's raw graph); types are still computed.
  bool enabled = true;

 private:
  Node* idealizeArith(Node* n);
  Node* idealizeRegion(Node* n);
  Node* idealizePhi(Node* n);
  Node* idealizeCProj(Node* n);
  // Memory (opt/mem_peephole.cpp).
  Node* idealizeLoad(Node* n);
  Node* idealizeStore(Node* n);
  Node* idealizeMergeMem(Node* n);
  Node* idealizeBoundsCheck(Node* n);
  Node* idealizeNew(Node* n);
  Node* con(int64_t v);
  Node* make(Op op, std::vector<Node*> ins);
  Graph& g_;
  Gvn gvn_;
  // How often each loop Phi's range was narrowed or widened (see run()).
  std::unordered_map<const Node*, int> loopPhiNarrowings_;
  std::unordered_map<const Node*, int> loopPhiWidenings_;
  bool changedInPlace_ = false;
  bool unfinished_ = false;
  std::vector<Node*> touched_;
  int depth_ = 0;  // run() calls in progress (rules run it on what they make)
  // The position of the node the outermost run() started on: the nodes its
  // rules make come from the same source (-g line tables: `s * 2` made into
  // `s << 1` stays on its own line).
  SrcPos at_;
};

// A loop Phi's range may narrow this many times in the peepholes; then it
// stays. Around a loop, x / 2 * 2 + 1 narrows the Phi by one value per
// visit, so without a bound the peepholes would take 2^63 steps (the
// analysis, sccp, widens instead).
constexpr int kMaxLoopPhiNarrowings = 16;
// And it may widen this many times by steps; then a bound that moves goes
// to the end of the int range at once. Once narrowed below what the analysis
// found, a range can grow by one value per visit around the loop
// ((s & k) + 1 with k's range wider than s's), as it would shrink without
// the bound above.
constexpr int kMaxLoopPhiWidenings = 16;

}  // namespace simplec
