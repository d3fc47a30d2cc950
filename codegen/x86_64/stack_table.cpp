// See stack_table.h.
#include "codegen/x86_64/stack_table.h"

#include "codegen/x86_64/mc_lower.h"
#include "codegen/x86_64/relative_field.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCStreamer.h"

namespace simplec::x86_64 {

void emitStackTable(const mir::MModule& m, const std::vector<StackEntry>& funcs, const McSymbols& syms,
                    llvm::MCContext& ctx, llvm::MCStreamer& out) {
  if (m.fileLabels[kMainFile].empty()) return;
  bool any = false;
  for (const StackEntry& f : funcs) any |= f.line != 0;
  if (!any) return;
  out.switchSection(ctx.getELFSection(kStackTableSection, llvm::ELF::SHT_PROGBITS, llvm::ELF::SHF_ALLOC));
  out.emitValueToAlignment(llvm::Align(4));
  llvm::MCSymbol* table = ctx.createTempSymbol("stack_table", true);
  out.emitLabel(table);
  int64_t at = 0;  // entries of 16 bytes
  for (const StackEntry& f : funcs) {
    if (f.line == 0) continue;
    emitRelativeField(f.probe ? f.probe : syms.get(f.name), table, at, ctx, out);
    emitRelativeField(syms.get(m.fileLabels[f.file]), table, at + 4, ctx, out);
    out.emitIntValue(f.line, 4);
    out.emitIntValue(f.col, 4);
    at += 16;
  }
}

}  // namespace simplec::x86_64
