// The call-site table for runtime error traces, in the ELF section
// `simplec_calls`: one entry per call instruction that has a call chain
// (MInst::chain), keyed by its return address. The runtime walks the frame
// pointers from __simplec_rt_error up, looks each return address up here
// and prints the frames (runtime/rt_trace.c). The linker gathers the
// entries of every object between __start_simplec_calls and
// __stop_simplec_calls.
//
// Entry (8 bytes, PC-relative, read-only, ascending return addresses within
// an object):   int32 return address - &entry.ret   int32 record - &entry.record
// Record (.rodata): int32 frame count, bit 31 set when the outermost frame is
// the program's main (the walk stops there); then per frame, innermost
// first: int32 name - &field, int32 file - &field, int32 line, int32 col;
// name and file are NUL-terminated.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/mir.h"

namespace llvm {
class MCContext;
class MCStreamer;
class MCSymbol;
}  // namespace llvm

namespace simplec::x86_64 {

struct McSymbols;

constexpr const char* kCallTableSection = "simplec_calls";

class CallTable {
 public:
  // Right after the call instruction `mi` of `f` is emitted: labels its
  // return address if the call has a chain.
  void afterCall(const mir::MFunction& f, const mir::MInst& mi, llvm::MCContext& ctx, llvm::MCStreamer& out);
  // At the end of the module: the entries and their records.
  void emit(const mir::MModule& m, const McSymbols& syms, llvm::MCContext& ctx, llvm::MCStreamer& out);

 private:
  struct Site {
    llvm::MCSymbol* ret;
    mir::CallChain chain;
  };
  std::vector<Site> sites_;
};

}  // namespace simplec::x86_64
