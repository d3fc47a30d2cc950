// MInst -> MCInst. Operands are 64-bit unless `size` names a narrower memory
// access or extension source. Immediates use the shortest encoding GNU as and
// llvm-mc pick (imm8 forms, the rax short forms, shift-by-one), so the bytes
// match theirs. Jumps are emitted short (JMP_1/JCC_1) and the assembler
// relaxes those whose target is out of reach.
#include "codegen/x86_64/mc_lower.h"

#include "codegen/x86_64/call_table.h"
#include "codegen/loop_alignment.h"
#include "codegen/x86_64/cfi.h"
#include "lexer/diag.h"
#include "llvm/MC/MCDwarf.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstBuilder.h"
#include "llvm/MC/MCObjectFileInfo.h"

namespace simplec::x86_64 {
namespace {

using mir::MOp;
using mir::Opnd;

const char* kindString(Opnd::Kind k) {
  switch (k) {
    case Opnd::None: return "none";
    case Opnd::VReg: return "vreg";
    case Opnd::PReg: return "preg";
    case Opnd::Imm: return "imm";
    case Opnd::Mem: return "mem";
    case Opnd::Slot: return "slot";
    case Opnd::InArg: return "inarg";
    case Opnd::Block: return "block";
    case Opnd::Sym: return "sym";
  }
  return "?";
}

// "add(preg rax, imm 5) size 8": for internal-error messages.
std::string describe(const mir::MInst& mi) {
  std::string s = mir::mopName(mi.op);
  s += "(";
  for (size_t i = 0; i < mi.ops.size(); ++i) {
    const Opnd& o = mi.ops[i];
    if (i) s += ", ";
    s += kindString(o.kind);
    if (o.kind == Opnd::PReg) s += std::string(" ") + mir::pregName(o.reg);
    if (o.kind == Opnd::VReg || o.kind == Opnd::Slot || o.kind == Opnd::InArg ||
        o.kind == Opnd::Block)
      s += " " + std::to_string(o.reg);
    if (o.kind == Opnd::Imm) s += " " + std::to_string(o.imm);
  }
  s += ") size " + std::to_string(mi.size);
  return s;
}

// 1, 2, 4, 8 bytes -> 0, 1, 2, 3; -1 for any other width.
int widthIndex(int bytes) {
  switch (bytes) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    default: return -1;
  }
}

bool fitsI8(int64_t v) { return v >= -128 && v <= 127; }
bool fitsI32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

bool isGprOp(const Opnd& o) { return o.kind == Opnd::PReg && o.reg >= 0 && o.reg < 16; }
bool isXmmOp(const Opnd& o) { return o.kind == Opnd::PReg && mir::isXmm(o.reg); }

int64_t x86Cond(mir::Cond c) {
  switch (c) {
    case mir::Cond::E: return int64_t(X86Cond::E);
    case mir::Cond::NE: return int64_t(X86Cond::NE);
    case mir::Cond::L: return int64_t(X86Cond::L);
    case mir::Cond::LE: return int64_t(X86Cond::LE);
    case mir::Cond::G: return int64_t(X86Cond::G);
    case mir::Cond::GE: return int64_t(X86Cond::GE);
    case mir::Cond::B: return int64_t(X86Cond::B);
    case mir::Cond::BE: return int64_t(X86Cond::BE);
    case mir::Cond::A: return int64_t(X86Cond::A);
    case mir::Cond::AE: return int64_t(X86Cond::AE);
    case mir::Cond::P: return int64_t(X86Cond::P);
    case mir::Cond::NP: return int64_t(X86Cond::NP);
  }
  throw InternalError("emit", "invalid condition code " + std::to_string(int(c)));
}

// The encodings of one two-address 64-bit ALU operation.
struct AluForms {
  XOp rr, ri8, ri32, rax32, rm;
};

AluForms aluForms(MOp op) {
  switch (op) {
    case MOp::Add:
      return {XOp::ADD64rr, XOp::ADD64ri8, XOp::ADD64ri32, XOp::ADD64i32, XOp::ADD64rm};
    case MOp::Sub:
      return {XOp::SUB64rr, XOp::SUB64ri8, XOp::SUB64ri32, XOp::SUB64i32, XOp::SUB64rm};
    case MOp::And:
      return {XOp::AND64rr, XOp::AND64ri8, XOp::AND64ri32, XOp::AND64i32, XOp::AND64rm};
    case MOp::Or: return {XOp::OR64rr, XOp::OR64ri8, XOp::OR64ri32, XOp::OR64i32, XOp::OR64rm};
    case MOp::Xor:
      return {XOp::XOR64rr, XOp::XOR64ri8, XOp::XOR64ri32, XOp::XOR64i32, XOp::XOR64rm};
    default:  // Imul has no rax short form; ri8/ri32 are three-operand.
      return {XOp::IMUL64rr, XOp::IMUL64rri8, XOp::IMUL64rri32, XOp::IMUL64rri32, XOp::IMUL64rm};
  }
}

}  // namespace

llvm::MCSymbol* McSymbols::get(const std::string& name) const {
  auto it = byName.find(name);
  if (it == byName.end()) throw InternalError("emit", "symbol '" + name + "' was not collected");
  return it->second;
}

llvm::MCSymbol* McSymbols::get(mir::Symbol s) const {
  if (s.id() >= byId.size() || !byId[s.id()])
    throw InternalError("emit", "symbol '" + s.str() + "' was not collected");
  return byId[s.id()];
}

void McSymbols::noteOperandSymbol(mir::Symbol s) {
  if (s.id() >= byId.size()) {
    byId.resize(s.id() + 1, nullptr);
    definedById.resize(s.id() + 1, 0);
  }
  byId[s.id()] = get(s.str());
  definedById[s.id()] = defined.count(s.str()) != 0;
}

void collectSymbolRefs(const mir::MFunction& f, std::vector<mir::Symbol>* out) {
  for (const mir::MBlock& b : f.blocks)
    for (const mir::MInst& mi : b.insts)
      for (const Opnd& o : mi.ops)
        if ((o.kind == Opnd::Sym || o.kind == Opnd::Mem) && !o.sym.empty()) out->push_back(o.sym);
}

void McLowering::fail(const std::string& msg) const {
  std::string where = func_ ? "function '" + func_->name + "'" : std::string("module");
  if (blockIndex_ >= 0) where += ", block " + std::to_string(blockIndex_);
  throw InternalError("emit", where + ": " + msg);
}

void McLowering::unsupported(const mir::MInst& mi) const {
  fail("unsupported operand form " + describe(mi));
}

void McLowering::expectOps(const mir::MInst& mi, size_t n) const {
  if (mi.ops.size() != n)
    fail(std::string(mir::mopName(mi.op)) + " needs " + std::to_string(n) +
         " operands: " + describe(mi));
}

unsigned McLowering::gpr(const Opnd& o, int width) const {
  if (!isGprOp(o))
    fail(std::string("expected a general-purpose register, got ") + kindString(o.kind) + " " +
         (o.kind == Opnd::PReg ? mir::pregName(o.reg) : std::to_string(o.reg)));
  return t_.reg(o.reg, width);
}

unsigned McLowering::xmmReg(const Opnd& o) const {
  if (!isXmmOp(o)) fail("expected an xmm register");
  return t_.reg(o.reg);
}

llvm::MCInst McLowering::make(XOp op) const {
  llvm::MCInst inst;
  inst.setOpcode(t_.op(op));
  return inst;
}

void McLowering::emit(const llvm::MCInst& inst) { out_.emitInstruction(inst, *t_.subtarget); }

const llvm::MCExpr* McLowering::symExpr(mir::Symbol name, int64_t disp,
                                        llvm::MCSymbolRefExpr::VariantKind kind) const {
  if (name.empty()) fail("empty symbol name");
  const llvm::MCExpr* e = llvm::MCSymbolRefExpr::create(syms_.get(name), kind, ctx_);
  if (disp != 0) {
    if (!fitsI32(disp)) fail("symbol displacement out of 32-bit range");
    e = llvm::MCBinaryExpr::createAdd(e, llvm::MCConstantExpr::create(disp, ctx_), ctx_);
  }
  return e;
}

const llvm::MCExpr* McLowering::blockExpr(const Opnd& o) const {
  if (o.kind != Opnd::Block) fail(std::string("expected a block, got ") + kindString(o.kind));
  if (o.reg < 0 || size_t(o.reg) >= blockLabels_.size())
    fail("branch to nonexistent block " + std::to_string(o.reg));
  return llvm::MCSymbolRefExpr::create(blockLabels_[o.reg], ctx_);
}

// X86 memory operands are five MCOperands: base, scale, index, disp, segment.
void McLowering::addMem(llvm::MCInst& inst, const Opnd& m) const {
  if (m.kind != Opnd::Mem) fail(std::string("expected memory, got ") + kindString(m.kind));
  if (m.baseVirt || m.indexVirt) fail("memory operand with a virtual register");
  if (!m.sym.empty()) {
    if (m.base >= 0 || m.index >= 0) fail("rip-relative memory operand with base or index");
    inst.addOperand(llvm::MCOperand::createReg(t_.rip));
    inst.addOperand(llvm::MCOperand::createImm(1));
    inst.addOperand(llvm::MCOperand::createReg(0));
    inst.addOperand(
        llvm::MCOperand::createExpr(symExpr(m.sym, m.imm, llvm::MCSymbolRefExpr::VK_None)));
    inst.addOperand(llvm::MCOperand::createReg(0));
    return;
  }
  if (m.base >= 16 || m.base < -1) fail("memory base is not a general-purpose register");
  if (m.index >= 16 || m.index < -1) fail("memory index is not a general-purpose register");
  if (m.index == mir::RSP) fail("rsp cannot be a memory index");
  if (m.scale != 1 && m.scale != 2 && m.scale != 4 && m.scale != 8)
    fail("memory scale " + std::to_string(m.scale) + " is not 1, 2, 4 or 8");
  if (!fitsI32(m.imm)) fail("memory displacement out of 32-bit range");
  inst.addOperand(llvm::MCOperand::createReg(m.base >= 0 ? t_.reg(m.base) : 0));
  inst.addOperand(llvm::MCOperand::createImm(m.scale));
  inst.addOperand(llvm::MCOperand::createReg(m.index >= 0 ? t_.reg(m.index) : 0));
  inst.addOperand(llvm::MCOperand::createImm(m.imm));
  inst.addOperand(llvm::MCOperand::createReg(0));
}

void McLowering::lowerFunction(const mir::MFunction& f, int funcIndex) {
  func_ = &f;
  blockIndex_ = -1;
  blockLabels_.clear();
  tableLabels_.clear();
  tablesWritten_.clear();
  for (size_t b = 0; b < f.blocks.size(); ++b)
    // A Twine: the name is made only where labels have names (assembly).
    blockLabels_.push_back(ctx_.createTempSymbol(llvm::Twine("BB") + llvm::Twine(funcIndex) + "_" + llvm::Twine(b),
                                                 /*AlwaysAddSuffix=*/false));
  // The prologue has no position of its own: it belongs to the function's
  // own line (where addr2line and gdb place its address, as for gcc's
  // code), else to its first line, not to the end of the function before it.
  lastLine_ = lastCol_ = 0;
  if (dwarfFile_ && f.line && f.file == kMainFile) {
    out_.emitDwarfLocDirective(dwarfFile_, f.line, f.col, DWARF2_FLAG_IS_STMT, 0, 0, dwarfFileName_);
    lastLine_ = f.line;
    lastCol_ = f.col;
  }
  for (size_t b = 0; b < f.blocks.size() && dwarfFile_ && !lastLine_; ++b)
    for (const mir::MInst& mi : f.blocks[b].insts)
      if (mi.line) {
        out_.emitDwarfLocDirective(dwarfFile_, mi.line, mi.col, DWARF2_FLAG_IS_STMT, 0, 0, dwarfFileName_);
        lastLine_ = mi.line;
        lastCol_ = mi.col;
        break;
      }
  size_t nextLabel = 0;
  int instIndex = 0;
  // The first instruction after the prologue starts a row of its own
  // marked prologue_end, where gdb puts a breakpoint on the function.
  bool prologueEnd = dwarfFile_ != 0;
  std::vector<char> alignedHeads = alignedLoopHeads(f);
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    blockIndex_ = int(b);
    if (alignedHeads[b]) out_.emitCodeAlignment(llvm::Align(64), t_.subtarget.get());
    out_.emitLabel(blockLabels_[b]);
    const auto& insts = f.blocks[b].insts;
    for (size_t i = 0; i < insts.size(); ++i, ++instIndex) {
      const mir::MInst& mi = insts[i];
      for (; nextLabel < instLabels_.size() && instLabels_[nextLabel].first <= instIndex; ++nextLabel)
        out_.emitLabel(instLabels_[nextLabel].second);
      // A row starts where the source position changes; instructions
      // without one stay in the row before them.
      if (dwarfFile_ && mi.line && (mi.line != lastLine_ || mi.col != lastCol_ || prologueEnd)) {
        out_.emitDwarfLocDirective(dwarfFile_, mi.line, mi.col,
                                   DWARF2_FLAG_IS_STMT | (prologueEnd ? DWARF2_FLAG_PROLOGUE_END : 0), 0, 0,
                                   dwarfFileName_);
        prologueEnd = false;
        lastLine_ = mi.line;
        lastCol_ = mi.col;
      }
      if (cfi_) cfi_->beforeInst(mi);
      lowerInst(mi, i + 1 == insts.size(), int(b));
      if (cfi_) cfi_->afterInst(mi);
      if (calls_ && mi.op == MOp::Call) calls_->afterCall(f, mi, ctx_, out_);
    }
  }
  for (; nextLabel < instLabels_.size(); ++nextLabel) out_.emitLabel(instLabels_[nextLabel].second);
  instLabels_.clear();
  // A tableaddr whose jump went away would leave its label undefined.
  for (size_t k = 0; k < tableLabels_.size(); k++)
    if (tableLabels_[k] && (k >= tablesWritten_.size() || !tablesWritten_[k]))
      fail("tableaddr of jump table " + std::to_string(k) + ", which has no jump");
  blockIndex_ = -1;
  func_ = nullptr;
}

void McLowering::lowerInst(const mir::MInst& mi, bool isLastInBlock, int blockIndex) {
  // Operands that only exist before register allocation / frame lowering.
  for (size_t i = 0; i < mi.ops.size(); i++) {
    const Opnd& o = mi.ops[i];
    switch (o.kind) {
      case Opnd::VReg: fail("virtual register reached the emitter: " + describe(mi));
      case Opnd::Slot: fail("frame slot reached the emitter: " + describe(mi));
      case Opnd::InArg: fail("incoming-argument operand reached the emitter: " + describe(mi));
      case Opnd::None:
        // (A jump table without a base register is the one empty operand.)
        if (mi.op != MOp::JmpTable || i != mir::JumpTableOpnd::kBase) fail("empty operand: " + describe(mi));
        break;
      case Opnd::Mem:
        if (o.baseVirt || o.indexVirt) fail("virtual register in memory operand: " + describe(mi));
        break;
      default: break;
    }
  }
  switch (mi.op) {
    case MOp::Mov: return lowerMov(mi);
    case MOp::MovZX:
    case MOp::MovSX: return lowerExtend(mi);
    case MOp::Lea: return lowerLea(mi);
    case MOp::Add:
    case MOp::Sub:
    case MOp::And:
    case MOp::Or:
    case MOp::Xor:
    case MOp::Imul: return lowerAlu(mi);
    case MOp::Neg:
    case MOp::Not: {
      expectOps(mi, 1);
      unsigned r = gpr(mi.ops[0]);
      emit(llvm::MCInstBuilder(t_.op(mi.op == MOp::Neg ? XOp::NEG64r : XOp::NOT64r))
               .addReg(r)
               .addReg(r));
      return;
    }
    case MOp::Shl:
    case MOp::Sar:
    case MOp::Shr: return lowerShift(mi);
    case MOp::Cmp: return lowerCmp(mi);
    case MOp::Test: return lowerTest(mi);
    case MOp::Setcc: {
      expectOps(mi, 1);
      unsigned r8 = gpr(mi.ops[0], 1);
      emit(llvm::MCInstBuilder(t_.op(XOp::SETCCr)).addReg(r8).addImm(x86Cond(mi.cc)));
      emit(llvm::MCInstBuilder(t_.op(XOp::MOVZX32rr8)).addReg(gpr(mi.ops[0], 4)).addReg(r8));
      return;
    }
    case MOp::Cmov: {
      expectOps(mi, 2);
      unsigned d = gpr(mi.ops[0]);
      emit(llvm::MCInstBuilder(t_.op(XOp::CMOV64rr))
               .addReg(d)
               .addReg(d)
               .addReg(gpr(mi.ops[1]))
               .addImm(x86Cond(mi.cc)));
      return;
    }
    case MOp::SDivRem: return lowerDivRem(mi);
    case MOp::SMulHi:
      expectOps(mi, 1);
      emit(llvm::MCInstBuilder(t_.op(XOp::IMUL64r)).addReg(gpr(mi.ops[0])));
      return;
    case MOp::Jmp: {
      expectOps(mi, 1);
      const llvm::MCExpr* target = blockExpr(mi.ops[0]);
      if (isLastInBlock && mi.ops[0].reg == blockIndex + 1) return;  // falls through
      emit(llvm::MCInstBuilder(t_.op(XOp::JMP_1)).addExpr(target));
      return;
    }
    case MOp::Jcc:
      expectOps(mi, 1);
      emit(llvm::MCInstBuilder(t_.op(XOp::JCC_1))
               .addExpr(blockExpr(mi.ops[0]))
               .addImm(x86Cond(mi.cc)));
      return;
    case MOp::JmpTable: return lowerJumpTable(mi);
    case MOp::TableAddr: return lowerTableAddr(mi);
    case MOp::Call: return lowerCall(mi);
    case MOp::Ret:
      if (!mi.ops.empty()) unsupported(mi);
      emit(make(XOp::RET64));
      return;
    case MOp::Push:
    case MOp::Pop:
      expectOps(mi, 1);
      emit(llvm::MCInstBuilder(t_.op(mi.op == MOp::Push ? XOp::PUSH64r : XOp::POP64r))
               .addReg(gpr(mi.ops[0])));
      return;
    case MOp::ParMove: fail("ParMove reached the emitter (not resolved by register allocation)");
    case MOp::FAdd:
    case MOp::FSub:
    case MOp::FMul:
    case MOp::FDiv:
    case MOp::FMin:
    case MOp::FMax:
    case MOp::FAnd:
    case MOp::FXor: return lowerSse(mi);
    case MOp::FSqrt:
    case MOp::CvtSI2SD:
    case MOp::CvtTSD2SI: {
      expectOps(mi, 2);
      const Opnd& d = mi.ops[0];
      const Opnd& s = mi.ops[1];
      if (mi.op == MOp::FSqrt)
        emit(llvm::MCInstBuilder(t_.op(XOp::SQRTSDr)).addReg(xmmReg(d)).addReg(xmmReg(s)));
      else if (mi.op == MOp::CvtSI2SD)
        emit(llvm::MCInstBuilder(t_.op(XOp::CVTSI642SDrr)).addReg(xmmReg(d)).addReg(gpr(s)));
      else
        emit(llvm::MCInstBuilder(t_.op(XOp::CVTTSD2SI64rr)).addReg(gpr(d)).addReg(xmmReg(s)));
      return;
    }
    case MOp::Ucomisd: {
      expectOps(mi, 2);
      unsigned a = xmmReg(mi.ops[0]);
      if (mi.ops[1].kind == Opnd::Mem) {
        llvm::MCInst inst = make(XOp::UCOMISDrm);
        inst.addOperand(llvm::MCOperand::createReg(a));
        addMem(inst, mi.ops[1]);
        return emit(inst);
      }
      emit(llvm::MCInstBuilder(t_.op(XOp::UCOMISDrr)).addReg(a).addReg(xmmReg(mi.ops[1])));
      return;
    }
    case MOp::RoundF32: {
      expectOps(mi, 1);
      unsigned r = xmmReg(mi.ops[0]);
      emit(llvm::MCInstBuilder(t_.op(XOp::CVTSD2SSrr)).addReg(r).addReg(r));
      emit(llvm::MCInstBuilder(t_.op(XOp::CVTSS2SDrr)).addReg(r).addReg(r));
      return;
    }
    case MOp::VAdd:
    case MOp::VSub:
    case MOp::VMul:
    case MOp::VDiv:
    case MOp::VMin:
    case MOp::VMax: {
      // Register operands only: a memory operand of a packed instruction
      // must be 16-byte aligned, and array elements are not.
      expectOps(mi, 2);
      XOp op = mi.op == MOp::VAdd ? XOp::ADDPDrr : mi.op == MOp::VSub ? XOp::SUBPDrr
             : mi.op == MOp::VMul ? XOp::MULPDrr : mi.op == MOp::VDiv ? XOp::DIVPDrr
             : mi.op == MOp::VMin ? XOp::MINPDrr : XOp::MAXPDrr;
      unsigned d = xmmReg(mi.ops[0]);
      emit(llvm::MCInstBuilder(t_.op(op)).addReg(d).addReg(d).addReg(xmmReg(mi.ops[1])));
      return;
    }
    case MOp::VSqrt:
      expectOps(mi, 2);
      emit(llvm::MCInstBuilder(t_.op(XOp::SQRTPDr)).addReg(xmmReg(mi.ops[0])).addReg(xmmReg(mi.ops[1])));
      return;
    case MOp::VSplat: {
      expectOps(mi, 1);
      unsigned r = xmmReg(mi.ops[0]);
      emit(llvm::MCInstBuilder(t_.op(XOp::UNPCKLPDrr)).addReg(r).addReg(r).addReg(r));
      return;
    }
    case MOp::CvtSD2SS:
    case MOp::CvtSS2SD: {
      expectOps(mi, 1);
      unsigned r = xmmReg(mi.ops[0]);
      XOp op = mi.op == MOp::CvtSD2SS ? XOp::CVTSD2SSrr : XOp::CVTSS2SDrr;
      emit(llvm::MCInstBuilder(t_.op(op)).addReg(r).addReg(r));
      return;
    }
  }
  fail("unknown MIR opcode " + std::to_string(int(mi.op)));
}

// Two-address SSE2 arithmetic: xmm op= xmm | mem. andpd/xorpd take only a
// (16-byte aligned) memory operand here: they apply a constant mask.
void McLowering::lowerSse(const mir::MInst& mi) {
  expectOps(mi, 2);
  struct Forms {
    XOp rr, rm;
  };
  Forms f{XOp::ADDSDrr, XOp::ADDSDrm};
  switch (mi.op) {
    case MOp::FSub: f = {XOp::SUBSDrr, XOp::SUBSDrm}; break;
    case MOp::FMul: f = {XOp::MULSDrr, XOp::MULSDrm}; break;
    case MOp::FDiv: f = {XOp::DIVSDrr, XOp::DIVSDrm}; break;
    case MOp::FMin: f = {XOp::MINSDrr, XOp::MINSDrm}; break;
    case MOp::FMax: f = {XOp::MAXSDrr, XOp::MAXSDrm}; break;
    case MOp::FAnd: f = {XOp::ANDPDrm, XOp::ANDPDrm}; break;
    case MOp::FXor: f = {XOp::XORPDrm, XOp::XORPDrm}; break;
    default: break;
  }
  unsigned d = xmmReg(mi.ops[0]);
  const Opnd& s = mi.ops[1];
  bool packed = mi.op == MOp::FAnd || mi.op == MOp::FXor;
  if (isXmmOp(s) && !packed) {
    emit(llvm::MCInstBuilder(t_.op(f.rr)).addReg(d).addReg(d).addReg(xmmReg(s)));
  } else if (s.kind == Opnd::Mem) {
    llvm::MCInst inst = make(f.rm);
    inst.addOperand(llvm::MCOperand::createReg(d));
    inst.addOperand(llvm::MCOperand::createReg(d));
    addMem(inst, s);
    emit(inst);
  } else {
    unsupported(mi);
  }
}

// r <- imm: the shortest of mov r32, imm32 (zero-extends), mov r64, simm32,
// movabs r64, imm64.
void McLowering::movImm(const Opnd& dst, int64_t imm) {
  if (imm >= 0 && imm <= int64_t(UINT32_MAX)) {
    emit(llvm::MCInstBuilder(t_.op(XOp::MOV32ri)).addReg(gpr(dst, 4)).addImm(imm));
    return;
  }
  XOp op = fitsI32(imm) ? XOp::MOV64ri32 : XOp::MOV64ri;
  emit(llvm::MCInstBuilder(t_.op(op)).addReg(gpr(dst)).addImm(imm));
}

void McLowering::lowerMov(const mir::MInst& mi) {
  expectOps(mi, 2);
  const Opnd& d = mi.ops[0];
  const Opnd& s = mi.ops[1];
  if (isGprOp(d)) {
    if (isGprOp(s)) {
      if (s.reg != d.reg)
        emit(llvm::MCInstBuilder(t_.op(XOp::MOV64rr)).addReg(gpr(d)).addReg(gpr(s)));
      return;
    }
    if (isXmmOp(s)) {
      emit(llvm::MCInstBuilder(t_.op(XOp::MOVPQIto64rr)).addReg(gpr(d)).addReg(xmmReg(s)));
      return;
    }
    if (s.kind == Opnd::Imm) return movImm(d, s.imm);
    if (s.kind == Opnd::Mem) {
      static constexpr XOp kLoad[] = {XOp::MOV8rm, XOp::MOV16rm, XOp::MOV32rm, XOp::MOV64rm};
      int w = widthIndex(mi.size);
      if (w < 0) unsupported(mi);
      llvm::MCInst inst = make(kLoad[w]);
      inst.addOperand(llvm::MCOperand::createReg(gpr(d, mi.size)));
      addMem(inst, s);
      return emit(inst);
    }
    unsupported(mi);
  }
  if (isXmmOp(d)) {
    if (isXmmOp(s)) {
      if (s.reg != d.reg)
        emit(llvm::MCInstBuilder(t_.op(XOp::MOVAPSrr)).addReg(xmmReg(d)).addReg(xmmReg(s)));
      return;
    }
    if (isGprOp(s)) {
      emit(llvm::MCInstBuilder(t_.op(XOp::MOV64toPQIrr)).addReg(xmmReg(d)).addReg(gpr(s)));
      return;
    }
    if (s.kind == Opnd::Mem && (mi.size == 16 || mi.size == 8 || mi.size == 4)) {
      llvm::MCInst inst = make(mi.size == 16 ? XOp::MOVUPDrm : mi.size == 8 ? XOp::MOVSDrm : XOp::MOVSSrm);
      inst.addOperand(llvm::MCOperand::createReg(xmmReg(d)));
      addMem(inst, s);
      return emit(inst);
    }
    unsupported(mi);
  }
  if (d.kind == Opnd::Mem) {
    llvm::MCInst inst;
    if (isGprOp(s)) {
      static constexpr XOp kStore[] = {XOp::MOV8mr, XOp::MOV16mr, XOp::MOV32mr, XOp::MOV64mr};
      int w = widthIndex(mi.size);
      if (w < 0) unsupported(mi);
      inst = make(kStore[w]);
      addMem(inst, d);
      inst.addOperand(llvm::MCOperand::createReg(gpr(s, mi.size)));
      return emit(inst);
    }
    if (isXmmOp(s) && (mi.size == 16 || mi.size == 8 || mi.size == 4)) {
      inst = make(mi.size == 16 ? XOp::MOVUPDmr : mi.size == 8 ? XOp::MOVSDmr : XOp::MOVSSmr);
      addMem(inst, d);
      inst.addOperand(llvm::MCOperand::createReg(xmmReg(s)));
      return emit(inst);
    }
    if (s.kind == Opnd::Imm) {
      // A narrow store keeps the low bytes; a 64-bit one sign-extends imm32.
      int64_t imm = s.imm;
      switch (mi.size) {
        case 8:
          if (!fitsI32(imm))
            fail("64-bit immediate store does not fit in 32 bits: " + describe(mi));
          inst = make(XOp::MOV64mi32);
          break;
        case 4:
          inst = make(XOp::MOV32mi);
          imm = int32_t(uint32_t(uint64_t(imm)));
          break;
        case 2:
          inst = make(XOp::MOV16mi);
          imm = int16_t(uint16_t(uint64_t(imm)));
          break;
        case 1:
          inst = make(XOp::MOV8mi);
          imm = int8_t(uint8_t(uint64_t(imm)));
          break;
        default: unsupported(mi);
      }
      addMem(inst, d);
      inst.addOperand(llvm::MCOperand::createImm(imm));
      return emit(inst);
    }
  }
  unsupported(mi);
}

// MovZX/MovSX: `size` is the source width; the result is a full 64-bit value.
// Writing a 32-bit register zero-extends, so the zero-extensions target r32.
void McLowering::lowerExtend(const mir::MInst& mi) {
  expectOps(mi, 2);
  const Opnd& d = mi.ops[0];
  const Opnd& s = mi.ops[1];
  bool zx = mi.op == MOp::MovZX;
  bool fromMem = s.kind == Opnd::Mem;
  if (!fromMem && !isGprOp(s)) unsupported(mi);
  XOp op;
  int dstWidth = zx ? 4 : 8;
  switch (mi.size) {
    case 1:
      op = zx ? (fromMem ? XOp::MOVZX32rm8 : XOp::MOVZX32rr8)
              : (fromMem ? XOp::MOVSX64rm8 : XOp::MOVSX64rr8);
      break;
    case 2:
      op = zx ? (fromMem ? XOp::MOVZX32rm16 : XOp::MOVZX32rr16)
              : (fromMem ? XOp::MOVSX64rm16 : XOp::MOVSX64rr16);
      break;
    case 4:
      op = zx ? (fromMem ? XOp::MOV32rm : XOp::MOV32rr)
              : (fromMem ? XOp::MOVSX64rm32 : XOp::MOVSX64rr32);
      break;
    case 8:
      op = fromMem ? XOp::MOV64rm : XOp::MOV64rr;
      dstWidth = 8;
      if (!fromMem && s.reg == d.reg) return;
      break;
    default: unsupported(mi);
  }
  llvm::MCInst inst = make(op);
  inst.addOperand(llvm::MCOperand::createReg(gpr(d, dstWidth)));
  if (fromMem)
    addMem(inst, s);
  else
    inst.addOperand(llvm::MCOperand::createReg(gpr(s, mi.size)));
  emit(inst);
}

// Lea of an external symbol loads its address from the GOT (PIE code must
// not assume the symbol is within 2 GiB of us).
void McLowering::lowerLea(const mir::MInst& mi) {
  expectOps(mi, 2);
  unsigned d = gpr(mi.ops[0]);
  const Opnd& m = mi.ops[1];
  if (m.kind != Opnd::Mem) unsupported(mi);
  if (!m.sym.empty() && syms_.isExternal(m.sym)) {
    if (m.base >= 0 || m.index >= 0 || m.baseVirt || m.indexVirt)
      fail("rip-relative memory operand with base or index");
    if (!fitsI32(m.imm)) fail("symbol displacement out of 32-bit range");
    llvm::MCInst load = make(XOp::MOV64rm);
    load.addOperand(llvm::MCOperand::createReg(d));
    load.addOperand(llvm::MCOperand::createReg(t_.rip));
    load.addOperand(llvm::MCOperand::createImm(1));
    load.addOperand(llvm::MCOperand::createReg(0));
    load.addOperand(
        llvm::MCOperand::createExpr(symExpr(m.sym, 0, llvm::MCSymbolRefExpr::VK_GOTPCREL)));
    load.addOperand(llvm::MCOperand::createReg(0));
    emit(load);
    if (m.imm != 0) {
      llvm::MCInst add = make(XOp::LEA64r);
      add.addOperand(llvm::MCOperand::createReg(d));
      addMem(add, Opnd::memP(mi.ops[0].reg, m.imm));
      emit(add);
    }
    return;
  }
  llvm::MCInst inst = make(XOp::LEA64r);
  inst.addOperand(llvm::MCOperand::createReg(d));
  addMem(inst, m);
  emit(inst);
}

void McLowering::lowerAlu(const mir::MInst& mi) {
  if (mi.op == MOp::Imul && mi.ops.size() == 3) {  // imul d, s, imm
    const Opnd& imm = mi.ops[2];
    if (imm.kind != Opnd::Imm || !fitsI32(imm.imm)) unsupported(mi);
    emit(llvm::MCInstBuilder(t_.op(fitsI8(imm.imm) ? XOp::IMUL64rri8 : XOp::IMUL64rri32))
             .addReg(gpr(mi.ops[0]))
             .addReg(gpr(mi.ops[1]))
             .addImm(imm.imm));
    return;
  }
  expectOps(mi, 2);
  AluForms f = aluForms(mi.op);
  unsigned d = gpr(mi.ops[0]);
  const Opnd& s = mi.ops[1];
  if (isGprOp(s)) {
    emit(llvm::MCInstBuilder(t_.op(f.rr)).addReg(d).addReg(d).addReg(gpr(s)));
  } else if (s.kind == Opnd::Imm) {
    if (!fitsI32(s.imm)) fail("immediate does not fit in 32 bits: " + describe(mi));
    if (fitsI8(s.imm))
      emit(llvm::MCInstBuilder(t_.op(f.ri8)).addReg(d).addReg(d).addImm(s.imm));
    else if (mi.op != MOp::Imul && mi.ops[0].reg == mir::RAX)
      emit(llvm::MCInstBuilder(t_.op(f.rax32)).addImm(s.imm));
    else
      emit(llvm::MCInstBuilder(t_.op(f.ri32)).addReg(d).addReg(d).addImm(s.imm));
  } else if (s.kind == Opnd::Mem) {
    if (mi.size != 8) unsupported(mi);
    llvm::MCInst inst = make(f.rm);
    inst.addOperand(llvm::MCOperand::createReg(d));
    inst.addOperand(llvm::MCOperand::createReg(d));
    addMem(inst, s);
    emit(inst);
  } else {
    unsupported(mi);
  }
}

void McLowering::lowerShift(const mir::MInst& mi) {
  expectOps(mi, 2);
  XOp byImm = XOp::SHL64ri, byOne = XOp::SHL64r1, byCl = XOp::SHL64rCL;
  if (mi.op == MOp::Sar) byImm = XOp::SAR64ri, byOne = XOp::SAR64r1, byCl = XOp::SAR64rCL;
  if (mi.op == MOp::Shr) byImm = XOp::SHR64ri, byOne = XOp::SHR64r1, byCl = XOp::SHR64rCL;
  unsigned d = gpr(mi.ops[0]);
  const Opnd& s = mi.ops[1];
  if (s.kind == Opnd::Imm) {
    int64_t n = s.imm & 63;  // what the hardware does with the count
    if (n == 1)
      emit(llvm::MCInstBuilder(t_.op(byOne)).addReg(d).addReg(d));
    else
      emit(llvm::MCInstBuilder(t_.op(byImm)).addReg(d).addReg(d).addImm(n));
  } else if (s.kind == Opnd::PReg && s.reg == mir::RCX) {
    emit(llvm::MCInstBuilder(t_.op(byCl)).addReg(d).addReg(d));
  } else {
    fail("shift count must be an immediate or rcx: " + describe(mi));
  }
}

void McLowering::lowerCmp(const mir::MInst& mi) {
  expectOps(mi, 2);
  unsigned a = gpr(mi.ops[0]);
  const Opnd& s = mi.ops[1];
  if (isGprOp(s)) {
    emit(llvm::MCInstBuilder(t_.op(XOp::CMP64rr)).addReg(a).addReg(gpr(s)));
  } else if (s.kind == Opnd::Imm) {
    if (!fitsI32(s.imm)) fail("immediate does not fit in 32 bits: " + describe(mi));
    if (fitsI8(s.imm))
      emit(llvm::MCInstBuilder(t_.op(XOp::CMP64ri8)).addReg(a).addImm(s.imm));
    else if (mi.ops[0].reg == mir::RAX)
      emit(llvm::MCInstBuilder(t_.op(XOp::CMP64i32)).addImm(s.imm));
    else
      emit(llvm::MCInstBuilder(t_.op(XOp::CMP64ri32)).addReg(a).addImm(s.imm));
  } else if (s.kind == Opnd::Mem) {
    if (mi.size != 8) unsupported(mi);
    llvm::MCInst inst = make(XOp::CMP64rm);
    inst.addOperand(llvm::MCOperand::createReg(a));
    addMem(inst, s);
    emit(inst);
  } else {
    unsupported(mi);
  }
}

void McLowering::lowerTest(const mir::MInst& mi) {
  expectOps(mi, 2);
  unsigned a = gpr(mi.ops[0]);
  const Opnd& s = mi.ops[1];
  if (isGprOp(s)) {
    emit(llvm::MCInstBuilder(t_.op(XOp::TEST64rr)).addReg(a).addReg(gpr(s)));
  } else if (s.kind == Opnd::Imm) {
    if (!fitsI32(s.imm)) fail("immediate does not fit in 32 bits: " + describe(mi));
    if (mi.ops[0].reg == mir::RAX)
      emit(llvm::MCInstBuilder(t_.op(XOp::TEST64i32)).addImm(s.imm));
    else
      emit(llvm::MCInstBuilder(t_.op(XOp::TEST64ri32)).addReg(a).addImm(s.imm));
  } else {
    unsupported(mi);
  }
}

// rax / src with rax = quotient, rdx = remainder, defined for MIN / -1:
//   cmp src, -1 ; jne .Ldiv ; neg rax ; xor edx, edx ; jmp .Ldone
//   .Ldiv: cqo ; idiv src
//   .Ldone:
void McLowering::lowerDivRem(const mir::MInst& mi) {
  expectOps(mi, 1);
  const Opnd& s = mi.ops[0];
  unsigned src = gpr(s);
  if (s.reg == mir::RDX) fail("SDivRem divisor in rdx, which cqo overwrites");
  llvm::MCSymbol* divLabel = ctx_.createTempSymbol("div", true);
  llvm::MCSymbol* doneLabel = ctx_.createTempSymbol("divdone", true);
  unsigned rax = t_.gpr64[mir::RAX], edx = t_.gpr32[mir::RDX];
  emit(llvm::MCInstBuilder(t_.op(XOp::CMP64ri8)).addReg(src).addImm(-1));
  emit(llvm::MCInstBuilder(t_.op(XOp::JCC_1))
           .addExpr(llvm::MCSymbolRefExpr::create(divLabel, ctx_))
           .addImm(int64_t(X86Cond::NE)));
  emit(llvm::MCInstBuilder(t_.op(XOp::NEG64r)).addReg(rax).addReg(rax));
  emit(llvm::MCInstBuilder(t_.op(XOp::XOR32rr)).addReg(edx).addReg(edx).addReg(edx));
  emit(llvm::MCInstBuilder(t_.op(XOp::JMP_1))
           .addExpr(llvm::MCSymbolRefExpr::create(doneLabel, ctx_)));
  out_.emitLabel(divLabel);
  emit(make(XOp::CQO));
  emit(llvm::MCInstBuilder(t_.op(XOp::IDIV64r)).addReg(src));
  out_.emitLabel(doneLabel);
}

// `jmptable r, lo, table, base, default, cases...` as gcc and clang lay a
// switch out:
//   lea r11, [r - lo] ; cmp r11, #cases-1 ; ja default
//   lea r10, [rip + T] ; movslq r11, [r10 + r11*4] ; add r11, r10 ; jmp *r11
// (r itself is the index when lo is 0; with a base register, it holds T
// already and takes r10's place) with T in .rodata: one 32-bit offset per
// case from T to the case's block, so the table needs no dynamic relocation
// in a position-independent program.
void McLowering::lowerJumpTable(const mir::MInst& mi) {
  namespace J = mir::JumpTableOpnd;
  if (mi.ops.size() <= J::kFirstCase || mi.ops[J::kLo].kind != Opnd::Imm || mi.ops[J::kTable].kind != Opnd::Imm)
    unsupported(mi);
  unsigned value = gpr(mi.ops[J::kValue]);
  int64_t lo = mi.ops[J::kLo].imm;
  auto cases = int64_t(mi.ops.size() - J::kFirstCase);
  if (!fitsI32(lo) || !fitsI32(-lo) || !fitsI32(cases)) fail("jump table range out of 32-bit range: " + describe(mi));
  bool hasBase = mi.ops[J::kBase].kind != Opnd::None;
  unsigned idx = t_.gpr64[mir::kScratch], base = hasBase ? gpr(mi.ops[J::kBase]) : t_.gpr64[mir::kScratch2];
  if (value == base) fail("jump table value in the register for the table's address: " + describe(mi));
  if (base == idx) fail("jump table base in r11, which the jump needs: " + describe(mi));
  if (lo == 0)
    idx = value;  // indexes the table as it is
  else
    emit(llvm::MCInstBuilder(t_.op(XOp::LEA64r))
             .addReg(idx)
             .addReg(value)
             .addImm(1)
             .addReg(0)
             .addImm(-lo)
             .addReg(0));
  emit(llvm::MCInstBuilder(t_.op(fitsI8(cases - 1) ? XOp::CMP64ri8 : XOp::CMP64ri32)).addReg(idx).addImm(cases - 1));
  emit(llvm::MCInstBuilder(t_.op(XOp::JCC_1)).addExpr(blockExpr(mi.ops[J::kDefault])).addImm(x86Cond(mir::Cond::A)));
  llvm::MCSymbol* table = tableLabel(mi.ops[J::kTable]);
  // One jump per table: a second would define its label twice.
  auto k = size_t(mi.ops[J::kTable].imm);
  if (k >= tablesWritten_.size()) tablesWritten_.resize(k + 1, 0);
  if (tablesWritten_[k]) fail("jump table " + std::to_string(k) + " has two jumps: " + describe(mi));
  tablesWritten_[k] = 1;
  const llvm::MCExpr* tableRef = llvm::MCSymbolRefExpr::create(table, ctx_);
  if (!hasBase)
    emit(llvm::MCInstBuilder(t_.op(XOp::LEA64r))
             .addReg(base)
             .addReg(t_.rip)
             .addImm(1)
             .addReg(0)
             .addExpr(tableRef)
             .addReg(0));
  unsigned target = t_.gpr64[mir::kScratch];
  emit(llvm::MCInstBuilder(t_.op(XOp::MOVSX64rm32))
           .addReg(target)
           .addReg(base)
           .addImm(4)
           .addReg(idx)
           .addImm(0)
           .addReg(0));
  emit(llvm::MCInstBuilder(t_.op(XOp::ADD64rr)).addReg(target).addReg(target).addReg(base));
  emit(llvm::MCInstBuilder(t_.op(XOp::JMP64r)).addReg(target));
  out_.pushSection();
  out_.switchSection(ctx_.getObjectFileInfo()->getReadOnlySection());
  out_.emitValueToAlignment(llvm::Align(4));
  out_.emitLabel(table);
  for (size_t i = J::kFirstCase; i < mi.ops.size(); i++)
    out_.emitValue(llvm::MCBinaryExpr::createSub(blockExpr(mi.ops[i]), tableRef, ctx_), 4);
  out_.popSection();
}

// `tableaddr r, table`: lea r, [rip + T], ahead of the table's jump.
void McLowering::lowerTableAddr(const mir::MInst& mi) {
  expectOps(mi, 2);
  emit(llvm::MCInstBuilder(t_.op(XOp::LEA64r))
           .addReg(gpr(mi.ops[0]))
           .addReg(t_.rip)
           .addImm(1)
           .addReg(0)
           .addExpr(llvm::MCSymbolRefExpr::create(tableLabel(mi.ops[1]), ctx_))
           .addReg(0));
}

llvm::MCSymbol* McLowering::tableLabel(const mir::Opnd& table) {
  // formJumpTables numbers them 0, 1, ... in each function, at most one
  // per block.
  if (table.kind != Opnd::Imm || table.imm < 0 || !func_ || uint64_t(table.imm) >= func_->blocks.size())
    fail("bad jump table number " + std::to_string(table.imm));
  auto k = size_t(table.imm);
  if (k >= tableLabels_.size()) tableLabels_.resize(k + 1, nullptr);
  if (!tableLabels_[k]) tableLabels_[k] = ctx_.createTempSymbol("jumptable", true);
  return tableLabels_[k];
}

// Calls to symbols defined elsewhere go through the PLT; calls within the
// module are direct.
void McLowering::lowerCall(const mir::MInst& mi) {
  expectOps(mi, 1);
  const Opnd& target = mi.ops[0];
  if (target.kind == Opnd::Sym) {
    auto kind = syms_.isExternal(target.sym) ? llvm::MCSymbolRefExpr::VK_PLT
                                             : llvm::MCSymbolRefExpr::VK_None;
    emit(llvm::MCInstBuilder(t_.op(XOp::CALL64pcrel32)).addExpr(symExpr(target.sym, 0, kind)));
  } else if (isGprOp(target)) {
    emit(llvm::MCInstBuilder(t_.op(XOp::CALL64r)).addReg(gpr(target)));
  } else {
    unsupported(mi);
  }
}

}  // namespace simplec::x86_64
