// The parser's symbol tables. A function's SymbolTable holds the names
// (lexical blocks over its variables, in declaration order); they are the
// same on every path, so all of the function's scopes share it. A Scope
// holds what differs per path: the control, memory (per alias class) and
// value of each variable, and the null facts of references.
// Scopes share what they do not change: a scope made for the arm of an if
// or for a loop body is an overlay that records only the slots written in
// it and reads the rest from its parent, which stays frozen until its
// children are merged and folded back into it (collapse). So an `if` costs
// what its arms change, not the number of variables in sight.
// A scope's values are the inputs of a ScopeNode (Op::Scope) in the graph,
// so rewrites that replace a node (subsume) update every scope holding it.
// Null facts (scope_facts.cpp) are per scope too: for variables and for
// paths such as `p.next` (parser/null_path.h).
// Loop bodies: reading or writing, inside a loop, a slot the loop has not
// touched yet gives the loop head a Phi for it (made then, not before), so
// only variables the loop uses get Phis. Memory is split into alias classes
// (son/mem_access.h): a class without its own value shares the base memory;
// a call resets every class to the base. A call takes all memory as the
// base and the classes with values of their own, so its cost is what the
// function touched, not how many classes the program has.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "opt/peephole.h"
#include "parser/null_path.h"
#include "parser/stype.h"
#include "son/graph.h"

namespace simplec {

// What a name is, for the warnings about names (parser/warn_names.cpp):
// only the user's own locals and parameters are warned unused or shadowing.
enum class VarKind : uint8_t {
  Other,   // made by the compiler (arg, self, temporaries) or a C declaration
  Local,
  Param,
  Global,  // a function or constant at the script's top level: never "unused"
  Field,   // a field named bare in a constructor block or a method
};

struct VarInfo {
  std::string name;
  SType type;
  bool immutable = false;   // declared with `val`
  // A `val` initialized with a constant: its value (visible to nested
  // functions, which make it again in their own graphs).
  const Type* constValue = nullptr;
  SrcPos pos;
  // The null fact at the definition: a reference variable that might hold
  // null (for a non-nullable type: might not be assigned yet). Later facts
  // are per scope (Scope::maybeNull).
  bool maybeNull = false;
  // Inside a method: this name is field `field` of `self` (variable selfVar).
  int field = -1;
  int selfVar = -1;
  // An external C variable: the index of its FunInfo (isData).
  int externVar = -1;
  // Read-only because declared with an initializer in an inner block
  // (not `val`): errors suggest `var` or `!name`.
  bool readonlyByBlock = false;
  VarKind kind = VarKind::Other;
  bool read = false;      // its value was used (x++ and x += e read it too)
  bool assigned = false;  // assigned after its declaration
};

// The names of one function: variables by index, blocks mapping names to
// indices (innermost last).
class SymbolTable {
 public:
  std::vector<VarInfo> vars;
  std::vector<std::unordered_map<std::string, int>> blocks;

  SymbolTable() { blocks.emplace_back(); }
  void pushBlock() { blocks.emplace_back(); }
  size_t depth() const { return blocks.size(); }
  // The new variable's index, or -1 if the innermost block has the name.
  int define(const VarInfo& v);
  // The variable index of `name`, searching blocks inside out; -1 if absent.
  int find(const std::string& name) const;
  bool definedInInnermost(const std::string& name) const;
  // Drops variables beyond the first n and blocks beyond the first nblocks.
  void truncate(size_t nvars, size_t nblocks);
};

class ScopeTable;
class Scope;

// Entry facts of open loops that a read was the first to rely on: (loop
// head, fact). A use that only tests the value gives them back.
using ReliedMarks = std::vector<std::pair<const Scope*, NullPath>>;

class Scope {
 public:
  Node* ctrl() const { return node->in[0]; }
  void setCtrl(Node* c);
  // The base memory (what a class without its own value shares).
  Node* mem() { return read(kMemSlot); }
  void setMem(Node* m) { write(kMemSlot, m); }
  // The memory of alias class k >= 1.
  Node* memOf(int k);
  void setMemOf(int k, Node* m);
  // All memory as one value: the base, or a MergeMem of base and classes.
  Node* allMem();
  // After a call: all memory is `m`, every class shares it.
  void setAllMem(Node* m);

  // Variables visible here: [0, numVars()).
  size_t numVars() const { return numVars_; }
  const VarInfo& var(int i) const { return symbols_->vars[size_t(i)]; }
  // Defines a variable in the symbol table's innermost block with this
  // scope's value v; -1 if the name is already defined in that block.
  int define(const VarInfo& info, Node* v);
  // Gives variable i, just defined in the symbol table, its value here.
  void bind(int i, Node* v);
  // Value of variable i (a loop body gets the loop Phi made on first use).
  Node* get(int i) { return read(varSlot(i)); }
  void set(int i, Node* v) { write(varSlot(i), v); }
  // ---- null facts (scope_facts.cpp)
  // May reference variable i be null here? With `mark`, a non-null answer
  // that comes from the entry of an open loop is recorded at its head (the
  // loop then checks that its back edges keep the fact); `added` gets the
  // records this answer was the first to make.
  bool maybeNull(int i, bool mark = true, ReliedMarks* added = nullptr) const;
  void setMaybeNull(int i, bool b);
  // Is path p (with at least one step) known non-null here? (`mark`: as above.)
  bool pathNonNull(const NullPath& p, bool mark = true, ReliedMarks* added = nullptr) const;
  void setPathNonNull(const NullPath& p, bool nonNull);
  // Every path fact visible here that `affected` selects no longer holds.
  void forgetPaths(const std::function<bool(const NullPath&)>& affected);
  // The variables and paths whose facts this scope itself set.
  std::vector<int> ownFactVars() const;
  std::vector<NullPath> ownPaths() const;
  bool ownsFact(int i) const { return facts_.count(i) != 0; }
  bool ownsPath(const NullPath& p) const;
  // At a loop head: did a read in the loop rely on this fact of its entry?
  // (A variable's fact is asked as NullPath::ofVar.)
  bool reliedOn(const NullPath& p) const;
  void clearReliedOn();
  // Takes back records made by one read (nothing may have read since).
  static void unmarkRelied(const ReliedMarks& marks);
  // Forgets variables beyond the first n (their values here).
  void forget(size_t n);

  Scope* parent() const { return parent_; }
  Graph& graph() const { return *g_; }
  SymbolTable& symbols() const { return *symbols_; }

  Node* node = nullptr;  // Op::Scope: in[0] = control, in[1 + k] = the value of slots_[k]

 private:
  friend class ScopeTable;
  // Slots: 1 = base memory, 2 + i = variable i, -k = memory of alias class k.
  static constexpr int kMemSlot = 1;
  static int varSlot(int i) { return 2 + i; }
  static int classSlot(int k) { return -k; }

  // This scope's own entry for slot s, if any (nullptr: none; for a class,
  // an entry may hold nullptr, "shares the base").
  bool own(int s, Node** v) const;
  void setOwn(int s, Node* v);
  void dropOwn(int s);
  Node* read(int s);
  void write(int s, Node* v);
  // The Phi of slot s at this loop head (made on first need).
  Node* headPhi(int s);
  // At this loop head: a Phi for every class with a value of its own (a
  // call in the loop makes them all the base).
  void carryClasses();
  // At this loop head: class s, touched in the body for the first time,
  // gets no Phi of its own when a call (or return) in the body already took
  // all memory without it (see allMem): that call would miss the class's
  // value from the iteration before. The class goes round the loop inside
  // the base memory instead (endLoop).
  bool foldsClass(int s) const;
  void foldClass(int s);
  // The innermost loop body scope at or above this one (nullptr: none).
  Scope* enclosingLoopBody();

  ScopeTable* table_ = nullptr;
  Graph* g_ = nullptr;
  Peephole* peep_ = nullptr;
  SymbolTable* symbols_ = nullptr;
  Scope* parent_ = nullptr;
  bool loopBody_ = false;   // a loop body: its parent is the loop head
  bool resetsMem_ = false;  // a call here reset every class to the base
  bool classesCarried_ = false;  // loop head: carryClasses() done
  bool callReached_ = false;     // loop head: all memory was taken in the body (allMem)
  std::vector<int> foldedClasses_;  // loop head: classes going round inside the base
  std::vector<std::pair<int, Node*>> loopPhis_;  // loop head: (slot, Phi) made by headPhi, for endLoop
  int children_ = 0;        // live child scopes (a parent is frozen while it has any)
  size_t numVars_ = 0;
  std::vector<int> slots_;                   // slot of node->in[1 + k] (0: a dropped entry)
  // The class slots among slots_, in the same order (dropped ones may stay
  // until every class is dropped): walks over classes skip the variables.
  std::vector<int> classSlots_;
  std::unordered_map<int, uint32_t> where_;  // slot -> index k in slots_
  std::unordered_map<int, bool> facts_;      // variable -> maybe null, where it changed here
  std::map<NullPath, bool> paths_;           // path -> non-null, where it changed here
  // Loop head: entry facts that reads in the loop relied on.
  mutable std::unordered_set<int> reliedVars_;
  mutable std::set<NullPath> reliedPaths_;
  // Records that fact p was relied on at each open loop head whose body
  // the lookup left on its way from here to `found` (where p was found).
  void markRelied(const Scope* found, const NullPath& p, ReliedMarks* added) const;
  const bool* ownPath(const NullPath& p) const;
  bool dead_ = false;
};

// Owns the scopes of a parse and implements the operations that involve two
// or more (always of one function).
class ScopeTable {
 public:
  // A function's outermost scope.
  Scope* fresh(Graph& g, Peephole& p, SymbolTable& symbols, Node* ctrl, Node* mem);
  // An overlay on s (an arm of a branch); s is frozen until it is folded back.
  Scope* child(Scope* s);
  // The body of the loop whose head is `head` (head's control is the Loop).
  Scope* loopBody(Scope* head);
  // A copy of `from` (at a break or continue) as an overlay on `base`, an
  // ancestor of `from`: what changed between them, and from's control.
  Scope* snapshot(Scope* from, Scope* base);
  // Merges `that` into `s` at a new Region (a Phi per slot that differs):
  // s and that are children of one scope. `that` is killed. Returns the
  // region (peepholed), which is also s's control.
  Node* merge(Scope* s, Scope* that);
  // Moves s's entries into its parent, kills s and returns the parent.
  Scope* collapse(Scope* s);
  // Closes the loop whose head scope is `head`: back edges from `back` (a
  // child of `body`), which is killed.
  void endLoop(Scope* head, Scope* back);
  // Detaches s from the graph. Dead scopes are freed as soon as no live
  // scope made after them remains (see kill): a killed scope must not be
  // used again.
  void kill(Scope* s);
  // Lattice type a Phi of slot s gets while its loop is open.
  const Type* slotType(Scope* s, int slot) const;

  // -g: told of each value a variable takes where control merges (the
  // Phi, or what it folded to) and the Region or Loop it merges at.
  std::function<void(int var, Node* value, Node* merge)> onVarMerge;

 private:
  // The null-fact halves of merge, snapshot and collapse (scope_facts.cpp).
  void mergeFacts(Scope* s, Scope* that);
  void snapshotFacts(Scope* s, Scope* from, Scope* base);
  void collapseFacts(Scope* s, Scope* p);
  Scope* make(Graph& g, Peephole& p, SymbolTable& symbols, Scope* parent, Node* ctrl);
  std::vector<std::unique_ptr<Scope>> scopes_;
};

}  // namespace simplec
