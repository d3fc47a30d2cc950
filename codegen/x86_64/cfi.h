// Call frame information: the .cfi_* directives (.eh_frame in objects) that
// describe the frames frame.h builds, so debuggers, perf and unwinders can
// find every caller from any instruction.
// The prologue is `cmp` (stack probe, no stack change), `push rbp`,
// `mov rbp, rsp`, pushes of callee-saved registers, `sub rsp`; each epilogue
// ends `pop rbp; ret`. From `mov rbp, rsp` on, CFA = rbp + 16 holds until the
// epilogue's `pop rbp`, so only prologue and epilogue instructions need rules.
// Invariant: Push and Pop appear only in prologues and epilogues (mir.h).
#pragma once
#include "codegen/mir.h"

namespace llvm {
class MCStreamer;
}

namespace simplec::x86_64 {

struct McTarget;

class CfiWriter {
 public:
  CfiWriter(const McTarget& t, llvm::MCStreamer& out) : t_(t), out_(out) {}

  // Around a function's instructions (after its label, before its end label).
  void beginFunction();
  void endFunction();
  // Around the machine code of each MInst.
  void beforeInst(const mir::MInst& mi);
  void afterInst(const mir::MInst& mi);

 private:
  unsigned dwarfReg(int preg) const;

  const McTarget& t_;
  llvm::MCStreamer& out_;
  bool framed_ = false;      // rbp is the frame pointer (after `mov rbp, rsp`)
  int savedRegs_ = 0;        // callee-saved registers pushed after rbp
  bool inEpilogue_ = false;  // between `pop rbp` and its `ret`
};

}  // namespace simplec::x86_64
