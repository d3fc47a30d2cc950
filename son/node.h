// A node of the Sea of Nodes. Ordered inputs (slot 0 = control when the kind
// has one), exact def-use lists (`out`), and a cached lattice type.
// Invariant: for every i, in[i] == d  <=>  `this` appears in d->out once per such i.
// Only Graph's edge functions (setDef, addDef, delDef, swapInputs, subsume,
// kill) edit edges.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lexer/source.h"
#include "lexer/interned_string.h"
#include "son/edge_list.h"
#include "son/type.h"

namespace simplec {

enum class Op : uint8_t {
#define OP(name, flags) name,
#include "son/ops.def"
#undef OP
};

// Call::aux bit saying the callee returns an f32 (bits below: f32 arguments).
constexpr int kCallF32Result = 62;

enum OpFlag : uint32_t { CFG = 1, MULTI = 2, COMM = 4, CTRL = 8 };
struct OpInfo {
  const char* name;
  uint32_t flags;
};
const OpInfo& opInfo(Op op);
inline const char* opName(Op op) { return opInfo(op).name; }
constexpr int kNumOps = 0
#define OP(name, flags) +1
#include "son/ops.def"
#undef OP
    ;

// The fact a Cast carries (its aux): value REL bound holds below its control.
enum class CastRel : int64_t { LT, LE, GT, GE, EQ, NE };
const char* castRelName(CastRel r);

class Node {
 public:
  // Fields ordered so that the object packs without holes (216 -> 128
  // bytes): a big program has hundreds of thousands of nodes live at once.
  uint32_t id;
  Op op;
  bool dead = false;   // killed: no inputs, no outputs, ignore
  // >0: kept alive by the parser even without uses. Each level of nesting
  // adds at most a few, and nesting is limited (Parser::kMaxDepth).
  uint16_t keep = 0;
  uint32_t dbg = 0;    // -g: first link of its variable names in Graph::debugNames (0: none)
  InternedString name;  // debugging name (interned): variable of a Phi, function of a Fun
  // Edges, kept by Graph so that removing a use costs O(1):
  // in[i]->out[in.link(i)] == this, and out[k]->in[out.link(k)] == this.
  EdgeList<3> in;
  EdgeList<2> out;
  const Type* type = nullptr;
  int64_t aux = 0;     // Proj/CProj index, Parm index, Fun: function index
  SrcPos pos;          // source position, for runtime errors and diagnostics

  Node(uint32_t id, Op op) : id(id), op(op) {}

  bool is(Op o) const { return op == o; }
  bool isCFG() const { return opInfo(op).flags & CFG; }
  bool isMulti() const { return opInfo(op).flags & MULTI; }
  bool isCommutative() const { return opInfo(op).flags & COMM; }
  bool isRegion() const { return op == Op::Region || op == Op::Loop; }
  bool isConst() const { return op == Op::Con; }
  Node* ctrl() const { return in.empty() ? nullptr : in[0]; }
  size_t nIns() const { return in.size(); }
  size_t nOuts() const { return out.size(); }
  // Number of uses that are not the parser's keep-alive.
  bool unused() const { return out.empty() && keep == 0; }
  std::string label() const;  // "Add", "Con 42", "CProj True", ...
};
static_assert(sizeof(Node) <= 128, "a Node grew: big programs hold hundreds of thousands at once");

}  // namespace simplec
