// Splitting spilled values (the allocator's second chance). A vreg the
// linear scan spilled lives in its frame slot for its whole lifetime; read
// several times between two calls, it would be reloaded at every read. This
// pass gives each such stretch its own short vreg: one reload before the
// first read, the later reads use the copy, and a definition followed by
// reads writes a fresh copy that is stored to the slot at once. After the
// scan, each copy takes a register that is free over its whole (short) life
// and never evicts a value; a copy left without one reads and writes its
// parent's slot, which is then exactly the code without the copy.
// A stretch is a run of one block's instructions that ends at a call (the
// copies never live across a call, so they need no callee-saved register),
// at a ParMove (which reads and writes the slots) or at the block's end
// (the slot holds the value at every block boundary, so no move is needed
// on any edge).
#pragma once
#include <vector>

#include "codegen/live_intervals.h"
#include "codegen/mir.h"

namespace simplec {

// The copies splitSpilled made: vregs first, first + 1, ...; for each, the
// spilled vreg it copies and its life as positions of the code before the
// copies were added (live_intervals.h: instruction i reads at 2i, writes at
// 2i + 1), a single range inside one stretch.
struct SpilledCopies {
  int first = 0;
  std::vector<int> parent;
  std::vector<LiveRange> life;
};

// Rewrites `f` for the spilled vregs (`spilled[v]`), adding the copies.
// `blockFirstInst`: the position numbering's first instruction of each
// block (LiveIntervals::blockFirstInst). Vectors are left alone. Every
// use and definition of a spilled vreg stays in its place or is replaced by
// one of its copies; the slot holds the vreg's value after each instruction
// as before, so a copy given no register can read and write its parent's
// slot instead.
SpilledCopies splitSpilled(mir::MFunction& f, const std::vector<bool>& spilled,
                           const std::vector<int>& blockFirstInst);

}  // namespace simplec
