// McLowering: turns allocated MIR (physical registers, immediates, memory,
// blocks, symbols) into LLVM MCInsts and emits them, with block labels, onto
// an MCStreamer. One MInst may become several MCInsts (Setcc, SDivRem).
// Invariant: anything that cannot be encoded (virtual registers, slots,
// incoming-argument operands, ParMove, out-of-range immediates, unknown
// operand forms) throws InternalError("emit", ...) and emits nothing more.
#pragma once
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "codegen/mir.h"
#include "codegen/x86_64/mc_context.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSymbol.h"

namespace simplec::x86_64 {

class CfiWriter;
class CallTable;

// The module's symbols, all created before any temporary label so that a
// temporary name can never collide with a name the module chose. Operands
// find theirs by mir::Symbol id, without hashing the name.
struct McSymbols {
  std::unordered_map<std::string, llvm::MCSymbol*> byName;
  std::unordered_set<std::string> defined;  // functions and data of this module
  // By mir::Symbol id, for the names operands use: their symbol (or null),
  // and whether this module defines them.
  std::vector<llvm::MCSymbol*> byId;
  std::vector<char> definedById;

  llvm::MCSymbol* get(const std::string& name) const;  // throws if unknown
  llvm::MCSymbol* get(mir::Symbol s) const;            // throws if unknown
  // Not defined here: reached through the PLT (calls) or the GOT (addresses).
  bool isExternal(const std::string& name) const { return defined.count(name) == 0; }
  bool isExternal(mir::Symbol s) const { return s.id() >= definedById.size() || !definedById[s.id()]; }
  // Records the symbol of an operand's name (created in byName before).
  void noteOperandSymbol(mir::Symbol s);
};

// Appends every symbol `f` references (call targets, rip-relative memory
// operands) to `out`, in instruction order.
void collectSymbolRefs(const mir::MFunction& f, std::vector<mir::Symbol>* out);

class McLowering {
 public:
  McLowering(const McTarget& target, llvm::MCContext& ctx, llvm::MCStreamer& out,
             const McSymbols& syms)
      : t_(target), ctx_(ctx), out_(out), syms_(syms) {}

  // Emits the blocks of `f` (a label each, then its instructions) at the
  // streamer's current position. `funcIndex` makes block label names unique.
  void lowerFunction(const mir::MFunction& f, int funcIndex);
  // The label of block b of the function lowered last.
  llvm::MCSymbol* blockLabel(size_t b) const { return blockLabels_.at(b); }
  // -g: instructions with a source line get a DWARF line-table row in `file`
  // (0: no line table).
  // Call frame information and the call-site table (each optional).
  void setCfi(CfiWriter* cfi) { cfi_ = cfi; }
  void setCallTable(CallTable* calls) { calls_ = calls; }
  void setDwarfFile(unsigned file, const std::string& name) {
    dwarfFile_ = file;
    dwarfFileName_ = name;
  }
  // -g: labels to place before instructions of the next lowerFunction, by
  // index in layout order (the index past the last one: at its end),
  // sorted by index.
  void setInstLabels(std::vector<std::pair<int, llvm::MCSymbol*>> labels) { instLabels_ = std::move(labels); }

 private:
  void lowerInst(const mir::MInst& mi, bool isLastInBlock, int blockIndex);
  void lowerMov(const mir::MInst& mi);
  void lowerExtend(const mir::MInst& mi);
  void lowerLea(const mir::MInst& mi);
  void lowerAlu(const mir::MInst& mi);
  void lowerShift(const mir::MInst& mi);
  void lowerCmp(const mir::MInst& mi);
  void lowerTest(const mir::MInst& mi);
  void lowerDivRem(const mir::MInst& mi);
  void lowerJumpTable(const mir::MInst& mi);
  void lowerTableAddr(const mir::MInst& mi);
  // The label of the function's jump table `table`, made on first use.
  llvm::MCSymbol* tableLabel(const mir::Opnd& table);
  void lowerCall(const mir::MInst& mi);
  void lowerSse(const mir::MInst& mi);

  // Operand accessors: check the operand's kind and map it to LLVM.
  unsigned gpr(const mir::Opnd& o, int width = 8) const;
  unsigned xmmReg(const mir::Opnd& o) const;
  void addMem(llvm::MCInst& inst, const mir::Opnd& m) const;
  const llvm::MCExpr* symExpr(mir::Symbol name, int64_t disp,
                              llvm::MCSymbolRefExpr::VariantKind kind) const;
  const llvm::MCExpr* blockExpr(const mir::Opnd& o) const;
  void movImm(const mir::Opnd& dst, int64_t imm);

  llvm::MCInst make(XOp op) const;
  void emit(const llvm::MCInst& inst);
  void expectOps(const mir::MInst& mi, size_t n) const;
  [[noreturn]] void fail(const std::string& msg) const;
  [[noreturn]] void unsupported(const mir::MInst& mi) const;

  const McTarget& t_;
  llvm::MCContext& ctx_;
  llvm::MCStreamer& out_;
  const McSymbols& syms_;
  const mir::MFunction* func_ = nullptr;
  int blockIndex_ = -1;
  std::vector<llvm::MCSymbol*> blockLabels_;
  std::vector<llvm::MCSymbol*> tableLabels_;  // by table number, this function's
  std::vector<char> tablesWritten_;           // by table number: its jump was lowered
  unsigned dwarfFile_ = 0;
  std::string dwarfFileName_;
  uint32_t lastLine_ = 0, lastCol_ = 0;
  CfiWriter* cfi_ = nullptr;
  CallTable* calls_ = nullptr;
  std::vector<std::pair<int, llvm::MCSymbol*>> instLabels_;
};

}  // namespace simplec::x86_64
