// -g: the byte-level pieces of DWARF that do not need MC: LEB128
// numbers, x86-64 DWARF register numbers, and the location expressions of
// a variable's place (debug_locations.h). Pure functions, unit-tested.
#pragma once
#include <cstdint>
#include <vector>

#include "codegen/debug_locations.h"

namespace simplec::x86_64 {

void appendULEB(std::vector<uint8_t>& out, uint64_t v);
void appendSLEB(std::vector<uint8_t>& out, int64_t v);
unsigned ulebSize(uint64_t v);
unsigned slebSize(int64_t v);

// The DWARF register number (System V x86-64 psABI) of a mir::PReg:
// rax 0, rdx 1, rcx 2, rbx 3, rsi 4, rdi 5, rbp 6, rsp 7, r8-r15 8-15,
// xmm0-15 17-32.
unsigned dwarfRegister(int preg);

// DW_OP_reg<n> (DW_OP_regx beyond 31) for a register; DW_OP_fbreg disp
// for a frame slot, the frame base being rbp (DW_OP_reg6); DW_OP_consts
// bits, DW_OP_stack_value for a constant.
std::vector<uint8_t> placeExpression(const DebugPlace& p);

}  // namespace simplec::x86_64
