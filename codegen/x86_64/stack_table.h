// The stack table: one entry per function of the module, in the ELF section
// `simplec_stack`, giving its source position. A stack overflow faults in a
// function's stack probe, the first instruction of its prologue (frame.h),
// which is its first instruction unless an early return comes first
// (early_return.h); the runtime's SIGSEGV handler looks the faulting address
// up here to report FILE:LINE:COL. The linker gathers the entries of every
// object between __start_simplec_stack and __stop_simplec_stack.
//
// Entry layout (16 bytes, position-independent, read-only):
//   int32 probe - &entry.function      int32 file - &entry.file
//   int32 line                          int32 col
// `file` is the NUL-terminated path of the function's source (MModule::fileLabels).
#pragma once
#include <string>
#include <vector>

#include "codegen/mir.h"

namespace llvm {
class MCContext;
class MCStreamer;
class MCSymbol;
}  // namespace llvm

namespace simplec::x86_64 {

struct McSymbols;

constexpr const char* kStackTableSection = "simplec_stack";

// A function's symbol and source position (kept after its MIR is freed).
struct StackEntry {
  std::string name;
  SrcFile file = kMainFile;
  uint32_t line = 0, col = 0;
  // Where its stack probe is when that is not its first instruction
  // (MFunction::probeBlock), else null.
  llvm::MCSymbol* probe = nullptr;
};

// Emits the entries of the functions that have a position; nothing for a
// module without a file label (m's functions are not read).
void emitStackTable(const mir::MModule& m, const std::vector<StackEntry>& funcs, const McSymbols& syms,
                    llvm::MCContext& ctx, llvm::MCStreamer& out);

}  // namespace simplec::x86_64
