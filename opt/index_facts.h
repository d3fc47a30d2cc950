// What is known about integer values at one point of a function, for
// bounds-check elimination: the relations `a < b` and `a <= b` that the
// branches and bounds checks on the dominating path establish, and a small
// prover that derives `0 <= i` and `i < n` from them, from the ranges the
// analysis found (refined by the facts: below `if (i < 400)`, i * 400 + j
// stays under 160000), through chains (`i < n`, `n <= a#`), constant
// offsets (`i - 1 < n` when `i < n`), and induction variables (a loop Phi
// that starts below a loop-invariant n and never grows stays below n).
// Invariant: every fact held was established by a control node on the
// current path of a walk down the dominator tree, so it holds wherever
// that walk is; the prover only answers yes when the claim is proven.
#pragma once
#include <cstdint>
#include <vector>

#include "son/graph.h"

namespace simplec {

class IndexFacts {
 public:
  // Side tables are indexed by the ids of g's nodes (a hash map per value
  // cost a malloc and a cache miss per fact on huge functions).
  // (Without a graph the tables grow as nodes come.)
  IndexFacts() = default;
  explicit IndexFacts(const Graph& g);
  // The walk enters control node n, a child of the node entered last that
  // is not yet left (or the first): record what n establishes below it.
  void enter(Node* n);
  // The walk leaves the node entered last: forget what it recorded.
  void leave();
  // Does 0 <= index < length hold whenever control reaches the node
  // entered last (before what that node itself establishes)?
  bool provesInBounds(Node* index, Node* length);

  // `a < b` (strict) or `a <= b` wherever the walk is; null means 0.
  bool provesLess(Node* a, Node* b, bool strict);

 private:
  struct Fact {
    Node* lo;     // null: the constant 0
    Node* hi;
    bool strict;  // lo < hi, else lo <= hi
    int depth;    // of the node that established it
    int32_t prevLo, prevHi;  // the previous fact with the same lo (hi), or -1
  };
  struct Range {
    int64_t lo, hi;
  };
  void add(Node* lo, Node* hi, bool strict);
  void addBranchFacts(Node* proj);
  // Only facts established above depth `limit` count (those that hold at
  // the entry of a loop entered at that depth).
  bool less(Node* a, Node* b, bool strict, int limit, int depth);
  bool lessByFacts(Node* ua, Node* ub, Node* a, Node* b, bool strict, int limit, int depth);
  bool lessByOffsets(Node* ua, Node* ub, Node* a, Node* b, bool strict, int limit, int depth);
  bool lessByInduction(Node* ua, Node* ub, Node* a, Node* b, bool strict, int limit, int depth);
  Range rangeOf(Node* n, int limit, int depth);
  // n = base + k exactly: an addition or subtraction of a constant that
  // cannot wrap around, else n itself with k = 0. False only for null.
  bool splitOffset(Node* n, int limit, Node** base, int64_t* k);
  void rawOffset(Node* n, Node** base, int64_t* k);
  Range baseRange(Node* n, int64_t c, int limit, Range rx);
  bool lessOnOneBase(Node* a, Node* b, bool strict, int limit);
  // v's value never exceeds (grows: never falls below) the loop Phi p's
  // value in the same iteration: p itself, minus (plus) non-negative steps.
  bool monotoneFrom(Node* v, Node* p, bool grows, int depth);
  // n has one value throughout the loop entered at depth `loopDepth`.
  bool invariant(Node* n, int loopDepth, int depth);
  int depthOnPath(Node* ctrl) const;  // -1: not on the walk's path
  bool spend();  // false once the current query's budget is used up
  Node* canon(Node* n);

  std::vector<Fact> facts_;
  std::vector<size_t> marks_;  // facts_.size() at each entered node
  std::vector<Node*> path_;    // the entered nodes, root first
  // By node id: the node's depth on the path, or -1.
  std::vector<int32_t> onPath_;
  // By node id + 1 (0: the constant 0): the newest fact with that lo (hi),
  // or -1; older ones are linked through Fact::prevLo (prevHi).
  std::vector<int32_t> loHead_, hiHead_;
  static int32_t& at(std::vector<int32_t>& v, size_t k);
  static size_t key(const Node* n) { return n ? size_t(n->id) + 1 : 0; }
  std::vector<const Fact*> recent(bool byLo, Node* key, int limit);
  // By array node id: its canonical length load (null: not asked yet).
  std::vector<Node*> lengthOf_;
  int budget_ = 0;
};

}  // namespace simplec
