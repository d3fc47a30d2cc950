// McTarget: the LLVM MC description of x86-64 (triple x86_64-pc-linux-gnu,
// cpu x86-64), created once per process, plus opcode and register numbers
// looked up by NAME (LLVM does not install its generated X86 enums).
// Invariant: once get() returned non-null, every XOp and every register
// table entry holds a valid LLVM number, and the object is immutable (safe
// to share between threads). Only codegen/x86_64/*.cpp include this header.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

namespace simplec::x86_64 {

// Every LLVM X86 opcode the lowering uses, by its TableGen name.
// clang-format off
#define SIMPLEC_X86_OPCODES(X)                                                       \
  X(MOV64rr) X(MOV32rr) X(MOV32ri) X(MOV64ri32) X(MOV64ri)                           \
  X(MOV64rm) X(MOV32rm) X(MOV16rm) X(MOV8rm)                                         \
  X(MOV64mr) X(MOV32mr) X(MOV16mr) X(MOV8mr)                                         \
  X(MOV64mi32) X(MOV32mi) X(MOV16mi) X(MOV8mi)                                       \
  X(MOVZX32rr8) X(MOVZX32rm8) X(MOVZX32rr16) X(MOVZX32rm16)                          \
  X(MOVSX64rr8) X(MOVSX64rm8) X(MOVSX64rr16) X(MOVSX64rm16)                          \
  X(MOVSX64rr32) X(MOVSX64rm32)                                                      \
  X(LEA64r)                                                                          \
  X(ADD64rr) X(ADD64ri8) X(ADD64ri32) X(ADD64i32) X(ADD64rm)                         \
  X(SUB64rr) X(SUB64ri8) X(SUB64ri32) X(SUB64i32) X(SUB64rm)                         \
  X(AND64rr) X(AND64ri8) X(AND64ri32) X(AND64i32) X(AND64rm)                         \
  X(OR64rr) X(OR64ri8) X(OR64ri32) X(OR64i32) X(OR64rm)                              \
  X(XOR64rr) X(XOR64ri8) X(XOR64ri32) X(XOR64i32) X(XOR64rm) X(XOR32rr)              \
  X(IMUL64rr) X(IMUL64rri8) X(IMUL64rri32) X(IMUL64rm)                               \
  X(NEG64r) X(NOT64r)                                                                \
  X(SHL64ri) X(SHL64r1) X(SHL64rCL) X(SAR64ri) X(SAR64r1) X(SAR64rCL)                \
  X(SHR64ri) X(SHR64r1) X(SHR64rCL)                                                  \
  X(CMP64rr) X(CMP64ri8) X(CMP64ri32) X(CMP64i32) X(CMP64rm)                         \
  X(TEST64rr) X(TEST64ri32) X(TEST64i32)                                             \
  X(SETCCr) X(CMOV64rr)                                                              \
  X(CQO) X(IDIV64r) X(IMUL64r)                                                       \
  X(JMP_1) X(JMP64r) X(JCC_1) X(CALL64pcrel32) X(CALL64r) X(RET64)                             \
  X(PUSH64r) X(POP64r)                                                               \
  X(MOVAPSrr) X(MOVSDrm) X(MOVSDmr) X(MOVSSrm) X(MOVSSmr)                            \
  X(MOVPQIto64rr) X(MOV64toPQIrr)                                                    \
  X(ADDSDrr) X(ADDSDrm) X(SUBSDrr) X(SUBSDrm) X(MULSDrr) X(MULSDrm)                  \
  X(DIVSDrr) X(DIVSDrm) X(MINSDrr) X(MINSDrm) X(MAXSDrr) X(MAXSDrm)                  \
  X(ANDPDrm) X(XORPDrm) X(SQRTSDr) X(UCOMISDrr) X(UCOMISDrm)                         \
  X(CVTSI642SDrr) X(CVTTSD2SI64rr) X(CVTSD2SSrr) X(CVTSS2SDrr)                     \
  X(MOVUPDrm) X(MOVUPDmr) X(ADDPDrr) X(SUBPDrr) X(MULPDrr) X(DIVPDrr) X(UNPCKLPDrr)  \
  X(MINPDrr) X(MAXPDrr) X(SQRTPDr)
// clang-format on

enum class XOp : uint16_t {
#define X(n) n,
  SIMPLEC_X86_OPCODES(X)
#undef X
      kCount
};
constexpr int kNumXOps = int(XOp::kCount);

// X86 condition-code immediates as the LLVM 19 printer and encoder use them.
enum class X86Cond : uint8_t {
  O = 0,
  NO = 1,
  B = 2,
  AE = 3,
  E = 4,
  NE = 5,
  BE = 6,
  A = 7,
  S = 8,
  NS = 9,
  P = 10,
  NP = 11,
  L = 12,
  GE = 13,
  LE = 14,
  G = 15,
};

struct McTarget {
  const llvm::Target* target = nullptr;
  llvm::Triple triple;
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> regInfo;
  std::unique_ptr<llvm::MCAsmInfo> asmInfo;
  std::unique_ptr<llvm::MCInstrInfo> instrInfo;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;

  unsigned opcodes[kNumXOps] = {};
  // Indexed by mir::PReg 0..15 (x86 encoding order) / XMM number 0..15.
  unsigned gpr64[16] = {}, gpr32[16] = {}, gpr16[16] = {}, gpr8[16] = {};
  unsigned xmm[16] = {};
  unsigned rip = 0;

  unsigned op(XOp o) const { return opcodes[int(o)]; }
  // The register named by a mir physical register number at `width` bytes
  // (8, 4, 2, 1; XMM registers ignore the width). 0 if there is none.
  unsigned reg(int preg, int width = 8) const;

  // The process-wide instance; built on first use. Returns nullptr and sets
  // *err when the X86 target or a looked-up name is missing.
  static const McTarget* get(std::string* err);
};

}  // namespace simplec::x86_64
