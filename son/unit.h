// The compilation unit: one source file's functions (each with its own
// graph), the external functions and variables they use, constant strings
// and memory alias classes. What passes share across functions lives here;
// everything about one function's body lives in its Graph.
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "son/graph.h"
#include "son/inline_site.h"
#include "son/node_pool.h"

namespace simplec {

// How a value is passed and held by the machine.
enum class ValKind : uint8_t { Int, Float, Ptr };

// A function of the unit, or an external one it calls (runtime, C).
struct FunInfo {
  std::string name;      // source name ("f", "sys.io.p"), for diagnostics
  std::string symbol;    // object-file symbol
  std::unique_ptr<Graph> graph;  // the body; null for externals and removed functions
  Node* fun = nullptr;   // Fun node (in `graph`); null for externals
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
  SrcPos retPos;  // the return that decided retType (for the entry's check at link time)
  std::vector<DebugVar> debugVars;  // -g: parameters and locals (son/debug_info.h)
  // Has a body to optimize and compile.
  bool hasBody() const { return !isExtern && graph && fun && ret && !ret->dead; }
};

class Unit {
 public:
  Unit() = default;
  Unit(const Unit&) = delete;
  Unit& operator=(const Unit&) = delete;

  // Back to an empty unit.
  void reset();

  // Storage of every graph's nodes; declared before `funs` so that it
  // outlives the graphs, which give their nodes back to it.
  NodePool nodePool;
  std::vector<FunInfo> funs;
  // Where inlined code came from: SrcPos::site indexes this (son/call_chain.h).
  std::vector<InlineSite> inlineSites;
  std::vector<std::string> strings;  // constant byte strings (read-only data)
  // Alias classes of memory (son/mem_access.h), by name: "[]i64" for the
  // elements of int arrays, "S.x" for a struct field. Index 0 is the array
  // header, which is never stored to after allocation.
  std::vector<std::string> aliases{"header"};
  // The class named `key`, registered on first use (index >= 1).
  int aliasClass(const std::string& key);
  // aliases' indices by name (a program may have thousands of classes).
  std::unordered_map<std::string, int> aliasIndex;

  // A fresh graph (Start and Stop) for function f, replacing any it had.
  Graph& newGraph(int f);
  // Function f's body, or null.
  Graph* graph(int f) const { return funs[size_t(f)].graph.get(); }
  // Drops function f's body (removed as unused, or compiled and emitted).
  void dropGraph(int f);
  // Before the graphs are dropped one by one: packs (Graph::relocate) each
  // whose nodes lie in more chunks of the pool than its size needs (plus
  // kSpreadSlack), so that dropping it gives whole chunks back while later
  // functions are compiled (not one holding most live nodes: its chunks are
  // its own). Returns the number of graphs packed.
  int packSpreadGraphs();
  // Before code generation: moves the nodes out of the emptiest chunks of
  // the pool into the free slots of the others (NodePool::beginEvacuation),
  // so that the optimizer's garbage, scattered over every chunk, no longer
  // holds memory while functions are compiled (not when one graph holds
  // most live nodes). Returns the chunks freed.
  size_t defragmentNodes();
  static constexpr size_t kSpreadSlack = 16;

  // Nodes made in all graphs since reset(); the parser reports "program too
  // large" beyond nodeLimit.
  // -g: the parser records variables and their types (son/debug_info.h).
  bool debugInfo = false;
  // Graphs record each node's serial (Graph::serial): only tools that
  // follow nodes across passes (--emit=html) ask, and a big unit would
  // keep 4 bytes per node for nothing. Set before any graph is made.
  bool keepSerials = false;
  std::vector<DebugType> debugTypes;

  // Counted by every thread that makes nodes (son/shared_graphs.h).
  std::atomic<size_t> nodesMade{0};
  size_t nodeLimit = 20'000'000;
};

}  // namespace simplec
