// Frame lowering: the System V prologue and epilogues around an allocated
// function, and the resolution of frame-slot and incoming-argument operands.
// Invariant: rsp is 16-byte aligned at every call, and every Ret restores
// rsp, the callee-saved registers and rbp to their values at entry.
#pragma once
#include "codegen/mir.h"

namespace simplec {

// Bytes below a function's frame that its prologue's stack probe also
// touches: room for the C runtime functions it calls (printing, allocation,
// errors) and return addresses, so a stack overflow faults in a probe.
constexpr int64_t kStackProbeReserve = 4096;

// Frame layout (rbp-based, n = callee-saved registers pushed):
//   [rbp + 16 + 8k]  incoming stack argument k      (InArg k)
//   [rbp + 8]        return address;  [rbp] saved rbp
//   [rbp - 8 .. rbp - 8n]  saved callee-saved registers
//   [rbp - 8n - 8(k+1)]    frame slot k              (Slot k)
//   [rsp + 8k]       outgoing stack argument k (bottom of the frame)
// Precondition: register allocation is done (f.usedCalleeSaved is set).
// Postconditions: no Slot or InArg operand remains; f.frameSize is the
// number of bytes the prologue subtracts from rsp after its pushes (frame
// slots plus outgoing arguments, plus 8 bytes of padding when needed for
// alignment). If the entry block is a branch target, a new entry block is
// inserted in front of it (block numbers shift by one).
void lowerFrame(mir::MFunction& f);

// A leaf function that keeps everything in caller-saved registers: no call
// (not even to report a runtime error), no frame slot, no stack argument
// in or out, no callee-saved register. It gets no prologue at all: no rbp,
// no stack probe. Its only stack use is its return address, which its
// caller's probe already covers (kStackProbeReserve bytes below the
// caller's frame), so a stack overflow still faults in a probe. Without a
// call nothing walks the rbp chain from inside it (runtime error traces
// start at a call); debuggers unwind it by its CFI, which is the entry
// state throughout.
bool needsNoFrame(const mir::MFunction& f);

// The displacement from rbp of frame slot `slot` when `numSaved`
// callee-saved registers are pushed.
inline int64_t slotOffset(int numSaved, int slot) {
  return -8 * int64_t(numSaved) - 8 * (int64_t(slot) + 1);
}

}  // namespace simplec
