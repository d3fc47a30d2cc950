// -g: LEB128, register numbers and location expressions (dwarf_encoding.h).
#include "codegen/x86_64/dwarf_encoding.h"

#include "llvm/BinaryFormat/Dwarf.h"

namespace simplec::x86_64 {

void appendULEB(std::vector<uint8_t>& out, uint64_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    out.push_back(uint8_t(b | (v ? 0x80 : 0)));
  } while (v);
}

void appendSLEB(std::vector<uint8_t>& out, int64_t v) {
  for (;;) {
    uint8_t b = uint8_t(v & 0x7f);
    v >>= 7;  // arithmetic: keeps the sign
    bool done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
    out.push_back(uint8_t(b | (done ? 0 : 0x80)));
    if (done) return;
  }
}

unsigned ulebSize(uint64_t v) {
  std::vector<uint8_t> b;
  appendULEB(b, v);
  return unsigned(b.size());
}

unsigned slebSize(int64_t v) {
  std::vector<uint8_t> b;
  appendSLEB(b, v);
  return unsigned(b.size());
}

unsigned dwarfRegister(int preg) {
  // mir::PReg order is the x86 encoding: rax rcx rdx rbx rsp rbp rsi rdi.
  static const unsigned kLow[8] = {0, 2, 1, 3, 7, 6, 4, 5};
  if (preg >= 0 && preg < 8) return kLow[preg];
  if (preg < 16) return unsigned(preg);  // r8-r15
  return unsigned(preg - 16 + 17);       // xmm0-15
}

std::vector<uint8_t> placeExpression(const DebugPlace& p) {
  std::vector<uint8_t> e;
  if (p.isConst) {  // the value itself, not a place (DWARF 4 stack value)
    e.push_back(llvm::dwarf::DW_OP_consts);
    appendSLEB(e, p.bits);
    e.push_back(llvm::dwarf::DW_OP_stack_value);
    return e;
  }
  if (p.reg >= 0) {
    unsigned r = dwarfRegister(p.reg);
    if (r < 32) {
      e.push_back(uint8_t(llvm::dwarf::DW_OP_reg0 + r));
    } else {
      e.push_back(llvm::dwarf::DW_OP_regx);
      appendULEB(e, r);
    }
    return e;
  }
  e.push_back(llvm::dwarf::DW_OP_fbreg);
  appendSLEB(e, p.disp);
  return e;
}

}  // namespace simplec::x86_64
