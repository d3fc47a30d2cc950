// Sequentializes a parallel move (all destinations written at once from the
// old values of the sources, as phi resolution needs) into plain Movs.
// Invariant: the emitted Movs leave every destination holding its source's
// value from before the move; only the scratch registers are clobbered:
// kScratch (or kXmmScratch for xmm) holds a value saved to break a cycle,
// kScratch2 carries memory-to-memory moves and wide immediates to memory.
#pragma once
#include <vector>

#include "codegen/mir.h"

namespace simplec {

struct MoveOp {
  mir::Opnd dst;  // PReg, Slot or Mem
  mir::Opnd src;  // PReg, Slot, Mem, InArg or Imm
};

// Returns the Movs (8 bytes each) equivalent to doing `moves` simultaneously.
// Moves whose source and destination are the same are dropped. Destinations
// must be pairwise distinct; a Mem operand's base/index must not be a
// destination, and no operand may name a scratch register. Breaking the
// contract throws InternalError("regalloc", ...).
std::vector<mir::MInst> sequentializeMoves(const std::vector<MoveOp>& moves);

// The Movs for one move dst <- src with no other moves pending: a
// memory-to-memory move, or a wide immediate into memory or an xmm
// register, goes through kScratch2. Emits nothing when dst == src.
void emitMove(const mir::Opnd& dst, const mir::Opnd& src, std::vector<mir::MInst>* out);

}  // namespace simplec
