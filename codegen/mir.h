// MIR: x86-64 machine instructions after instruction selection. Before
// register allocation operands name virtual registers; after it, only
// physical registers, frame slots resolved to [rbp - k], immediates, blocks
// and symbols remain. Instructions are two-address, as x86 is: for `Add d, s`
// d is both read and written. defUses() is the single source of truth for
// which registers an instruction reads, writes and clobbers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lexer/source.h"

namespace simplec::mir {

// Physical registers numbered as x86 encodes them; XMM registers follow.
enum PReg : int8_t {
  RAX = 0, RCX, RDX, RBX, RSP, RBP, RSI, RDI,
  R8, R9, R10, R11, R12, R13, R14, R15,
  XMM0 = 16, XMM15 = 31,
  NoReg = -1,
};
const char* pregName(int r);  // "rax", ..., "xmm15"
inline bool isXmm(int r) { return r >= XMM0 && r <= XMM15; }

enum class RegClass : uint8_t { Gpr, Xmm };

// System V x86-64 facts.
extern const int kIntArgRegs[6];    // rdi rsi rdx rcx r8 r9
extern const int kCallerSaved[9];   // rax rcx rdx rsi rdi r8 r9 r10 r11
extern const int kCalleeSaved[5];   // rbx r12 r13 r14 r15 (rbp is the frame pointer)
// Never given to a value: rsp, rbp; r11 is the scratch register for
// spill reloads and parallel-move cycles.
constexpr int kScratch = R11;
constexpr int kScratch2 = R10;
// Likewise xmm15 (and xmm14) are never given to a value: they reload spilled
// xmm values and break xmm cycles in parallel moves.
constexpr int kXmmScratch = XMM15;
constexpr int kXmmScratch2 = XMM15 - 1;  // xmm14

enum class Cond : uint8_t { E, NE, L, LE, G, GE, B, BE, A, AE, P, NP };
Cond negate(Cond c);
Cond swapOperands(Cond c);  // a < b  <=>  b > a
const char* condName(Cond c);

struct Opnd {
  enum Kind : uint8_t {
    None,
    VReg,   // reg = virtual register number
    PReg,   // reg = physical register
    Imm,    // imm
    Mem,    // [base + index*scale + disp]; base/index are registers (virtual
            // when baseVirt/indexVirt) or -1; or [rip + sym + disp] when sym set
    Slot,   // reg = frame slot number (8 bytes each): a spill slot or a local
    InArg,  // reg = k: the k-th stack-passed incoming argument, [rbp + 16 + 8k]
    Block,  // reg = block index
    Sym,    // sym: a function or data symbol (call target)
  };
  Kind kind = None;
  int32_t reg = -1;
  int64_t imm = 0;          // Imm value; Mem displacement
  int32_t base = -1, index = -1;
  uint8_t scale = 1;
  bool baseVirt = false, indexVirt = false;
  std::string sym;

  static Opnd vreg(int v) { Opnd o; o.kind = VReg; o.reg = v; return o; }
  static Opnd preg(int r) { Opnd o; o.kind = PReg; o.reg = r; return o; }
  static Opnd imm64(int64_t v) { Opnd o; o.kind = Imm; o.imm = v; return o; }
  static Opnd slot(int s) { Opnd o; o.kind = Slot; o.reg = s; return o; }
  static Opnd inArg(int k) { Opnd o; o.kind = InArg; o.reg = k; return o; }
  static Opnd block(int b) { Opnd o; o.kind = Block; o.reg = b; return o; }
  static Opnd symbol(std::string s) { Opnd o; o.kind = Sym; o.sym = std::move(s); return o; }
  static Opnd memP(int base, int64_t disp) {  // [preg + disp]
    Opnd o; o.kind = Mem; o.base = base; o.imm = disp; return o;
  }
  static Opnd memV(int vbase, int64_t disp) {  // [vreg + disp]
    Opnd o; o.kind = Mem; o.base = vbase; o.baseVirt = true; o.imm = disp; return o;
  }
  static Opnd memSym(std::string s, int64_t disp = 0) {  // [rip + s + disp]
    Opnd o; o.kind = Mem; o.sym = std::move(s); o.imm = disp; return o;
  }
  bool isReg() const { return kind == VReg || kind == PReg; }
  bool operator==(const Opnd& o) const;
};

// X(name, operands): operand roles, D = written, U = read, UD = read+written.
#define SIMPLEC_MOPS(X)                                                    \
  X(Mov)      /* D, U: reg<-reg|imm|mem|slot|inarg, mem|slot<-reg|imm */   \
  X(MovZX)    /* D, U: zero-extend `size` bytes from reg|mem */            \
  X(MovSX)    /* D, U: sign-extend `size` bytes from reg|mem */            \
  X(Lea)      /* D, U(mem) */                                              \
  X(Add) X(Sub) X(And) X(Or) X(Xor) X(Imul) /* UD, U(reg|imm|mem) */      \
  X(Neg) X(Not) /* UD */                                                   \
  X(Shl) X(Sar) X(Shr) /* UD, U(imm or preg RCX) */                       \
  X(Cmp) X(Test)  /* U, U(reg|imm) ; sets flags */                         \
  X(Setcc)    /* D ; cc: dst = cond ? 1 : 0 (setcc + movzx) */             \
  X(Cmov)     /* UD, U(reg) ; cc */                                        \
  X(SDivRem)  /* U(reg) ; implicit: reads rax, writes rax (quot), rdx (rem);  \
                 MIN / -1 gives MIN, remainder 0 (expanded by the emitter) */ \
  X(SMulHi)   /* U(reg) ; implicit: reads rax, writes rdx = the high half  \
                 of the signed 128-bit rax * U, and rax = the low half */  \
  X(Jmp)      /* Block */                                                  \
  X(Jcc)      /* Block ; cc */                                             \
  X(Call)     /* Sym | U(reg) ; implicit uses: argRegs ; clobbers caller-saved */ \
  X(Ret)      /* implicit uses: rax when the function returns a value */   \
  X(ParMove)  /* D,U, D,U, ... all at once (phi resolution) */             \
  X(Push) X(Pop) /* U | D, prologue/epilogue only */                      \
  /* SSE2 scalar doubles; xmm operands, `mem` a 16-byte aligned constant */ \
  X(FAdd) X(FSub) X(FMul) X(FDiv) X(FMin) X(FMax) /* UD, U(xmm|mem) */     \
  X(FAnd) X(FXor) /* UD, U(mem): andpd/xorpd with a sign mask */           \
  X(FSqrt)    /* D, U(xmm) */                                              \
  X(Ucomisd)  /* U(xmm), U(xmm|mem) ; sets ZF PF CF, unordered sets all */ \
  X(CvtSI2SD) /* D(xmm), U(gpr) */                                         \
  X(CvtTSD2SI) /* D(gpr), U(xmm) ; out of range and NaN give INT64_MIN */  \
  X(RoundF32) /* UD(xmm): cvtsd2ss + cvtss2sd, to the nearest f32 */     \
  X(CvtSD2SS) /* UD(xmm): double to single in place (before an f32 store) */ \
  X(CvtSS2SD) /* UD(xmm): single to double in place (after an f32 load) */

enum class MOp : uint8_t {
#define X(n) n,
  SIMPLEC_MOPS(X)
#undef X
};
const char* mopName(MOp op);

struct MInst {
  MOp op;
  Cond cc = Cond::E;
  uint8_t size = 8;          // access width in bytes for memory operands / MovZX/MovSX source
  std::vector<Opnd> ops;
  std::vector<int> argRegs;  // Call: physical registers carrying arguments; Ret: result regs
  bool noReturn = false;     // Call: the callee never returns (runtime errors)
  // Source line and column the instruction comes from, for -g line tables;
  // 0 when it has none of its own (moves, spills: they belong to the line before).
  uint32_t line = 0, col = 0;

  MInst(MOp op, std::vector<Opnd> ops = {}) : op(op), ops(std::move(ops)) {}
};

// Registers an instruction reads, writes, and clobbers (physical, besides its
// written operands). Each entry is a register operand: VReg or PReg. Memory
// operands contribute their base/index registers as reads.
struct DefUse {
  std::vector<Opnd> uses;
  std::vector<Opnd> defs;
  std::vector<int> clobbers;  // physical registers destroyed (calls)
};
DefUse defUses(const MInst& mi);

// The role of operand `i` of `mi`, from the table above. A Mem operand's
// base/index registers are read whatever its role; Slot/InArg/Imm/Block/Sym
// operands name no register. defUses() is built from this.
enum class OpndRole : uint8_t { Use, Def, UseDef };
OpndRole operandRole(const MInst& mi, size_t i);

struct MBlock {
  std::vector<MInst> insts;
  std::vector<int> succs;   // successor block indices (from Jmp/Jcc and fall-through)
  int loopDepth = 0;
  bool cold = false;        // runtime-error stubs: placed last
};

struct MFunction {
  std::string name;          // symbol
  bool global = false;
  std::vector<MBlock> blocks;     // blocks[0] is the entry; the vector order is the layout order
  std::vector<RegClass> vregs;    // class of each virtual register
  int numSlots = 0;               // frame slots used before register allocation
  int outArgBytes = 0;            // space for stack-passed outgoing arguments at [rsp]
  int numIncomingStackArgs = 0;
  // Filled by register allocation / frame lowering:
  std::vector<int> usedCalleeSaved;
  int frameSize = 0;
  // The function's source position: a stack overflow is reported there.
  uint32_t line = 0, col = 0;
  SrcFile file = kMainFile;

  int newVReg(RegClass c = RegClass::Gpr) {
    vregs.push_back(c);
    return int(vregs.size()) - 1;
  }
  int newSlot() { return numSlots++; }
};

struct DataItem {
  std::string label;   // local symbol, e.g. ".Lstr3"
  std::string bytes;
  int align = 1;
};

struct MModule {
  std::string sourceName;    // for the object's file symbol
  // Data items holding the source file names (runtime errors), by SrcFile.
  std::string fileLabels[kNumSrcFiles];
  std::vector<MFunction> funcs;
  std::vector<DataItem> rodata;
  std::vector<std::string> externs;  // undefined symbols referenced
  // -g: DWARF line tables mapping code to sourceName's lines; compDir is the
  // directory a relative sourceName is found from.
  bool debugLines = false;
  std::string compDir;
};

// A deterministic text form, for --emit=mir and tests.
std::string print(const MFunction& f);
std::string print(const MModule& m);

}  // namespace simplec::mir
