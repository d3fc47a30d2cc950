// The MIR test interpreter (see mir_interp.h). Memory is one flat byte array:
// the heap buffer, the pre-lowering slot area, and the stack at the top.
// Flags are only valid right after Cmp/Test; any other arithmetic poisons
// them, so code that relies on flags across an inserted instruction fails.
#include "test/unit/codegen/mir_interp.h"

#include <cstring>
#include <stdexcept>

namespace simplec::test {

using namespace mir;

namespace {

constexpr int64_t kMemBase = kHeapAddr;
constexpr int64_t kMemSize = 1 << 20;
constexpr int64_t kSlotArea = kMemBase + 0x8000;   // pre-lowering Slot k
constexpr int64_t kEntryRsp = kMemBase + kMemSize - 0x1008;  // = 8 mod 16
constexpr int64_t kReturnSentinel = 0x5e5e5e5e12345678;

struct Fail : std::runtime_error {
  using std::runtime_error::runtime_error;
};

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class Machine {
 public:
  Machine(const MFunction& f, const InterpConfig& cfg)
      : f_(f), cfg_(cfg), mem_(size_t(kMemSize), 0), vregs_(f.vregs.size(), 0),
        defined_(f.vregs.size(), false) {}

  InterpResult run();

 private:
  uint64_t garbage() { return mix(cfg_.seed * 1000003 + ++garbageCount_); }
  // A jump table's address: a value no computation makes by chance.
  static uint64_t tableAddress(int64_t table) { return 0x7ab1e5000000ull + uint64_t(table); }

  void check(bool cond, const std::string& msg) {
    if (!cond) throw Fail(msg);
  }
  uint64_t load(int64_t addr, int size) {
    check(addr >= kMemBase && addr + size <= kMemBase + kMemSize, "load out of bounds");
    uint64_t v = 0;
    std::memcpy(&v, &mem_[size_t(addr - kMemBase)], size_t(size));
    return v;
  }
  void store(int64_t addr, uint64_t v, int size) {
    check(addr >= kMemBase && addr + size <= kMemBase + kMemSize, "store out of bounds");
    std::memcpy(&mem_[size_t(addr - kMemBase)], &v, size_t(size));
  }
  uint64_t regValue(int r, bool virt) {
    if (virt) {
      check(r >= 0 && r < int(vregs_.size()), "vreg out of range");
      check(defined_[size_t(r)], "read of undefined v" + std::to_string(r));
      return vregs_[size_t(r)];
    }
    check(r >= 0 && r < 32, "preg out of range");
    return pregs_[r];
  }
  int64_t address(const Opnd& o) {
    switch (o.kind) {
      case Opnd::Mem: {
        check(o.sym.empty(), "symbols are not supported");
        uint64_t a = uint64_t(o.imm);
        if (o.base >= 0) a += regValue(o.base, o.baseVirt);
        if (o.index >= 0) a += regValue(o.index, o.indexVirt) * o.scale;
        return int64_t(a);
      }
      case Opnd::Slot:
        check(!cfg_.lowered, "slot operand after frame lowering");
        check(o.reg >= 0 && o.reg < 1024, "slot out of range");
        return kSlotArea + 8 * int64_t(o.reg);
      case Opnd::InArg:
        check(!cfg_.lowered, "inarg operand after frame lowering");
        return kEntryRsp + 8 + 8 * int64_t(o.reg);
      default:
        throw Fail("not a memory operand");
    }
  }
  bool isMemLike(const Opnd& o) {
    return o.kind == Opnd::Mem || o.kind == Opnd::Slot || o.kind == Opnd::InArg;
  }
  uint64_t read(const Opnd& o, int size = 8) {
    switch (o.kind) {
      case Opnd::VReg: return regValue(o.reg, true);
      case Opnd::PReg: return regValue(o.reg, false);
      case Opnd::Imm: return uint64_t(o.imm);
      case Opnd::Mem: case Opnd::Slot: case Opnd::InArg: return load(address(o), size);
      default: throw Fail("operand cannot be read");
    }
  }
  void write(const Opnd& o, uint64_t v, int size = 8) {
    switch (o.kind) {
      case Opnd::VReg:
        check(o.reg >= 0 && o.reg < int(vregs_.size()), "vreg out of range");
        check(!cfg_.lowered, "vreg after lowering");
        vregs_[size_t(o.reg)] = v;
        defined_[size_t(o.reg)] = true;
        return;
      case Opnd::PReg:
        check(o.reg >= 0 && o.reg < 32, "preg out of range");
        pregs_[o.reg] = v;
        return;
      case Opnd::Mem: case Opnd::Slot: case Opnd::InArg: store(address(o), v, size); return;
      default: throw Fail("operand cannot be written");
    }
  }
  bool cond(Cond c) {
    check(flagsValid_, "flags read but not set by cmp/test");
    switch (c) {
      case Cond::E: return zf_;
      case Cond::NE: return !zf_;
      case Cond::L: return sf_ != of_;
      case Cond::LE: return zf_ || sf_ != of_;
      case Cond::G: return !zf_ && sf_ == of_;
      case Cond::GE: return sf_ == of_;
      case Cond::B: return cf_;
      case Cond::BE: return cf_ || zf_;
      case Cond::A: return !cf_ && !zf_;
      case Cond::AE: return !cf_;
      case Cond::P: case Cond::NP: throw Fail("the parity flag (float compares) is not modelled");
    }
    return false;
  }
  void doCall(const MInst& mi, InterpResult& res);
  // Executes one instruction; returns the next block to jump to, -1 to go
  // on, -2 at Ret.
  int step(const MInst& mi, InterpResult& res);

  const MFunction& f_;
  const InterpConfig& cfg_;
  std::vector<uint8_t> mem_;
  std::vector<uint64_t> vregs_;
  std::vector<bool> defined_;
  uint64_t pregs_[32] = {};
  bool flagsValid_ = false, zf_ = false, sf_ = false, of_ = false, cf_ = false;
  uint64_t garbageCount_ = 0;
};

void Machine::doCall(const MInst& mi, InterpResult& res) {
  check(!mi.ops.empty(), "call without target");
  std::string name;
  if (mi.ops[0].kind == Opnd::Sym) {
    name = mi.ops[0].sym.str();
  } else {
    name = "indirect@" + std::to_string(int64_t(read(mi.ops[0])));
  }
  uint64_t rsp = pregs_[RSP];
  if (cfg_.lowered) check(rsp % 16 == 0, "rsp not 16-byte aligned at call to " + name);
  std::vector<int64_t> args;
  for (int r : mi.argRegs) args.push_back(int64_t(regValue(r, false)));
  auto it = cfg_.callees.find(name);
  int stackArgs = it == cfg_.callees.end() ? 0 : it->second.stackArgs;
  for (int k = 0; k < stackArgs; ++k) args.push_back(int64_t(load(int64_t(rsp) + 8 * k, 8)));
  int64_t result;
  if (it != cfg_.callees.end() && it->second.fn) {
    result = it->second.fn(args);
  } else {
    uint64_t h = mix(name.size());
    for (char c : name) h = mix(h ^ uint64_t(c));
    for (int64_t a : args) h = mix(h ^ uint64_t(a));
    result = int64_t(h % 1000);
  }
  std::string text = name + "(";
  for (size_t i = 0; i < args.size(); ++i) text += (i ? ", " : "") + std::to_string(args[i]);
  res.calls.push_back(text + ") = " + std::to_string(result));
  check(!mi.noReturn, "no-return call to " + name);
  // The callee's frame (return address included) overwrites what lies below rsp.
  for (int64_t a = int64_t(rsp) - 256; a < int64_t(rsp); a += 8) store(a, garbage(), 8);
  for (int r : kCallerSaved) pregs_[r] = garbage();
  for (int r = XMM0; r <= XMM15; ++r) pregs_[r] = garbage();
  pregs_[RAX] = uint64_t(result);
  flagsValid_ = false;
}

int Machine::step(const MInst& mi, InterpResult& res) {
  auto need = [&](size_t n) {
    check(mi.ops.size() == n, std::string("bad operand count for ") + mopName(mi.op));
  };
  switch (mi.op) {
    case MOp::Mov: {
      need(2);
      bool memSrc = isMemLike(mi.ops[1]);
      bool memDst = isMemLike(mi.ops[0]);
      check(!(memSrc && memDst), "mov with two memory operands");
      check(mi.size == 1 || mi.size == 2 || mi.size == 4 || mi.size == 8, "bad mov size");
      uint64_t v = read(mi.ops[1], memSrc ? mi.size : 8);
      if (memSrc && mi.size < 8) {
        // As x86: a 32-bit load zero-extends, 8/16-bit loads keep the rest.
        uint64_t mask = (uint64_t(1) << (8 * mi.size)) - 1;
        v &= mask;
        if (mi.size < 4) v |= read(mi.ops[0]) & ~mask;
      }
      write(mi.ops[0], v, memDst ? mi.size : 8);
      return -1;
    }
    case MOp::MovZX:
    case MOp::MovSX: {
      need(2);
      check(mi.size == 1 || mi.size == 2 || mi.size == 4, "bad extension size");
      uint64_t v = read(mi.ops[1], mi.size);
      int bits = 8 * mi.size;
      v &= (uint64_t(1) << bits) - 1;
      if (mi.op == MOp::MovSX && (v >> (bits - 1)) & 1) v |= ~uint64_t(0) << bits;
      write(mi.ops[0], v);
      return -1;
    }
    case MOp::Lea:
      need(2);
      write(mi.ops[0], uint64_t(address(mi.ops[1])));
      return -1;
    case MOp::Add: case MOp::Sub: case MOp::And: case MOp::Or: case MOp::Xor: case MOp::Imul: {
      if (mi.op == MOp::Imul && mi.ops.size() == 3) {  // imul d, s, imm
        check(mi.ops[2].kind == Opnd::Imm, "three-operand imul without an immediate");
        write(mi.ops[0], read(mi.ops[1]) * uint64_t(mi.ops[2].imm));
        flagsValid_ = false;
        return -1;
      }
      need(2);
      check(!(isMemLike(mi.ops[0]) && isMemLike(mi.ops[1])), "alu with two memory operands");
      uint64_t a = read(mi.ops[0]), b = read(mi.ops[1]);
      uint64_t r = 0;
      switch (mi.op) {
        case MOp::Add: r = a + b; break;
        case MOp::Sub: r = a - b; break;
        case MOp::And: r = a & b; break;
        case MOp::Or: r = a | b; break;
        case MOp::Xor: r = a ^ b; break;
        default: r = a * b; break;
      }
      write(mi.ops[0], r);
      flagsValid_ = false;
      return -1;
    }
    case MOp::Neg: case MOp::Not: {
      need(1);
      uint64_t a = read(mi.ops[0]);
      write(mi.ops[0], mi.op == MOp::Neg ? uint64_t(0) - a : ~a);
      flagsValid_ = false;
      return -1;
    }
    case MOp::Shl: case MOp::Sar: case MOp::Shr: {
      need(2);
      const Opnd& c = mi.ops[1];
      check(c.kind == Opnd::Imm || (c.kind == Opnd::PReg && c.reg == RCX),
            "shift count must be an immediate or rcx");
      unsigned n = unsigned(read(c) & 63);
      uint64_t a = read(mi.ops[0]);
      uint64_t r = mi.op == MOp::Shl ? a << n
                   : mi.op == MOp::Shr ? a >> n
                   : uint64_t(int64_t(a) >> n);
      write(mi.ops[0], r);
      flagsValid_ = false;
      return -1;
    }
    case MOp::Cmp: case MOp::Test: {
      need(2);
      uint64_t a = read(mi.ops[0]), b = read(mi.ops[1]);
      if (mi.op == MOp::Cmp) {
        uint64_t r = a - b;
        zf_ = r == 0;
        sf_ = int64_t(r) < 0;
        of_ = ((a ^ b) & (a ^ r)) >> 63;
        cf_ = a < b;
      } else {
        uint64_t r = a & b;
        zf_ = r == 0;
        sf_ = int64_t(r) < 0;
        of_ = cf_ = false;
      }
      flagsValid_ = true;
      return -1;
    }
    case MOp::Setcc:
      need(1);
      write(mi.ops[0], cond(mi.cc) ? 1 : 0);
      return -1;
    case MOp::Cmov:
      need(2);
      check(mi.ops[0].isReg(), "cmov destination must be a register");
      if (cond(mi.cc)) write(mi.ops[0], read(mi.ops[1]));
      else read(mi.ops[0]);  // still a use
      return -1;
    case MOp::SDivRem: {
      need(1);
      check(!(mi.ops[0].kind == Opnd::PReg && (mi.ops[0].reg == RAX || mi.ops[0].reg == RDX)),
            "divisor in rax or rdx");
      int64_t d = int64_t(read(mi.ops[0]));
      int64_t n = int64_t(pregs_[RAX]);
      check(d != 0, "division by zero");
      if (d == -1) {
        pregs_[RAX] = uint64_t(0) - uint64_t(n);
        pregs_[RDX] = 0;
      } else {
        pregs_[RAX] = uint64_t(n / d);
        pregs_[RDX] = uint64_t(n % d);
      }
      flagsValid_ = false;
      return -1;
    }
    case MOp::SMulHi: {
      need(1);
      __int128 p = __int128(int64_t(pregs_[RAX])) * __int128(int64_t(read(mi.ops[0])));
      pregs_[RAX] = uint64_t(p);
      pregs_[RDX] = uint64_t(p >> 64);
      flagsValid_ = false;
      return -1;
    }
    case MOp::Jmp:
      need(1);
      return mi.ops[0].reg;
    case MOp::Jcc:
      need(1);
      return cond(mi.cc) ? mi.ops[0].reg : -1;
    case MOp::JmpTable: {
      namespace J = JumpTableOpnd;
      check(mi.ops.size() > J::kFirstCase && mi.ops[J::kLo].kind == Opnd::Imm && mi.ops[J::kTable].kind == Opnd::Imm,
            "bad jmptable operands");
      uint64_t index = uint64_t(read(mi.ops[J::kValue])) - uint64_t(mi.ops[J::kLo].imm);
      // A base register must hold this table's address (TableAddr).
      if (mi.ops[J::kBase].kind != Opnd::None)
        check(read(mi.ops[J::kBase]) == tableAddress(mi.ops[J::kTable].imm), "jmptable base does not hold its table");
      // Like the emitted code: r11, the flags (and r10 without a base) are destroyed.
      pregs_[kScratch] = garbage();
      if (mi.ops[J::kBase].kind == Opnd::None) pregs_[kScratch2] = garbage();
      flagsValid_ = false;
      size_t cases = mi.ops.size() - J::kFirstCase;
      return index < cases ? mi.ops[J::kFirstCase + index].reg : mi.ops[J::kDefault].reg;
    }
    case MOp::TableAddr:
      check(mi.ops.size() == 2 && mi.ops[1].kind == Opnd::Imm, "bad tableaddr operands");
      write(mi.ops[0], tableAddress(mi.ops[1].imm));
      return -1;
    case MOp::Call:
      doCall(mi, res);
      return -1;
    case MOp::Ret:
      return -2;
    case MOp::ParMove: {
      check(mi.ops.size() % 2 == 0, "odd parmove");
      std::vector<uint64_t> vals;
      for (size_t i = 1; i < mi.ops.size(); i += 2) vals.push_back(read(mi.ops[i]));
      for (size_t i = 0; i < mi.ops.size(); i += 2) write(mi.ops[i], vals[i / 2]);
      return -1;
    }
    case MOp::Push:
      need(1);
      pregs_[RSP] -= 8;
      store(int64_t(pregs_[RSP]), read(mi.ops[0]), 8);
      return -1;
    case MOp::Pop:
      need(1);
      write(mi.ops[0], load(int64_t(pregs_[RSP]), 8));
      pregs_[RSP] += 8;
      return -1;
    case MOp::FAdd: case MOp::FSub: case MOp::FMul: case MOp::FDiv: case MOp::FMin: case MOp::FMax:
    case MOp::FAnd: case MOp::FXor: case MOp::FSqrt: case MOp::Ucomisd: case MOp::CvtSI2SD:
    case MOp::CvtTSD2SI: case MOp::RoundF32: case MOp::CvtSD2SS: case MOp::CvtSS2SD:
    case MOp::VAdd: case MOp::VSub: case MOp::VMul: case MOp::VDiv: case MOp::VMin: case MOp::VMax:
    case MOp::VSqrt: case MOp::VSplat:
      throw Fail(std::string("float instruction ") + mopName(mi.op) + " is not modelled");
  }
  throw Fail("unknown instruction");
}

InterpResult Machine::run() {
  InterpResult res;
  try {
    for (int r = 0; r < 32; ++r) pregs_[r] = garbage();
    uint64_t initial[32];
    for (size_t i = 0; i < cfg_.heap.size() && i < size_t(kHeapWords); ++i)
      store(kHeapAddr + 8 * int64_t(i), uint64_t(cfg_.heap[i]), 8);
    for (size_t i = 0; i < cfg_.args.size(); ++i) {
      if (i < 6) pregs_[kIntArgRegs[i]] = uint64_t(cfg_.args[i]);
      else store(kEntryRsp + 8 + 8 * int64_t(i - 6), uint64_t(cfg_.args[i]), 8);
    }
    store(kEntryRsp, uint64_t(kReturnSentinel), 8);
    // Before lowering nothing sets up a frame: give outgoing arguments room
    // below the incoming ones.
    pregs_[RSP] = cfg_.lowered ? kEntryRsp : kEntryRsp - 0x800 - 8;
    std::memcpy(initial, pregs_, sizeof initial);

    int b = 0;
    size_t i = 0;
    check(!f_.blocks.empty(), "no blocks");
    while (true) {
      const MBlock& blk = f_.blocks[size_t(b)];
      if (i >= blk.insts.size()) {  // fall through
        ++b;
        i = 0;
        check(b < int(f_.blocks.size()), "fell off the end of the function");
        continue;
      }
      check(++res.steps <= cfg_.maxSteps, "step limit reached");
      for (const Opnd& o : blk.insts[i].ops)
        if (o.kind == Opnd::Mem && o.base == RBP && !o.baseVirt) {
          ++res.frameAccesses;
          break;
        }
      int next = step(blk.insts[i], res);
      if (next == -2) break;
      if (next >= 0) {
        check(next < int(f_.blocks.size()), "jump to a bad block");
        b = next;
        i = 0;
      } else {
        ++i;
      }
    }
    res.ret = int64_t(pregs_[RAX]);
    if (cfg_.lowered) {
      check(pregs_[RSP] == initial[RSP], "rsp not restored at ret");
      check(pregs_[RBP] == initial[RBP], "rbp not restored at ret");
      for (int r : kCalleeSaved)
        check(pregs_[r] == initial[r], std::string(pregName(r)) + " not restored at ret");
      check(load(int64_t(pregs_[RSP]), 8) == uint64_t(kReturnSentinel), "return address clobbered");
    }
    for (int k = 0; k < kHeapWords; ++k) res.heap.push_back(int64_t(load(kHeapAddr + 8 * k, 8)));
    res.ok = true;
  } catch (const Fail& e) {
    res.error = e.what();
  }
  return res;
}

}  // namespace

InterpResult runMir(const MFunction& f, const InterpConfig& cfg) {
  Machine m(f, cfg);
  return m.run();
}

}  // namespace simplec::test
