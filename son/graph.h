// The graph of one compilation unit: all of its functions hang off one Start
// and are kept alive by one Stop. Nodes live in an arena owned by the Graph
// and are never freed before it; dead nodes are only marked.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "son/node.h"

namespace simplec {

// How a value is passed and held by the machine.
enum class ValKind : uint8_t { Int, Float, Ptr };

// A function of the unit, or an external one it calls (runtime, C).
struct FunInfo {
  std::string name;      // source name ("f", "sys.io.p"), for diagnostics
  std::string symbol;    // object-file symbol
  Node* fun = nullptr;   // Fun node; null for externals
  Node* ret = nullptr;   // the single Return; null for externals
  std::vector<const Type*> paramTypes;  // lattice types of the parameters
  const Type* retType = nullptr;
  // Parameters and result of type f32: the machine passes them as single
  // precision (System V), while the graph holds them as doubles.
  std::vector<bool> f32Params;
  bool f32Result = false;
  bool isExtern = false;
  // An external variable (`i32 errno = "C";`): the symbol is the variable's
  // address, never called. Loads and stores of it use alias class "extern".
  bool isData = false;
  bool isGlobal = false;  // exported symbol
  bool isEntry = false;   // the program's main
  bool noReturn = false;
  SrcPos pos;
};

class Graph {
 public:
  Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // Back to an empty graph (just Start and Stop).
  void reset();

  Node* start() const { return start_; }
  Node* stop() const { return stop_; }

  // A new node with these inputs; its type is `t` (null: filled in later).
  Node* make(Op op, const std::vector<Node*>& ins, const Type* t = nullptr, int64_t aux = 0);
  // A constant of type t (not yet GVN'd: run it through peephole).
  Node* con(const Type* t);

  // Edge editing. Each keeps use lists exact.
  void setDef(Node* n, size_t i, Node* d);
  void addDef(Node* n, Node* d);
  void delDef(Node* n, size_t i);   // removes slot i, shifting later inputs down
  // Every use of `old` now uses `nw`; `old` is then killed.
  void subsume(Node* old, Node* nw);
  // Remove an unused node: drop its inputs, and kill inputs left unused.
  void kill(Node* n);
  // Kill n if it has no uses and is not kept.
  void killIfUnused(Node* n);

  size_t size() const { return nodes_.size(); }
  Node* node(size_t id) const { return nodes_[id].get(); }
  const std::vector<std::unique_ptr<Node>>& nodes() const { return nodes_; }

  std::vector<FunInfo> funs;
  std::vector<std::string> strings;  // constant byte strings (read-only data)
  // Alias classes of memory (son/mem_access.h), by name: "[]i64" for the
  // elements of int arrays, "S.x" for a struct field. Index 0 is the array
  // header, which is never stored to after allocation.
  std::vector<std::string> aliases{"header"};
  // The class named `key`, registered on first use (index >= 1).
  int aliasClass(const std::string& key);

  // While the parser builds the graph, nodes it holds in local variables may
  // lose their last graph use for a while: then unused nodes are not killed
  // (kill() only unhooks the node itself) and a sweep collects them later.
  bool deferKills = false;

  // A limit on node count, checked by make(); exceeding it is a user error
  // ("program too large") reported by the parser.
  size_t nodeLimit = 20'000'000;

 private:
  void removeUse(Node* d, Node* user);
  std::vector<std::unique_ptr<Node>> nodes_;
  Node* start_;
  Node* stop_;
};

// Every live node reachable from Stop through inputs, in a deterministic order
// (reverse post-order of a DFS over inputs: definitions before uses, except
// around loop back edges).
std::vector<Node*> liveNodes(const Graph& g);

// The nodes of one function: reachable backwards from its Return, not
// through Start, in post-order (definitions first). Empty without a Return.
std::vector<Node*> functionNodes(const Graph& g, const FunInfo& f);

}  // namespace simplec
