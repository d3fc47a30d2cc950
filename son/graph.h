// The graph of one function: its own Start (the root its constants hang
// off), its Fun, Parms, body and Return, and a Stop that keeps the live part
// reachable. Node ids are dense from 0 within the graph, so passes index
// side tables by id (std::vector), never by hashing pointers, and a pass's
// cost depends only on this function. Dead nodes are only marked until
// compact() frees them and renumbers the rest; their storage goes back to
// the unit's NodePool, where any graph's next node reuses it.
// Invariant: every edge joins two nodes of the same graph (checked by the
// edge functions: a stray edge between functions is an internal error).
#pragma once
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "son/debug_info.h"
#include "son/node.h"

namespace simplec {

class Unit;
struct FunInfo;
class ControlFlow;

class Graph {
 public:
  // An empty graph (just Start and Stop) for function `funIndex` of `unit`.
  Graph(Unit& unit, int funIndex);
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  ~Graph();

  Unit& unit() const { return *unit_; }
  int funIndex() const { return funIndex_; }
  FunInfo& info() const;

  Node* start() const { return start_; }
  Node* stop() const { return stop_; }

  // A new node with these inputs; its type is `t` (null: filled in later).
  Node* make(Op op, std::initializer_list<Node*> ins, const Type* t = nullptr, int64_t aux = 0) {
    return make(op, ins.begin(), ins.size(), t, aux);
  }
  Node* make(Op op, const std::vector<Node*>& ins, const Type* t = nullptr, int64_t aux = 0) {
    return make(op, ins.data(), ins.size(), t, aux);
  }
  Node* make(Op op, Node* const* ins, size_t n, const Type* t, int64_t aux);
  // A constant of type t (not yet GVN'd: run it through peephole).
  Node* con(const Type* t);

  // Edge editing. Each keeps use lists exact.
  void setDef(Node* n, size_t i, Node* d);
  void addDef(Node* n, Node* d);
  void delDef(Node* n, size_t i);   // removes slot i, shifting later inputs down
  void swapInputs(Node* n, size_t i, size_t j);
  // Every use of `old` now uses `nw`; `old` is then killed.
  void subsume(Node* old, Node* nw);
  // Remove an unused node: drop its inputs, and kill inputs left unused.
  void kill(Node* n);
  // -g: the assignments bound under control node `ctrl`, which is about to
  // die, no longer happen there, and a later merge binds the same variables
  // (if-conversion): they are dropped as if never reached.
  void supersedeControlBindings(Node* ctrl) {
    if (!debugNames.empty()) ctrlForward_.push_back({ctrl, nullptr});
  }
  // Kill n if it has no uses and is not kept.
  void killIfUnused(Node* n);
  // Kills every node that keep[id] does not mark, dropping it from the use
  // lists of the ones it marks (sweeps): a scan over the nodes, and only
  // the use lists of the killed nodes' inputs are filtered.
  void dropUses(const std::vector<char>& keep);

  // Node ids are [0, size()); dead nodes keep theirs until compact().
  size_t size() const { return nodes_.size(); }
  // The Loop nodes not killed (garbage among them until a sweep), in id
  // order: found without a scan over every node.
  std::vector<Node*> loops() const;
  // The constants of a function-pointer type not killed (the call graph's
  // references), in id order: found without a scan over every node.
  std::vector<Node*> funPtrConstants() const;
  Node* node(size_t id) const { return nodes_[id]; }
  const std::vector<Node*>& nodes() const { return nodes_; }
  // By id, without reading the node (a byte per node, in one array): is it
  // dead, and (when not) its kind.
  bool deadAt(size_t id) const { return ops_[id] == kDeadOp; }
  Op opAt(size_t id) const { return Op(ops_[id]); }
  // The nodes of kind op that are not dead (live, or garbage not yet
  // swept), in id order.
  std::vector<Node*> nodesOf(Op op) const;
  // Is n a node of this graph (alive or dead)? O(1).
  bool owns(const Node* n) const { return n && n->id < nodes_.size() && nodes_[n->id] == n; }
  // A number that n keeps for its whole life (compact() renumbers ids, not
  // serials), unique among the nodes the unit ever made: tools that compare
  // the graph across passes (--emit=html) know a node again by it.
  // Only when the unit keeps serials (Unit::keepSerials).
  uint32_t serial(const Node* n) const;
  // Frees dead nodes and renumbers the others densely, keeping their order.
  // Node pointers stay valid; ids change. Cheap when nothing is dead.
  void compact();
  // For a graph that waits (the unit keeps every function's graph from its
  // parse until code generation): compacts, gives back the id slack (a graph
  // may have had twice as many ids as it keeps) and the cached analyses.
  // Not after every pass: a graph being optimized grows again.
  void settle();
  // Compacts, then moves every node into chunks of the unit's NodePool
  // taken fresh for this graph, so that dropping the graph gives whole
  // chunks back (the optimizer leaves a big function's nodes spread over
  // the holes of every other function's chunks). Pointers to the nodes held
  // outside the graph, but its FunInfo's fun and ret, become invalid.
  void relocate();
  // Compacts, then moves the nodes for which shouldMove holds into new
  // slots of the unit's NodePool (defragmenting it: Unit::defragmentNodes).
  // The same pointers as relocate() become invalid.
  void moveNodes(const std::function<bool(const Node*)>& shouldMove);
  // Frees the cached analyses (liveNodes, controlFlow): for when no pass
  // will ask again soon. The next query computes them anew.
  void dropCachedAnalyses();
  // Frees the cached liveNodes list alone.
  void dropLiveCache();
  // Frees the cached controlFlow alone (holders of its shared_ptr keep it).
  void dropControlFlow() { cfCache_.reset(); }
  // Nodes marked dead since the last compact().
  size_t deadCount() const { return dead_; }
  // Changes whenever a control node is made, killed or has an edge edited
  // (and at compact()): cached control-flow analyses compare it.
  uint64_t cfgVersion() const { return cfgVersion_; }
  // Changes with every edge edit, node made or killed (and at compact()).
  uint64_t editVersion() const { return editVersion_; }
  // editVersion() when sweepUnreachable last left the graph without
  // garbage: another sweep before any edit has nothing to do.
  uint64_t sweptAt = ~uint64_t(0);
  // No garbage since the last sweep: the live nodes are the ones not dead.
  bool swept() const { return sweptAt == editVersion_; }

  // While the parser builds the graph, nodes it holds in local variables may
  // lose their last graph use for a while: then unused nodes are not killed
  // (kill() only unhooks the node itself) and a sweep collects them later.
  bool deferKills = false;

  // When set, every node that loses a use is appended here (a worklist
  // learns whose use count dropped without copying use lists).
  std::vector<Node*>* lostUses = nullptr;
  // When set, every node whose inputs change (setDef, addDef, delDef,
  // swapInputs, or as a user of a subsumed node) is appended here: a rule
  // run on one node may edit another, which the worklist must see again.
  std::vector<Node*>* editedNodes = nullptr;

  // -g: chains of variable names of values (Node::dbg links into it; entry
  // 0 is unused, so the vector stays empty without -g).
  std::vector<DebugName> debugNames;
  // Adds variable `var` to n's names, as a binding of `kind` under control
  // `at` (see DebugName); a binding with the same seq is not added twice.
  void addDebugName(Node* n, int var, DebugName::Kind kind = DebugName::Declare, Node* at = nullptr,
                    SrcPos passAt = SrcPos{});
  // Adds a copy of binding d (its seq kept: the same assignment) to n's
  // names: for a node copied from another (loop versioning).
  void addDebugNameCopy(Node* n, DebugName d) { addDebugNameEntry(n, d); }
  // By debugNames index: the control node the binding happened under,
  // following the nodes that took its place; null when it was killed with
  // none, and then `unreachable` when it was dead code.
  struct DebugAnchor {
    Node* at = nullptr;
    bool unreachable = false;
  };
  std::vector<DebugAnchor> debugAnchors() const;
  // Bindings whose value node was killed (not subsumed): the variable still
  // changed there, to a value no code computes.
  const std::vector<uint32_t>& orphanedDebugNames() const { return orphanedNames_; }

 private:
  friend std::shared_ptr<const ControlFlow> controlFlow(const Graph& g);
  friend size_t cachedControlFlowBytes(const Graph& g);
  friend std::vector<Node*> liveNodes(const Graph& g);
  friend std::vector<Node*> liveNodesOf(const Graph& g, Op op);
  friend void sweepUnreachable(Graph& g);
  // liveNodes()'s answer for the graph as it is now (a sweep that only
  // dropped garbage knows it: the walk from Stop never saw the garbage).
  void keepLiveList(std::vector<Node*> live);
  void addUse(Node* d, Node* user, uint32_t slot);
  void removeUse(Node* d, Node* user, uint32_t slot);
  void markDead(Node* n);
  void checkOwned(const Node* d, const char* what) const;
  Unit* unit_;
  int funIndex_;
  std::vector<Node*> nodes_;
  // By id, the node's Op, or kDeadOp once it is dead: scans for nodes of
  // a kind read one byte per node instead of each node's memory.
  static constexpr uint8_t kDeadOp = 0xFF;
  std::vector<uint8_t> ops_;
  std::vector<uint32_t> serials_;  // by id, moved along by compact(); empty unless kept
  std::vector<uint32_t> loopIds_;  // every Loop made, by id (compact() renumbers)
  std::vector<uint32_t> funPtrConIds_;  // every Con of a function-pointer type made, likewise
  size_t dead_ = 0;
  uint64_t cfgVersion_ = 0;
  // Changes with every edge edit, node made or killed: liveNodes() keeps
  // its last answer while the graph stays as it was (many passes find
  // nothing to do and leave it so).
  uint64_t editVersion_ = 0;
  // -g: (subsumed control node, its replacement), for debugAnchor until
  // compact() resolves DebugName::at; and the orphaned bindings.
  std::vector<std::pair<Node*, Node*>> ctrlForward_;  // (dead code, null) too
  Node* subsuming_ = nullptr;
  std::vector<uint32_t> orphanedNames_;
  void resolveDebugAnchors();
  void addDebugNameEntry(Node* n, DebugName d);
  void noteKilledControl(Node* n);
  mutable std::vector<Node*> liveCache_;
  mutable uint64_t liveCacheVersion_ = ~uint64_t(0);
  mutable std::shared_ptr<const ControlFlow> cfCache_;
  mutable uint64_t cfCacheVersion_ = ~uint64_t(0);
  Node* start_;
  Node* stop_;
};

// Every live node reachable from Stop through inputs, in a deterministic order
// (post-order of a DFS over inputs: definitions before uses, except around
// loop back edges).
std::vector<Node*> liveNodes(const Graph& g);

// The live nodes of one kind, in id order. When the graph has no garbage
// (swept since its last edit) a scan over its nodes in id order finds them,
// without the walk from Stop.
std::vector<Node*> liveNodesOf(const Graph& g, Op op);

}  // namespace simplec
