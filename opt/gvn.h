// Global value numbering by hash-consing: two nodes of the same kind, aux
// and inputs (and, for constants, type) compute the same value. The table may
// hold stale entries (nodes whose inputs changed since insertion); a lookup
// re-checks equality against the candidate's current inputs, so staleness
// can only cost a missed match, never a wrong one, and the table drops them
// whenever it grows, so it stays proportional to the nodes it numbers.
// Candidates of one hash are tried in the order they were recorded: the
// answer never depends on where nodes or types sit in memory.
#pragma once
#include <cstdint>
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
  size_t recorded() const { return entries_.size(); }  // entries, stale ones included (tests)
  void clear() {
    entries_.clear();
    slots_.clear();
  }

 private:
  static size_t hashOf(const Node* n);
  static size_t constHash(const Type* t, const Node* start);
  static bool same(const Node* a, const Node* b);
  // Calls f(node) for each recorded node of hash h, in recording order,
  // until f returns true.
  template <class F>
  Node* probe(size_t h, F f) const;
  void record(size_t h, Node* n);
  void rebuild();

  struct Entry {
    size_t hash;
    Node* node;
  };
  std::vector<Entry> entries_;   // in recording order
  std::vector<uint32_t> slots_;  // open addressing over entries_: index + 1, 0 empty; a power of two
};

}  // namespace simplec
