// See call_table.h.
#include "codegen/x86_64/call_table.h"

#include "codegen/x86_64/mc_lower.h"
#include "codegen/x86_64/relative_field.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCStreamer.h"

namespace simplec::x86_64 {

void CallTable::afterCall(const mir::MFunction& f, const mir::MInst& mi, llvm::MCContext& ctx,
                          llvm::MCStreamer& out) {
  if (mi.chain < 0 || size_t(mi.chain) >= f.callChains.size()) return;
  llvm::MCSymbol* ret = ctx.createTempSymbol("call_ret", true);
  out.emitLabel(ret);
  sites_.push_back({ret, f.callChains[size_t(mi.chain)]});
}

void CallTable::emit(const mir::MModule& m, const McSymbols& syms, llvm::MCContext& ctx, llvm::MCStreamer& out) {
  if (sites_.empty()) return;
  for (const Site& s : sites_)
    for (const mir::ChainFrame& fr : s.chain.frames)
      if (m.fileLabels[fr.file].empty()) return;  // no file names: nothing to show
  // Records and function names go to .rodata.
  out.switchSection(ctx.getELFSection(".rodata", llvm::ELF::SHT_PROGBITS, llvm::ELF::SHF_ALLOC));
  std::unordered_map<std::string, llvm::MCSymbol*> names;
  for (const Site& s : sites_)
    for (const mir::ChainFrame& fr : s.chain.frames)
      if (!names.count(fr.fun)) {
        llvm::MCSymbol* l = ctx.createTempSymbol("fun_name", true);
        out.emitLabel(l);
        out.emitBytes(fr.fun);
        out.emitIntValue(0, 1);
        names[fr.fun] = l;
      }
  out.emitValueToAlignment(llvm::Align(4));
  std::vector<llvm::MCSymbol*> records;
  for (const Site& s : sites_) {
    llvm::MCSymbol* r = ctx.createTempSymbol("call_record", true);
    out.emitLabel(r);
    uint32_t count = uint32_t(s.chain.frames.size()) | (s.chain.reachesEntry ? 0x80000000u : 0);
    out.emitIntValue(count, 4);
    int64_t at = 4;  // the offset in the record
    for (const mir::ChainFrame& fr : s.chain.frames) {
      emitRelativeField(names[fr.fun], r, at, ctx, out);
      emitRelativeField(syms.get(m.fileLabels[fr.file]), r, at + 4, ctx, out);
      out.emitIntValue(fr.line, 4);
      out.emitIntValue(fr.col, 4);
      at += 16;
    }
    records.push_back(r);
  }
  out.switchSection(ctx.getELFSection(kCallTableSection, llvm::ELF::SHT_PROGBITS, llvm::ELF::SHF_ALLOC));
  out.emitValueToAlignment(llvm::Align(4));
  llvm::MCSymbol* table = ctx.createTempSymbol("call_table", true);
  out.emitLabel(table);
  for (size_t i = 0; i < sites_.size(); ++i) {
    emitRelativeField(sites_[i].ret, table, int64_t(8 * i), ctx, out);
    emitRelativeField(records[i], table, int64_t(8 * i + 4), ctx, out);
  }
}

}  // namespace simplec::x86_64
