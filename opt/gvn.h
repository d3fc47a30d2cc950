// Global value numbering by hash-consing: two nodes of the same kind, aux
// and inputs (and, for constants, type) compute the same value. The table may
// hold stale entries (nodes whose inputs changed since insertion); a lookup
// re-checks equality against the candidate's current inputs, so staleness
// can only cost a missed match, never a wrong one.
#pragma once
#include <unordered_map>
#include <vector>

#include "son/node.h"

namespace simplec {

class Gvn {
 public:
  // An existing node equal to n, or n itself after recording it.
  Node* findOrInsert(Node* n);
  // The recorded constant of type t (a Con on start), or nullptr: lets
  // callers skip making a node that would only be thrown away.
  Node* findConst(const Type* t, const Node* start) const;
  static bool eligible(const Node* n);
  void clear() { table_.clear(); }

 private:
  static size_t hashOf(const Node* n);
  static size_t constHash(const Type* t, const Node* start);
  static bool same(const Node* a, const Node* b);
  std::unordered_multimap<size_t, Node*> table_;
};

}  // namespace simplec
