// -g: ties a function's source variables to its machine code. After
// instruction selection, tagDebugValues gives each variable that only ever
// holds one value (son/debug_info.h) a debug value, and marks where the
// machine code has that value: the instruction that completes it
// (MInst::dbgValue, its operand 0) or, for a Phi, the start of the block
// that merges it (MBlock::dbgEntry). A variable assigned again gets a
// DebugAssign per binding of its values (MBlock::dbgAssigns, read by
// debug_versions.h), in the MIR block where the source passes it. After
// register allocation, locateDebugEntries turns the vregs of dbgEntry into
// registers or slots.
// Nothing here changes an instruction; without -g nothing runs.
#pragma once
#include <vector>

#include "codegen/mir.h"
#include "sched/schedule.h"

namespace simplec {

struct RegAssignment;

// A register or frame slot as dbgEntry records it after allocation:
// 0..31 a physical register, kDebugSlotBase + k frame slot k.
constexpr int kDebugSlotBase = 32;

// vregOfNode: the vreg of each node (by id, -1: none); chains: the MIR
// blocks of each schedule block, in order (the first is its start).
// Reassigned variables get MBlock::dbgAssigns (debug_versions.h), each in
// the MIR block where the source passes the assignment.
void tagDebugValues(mir::MFunction& f, const Graph& g, const Schedule& s, const std::vector<int>& vregOfNode,
                    const std::vector<std::vector<int>>& chains);

void locateDebugEntries(mir::MFunction& f, const RegAssignment& a);

}  // namespace simplec
