// Emitter: writes an allocated MModule (physical registers, immediates,
// memory, blocks, symbols) as an ELF64 relocatable object or AT&T assembly
// through LLVM's MC layer; the same module always gives identical bytes.
// Environment failures (no LLVM target, unwritable file, MC errors, clashing
// symbol names) return false with *err set; malformed MIR (a virtual
// register, a frame slot, an unencodable operand) throws InternalError.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/mir.h"

namespace simplec::x86_64 {

// An ELF64 x86-64 relocatable object (PIE-compatible: calls to symbols
// outside the module go through the PLT, their addresses through the GOT).
bool writeObject(const mir::MModule& m, const std::string& path, std::string* err);
bool writeObjectToMemory(const mir::MModule& m, std::vector<uint8_t>* out, std::string* err);

// AT&T syntax assembly that `cc -c` assembles.
bool writeAssembly(const mir::MModule& m, std::string* out, std::string* err);

// For tests: the .text bytes of a module holding only `f` (a global
// function). Relocated fields read as zero. Throws InternalError on failure.
std::vector<uint8_t> encodeFunctionForTest(const mir::MFunction& f);

}  // namespace simplec::x86_64
