// Builds the process-wide McTarget: registers LLVM's X86 MC target, creates
// the register/asm/instruction/subtarget descriptions, and resolves the
// opcode and register names the lowering needs in one scan of LLVM's tables
// (about 20k opcodes; a few milliseconds, once per process).
#include "codegen/x86_64/mc_context.h"

#include <mutex>
#include <string_view>
#include <unordered_map>

#include "llvm/Support/TargetSelect.h"

namespace simplec::x86_64 {
namespace {

constexpr const char* kTriple = "x86_64-pc-linux-gnu";
constexpr const char* kCpu = "x86-64";

constexpr const char* kOpcodeNames[kNumXOps] = {
#define X(n) #n,
    SIMPLEC_X86_OPCODES(X)
#undef X
};

// LLVM register names in x86 encoding order (the order of mir::PReg).
constexpr const char* kGpr64Names[16] = {"RAX", "RCX", "RDX", "RBX", "RSP", "RBP", "RSI", "RDI",
                                         "R8",  "R9",  "R10", "R11", "R12", "R13", "R14", "R15"};
constexpr const char* kGpr32Names[16] = {"EAX",  "ECX",  "EDX",  "EBX", "ESP",  "EBP",
                                         "ESI",  "EDI",  "R8D",  "R9D", "R10D", "R11D",
                                         "R12D", "R13D", "R14D", "R15D"};
constexpr const char* kGpr16Names[16] = {"AX",   "CX",   "DX",   "BX",  "SP",   "BP",
                                         "SI",   "DI",   "R8W",  "R9W", "R10W", "R11W",
                                         "R12W", "R13W", "R14W", "R15W"};
constexpr const char* kGpr8Names[16] = {"AL",   "CL",   "DL",   "BL",  "SPL",  "BPL",
                                        "SIL",  "DIL",  "R8B",  "R9B", "R10B", "R11B",
                                        "R12B", "R13B", "R14B", "R15B"};

// Fills `out` from a name -> slot table with one pass over LLVM's names.
// Returns the first name not found, or "" when all were.
template <typename NameOf>
std::string resolveNames(unsigned count, NameOf nameOf,
                         const std::unordered_map<std::string_view, unsigned*>& wanted) {
  size_t found = 0;
  for (unsigned i = 1; i < count && found < wanted.size(); ++i) {
    auto it = wanted.find(nameOf(i));
    if (it != wanted.end() && *it->second == 0) {
      *it->second = i;
      ++found;
    }
  }
  for (auto& [name, slot] : wanted)
    if (*slot == 0) return std::string(name);
  return "";
}

std::unique_ptr<McTarget> build(std::string* err) {
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86TargetMC();

  auto t = std::make_unique<McTarget>();
  t->triple = llvm::Triple(kTriple);
  std::string lookupErr;
  t->target = llvm::TargetRegistry::lookupTarget(kTriple, lookupErr);
  if (!t->target) {
    *err = "LLVM X86 target unavailable: " + lookupErr;
    return nullptr;
  }
  t->regInfo.reset(t->target->createMCRegInfo(kTriple));
  if (t->regInfo) t->asmInfo.reset(t->target->createMCAsmInfo(*t->regInfo, kTriple, t->options));
  t->instrInfo.reset(t->target->createMCInstrInfo());
  t->subtarget.reset(t->target->createMCSubtargetInfo(kTriple, kCpu, ""));
  if (!t->regInfo || !t->asmInfo || !t->instrInfo || !t->subtarget) {
    *err = "LLVM X86 target: cannot create the MC descriptions";
    return nullptr;
  }

  std::unordered_map<std::string_view, unsigned*> ops;
  for (int i = 0; i < kNumXOps; ++i) ops[kOpcodeNames[i]] = &t->opcodes[i];
  const llvm::MCInstrInfo& mii = *t->instrInfo;
  std::string missing = resolveNames(
      mii.getNumOpcodes(), [&](unsigned i) { return std::string_view(mii.getName(i)); }, ops);
  if (!missing.empty()) {
    *err = "LLVM X86 target has no opcode named " + missing;
    return nullptr;
  }

  std::unordered_map<std::string_view, unsigned*> regs;
  for (int i = 0; i < 16; ++i) {
    regs[kGpr64Names[i]] = &t->gpr64[i];
    regs[kGpr32Names[i]] = &t->gpr32[i];
    regs[kGpr16Names[i]] = &t->gpr16[i];
    regs[kGpr8Names[i]] = &t->gpr8[i];
  }
  static const std::string kXmmNames[16] = {"XMM0",  "XMM1",  "XMM2",  "XMM3", "XMM4",  "XMM5",
                                            "XMM6",  "XMM7",  "XMM8",  "XMM9", "XMM10", "XMM11",
                                            "XMM12", "XMM13", "XMM14", "XMM15"};
  for (int i = 0; i < 16; ++i) regs[kXmmNames[i]] = &t->xmm[i];
  regs["RIP"] = &t->rip;
  const llvm::MCRegisterInfo& mri = *t->regInfo;
  missing = resolveNames(
      mri.getNumRegs(), [&](unsigned i) { return std::string_view(mri.getName(i)); }, regs);
  if (!missing.empty()) {
    *err = "LLVM X86 target has no register named " + missing;
    return nullptr;
  }
  return t;
}

}  // namespace

unsigned McTarget::reg(int preg, int width) const {
  if (preg >= 16 && preg < 32) return xmm[preg - 16];
  if (preg < 0 || preg >= 16) return 0;
  switch (width) {
    case 8: return gpr64[preg];
    case 4: return gpr32[preg];
    case 2: return gpr16[preg];
    case 1: return gpr8[preg];
    default: return 0;
  }
}

const McTarget* McTarget::get(std::string* err) {
  // Built once; a failure is remembered too, with its message.
  static std::once_flag once;
  static std::unique_ptr<McTarget> instance;
  static std::string buildErr;
  std::call_once(once, [] { instance = build(&buildErr); });
  if (!instance && err) *err = buildErr;
  return instance.get();
}

}  // namespace simplec::x86_64
