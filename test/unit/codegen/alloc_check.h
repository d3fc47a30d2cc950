// Test helper: the end-to-end check of register allocation and frame
// lowering. It runs a function on the MIR interpreter before allocation and
// after allocateRegisters + lowerFrame, on several inputs, and compares
// return values, the calls made (with their arguments) and the heap.
#pragma once
#include <string>
#include <vector>

#include "codegen/mir.h"
#include "test/unit/codegen/mir_interp.h"

namespace simplec::test {

struct AllocCheck {
  std::string error;           // empty when everything matched
  mir::MFunction allocated;    // after allocation (and lowering)
  std::vector<InterpResult> before, after;
  bool ok() const { return error.empty(); }
};

// Allocates and lowers a copy of `f`, checks that no virtual register,
// ParMove, Slot or InArg operand remains, then compares the two versions on
// each input (the `lowered` flag of the inputs is ignored). `split`: the
// allocator's splitting of spilled values (on at -O1 and up, off at -O0).
AllocCheck allocateAndCompare(const mir::MFunction& f, const std::vector<InterpConfig>& inputs,
                              bool split = true);

// Describes the first operand that must not survive frame lowering (VReg,
// ParMove, Slot, InArg), or "".
std::string findUnloweredOperands(const mir::MFunction& f);

}  // namespace simplec::test
