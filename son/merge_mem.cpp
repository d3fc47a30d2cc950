// MergeMem class lists: interned once per distinct list, kept for the
// process (a list per shape of memory a call takes: few, and small).
#include "son/merge_mem.h"

#include <algorithm>
#include <deque>
#include <string>
#include <mutex>
#include <unordered_map>

#include "lexer/diag.h"
#include "son/graph.h"
#include "son/node.h"
#include "son/shared_graphs.h"

namespace simplec {

namespace {

struct ClassLists {
  std::deque<std::vector<int>> lists{std::vector<int>()};  // id 0: no class
  std::unordered_map<std::string, int64_t> ids{{std::string(), 0}};
  std::mutex lock;  // while graphs are shared between threads
};

ClassLists& classLists() {
  static ClassLists* t = new ClassLists;  // never destroyed: graphs may outlive statics
  return *t;
}

}  // namespace

int64_t mergeMemAux(const std::vector<int>& classes) {
  ClassLists& t = classLists();
  LockIfShared lock(t.lock);
  std::string key(reinterpret_cast<const char*>(classes.data()), classes.size() * sizeof(int));
  auto [it, added] = t.ids.emplace(std::move(key), int64_t(t.lists.size()));
  if (added) t.lists.push_back(classes);
  return it->second;
}

const std::vector<int>& mergeMemClasses(const Node* n) {
  ClassLists& t = classLists();
  // A list stays where it is as others are added (a deque): only finding it
  // needs the lock.
  LockIfShared lock(t.lock);
  SIMPLEC_CHECK(n->aux >= 0 && size_t(n->aux) < t.lists.size(), "graph", "a MergeMem without its class list");
  return t.lists[size_t(n->aux)];
}

Node* mergeMemOf(const Node* n, int k) {
  const std::vector<int>& cs = mergeMemClasses(n);
  auto it = std::lower_bound(cs.begin(), cs.end(), k);
  if (it == cs.end() || *it != k) return n->in[1];
  return n->in[2 + size_t(it - cs.begin())];
}

Node* makeMergeMem(Graph& g, Node* base, const std::vector<std::pair<int, Node*>>& classes) {
  if (classes.empty()) return base;
  std::vector<int> ks;
  std::vector<Node*> ins{nullptr, base};
  for (const auto& [k, m] : classes) {
    SIMPLEC_CHECK(k >= 1 && (ks.empty() || k > ks.back()) && m, "graph", "MergeMem classes out of order");
    ks.push_back(k);
    ins.push_back(m);
  }
  return g.make(Op::MergeMem, ins, Type::mem(), mergeMemAux(ks));
}

}  // namespace simplec
