// See stack_table.h.
#include "codegen/x86_64/stack_table.h"

#include "codegen/x86_64/mc_lower.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCStreamer.h"

namespace simplec::x86_64 {

namespace {

// `target - .` as a 32-bit field (a PC-relative relocation: no dynamic
// relocation in a PIE, so the section can stay read-only).
void emitRelative(llvm::MCSymbol* target, llvm::MCContext& ctx, llvm::MCStreamer& out) {
  llvm::MCSymbol* here = ctx.createTempSymbol("stack_entry", true);
  out.emitLabel(here);
  out.emitValue(llvm::MCBinaryExpr::createSub(llvm::MCSymbolRefExpr::create(target, ctx),
                                              llvm::MCSymbolRefExpr::create(here, ctx), ctx),
                4);
}

}  // namespace

void emitStackTable(const mir::MModule& m, const std::vector<StackEntry>& funcs, const McSymbols& syms,
                    llvm::MCContext& ctx, llvm::MCStreamer& out) {
  if (m.fileLabels[kMainFile].empty()) return;
  bool any = false;
  for (const StackEntry& f : funcs) any |= f.line != 0;
  if (!any) return;
  out.switchSection(ctx.getELFSection(kStackTableSection, llvm::ELF::SHT_PROGBITS, llvm::ELF::SHF_ALLOC));
  out.emitValueToAlignment(llvm::Align(4));
  for (const StackEntry& f : funcs) {
    if (f.line == 0) continue;
    emitRelative(f.probe ? f.probe : syms.get(f.name), ctx, out);
    emitRelative(syms.get(m.fileLabels[f.file]), ctx, out);
    out.emitIntValue(f.line, 4);
    out.emitIntValue(f.col, 4);
  }
}

}  // namespace simplec::x86_64
