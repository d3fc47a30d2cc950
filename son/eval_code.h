// EvalCode: one function's Sea of Nodes laid out for the graph evaluator: a
// dense slot per node, control successors, each Region's Phis, and for each
// assigned value (Phi, CallEnd) the cached values it makes stale. Not a
// schedule: data nodes keep only their data inputs.
// Invariant: slots [0, numStored) hold a value in a frame (Parm, Phi, CallEnd,
// computed data); constants and control nodes come after and need no storage.
#pragma once
#include <cstdint>
#include <vector>

#include "son/unit.h"

namespace simplec {

// What a value is. Pointers are indices: a function of Unit::funs, a string
// of Unit::strings. A Flt holds the bits of a double; a Vec two (lane 0
// in the value, lane 1 beside it). None is the
// memory/control token (it carries nothing). Ptr is a reference to an
// object of the evaluator's heap (1 + its index), or null (0).
enum class EvalKind : uint8_t { None, Int, Fun, Str, Ptr, Flt, Vec };

// How a slot gets its value.
enum class SlotClass : uint8_t {
  Assigned,  // Parm, Phi, CallEnd, New, Load, Store: set by control flow, read as is
  Computed,  // arithmetic and Proj: a function of other slots, cached
  Const,     // Con: known without a frame
  Control,   // control nodes: no value
};

struct EvalNode {
  const Node* node = nullptr;
  Op op = Op::Start;
  SlotClass cls = SlotClass::Control;
  bool memory = false;   // a memory-typed Phi/Parm/Proj: a token, never evaluated
  EvalKind kind = EvalKind::None;  // Const: the constant's kind
  int64_t imm = 0;       // Const: its value; Parm/Proj/CProj: the node's aux
  int32_t a = -1, b = -1;  // data operands (Computed); ZeroCheck/If: the tested value
  int32_t c = -1;          // Select: the value when `a` is 0 (b: when it is not)
  bool unary = false;      // Computed: reads only `a` (Proj and isUnary kinds)
  std::vector<int32_t> ins;  // every input's slot, -1 when absent or not needed
  // Control nodes: the successor control slot for each way out (If/Never:
  // arm 0 and arm 1; others: [0]), and when that successor is a Region, the
  // index of the edge in its inputs. kNoSucc / kAmbiguous when the graph has
  // none / several (an error only if control gets there).
  int32_t next[2] = {kNoSucc, kNoSucc};
  int32_t nextPred[2] = {0, 0};
  // Regions: their live Phis, in node order.
  std::vector<int32_t> phis;
  // Control nodes: the Loads and Stores pinned below them, executed right
  // after them in an order that respects data, memory and anti-dependences.
  std::vector<int32_t> memOps;
  // Regions, CallEnds, News and control nodes with Loads: the Computed slots
  // that depend on the values they assign, through other Computed slots; when `staleAll`, the list was too
  // long to keep and every Computed slot of the frame goes stale instead.
  std::vector<int32_t> stale;
  bool staleAll = false;

  static constexpr int32_t kNoSucc = -1;
  static constexpr int32_t kAmbiguous = -2;
};

struct EvalCode {
  int funIndex = -1;
  std::vector<EvalNode> nodes;  // by slot
  int32_t numStored = 0;        // slots [0, numStored) have frame storage
  int32_t entry = -1;           // the Fun node's slot
  std::vector<int32_t> parms;   // Parm slots (including the memory Parm)
};

// Lays out the function of `g`. Only nodes reachable from Stop count as
// successors or Phis.
// Throws InternalError ("evaluate") for a malformed graph: a function
// without a Fun node, a Parm of another function, a Scope node.
EvalCode buildEvalCode(const Graph& g);

// Data kinds with one operand (slot `a`): Neg, Not, the unary float kinds.
bool isUnary(Op op);

// The longest stale list kept per Region/CallEnd; longer ones become staleAll.
constexpr size_t kMaxStaleList = 2048;

}  // namespace simplec
