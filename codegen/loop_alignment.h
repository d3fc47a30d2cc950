// Which blocks start a small innermost loop or a dispatch loop, to be
// placed on a 64-byte boundary. Where a loop's code straddles such a
// boundary moves with any change elsewhere in the function, and a small hot
// loop that straddles one runs measurably slower (the front end fetches and
// caches decoded code by aligned 32- and 64-byte windows): matmul's inner
// loop, 7 instructions, took 1.45x as long after three instructions before
// it went away. The padding (at most 63 bytes of nops) runs once per entry into the
// loop; big loops and outer loops are left as they are.
#pragma once
#include <vector>

#include "codegen/mir.h"

namespace simplec {

// An innermost loop counts as small up to this many instructions (about
// 64 bytes), a loop nest up to twice as many.
constexpr int kSmallLoopInsts = 14;
constexpr int kSmallNestInsts = 28;
// A dispatch loop's head is aligned when its jump table is at most this
// many instructions on (the jump counting as kJumpTableInsts): then the
// code every dispatch runs fits in one 64-byte window. interp's took 1.35x
// gcc's time where it straddled two windows and 0.92x where it did not.
constexpr int kDispatchInsts = 14;
constexpr int kJumpTableInsts = 6;

// By block index: 1 for the first block of a loop (its blocks run from
// there through the last one that jumps back to it, in layout order) that
// is either the outermost small nest (at most kSmallNestInsts
// instructions, inside no other such nest: its padding runs once per entry
// into the nest), or a small innermost loop (at most kSmallLoopInsts) that
// leaves only from its last block or to a runtime error. A loop with an
// early exit, such as a search, often runs once or twice per entry, and
// then padding in front of it costs more than the alignment saves. Loops
// that call are left alone: calls take their time. Also 1 for the head of
// any loop that falls through into a jump table within kDispatchInsts
// instructions.
std::vector<char> alignedLoopHeads(const mir::MFunction& f);

}  // namespace simplec
