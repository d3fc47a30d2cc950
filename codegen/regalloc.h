// Register allocation: linear scan over live intervals (Poletto & Sarkar,
// with Wimmer's lifetime holes and fixed intervals) for one MFunction;
// spilled values live in frame slots, and copies of them in registers
// between calls where the scan left registers free (spill_split.h). A value
// crossing calls that run less often than it is used may instead keep a
// caller-saved register, stored before those calls and loaded after them
// (call_saves.h).
// Invariant: afterwards no VReg and no ParMove remain, and the function
// computes what it did before. The result is deterministic.
#pragma once
#include <string>

#include "codegen/mir.h"

namespace simplec {

// Registers given to values, in order of preference: caller-saved first so
// that values which do not live across a call leave the callee-saved ones
// (which cost a push/pop) to those that do. Never rsp, rbp or the scratch
// registers r10/r11 (xmm14/xmm15).
extern const int kAllocatableGprs[12];
extern const int kAllocatableXmms[14];

// Preconditions: MIR from instruction selection; VReg operands anywhere,
// PReg operands only where an instruction needs that register; ParMoves
// for phis at the end of predecessor blocks.
// Postconditions: no VReg operand and no ParMove remain; spilled values live
// in new frame slots; f.usedCalleeSaved lists the callee-saved registers the
// function writes, in kCalleeSaved order.
// With splitSpilledValues, values are saved around calls where that pays
// (call_saves.h), a value spilled during the scan gets a second chance at
// a register freed later, and a spilled value read more than once between
// two calls is reloaded once into a register of its own where one is free
// (spill_split.h); without, every read reloads it (faster to compile: -O0).
// Throws InternalError("regalloc", ...) on malformed MIR it cannot allocate
// (e.g. a register number out of range).
void allocateRegisters(mir::MFunction& f, bool splitSpilledValues = true);

// For verification: describes the first VReg operand or ParMove left in `f`,
// or returns "" when there is none.
std::string findVirtualRegisters(const mir::MFunction& f);

}  // namespace simplec
