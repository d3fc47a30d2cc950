// MIR: x86-64 machine instructions after instruction selection. Before
// register allocation operands name virtual registers; after it, only
// physical registers, frame slots resolved to [rbp - k], immediates, blocks
// and symbols remain. Instructions are two-address, as x86 is: for `Add d, s`
// d is both read and written. forEachDefUse() is the single source of truth
// for which registers an instruction reads, writes and clobbers.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "son/small_vec.h"
#include "codegen/symbol.h"
#include "lexer/source.h"
#include "son/debug_info.h"

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

// Vec: two doubles filling an xmm register (16 bytes when spilled).
enum class RegClass : uint8_t { Gpr, Xmm, Vec };
inline bool inXmm(RegClass c) { return c != RegClass::Gpr; }

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

// 32 bytes and trivially copyable: instructions hold their operands inline.
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
  int64_t imm = 0;          // Imm value; Mem displacement
  int32_t reg = -1;
  int32_t base = -1, index = -1;
  Symbol sym;
  Kind kind = None;
  uint8_t scale = 1;
  bool baseVirt = false, indexVirt = false;

  static Opnd vreg(int v) { Opnd o; o.kind = VReg; o.reg = v; return o; }
  static Opnd preg(int r) { Opnd o; o.kind = PReg; o.reg = r; return o; }
  static Opnd imm64(int64_t v) { Opnd o; o.kind = Imm; o.imm = v; return o; }
  static Opnd slot(int s) { Opnd o; o.kind = Slot; o.reg = s; return o; }
  static Opnd inArg(int k) { Opnd o; o.kind = InArg; o.reg = k; return o; }
  static Opnd block(int b) { Opnd o; o.kind = Block; o.reg = b; return o; }
  static Opnd symbol(Symbol s) { Opnd o; o.kind = Sym; o.sym = s; return o; }
  static Opnd symbol(std::string_view s) { return symbol(Symbol(s)); }
  static Opnd memP(int base, int64_t disp) {  // [preg + disp]
    Opnd o; o.kind = Mem; o.base = base; o.imm = disp; return o;
  }
  static Opnd memV(int vbase, int64_t disp) {  // [vreg + disp]
    Opnd o; o.kind = Mem; o.base = vbase; o.baseVirt = true; o.imm = disp; return o;
  }
  static Opnd memSym(Symbol s, int64_t disp = 0) {  // [rip + s + disp]
    Opnd o; o.kind = Mem; o.sym = s; o.imm = disp; return o;
  }
  static Opnd memSym(std::string_view s, int64_t disp = 0) { return memSym(Symbol(s), disp); }
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
              /* Imul also D, U(reg), Imm: d = s * imm, after register     \
                 allocation only (mir_peephole.h) */                       \
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
  X(JmpTable) /* U(reg), Imm lo, Imm table, U(base) or None, Block      \
                 default, Block case lo, lo+1, ... (JumpTableOpnd): jump   \
                 to case reg when lo <= reg < lo + #cases, else to default; \
                 clobbers r11, the flags, and r10 when it has no base      \
                 (jump_tables.h) */                                        \
  X(TableAddr) /* D, Imm table: the address of the function's jump table  \
                  `table`, for a JmpTable's base (table_base.h) */         \
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
  X(CvtSS2SD) /* UD(xmm): single to double in place (after an f32 load) */ \
  /* SSE2 packed doubles, two lanes; a Mov of size 16 moves both (movupd) */ \
  X(VAdd) X(VSub) X(VMul) X(VDiv) X(VMin) X(VMax) /* UD, U(xmm) */         \
  X(VSqrt)    /* D, U(xmm): sqrtpd */                                      \
  X(VSplat)   /* UD(xmm): lane 0 copied to lane 1 (unpcklpd) */

enum class MOp : uint8_t {
#define X(n) n,
  SIMPLEC_MOPS(X)
#undef X
};
const char* mopName(MOp op);

// The operands of a JmpTable, by position. Its table is numbered within the
// function; a TableAddr with that number may load the table's address into
// the base register ahead of the jump, out of the jump's loop.
namespace JumpTableOpnd {
constexpr size_t kValue = 0;      // the register switched on
constexpr size_t kLo = 1;         // Imm: the key of the first case
constexpr size_t kTable = 2;      // Imm: the table's number in the function
constexpr size_t kBase = 3;       // PReg holding the table's address, or None
constexpr size_t kDefault = 4;    // Block: where other values go
constexpr size_t kFirstCase = 5;  // Block per key lo, lo + 1, ...
}  // namespace JumpTableOpnd

// Operands of one instruction: inline up to two (every instruction but a
// ParMove), on the heap beyond.
using Opnds = SmallVec<Opnd, 2>;
// Physical registers carrying a call's arguments (at most 6 + 8) or a
// return's result.
using RegList = SmallVec<int8_t, 14>;

struct MInst {
  MOp op;
  Cond cc = Cond::E;
  uint8_t size = 8;          // access width in bytes for memory operands / MovZX/MovSX source
  bool noReturn = false;     // Call: the callee never returns (runtime errors)
  // Source line and column the instruction comes from, for -g line tables;
  // 0 when it has none of its own (moves, spills: they belong to the line before).
  uint32_t line = 0, col = 0;
  // -g: with a line, the inlined call its code came from (SrcPos::site, an
  // index into MModule::inlinedCalls), -1 for the function's own code.
  int32_t site = -1;
  // Call: index into MFunction::callChains of the source frames this call
  // site stands for (runtime error traces), -1 for none.
  int32_t chain = -1;
  // -g: right after it, the register or frame slot of operand 0 (or
  // register dbgReg when >= 0) holds debug value dbgValue - 1 of its
  // function (0: no such fact).
  uint32_t dbgValue = 0;
  int8_t dbgReg = -1;
  RegList argRegs;           // Call: physical registers carrying arguments; Ret: result regs
  Opnds ops;

  explicit MInst(MOp op) : op(op) {}
  MInst(MOp op, std::initializer_list<Opnd> ops) : op(op), ops(ops) {}
  MInst(MOp op, const std::vector<Opnd>& ops) : op(op), ops(ops.begin(), ops.end()) {}
};

// Calls use(const Opnd&) for each register an instruction reads, def(const
// Opnd&) for each it writes (VReg or PReg operands), and clobber(int) for
// each physical register it destroys besides those (calls): operand by
// operand, then the implicit ones. Memory operands contribute their
// base/index registers as reads. The instruction reads everything before it
// writes anything, so a pass that cares about that order walks twice (reads,
// then writes). This is the single place that knows implicit operands; it
// allocates nothing, so passes call it per instruction as often as they like.
template <typename Use, typename Def, typename Clobber>
void forEachDefUse(const MInst& mi, Use&& use, Def&& def, Clobber&& clobber);

// The same as lists, for tests and for code that is not hot.
struct DefUse {
  std::vector<Opnd> uses;
  std::vector<Opnd> defs;
  std::vector<int> clobbers;  // physical registers destroyed (calls)
};
DefUse defUses(const MInst& mi);

// The role of operand `i` of `mi`, from the table above. A Mem operand's
// base/index registers are read whatever its role; Slot/InArg/Imm/Block/Sym
// operands name no register. forEachDefUse() is built from this.
enum class OpndRole : uint8_t { Use, Def, UseDef };
inline OpndRole operandRole(MOp op, size_t i) {
  switch (op) {
    case MOp::Mov:
    case MOp::MovZX:
    case MOp::MovSX:
    case MOp::Lea:
    case MOp::TableAddr:
    case MOp::Setcc:
    case MOp::Pop:
    case MOp::FSqrt:
    case MOp::VSqrt:
    case MOp::CvtSI2SD:
    case MOp::CvtTSD2SI:
      return i == 0 ? OpndRole::Def : OpndRole::Use;
    case MOp::Add:
    case MOp::Sub:
    case MOp::And:
    case MOp::Or:
    case MOp::Xor:
    case MOp::Imul:
    case MOp::Neg:
    case MOp::Not:
    case MOp::Shl:
    case MOp::Sar:
    case MOp::Shr:
    case MOp::Cmov:
    case MOp::FAdd:
    case MOp::FSub:
    case MOp::FMul:
    case MOp::FDiv:
    case MOp::FMin:
    case MOp::FMax:
    case MOp::FAnd:
    case MOp::FXor:
    case MOp::RoundF32:
    case MOp::CvtSD2SS:
    case MOp::CvtSS2SD:
    case MOp::VAdd:
    case MOp::VSub:
    case MOp::VMul:
    case MOp::VDiv:
    case MOp::VMin:
    case MOp::VMax:
    case MOp::VSplat:
      return i == 0 ? OpndRole::UseDef : OpndRole::Use;
    case MOp::ParMove:
      return i % 2 == 0 ? OpndRole::Def : OpndRole::Use;
    default:  // Cmp, Test, SDivRem, SMulHi, Jmp, Jcc, Call, Ret, Push
      return OpndRole::Use;
  }
}

inline OpndRole operandRole(const MInst& mi, size_t i) {
  // The three-operand imul writes its destination without reading it.
  if (mi.op == MOp::Imul && mi.ops.size() == 3) return i == 0 ? OpndRole::Def : OpndRole::Use;
  return operandRole(mi.op, i);
}

template <typename Use, typename Def, typename Clobber>
void forEachDefUse(const MInst& mi, Use&& use, Def&& def, Clobber&& clobber) {
  for (size_t i = 0; i < mi.ops.size(); ++i) {
    const Opnd& o = mi.ops[i];
    if (o.kind == Opnd::VReg || o.kind == Opnd::PReg) {
      OpndRole role = operandRole(mi, i);
      if (role != OpndRole::Def) use(o);
      if (role != OpndRole::Use) def(o);
    } else if (o.kind == Opnd::Mem) {
      if (o.base >= 0) use(o.baseVirt ? Opnd::vreg(o.base) : Opnd::preg(o.base));
      if (o.index >= 0) use(o.indexVirt ? Opnd::vreg(o.index) : Opnd::preg(o.index));
    }
  }
  switch (mi.op) {
    case MOp::SDivRem:
    case MOp::SMulHi:
      use(Opnd::preg(RAX));
      def(Opnd::preg(RAX));
      def(Opnd::preg(RDX));
      break;
    case MOp::Call:
      for (int r : mi.argRegs) use(Opnd::preg(r));
      for (int r : kCallerSaved) clobber(r);
      for (int r = XMM0; r <= XMM15; ++r) clobber(r);
      break;
    case MOp::Ret:
      for (int r : mi.argRegs) use(Opnd::preg(r));
      break;
    case MOp::JmpTable:
      clobber(kScratch);
      // Without a base register the jump loads the table's address into r10.
      if (mi.ops.size() <= JumpTableOpnd::kBase || mi.ops[JumpTableOpnd::kBase].kind == Opnd::None)
        clobber(kScratch2);
      break;
    default:
      break;
  }
}

// The blocks a jump may go to: the target of a Jmp or Jcc, the default and
// cases of a JmpTable; fn(int&) may rewrite them.
template <typename Fn>
void forEachJumpTarget(MInst& mi, Fn&& fn) {
  if (mi.op != MOp::Jmp && mi.op != MOp::Jcc && mi.op != MOp::JmpTable) return;
  for (Opnd& o : mi.ops)
    if (o.kind == Opnd::Block) fn(o.reg);
}
template <typename Fn>
void forEachJumpTarget(const MInst& mi, Fn&& fn) {
  if (mi.op != MOp::Jmp && mi.op != MOp::Jcc && mi.op != MOp::JmpTable) return;
  for (const Opnd& o : mi.ops)
    if (o.kind == Opnd::Block) fn(int(o.reg));
}
// Does control never go on to the next instruction (or block) after mi?
inline bool endsControl(const MInst& mi) {
  return mi.op == MOp::Jmp || mi.op == MOp::JmpTable || mi.op == MOp::Ret ||
         (mi.op == MOp::Call && mi.noReturn);
}

// One source frame of a call site: the function (its source name) and the
// position in it, innermost (inlined) first; library frames are left out.
struct ChainFrame {
  std::string fun;
  SrcFile file = kMainFile;
  uint32_t line = 0, col = 0;
};
struct CallChain {
  std::vector<ChainFrame> frames;
  bool reachesEntry = false;  // the outermost frame is the program's main
};

// -g: a call the inliner replaced by a copy of the callee's body
// (son/inline_site.h), as the debug information shows it. Indexed like
// Unit::inlineSites; a site only points to sites made before it.
struct InlinedCall {
  // The nearest call on this one's chain (itself included) whose callee
  // has a frame of its own in the debugger (-1: none, the function's own
  // code). Sys library code has none: like runtime traces, it belongs to
  // the frame that called it.
  int32_t frame = -1;
  // When frame == this call: the frame it is inlined into (-1: the
  // function's own), the callee and where it is called in the main file.
  int32_t parent = -1;
  int32_t callee = -1;         // index into MModule::inlinedFunctions
  uint32_t line = 0, col = 0;  // the call (0: not in the main file)
};
// -g: a function with a frame that is inlined somewhere: the abstract
// DW_TAG_subprogram its inlined copies point at.
struct InlinedFunction {
  std::string symbol;
  uint32_t declLine = 0;         // in the main file (0: none)
  std::vector<DebugVar> params;  // in order
};

// -g: variable `var` (an index into MFunction::debugVars) takes a new value
// in the block that lists this: once the code passes source position
// passAt (invalid: at the block's start), as the instructions' positions
// tell; bindings fire in seq order.
struct DebugAssign {
  enum Kind : uint8_t {
    Ready,    // debug value `value` is computed before the block starts
    AtDef,    // it is computed by an instruction (MInst::dbgValue) on the way
    Const,    // the new value is the constant constBits
    Gone,     // no code computes the new value
  };
  int var = -1;
  Kind kind = Gone;
  int value = -1;
  int64_t constBits = 0;
  uint32_t seq = 0;
  SrcPos passAt;
};

struct MBlock {
  std::vector<MInst> insts;
  std::vector<int> succs;   // successor block indices (from Jmp/Jcc and fall-through)
  int loopDepth = 0;
  bool cold = false;        // runtime-error stubs: placed last
  // -g: (location, debug value) pairs that hold when the block starts (the
  // Phis it merges): a vreg before register allocation, then
  // DebugLoc::encode of the register or frame slot.
  std::vector<std::pair<int, int>> dbgEntry;
  // -g: the assignments to reassigned variables made in this block's part
  // of the source (codegen/debug_versions.h).
  std::vector<DebugAssign> dbgAssigns;
  // -g: branch duplication appended a copy of another block's compare and
  // branch, from instruction dbgTailAt on (-1: none); that block's entry
  // facts hold where the copy starts.
  int dbgTailAt = -1;
  std::vector<std::pair<int, int>> dbgTailEntry;
  std::vector<DebugAssign> dbgTailAssigns;
};

// -g facts attached to the block (its entry values, assignments, a copied
// branch's facts): code moved into or out of it would misplace them.
inline bool hasDebugFacts(const MBlock& b) {
  return !b.dbgEntry.empty() || !b.dbgAssigns.empty() || b.dbgTailAt >= 0;
}

// -g: a variable with what code generation knows of its value.
struct DebugVarLoc {
  DebugVar var;
  int value = -1;        // the debug value whose locations it takes (-1: none)
  int value2 = -1;       // where `value` has none: a narrow parameter's register as passed
  bool isConst = false;  // or it is this constant everywhere
  int64_t constBits = 0; // integer value, or the bits of a double
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
  // The block that starts with the prologue's stack probe: 0, or 2 after
  // wrapEarlyReturn (codegen/early_return.h) put a copy of a return first.
  int probeBlock = 0;
  // The function's source position: a stack overflow is reported there.
  uint32_t line = 0, col = 0;
  SrcFile file = kMainFile;
  // The call chains of this function's call sites (MInst::chain).
  std::vector<CallChain> callChains;
  std::vector<DebugVarLoc> debugVars;  // -g
  int numDebugValues = 0;              // -g: ids used by MInst::dbgValue
  // -g: (register, debug value) on entry: parameters in their registers.
  std::vector<std::pair<int, int>> dbgAtEntry;
  // -g: (k, debug value): incoming stack argument k, once rbp is set up.
  std::vector<std::pair<int, int>> dbgInArgs;
  // -g: (inline site, the position of its outermost call in this function),
  // sorted by site: where the source stands while inlined code runs.
  std::vector<std::pair<int32_t, SrcPos>> dbgSiteCalls;

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
  // -g: variables and their types (.debug_info) in objects.
  bool debugVars = false;
  // -O0: objects get every jump in its long form (rel32) as it is
  // encoded, instead of the short one where the target turns out near. The
  // assembler then has no jumps to relax at the end, after the last function
  // (measured: 0.19 -> 0.07 s of 1 s for 50k lines, on one thread), for
  // about 2% more code.
  bool longJumps = false;
  std::vector<DebugType> debugTypes;
  std::vector<InlinedCall> inlinedCalls;  // -g: by MInst::site
  std::vector<InlinedFunction> inlinedFunctions;
};

// A deterministic text form, for --emit=mir and tests.
std::string print(const MFunction& f);

// Puts `front` before f's blocks (the entry becomes front[0]). The blocks
// already there are renumbered, their jumps and succs with them; `front`'s
// own jumps and succs already use the new numbers.
void insertBlocksAtEntry(MFunction& f, std::vector<MBlock> front);
std::string print(const MModule& m);

}  // namespace simplec::mir
