// MergeMem: all memory as one value, which a call or a return takes.
// in[1] is the base memory; in[2 + j] the memory of alias class
// classes[j], where `classes` (ascending, each >= 1) is an interned list
// that the node's aux names. A class not listed shares the base. Listing
// only the classes that differ keeps a call's memory as small as what its
// function touched, however many classes the program has (one input per
// class of the program made a call cost O(classes), and a program of many
// struct types quadratic).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace simplec {

class Graph;
class Node;

// The classes of MergeMem n, ascending.
const std::vector<int>& mergeMemClasses(const Node* n);
// The memory of class k in MergeMem n: its own input, else the base.
Node* mergeMemOf(const Node* n, int k);
// The aux naming this class list (interned: equal lists, equal aux).
int64_t mergeMemAux(const std::vector<int>& classes);
// A MergeMem (not peepholed) of `base` and (class, memory) pairs in
// ascending class order, each memory non-null; just `base` without pairs.
Node* makeMergeMem(Graph& g, Node* base, const std::vector<std::pair<int, Node*>>& classes);

}  // namespace simplec
