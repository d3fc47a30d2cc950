// A stable path to a reference: a variable, then field and element
// selections (`p`, `p.next`, `a[i].kids[0]`), so that a test of `p.next`
// also narrows the next `p.next`. A path names what can change it: its
// variables (root and indices) and, per step, the key a store must have
// to write it (the field, or the array's element type). It is the same in
// every parse of a file, so it also names a fact across parses (LoopHints).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace simplec {

struct PathStep {
  bool element = false;  // `[i]`; else a field
  int key = 0;           // field: its alias class; element: the key of the array's element type
  int indexVar = -1;     // element: the index variable, or -1 for a constant index
  int64_t index = 0;     // element with a constant index
  bool operator==(const PathStep& o) const {
    return element == o.element && key == o.key && indexVar == o.indexVar && index == o.index;
  }
  bool operator<(const PathStep& o) const {
    if (element != o.element) return element < o.element;
    if (key != o.key) return key < o.key;
    if (indexVar != o.indexVar) return indexVar < o.indexVar;
    return index < o.index;
  }
};

struct NullPath {
  int root = -1;                // the variable it starts from; -1: not a path
  std::vector<PathStep> steps;  // none: the variable itself

  static NullPath ofVar(int var) {
    NullPath p;
    p.root = var;
    return p;
  }
  bool valid() const { return root >= 0; }
  bool isVar() const { return valid() && steps.empty(); }
  // This path followed by one more step (not a path if this is none).
  NullPath then(const PathStep& s) const;
  // Does it name variable v (as its root or an index)?
  bool mentions(int v) const;
  // The highest variable it names (-1: not a path).
  int maxVar() const;
  // Does a store to a field (or an element) with this key change it?
  bool readsKey(bool element, int key) const;
  bool operator==(const NullPath& o) const { return root == o.root && steps == o.steps; }
  bool operator!=(const NullPath& o) const { return !(*this == o); }
  bool operator<(const NullPath& o) const { return root != o.root ? root < o.root : steps < o.steps; }
  // Stable text, e.g. "v3.f7[v4]" or "v3[e2:#0]", for tests and hints.
  std::string str() const;
};

}  // namespace simplec
