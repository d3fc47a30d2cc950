// What the explorer page shows of one function's graph at one point of the
// pipeline: its live nodes with label, type, source position and variable
// names, and their inputs with the kind of each edge. A node is named by
// its serial (Graph::serial), which stays the same from pass to pass, so
// two snapshots of a function can be compared node by node.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "son/graph.h"

namespace simplec {

enum class EdgeKind : char { Control = 'c', Data = 'd', Memory = 'm' };

struct SnapshotNode {
  uint32_t serial = 0;
  std::string op;      // "Add"
  std::string label;   // "Con 42", "CProj 0", "Load i64 @2"
  std::string type;    // as the IR printer shows it: "int[0,9]"; "" for constants
  uint32_t line = 0;   // in the main source; 0: none (or the system library's)
  uint32_t col = 0;
  bool control = false;              // a control-flow node
  std::vector<std::string> names;    // variables it is the value of
  std::vector<int64_t> inputs;       // serials; -1 for an empty slot
  std::string edgeKinds;             // one EdgeKind per input
  bool operator==(const SnapshotNode&) const = default;
};

struct GraphSnapshot {
  std::vector<SnapshotNode> nodes;  // liveNodes order: definitions before uses
  bool operator==(const GraphSnapshot&) const = default;
};

// Start and Stop are left out: every constant hangs off Start and every
// Return into Stop, which would only add long edges.
GraphSnapshot snapshotGraph(const Graph& g);

}  // namespace simplec
