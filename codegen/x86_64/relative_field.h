// A 32-bit field holding `target - .`, the distance from the field to a
// label: a PC-relative relocation (or a constant, within one section), so
// a read-only table in a PIE needs no dynamic relocation. The field's own
// place is given as `base + offset` (base a label earlier in the current
// section), so that a table needs one label, not one per field: every
// temporary label costs a symbol-table entry in the MC layer.
#pragma once
#include <cstdint>

#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCStreamer.h"

namespace simplec::x86_64 {

inline void emitRelativeField(llvm::MCSymbol* target, llvm::MCSymbol* base, int64_t offset, llvm::MCContext& ctx,
                              llvm::MCStreamer& out) {
  const llvm::MCExpr* here = llvm::MCBinaryExpr::createAdd(llvm::MCSymbolRefExpr::create(base, ctx),
                                                           llvm::MCConstantExpr::create(offset, ctx), ctx);
  out.emitValue(llvm::MCBinaryExpr::createSub(llvm::MCSymbolRefExpr::create(target, ctx), here, ctx), 4);
}

}  // namespace simplec::x86_64
