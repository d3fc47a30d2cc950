// ScopeNode: the parser's symbol table, kept in the graph as a node whose
// inputs are the current control, memory, and value of every visible
// variable (so use lists keep those values alive while parsing).
// Slots: 0 = control, 1 = memory, 2 + i = variable i.
// Memory is split into alias classes (son/mem_access.h): slot 1 holds the
// base memory (everything no class has its own value for), and a second
// Scope node, `mems`, holds the memory of alias class k in input k (null:
// the same as the base). A call takes all memory (a MergeMem) and resets
// every class to its result.
// Lexical blocks nest; popping a block drops the variables it declared.
// At an `if` the scope is duplicated and the two copies merged into a Region
// with a Phi per slot that differs. At a loop head the body scope starts with
// every slot pointing at the head Scope node itself (a sentinel): the first
// read or write of such a slot creates the loop Phi lazily, so only variables
// the loop touches get Phis.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "opt/peephole.h"
#include "parser/stype.h"
#include "son/graph.h"

namespace simplec {

struct VarInfo {
  std::string name;
  SType type;
  bool immutable = false;   // declared with `val`
  // A `val` initialized with a constant: its value (visible to nested
  // functions, which make it again in their own graphs).
  const Type* constValue = nullptr;
  SrcPos pos;
  // A reference variable that might hold null here (for a non-nullable
  // type: might not be assigned yet). Flow-sensitive: merged at joins.
  bool maybeNull = false;
  // Inside a method: this name is field `field` of `self` (variable selfVar).
  int field = -1;
  int selfVar = -1;
  // An external C variable: the index of its FunInfo (isData).
  int externVar = -1;
};

class ScopeTable;

class Scope {
 public:
  static constexpr int kCtrl = 0, kMem = 1, kFirstVar = 2;

  Node* node;  // Op::Scope
  std::vector<VarInfo> vars;
  std::vector<std::unordered_map<std::string, int>> blocks;  // name -> var index

  Node* mems = nullptr;  // Op::Scope: input k = memory of alias class k, or null
  Scope* loopHead = nullptr;  // the head scope of the innermost open loop

  Graph& graph() const { return *g_; }
  Node* ctrl() const { return node->in[kCtrl]; }
  void setCtrl(Node* c);
  // The base memory (what a class without its own value shares).
  Node* mem();
  void setMem(Node* m);
  // The memory of alias class k >= 1.
  Node* memOf(int k);
  void setMemOf(int k, Node* m);
  // All memory as one value: the base, or a MergeMem of base and classes.
  Node* allMem();
  // After a call: all memory is `m`.
  void setAllMem(Node* m);

  void pushBlock() { blocks.emplace_back(); }
  void popBlock();
  size_t depth() const { return blocks.size(); }
  // Defines a variable in the innermost block; -1 if the name is already
  // defined in that block.
  int define(const VarInfo& v, Node* value);
  // The variable index of `name`, searching blocks inside out; -1 if absent.
  int find(const std::string& name) const;
  bool definedInInnermost(const std::string& name) const;
  // Value of variable i (resolving a lazy loop Phi).
  Node* get(int i) { return getSlot(kFirstVar + i); }
  void set(int i, Node* v);
  size_t numSlots() const { return node->in.size(); }
  // Drop variables beyond the first n (and the blocks that held them).
  void truncate(size_t nvars, size_t nblocks);

  Node* getSlot(size_t s);
  void setSlot(size_t s, Node* v);

 private:
  friend class ScopeTable;
  Node* rawClass(size_t k) const { return k < mems->in.size() ? mems->in[k] : nullptr; }
  void setRawClass(size_t k, Node* m);
  // The Phi of class k at this loop head scope (made on first need).
  Node* headClassPhi(size_t k);
  bool baseIsLazy() const { return node->in[kMem] && node->in[kMem]->op == Op::Scope; }
  ScopeTable* table_ = nullptr;
  Graph* g_ = nullptr;        // the function's graph the scope's nodes live in
  Peephole* peep_ = nullptr;  // and its peepholes
  Node* declared_ = nullptr;
};

// Owns all scopes of a parse and implements the operations that involve two
// (always of one function: the graph of the scopes given).
class ScopeTable {
 public:
  // A scope of the function whose graph is g.
  Scope* fresh(Graph& g, Peephole& p, Node* ctrl, Node* mem);
  // A copy sharing every value; with `loop`, slots point at `s` lazily.
  Scope* dup(Scope* s, bool loop);
  // Merges `that` into `s` at a new Region; `that` is killed. Returns the
  // region (peepholed) which is also s's control.
  Node* merge(Scope* s, Scope* that);
  // Closes the loop whose head scope is `head`: back edge from `back`, and
  // lazy slots of `exit` resolved. `back` is killed.
  void endLoop(Scope* head, Scope* back, Scope* exit);
  void kill(Scope* s);
  Scope* scopeOfNode(Node* n) const { return scopes_[size_t(n->aux)].get(); }
  // Lattice type a lazy Phi for slot s of `s` gets while its loop is open.
  const Type* slotType(Scope* s, size_t slot) const;

 private:
  std::vector<std::unique_ptr<Scope>> scopes_;
};

}  // namespace simplec
