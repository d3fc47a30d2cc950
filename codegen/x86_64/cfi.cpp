// See cfi.h.
#include "codegen/x86_64/cfi.h"

#include "codegen/x86_64/mc_context.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"

namespace simplec::x86_64 {

using mir::MOp;

unsigned CfiWriter::dwarfReg(int preg) const {
  return unsigned(t_.regInfo->getDwarfRegNum(t_.reg(preg), /*isEH=*/true));
}

void CfiWriter::beginFunction() {
  framed_ = false;
  savedRegs_ = 0;
  inEpilogue_ = false;
  out_.emitCFIStartProc(/*IsSimple=*/false);
}

void CfiWriter::endFunction() { out_.emitCFIEndProc(); }

void CfiWriter::beforeInst(const mir::MInst& mi) {
  // The code after an epilogue (more blocks) still has the frame: the rules
  // before `pop rbp` are saved here and restored after the `ret`.
  if (mi.op == MOp::Pop && framed_ && mi.ops.size() == 1 && mi.ops[0].reg == mir::RBP) {
    out_.emitCFIRememberState({});
    inEpilogue_ = true;
  }
}

void CfiWriter::afterInst(const mir::MInst& mi) {
  if (mi.ops.empty() && mi.op != MOp::Ret) return;
  switch (mi.op) {
    case MOp::Push:
      if (mi.ops[0].kind != mir::Opnd::PReg) return;
      if (mi.ops[0].reg == mir::RBP && !framed_) {
        out_.emitCFIDefCfaOffset(16);
        out_.emitCFIOffset(dwarfReg(mir::RBP), -16);
      } else if (framed_) {
        ++savedRegs_;
        out_.emitCFIOffset(dwarfReg(mi.ops[0].reg), -16 - 8 * int64_t(savedRegs_));
      }
      return;
    case MOp::Mov:
      if (!framed_ && mi.ops.size() == 2 && mi.ops[0].kind == mir::Opnd::PReg && mi.ops[0].reg == mir::RBP &&
          mi.ops[1].kind == mir::Opnd::PReg && mi.ops[1].reg == mir::RSP) {
        out_.emitCFIDefCfaRegister(dwarfReg(mir::RBP));
        framed_ = true;
      }
      return;
    case MOp::Pop:
      if (inEpilogue_ && mi.ops[0].reg == mir::RBP) out_.emitCFIDefCfa(dwarfReg(mir::RSP), 8);
      return;
    case MOp::Ret:
      if (inEpilogue_) {
        out_.emitCFIRestoreState({});
        inEpilogue_ = false;
      }
      return;
    default: return;
  }
}

}  // namespace simplec::x86_64
