// Test helper: a small DSL for building MIR functions by hand, as the
// instruction selector would emit them. finish() fills each block's succs
// from its jumps and fall-through.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "codegen/liveness.h"
#include "codegen/mir.h"

namespace simplec::test {

inline mir::Opnd V(int v) { return mir::Opnd::vreg(v); }
inline mir::Opnd P(int r) { return mir::Opnd::preg(r); }
inline mir::Opnd I(int64_t x) { return mir::Opnd::imm64(x); }
inline mir::MInst Jcc(mir::Cond c, int block) {
  mir::MInst j(mir::MOp::Jcc, {mir::Opnd::block(block)});
  j.cc = c;
  return j;
}
inline mir::MInst Jmp(int block) { return mir::MInst(mir::MOp::Jmp, {mir::Opnd::block(block)}); }
// A block written out with its successors, for functions given as a list
// of blocks.
inline mir::MBlock blockOf(std::vector<mir::MInst> insts, std::vector<int> succs) {
  mir::MBlock b;
  b.insts = std::move(insts);
  b.succs = std::move(succs);
  return b;
}

struct FnBuilder {
  mir::MFunction f;
  int cur = -1;

  explicit FnBuilder(std::string name = "f") { f.name = std::move(name); }

  int block(int loopDepth = 0) {
    f.blocks.emplace_back();
    f.blocks.back().loopDepth = loopDepth;
    return int(f.blocks.size()) - 1;
  }
  void at(int b) { cur = b; }
  int vreg() { return f.newVReg(); }

  mir::MInst& emit(mir::MOp op, std::vector<mir::Opnd> ops = {}) {
    f.blocks[size_t(cur)].insts.emplace_back(op, std::move(ops));
    return f.blocks[size_t(cur)].insts.back();
  }
  void mov(mir::Opnd d, mir::Opnd s) { emit(mir::MOp::Mov, {d, s}); }
  void op(mir::MOp o, mir::Opnd d, mir::Opnd s) { emit(o, {d, s}); }
  void cmp(mir::Opnd a, mir::Opnd b) { emit(mir::MOp::Cmp, {a, b}); }
  void jcc(mir::Cond c, int target) { emit(mir::MOp::Jcc, {mir::Opnd::block(target)}).cc = c; }
  void jmp(int target) { emit(mir::MOp::Jmp, {mir::Opnd::block(target)}); }
  void setcc(mir::Cond c, mir::Opnd d) { emit(mir::MOp::Setcc, {d}).cc = c; }
  void cmov(mir::Cond c, mir::Opnd d, mir::Opnd s) { emit(mir::MOp::Cmov, {d, s}).cc = c; }
  // Moves `args` into the argument registers, calls, copies rax to `result`
  // (when >= 0).
  void call(const std::string& name, const std::vector<mir::Opnd>& args, int result) {
    std::vector<int> regs;
    for (size_t i = 0; i < args.size() && i < 6; ++i) {
      mov(P(mir::kIntArgRegs[i]), args[i]);
      regs.push_back(mir::kIntArgRegs[i]);
    }
    for (size_t i = 6; i < args.size(); ++i) {
      mov(mir::Opnd::memP(mir::RSP, 8 * int64_t(i - 6)), args[i]);
      int bytes = 8 * int(i - 5);
      if (f.outArgBytes < bytes) f.outArgBytes = bytes;
    }
    emit(mir::MOp::Call, {mir::Opnd::symbol(name)}).argRegs = mir::RegList(regs.begin(), regs.end());
    if (result >= 0) mov(V(result), P(mir::RAX));
  }
  void ret(mir::Opnd value) {
    mov(P(mir::RAX), value);
    emit(mir::MOp::Ret).argRegs = {mir::RAX};
  }
  void parmove(const std::vector<std::pair<mir::Opnd, mir::Opnd>>& moves) {
    std::vector<mir::Opnd> ops;
    for (auto& [d, s] : moves) {
      ops.push_back(d);
      ops.push_back(s);
    }
    emit(mir::MOp::ParMove, ops);
  }
  // Copies the incoming integer arguments into fresh vregs.
  std::vector<int> params(int n) {
    std::vector<int> vs;
    for (int i = 0; i < n; ++i) {
      int v = vreg();
      if (i < 6) mov(V(v), P(mir::kIntArgRegs[i]));
      else mov(V(v), mir::Opnd::inArg(i - 6));
      vs.push_back(v);
    }
    if (n > 6) f.numIncomingStackArgs = n - 6;
    return vs;
  }
  // n values made from the vregs `from` in turn: x = from[i % size]; x op= imm(i).
  template <typename Imm>
  std::vector<int> valuesFrom(const std::vector<int>& from, int n, mir::MOp op, Imm imm) {
    std::vector<int> vs;
    for (int i = 0; i < n; ++i) {
      int x = vreg();
      mov(V(x), V(from[size_t(i) % from.size()]));
      this->op(op, V(x), I(imm(i)));
      vs.push_back(x);
    }
    return vs;
  }
  mir::MFunction& finish() {
    std::vector<std::vector<int>> s = blockSuccessors(f);
    for (size_t b = 0; b < f.blocks.size(); ++b) f.blocks[b].succs = s[b];
    return f;
  }
};

}  // namespace simplec::test
