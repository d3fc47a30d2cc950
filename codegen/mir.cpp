// MIR basics: register names, the System V register tables, condition codes,
// the deterministic text printer used by --emit=mir and tests, and the
// renumbering when blocks go in front of the entry. The
// operand roles and implicit operands (SDivRem's rax/rdx, Call's argument
// registers and clobbers, Ret's results) are in mir.h: forEachDefUse() is
// inlined into the passes that walk every instruction.
#include "codegen/mir.h"

#include <cstdio>
#include <iterator>

namespace simplec::mir {

const int kIntArgRegs[6] = {RDI, RSI, RDX, RCX, R8, R9};
const int kCallerSaved[9] = {RAX, RCX, RDX, RSI, RDI, R8, R9, R10, R11};
const int kCalleeSaved[5] = {RBX, R12, R13, R14, R15};

const char* pregName(int r) {
  static const char* const kGprNames[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp",
                                            "rsi", "rdi", "r8",  "r9",  "r10", "r11",
                                            "r12", "r13", "r14", "r15"};
  static const char* const kXmmNames[16] = {
      "xmm0", "xmm1", "xmm2",  "xmm3",  "xmm4",  "xmm5",  "xmm6",  "xmm7",
      "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"};
  if (r >= 0 && r < 16) return kGprNames[r];
  if (isXmm(r)) return kXmmNames[r - XMM0];
  return "noreg";
}

Cond negate(Cond c) {
  switch (c) {
    case Cond::E: return Cond::NE;
    case Cond::NE: return Cond::E;
    case Cond::L: return Cond::GE;
    case Cond::LE: return Cond::G;
    case Cond::G: return Cond::LE;
    case Cond::GE: return Cond::L;
    case Cond::B: return Cond::AE;
    case Cond::BE: return Cond::A;
    case Cond::A: return Cond::BE;
    case Cond::AE: return Cond::B;
    case Cond::P: return Cond::NP;
    case Cond::NP: return Cond::P;
  }
  return c;
}

Cond swapOperands(Cond c) {
  switch (c) {
    case Cond::E: return Cond::E;
    case Cond::NE: return Cond::NE;
    case Cond::L: return Cond::G;
    case Cond::LE: return Cond::GE;
    case Cond::G: return Cond::L;
    case Cond::GE: return Cond::LE;
    case Cond::B: return Cond::A;
    case Cond::BE: return Cond::AE;
    case Cond::A: return Cond::B;
    case Cond::AE: return Cond::BE;
    case Cond::P: return Cond::P;
    case Cond::NP: return Cond::NP;
  }
  return c;
}

const char* condName(Cond c) {
  switch (c) {
    case Cond::E: return "e";
    case Cond::NE: return "ne";
    case Cond::L: return "l";
    case Cond::LE: return "le";
    case Cond::G: return "g";
    case Cond::GE: return "ge";
    case Cond::B: return "b";
    case Cond::BE: return "be";
    case Cond::A: return "a";
    case Cond::AE: return "ae";
    case Cond::P: return "p";
    case Cond::NP: return "np";
  }
  return "?";
}

const char* mopName(MOp op) {
  switch (op) {
    case MOp::Mov: return "mov";
    case MOp::MovZX: return "movzx";
    case MOp::MovSX: return "movsx";
    case MOp::Lea: return "lea";
    case MOp::Add: return "add";
    case MOp::Sub: return "sub";
    case MOp::And: return "and";
    case MOp::Or: return "or";
    case MOp::Xor: return "xor";
    case MOp::Imul: return "imul";
    case MOp::Neg: return "neg";
    case MOp::Not: return "not";
    case MOp::Shl: return "shl";
    case MOp::Sar: return "sar";
    case MOp::Shr: return "shr";
    case MOp::Cmp: return "cmp";
    case MOp::Test: return "test";
    case MOp::Setcc: return "setcc";
    case MOp::Cmov: return "cmov";
    case MOp::SDivRem: return "sdivrem";
    case MOp::SMulHi: return "smulhi";
    case MOp::Jmp: return "jmp";
    case MOp::Jcc: return "jcc";
    case MOp::JmpTable: return "jmptable";
    case MOp::TableAddr: return "tableaddr";
    case MOp::Call: return "call";
    case MOp::Ret: return "ret";
    case MOp::ParMove: return "parmove";
    case MOp::Push: return "push";
    case MOp::Pop: return "pop";
    case MOp::FAdd: return "addsd";
    case MOp::FSub: return "subsd";
    case MOp::FMul: return "mulsd";
    case MOp::FDiv: return "divsd";
    case MOp::FMin: return "minsd";
    case MOp::FMax: return "maxsd";
    case MOp::FAnd: return "andpd";
    case MOp::FXor: return "xorpd";
    case MOp::FSqrt: return "sqrtsd";
    case MOp::Ucomisd: return "ucomisd";
    case MOp::CvtSI2SD: return "cvtsi2sd";
    case MOp::CvtTSD2SI: return "cvttsd2si";
    case MOp::RoundF32: return "roundf32";
    case MOp::CvtSD2SS: return "cvtsd2ss";
    case MOp::CvtSS2SD: return "cvtss2sd";
    case MOp::VAdd: return "addpd";
    case MOp::VSub: return "subpd";
    case MOp::VMul: return "mulpd";
    case MOp::VDiv: return "divpd";
    case MOp::VMin: return "minpd";
    case MOp::VMax: return "maxpd";
    case MOp::VSqrt: return "sqrtpd";
    case MOp::VSplat: return "unpcklpd";
  }
  return "?";
}

bool Opnd::operator==(const Opnd& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case None: return true;
    case VReg:
    case PReg:
    case Slot:
    case InArg:
    case Block: return reg == o.reg;
    case Imm: return imm == o.imm;
    case Sym: return sym == o.sym;
    case Mem:
      return imm == o.imm && base == o.base && index == o.index &&
             baseVirt == o.baseVirt && indexVirt == o.indexVirt && sym == o.sym &&
             (index < 0 || scale == o.scale);
  }
  return false;
}

DefUse defUses(const MInst& mi) {
  DefUse du;
  forEachDefUse(
      mi, [&](const Opnd& o) { du.uses.push_back(o); }, [&](const Opnd& o) { du.defs.push_back(o); },
      [&](int r) { du.clobbers.push_back(r); });
  return du;
}

// ---------------------------------------------------------------------------
// Printer

namespace {

std::string regText(int r, bool virt) {
  return virt ? "v" + std::to_string(r) : std::string(pregName(r));
}

std::string opndText(const Opnd& o) {
  switch (o.kind) {
    case Opnd::None: return "_";
    case Opnd::VReg: return "v" + std::to_string(o.reg);
    case Opnd::PReg: return pregName(o.reg);
    case Opnd::Imm: return std::to_string(o.imm);
    case Opnd::Slot: return "slot" + std::to_string(o.reg);
    case Opnd::InArg: return "inarg" + std::to_string(o.reg);
    case Opnd::Block: return "b" + std::to_string(o.reg);
    case Opnd::Sym: return o.sym.str();
    case Opnd::Mem: {
      std::string s = "[";
      bool any = false;
      if (!o.sym.empty()) {
        s += "rip + " + o.sym.str();
        any = true;
      }
      if (o.base >= 0) {
        s += (any ? " + " : "") + regText(o.base, o.baseVirt);
        any = true;
      }
      if (o.index >= 0) {
        s += (any ? " + " : "") + regText(o.index, o.indexVirt) + "*" +
             std::to_string(int(o.scale));
        any = true;
      }
      if (!any) {
        s += std::to_string(o.imm);
      } else if (o.imm > 0) {
        s += " + " + std::to_string(o.imm);
      } else if (o.imm < 0) {
        // Print the magnitude without negating INT64_MIN.
        s += " - " + std::to_string(uint64_t(0) - uint64_t(o.imm));
      }
      return s + "]";
    }
  }
  return "?";
}

std::string instText(const MInst& mi) {
  std::string s;
  switch (mi.op) {
    case MOp::Jcc: s = std::string("j") + condName(mi.cc); break;
    case MOp::Setcc: s = std::string("set") + condName(mi.cc); break;
    case MOp::Cmov: s = std::string("cmov") + condName(mi.cc); break;
    default: s = mopName(mi.op); break;
  }
  if (mi.size != 8) s += "." + std::to_string(int(mi.size));
  if (mi.op == MOp::ParMove) {
    for (size_t i = 0; i < mi.ops.size(); i += 2) {
      s += i == 0 ? " " : ", ";
      s += opndText(mi.ops[i]);
      if (i + 1 < mi.ops.size()) s += " <- " + opndText(mi.ops[i + 1]);
    }
    return s;
  }
  for (size_t i = 0; i < mi.ops.size(); ++i) s += (i == 0 ? " " : ", ") + opndText(mi.ops[i]);
  if (!mi.argRegs.empty()) {
    s += " (";
    for (size_t i = 0; i < mi.argRegs.size(); ++i)
      s += (i ? ", " : "") + std::string(pregName(mi.argRegs[i]));
    s += ")";
  }
  if (mi.noReturn) s += " noreturn";
  return s;
}

std::string escapeBytes(const std::string& b) {
  std::string s;
  for (unsigned char c : b) {
    if (c == '"' || c == '\\') {
      s += '\\';
      s += char(c);
    } else if (c >= 0x20 && c < 0x7f) {
      s += char(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      s += buf;
    }
  }
  return s;
}

}  // namespace

void insertBlocksAtEntry(MFunction& f, std::vector<MBlock> front) {
  int by = int(front.size());
  for (MBlock& b : f.blocks) {
    for (int& s : b.succs) s += by;
    for (MInst& mi : b.insts)
      for (Opnd& o : mi.ops)
        if (o.kind == Opnd::Block) o.reg += by;
  }
  f.blocks.insert(f.blocks.begin(), std::make_move_iterator(front.begin()), std::make_move_iterator(front.end()));
}

std::string print(const MFunction& f) {
  std::string s = "function " + f.name;
  if (f.global) s += " global";
  s += " slots=" + std::to_string(f.numSlots);
  if (f.outArgBytes) s += " outargs=" + std::to_string(f.outArgBytes);
  if (f.numIncomingStackArgs) s += " inargs=" + std::to_string(f.numIncomingStackArgs);
  if (!f.usedCalleeSaved.empty()) {
    s += " saves";
    for (int r : f.usedCalleeSaved) s += std::string(" ") + pregName(r);
  }
  if (f.frameSize) s += " frame=" + std::to_string(f.frameSize);
  s += "\n";
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    const MBlock& blk = f.blocks[b];
    std::string notes;
    if (blk.loopDepth) notes += " (loop depth " + std::to_string(blk.loopDepth) + ")";
    if (blk.cold) notes += " cold";
    if (!blk.succs.empty()) {
      notes += " succs";
      for (int t : blk.succs) notes += " b" + std::to_string(t);
    }
    s += "b" + std::to_string(b) + ":" + (notes.empty() ? "" : " " + notes) + "\n";
    for (const MInst& mi : blk.insts) s += "  " + instText(mi) + "\n";
  }
  return s;
}

std::string print(const MModule& m) {
  std::string s = "module " + m.sourceName + "\n";
  for (const std::string& e : m.externs) s += "extern " + e + "\n";
  for (const DataItem& d : m.rodata)
    s += "data " + d.label + " align " + std::to_string(d.align) + " \"" +
         escapeBytes(d.bytes) + "\"\n";
  for (const MFunction& f : m.funcs) s += "\n" + print(f);
  return s;
}

}  // namespace simplec::mir
