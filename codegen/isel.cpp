// x86-64 instruction selection from a GCM schedule.
#include "codegen/isel.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "codegen/call_sites.h"
#include "codegen/constant_homes.h"
#include "codegen/dead_defs.h"
#include "codegen/debug_values.h"
#include "codegen/div_magic.h"
#include "lexer/diag.h"
#include "son/call_chain.h"
#include "son/unit.h"
#include "son/mem_access.h"

namespace simplec {

using namespace mir;

namespace {

// Error kinds of runtime/simplec_rt.h (a C header).
constexpr int64_t kErrDivZero = 0;
constexpr int64_t kErrBounds = 1;
constexpr int64_t kErrNullResult = 5;

bool fitsImm32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }
bool isIntCon(const Node* n) { return n->op == Op::Con && n->type->isInt() && n->type->isConst(); }
// null: an immediate 0 wherever an integer constant may be one (lcs's
// `if (!prev)` compared with a register holding 0, spilled at that).
bool isNullCon(const Node* n) { return n->op == Op::Con && n->type->isNullPtr(); }
// Compares that one condition code answers (float == and != need two:
// ucomisd reports unordered through the parity flag).
bool isCompare(const Node* n) {
  return n->op == Op::EQ || n->op == Op::NE || n->op == Op::LT || n->op == Op::LE ||
         n->op == Op::FLT || n->op == Op::FLE;
}
Cond condOf(Op op) {
  switch (op) {
    case Op::EQ: return Cond::E;
    case Op::NE: return Cond::NE;
    case Op::LT: return Cond::L;
    // a < b as `ucomisd b, a` + above: unordered sets CF and ZF, so NaN is false.
    case Op::FLT: return Cond::A;
    case Op::FLE: return Cond::AE;
    default: return Cond::LE;
  }
}
bool isFloatValue(const Node* n) { return n->type && n->type->isFlt(); }
bool isVecValue(const Node* n) { return n->type && n->type->isVec(); }

// Can `user` read its input `slot`, loaded by access `m`, straight from
// memory? 64-bit integer ALU operations and compares, f64 arithmetic and
// compares; the memory operand is their second, so input 1 only where the
// operands may swap (and the other input is no constant, which would then
// need a register that no instruction fills).
bool takesMemoryOperand(const Node* user, size_t slot, const MemAccess& m) {
  if (m.size != 8 || (slot != 1 && slot != 2) || user->in.size() != 3) return false;
  const Node* other = user->in[3 - slot];
  if (other == user->in[slot] || (slot == 1 && other->op == Op::Con)) return false;
  if (m.value == MemValue::Float) {
    switch (user->op) {
      case Op::FAdd: case Op::FMul: return true;
      case Op::FSub: case Op::FDiv: return slot == 2;
      case Op::FLT: case Op::FLE: return slot == 1;  // ucomisd in[2], in[1]
      default: return false;
    }
  }
  switch (user->op) {
    case Op::Add: case Op::Mul: case Op::And: case Op::Or: case Op::Xor:
    case Op::EQ: case Op::NE: case Op::LT: case Op::LE:
      return true;
    case Op::Sub: return slot == 2;
    default: return false;
  }
}

// System V: the register (or stack) each argument travels in. Integers take
// rdi rsi rdx rcx r8 r9, floats xmm0-7, in order; the rest go on the stack
// in argument order, 8 bytes each.
struct ArgPlace {
  int reg = NoReg;   // physical register, or NoReg
  int stack = -1;    // stack slot index
};
std::vector<ArgPlace> placeArgs(const std::vector<bool>& isFloat) {
  std::vector<ArgPlace> out;
  int ints = 0, floats = 0, stack = 0;
  for (bool f : isFloat) {
    ArgPlace p;
    if (f && floats < 8) p.reg = XMM0 + floats++;
    else if (!f && ints < 6) p.reg = kIntArgRegs[ints++];
    else p.stack = stack++;
    out.push_back(p);
  }
  return out;
}

class Selector {
 public:
  Selector(const Graph& g, const Schedule& s, const IselContext& cx)
      : g_(g), s_(s), cx_(cx), vreg_(g.size(), -1), fused_(g.size(), 0), indexInBlock_(g.size(), -1) {
    for (const BasicBlock& bb : s_.blocks)
      for (size_t i = 0; i < bb.nodes.size(); i++) indexInBlock_[bb.nodes[i]->id] = int(i);
  }

  MFunction run() {
    const FunInfo& info = g_.info();
    f_.name = info.symbol;
    f_.global = info.isGlobal;
    // Every schedule block starts a MIR block; checks add more after them.
    firstMBlock_.assign(s_.blocks.size(), -1);
    lastMBlock_.assign(s_.blocks.size(), -1);
    f_.blocks.reserve(s_.blocks.size() + s_.blocks.size() / 2);
    for (size_t b = 0; b < s_.blocks.size(); b++) firstMBlock_[b] = newBlock(s_.blocks[b].loopDepth);
    findHoistedConstants();
    std::vector<size_t> chainStart(s_.blocks.size() + 1, 0);
    for (size_t b = 0; b < s_.blocks.size(); b++) {
      cur_ = firstMBlock_[b];
      curBlock_ = int(b);
      chainStart[b] = layout_.size();
      layout_.push_back(cur_);
      size_t made = f_.blocks.size();
      selectBlock(int(b));
      lastMBlock_[b] = cur_;
      // Growth by doubling leaves a block's vector up to half empty, and a
      // huge function holds all its blocks at once: trim what this block
      // and the check continuations and stubs it made will keep.
      f_.blocks[size_t(firstMBlock_[b])].insts.shrink_to_fit();
      for (size_t k = made; k < f_.blocks.size(); k++) f_.blocks[k].insts.shrink_to_fit();
    }
    chainStart[s_.blocks.size()] = layout_.size();
    // Before -g looks for where values are: those never read are not made.
    removeDeadDefs(f_);
    if (!g_.debugNames.empty()) {
      // The MIR blocks of each schedule block, in order (checks split them).
      std::vector<std::vector<int>> chains(s_.blocks.size());
      for (size_t b = 0; b < s_.blocks.size(); b++)
        chains[b].assign(layout_.begin() + long(chainStart[b]), layout_.begin() + long(chainStart[b + 1]));
      tagDebugValues(f_, g_, s_, vreg_, chains);
    }
    // Cold stubs last: move them to the end, renumbering branch targets.
    layoutColdLast();
    return std::move(f_);
  }

 private:
  int newBlock(int depth) {
    f_.blocks.emplace_back();
    f_.blocks.back().loopDepth = depth;
    return int(f_.blocks.size()) - 1;
  }
  void emit(MInst mi) {
    if (mi.line == 0) {
      mi.line = line_;
      mi.col = col_;
      mi.site = site_;
    }
    f_.blocks[size_t(cur_)].insts.push_back(std::move(mi));
  }
  // The source position of the node being selected, for -g line tables.
  // Constants and merges are shared or placed far from their source: they
  // keep the position of the code around them.
  void setPosition(const Node* n) {
    if (!n->pos.valid() || n->op == Op::Con || n->op == Op::Phi || n->op == Op::Proj || n->op == Op::CProj) return;
    if (n->pos.file != kMainFile) return;  // library code: the line table covers the compiled file only
    line_ = uint32_t(n->pos.line);
    col_ = uint32_t(n->pos.col);
    site_ = n->pos.site;
  }
  uint32_t line_ = 0, col_ = 0;
  int32_t site_ = -1;
  void emit(MOp op, std::initializer_list<Opnd> ops) {
    MInst& mi = f_.blocks[size_t(cur_)].insts.emplace_back(op, ops);
    mi.line = line_;
    mi.col = col_;
    mi.site = site_;
  }
  void succ(int from, int to) { f_.blocks[size_t(from)].succs.push_back(to); }

  bool inFunction(const Node* n) const { return s_.blockIndexOf(n) >= 0; }

  // A constant used by `user` as operand `slot` that the instruction can
  // take as an immediate.
  bool foldsImm(const Node* user, size_t slot, const Node* c) const {
    if ((user->op == Op::Div || user->op == Op::Mod) && slot == 2) return constantDivisor(user);
    if (!(isIntCon(c) && fitsImm32(c->type->value())) && !isNullCon(c)) return false;
    switch (user->op) {
      case Op::Add: case Op::Sub: case Op::Mul: case Op::And: case Op::Or: case Op::Xor:
      case Op::Shl: case Op::Sar: case Op::Shr:
      case Op::EQ: case Op::NE: case Op::LT: case Op::LE:
        // `x > 3` is 3 < x: compared the other way round (emitCompare).
        return slot == 2 || (slot == 1 && !isIntCon(user->in[2]) && !isNullCon(user->in[2]) &&
                             !foldedLoad(user->in[2]));
      case Op::Phi: return slot >= 1;
      case Op::Call: return slot >= 3;
      case Op::BoundsCheck: return slot == 2;
      case Op::New: return slot == 2;
      case Op::Load: return slot == 3;  // a constant offset is the displacement
      case Op::Store:
        return slot == 3 || (slot == 4 && (isNullCon(c) || MemAccess::decode(user->aux).size < 8 ||
                                           fitsImm32(c->type->value())));
      case Op::Return: return slot == 2;
      case Op::Select: return slot == 3;  // the value moved in before the cmov
      default: return false;
    }
  }

  // A Cast only changes what the optimizer knows: it is its input's vreg.
  // (That vreg is only written again by a Phi's moves at a back edge, and
  // no use of the Cast is reached from there without passing the Cast
  // again: the Cast dominates its uses.) As a copy of its own it kept the
  // input alive beside it (words' `while (k < len && ...)`: a mov per step).
  // A constant's vreg depends on the block reading it (constantVReg).
  int vregOf(const Node* n) {
    if (isMadeConstant(n)) return constantVReg(n);
    int& v = vreg_[n->id];  // vreg_ never grows here: the reference stays valid
    if (v >= 0) return v;
    if (castsSameClass(n)) {
      int r = vregOf(n->in[1]);
      if (!isMadeConstant(castRoot(n))) v = r;
      return r;
    }
    return v = newVRegFor(n);
  }
  int newVRegFor(const Node* n) {
    return f_.newVReg(isVecValue(n) ? RegClass::Vec : isFloatValue(n) ? RegClass::Xmm : RegClass::Gpr);
  }
  bool castsSameClass(const Node* n) const {
    return n->op == Op::Cast && n->in.size() > 1 && n->in[1] && isFloatValue(n) == isFloatValue(n->in[1]);
  }
  const Node* castRoot(const Node* n) const {
    while (castsSameClass(n)) n = n->in[1];
    return n;
  }

  // Constants are made where they are read (see constant_homes.h), not in
  // the block GCM gave them: values of the program that emitConstant makes
  // in one instruction.
  bool isMadeConstant(const Node* n) const {
    if (n->op != Op::Con) return false;
    const Type* t = n->type;
    return t->isInt() || t->isFltConst() || t->isNullPtr() ||
           ((t->kind() == TKind::FunPtr || t->isPtr()) && t->isConst());
  }
  void emitConstant(const Node* n, int v) {
    const Type* t = n->type;
    Opnd d = Opnd::vreg(v);
    if (t->isFltConst()) emit(MOp::Mov, {d, floatConst(t->fltValue())});
    else if (t->isInt()) emit(MOp::Mov, {d, Opnd::imm64(t->value())});
    else if (t->isNullPtr()) emit(MOp::Mov, {d, Opnd::imm64(0)});
    else if (t->kind() == TKind::FunPtr) emit(MOp::Lea, {d, Opnd::memSym(g_.unit().funs[size_t(t->fun())].symbol)});
    else emit(MOp::Lea, {d, Opnd::memSym(IselContext::stringLabel(t->fun()))});
  }
  // Does `user` read constant `c`, its input `slot`, from a register?
  // Direct calls name the function; a Cast's bound is only knowledge.
  bool readsConstantReg(const Node* user, size_t slot, const Node* c) const {
    if (foldsImm(user, slot, c)) return false;
    if (user->op == Op::Cast && slot == 2) return false;
    if (user->op == Op::Call && slot == 2 && c->type->kind() == TKind::FunPtr) return false;
    return true;
  }
  struct MadeConstant {
    int vreg;
    bool made;  // the instruction is emitted (a hoisted one: at the end of its home)
  };
  static uint64_t constantKey(const Node* n, int block) { return uint64_t(n->id) << 32 | uint32_t(block); }
  // The vreg of constant n for a read in the block being selected. Made at
  // the first read in its home block, or at the end of its home when that
  // is a block before a loop. A cold stub gets a copy of its own unless the
  // main path has made it already (the stub is entered from there).
  int constantVReg(const Node* n) {
    int conBlock = s_.blockIndexOf(n);
    int home = conBlock < 0 ? curBlock_ : constantHome(s_, curBlock_, conBlock);
    auto it = made_.find(constantKey(n, home));
    if (it == made_.end() && home != curBlock_) it = made_.find(constantKey(n, home = curBlock_));
    if (it != made_.end() && (it->second.made || home != curBlock_)) return it->second.vreg;
    if (f_.blocks[size_t(cur_)].cold) {
      int v = newVRegFor(n);
      emitConstant(n, v);
      return v;
    }
    if (it == made_.end()) it = made_.emplace(constantKey(n, home), MadeConstant{newVRegFor(n), false}).first;
    emitConstant(n, it->second.vreg);
    it->second.made = true;
    return it->second.vreg;
  }
  // Constants read in loops hoisted to a block before them: each gets its
  // vreg now and its instruction at the end of that block (emitHoisted).
  void findHoistedConstants() {
    hoisted_.assign(s_.blocks.size(), {});
    std::vector<const Node*> readers;
    for (size_t b = 0; b < s_.blocks.size(); b++)
      for (const Node* c : s_.blocks[b].nodes) {
        if (!isMadeConstant(c)) continue;
        // Reads through Casts are reads of the constant.
        readers.assign(1, c);
        for (size_t k = 0; k < readers.size(); k++)
          for (const Node* u : readers[k]->out) {
            if (!inFunction(u)) continue;
            for (size_t i = 0; i < u->in.size(); i++) {
              if (u->in[i] != readers[k]) continue;
              if (castsSameClass(u) && i == 1) {
                readers.push_back(u);
                continue;
              }
              if (!readsConstantReg(u, i, c)) continue;
              int at = s_.blockIndexOf(u);
              if (u->op == Op::Phi && i > 0) {
                const std::vector<int>& preds = s_.blocks[size_t(at)].preds;
                at = i - 1 < preds.size() ? preds[i - 1] : -1;
              }
              if (at < 0) continue;
              int home = constantHome(s_, at, int(b));
              if (home == at || made_.count(constantKey(c, home))) continue;
              made_.emplace(constantKey(c, home), MadeConstant{newVRegFor(c), false});
              hoisted_[size_t(home)].push_back(c);
            }
          }
      }
  }
  void emitHoisted(int b) {
    for (const Node* c : hoisted_[size_t(b)]) {
      MadeConstant& m = made_.at(constantKey(c, b));
      if (m.made) continue;
      emitConstant(c, m.vreg);
      m.made = true;
    }
  }
  // The operand for `n` used by `user` at input `slot`.
  Opnd use(const Node* user, size_t slot) {
    const Node* n = user->in[slot];
    if (foldsImm(user, slot, n)) return Opnd::imm64(isNullCon(n) ? 0 : n->type->value());
    if (foldedLoad(n)) return address(n->in[2], n->in[3]);
    return Opnd::vreg(vregOf(n));
  }
  Opnd reg(const Node* n) { return Opnd::vreg(vregOf(n)); }
  // A load its one user reads as a memory operand (findFusedLoads).
  bool foldedLoad(const Node* n) const { return n->op == Op::Load && isFused(n); }
  bool isFused(const Node* n) const { return fused_[n->id] != 0; }

  void selectBlock(int b) {
    const BasicBlock& bb = s_.blocks[size_t(b)];
    Node* last = bb.last();
    for (Node* n : bb.nodes) {
      if (isFused(n)) continue;
      if (n == last && n->op == Op::If) emitHoisted(b);
      selectNode(b, n);
    }
    if (last && last->op == Op::Never) {
      emitHoisted(b);
      // Stay in the endless loop; the exit arm (succs[0]) is dead code.
      int target = bb.succs[1];
      phiMoves(b, target);
      emit(MOp::Jmp, {Opnd::block(firstMBlock_[size_t(target)])});
      succ(cur_, firstMBlock_[size_t(target)]);
      return;
    }
    // Control falls into a single successor: resolve its Phis, then jump.
    if (last && last->op != Op::If && last->op != Op::Return) {
      SIMPLEC_CHECK(bb.succs.size() == 1, "isel", "block without a terminator has " +
                                                        std::to_string(bb.succs.size()) + " successors");
      emitHoisted(b);
      int target = bb.succs[0];
      phiMoves(b, target);
      emit(MOp::Jmp, {Opnd::block(firstMBlock_[size_t(target)])});
      succ(cur_, firstMBlock_[size_t(target)]);
    }
  }

  // Parallel move into the Phis of `target` for the edge from block `from`.
  void phiMoves(int from, int target) {
    const BasicBlock& tb = s_.blocks[size_t(target)];
    if (!tb.head->isRegion()) return;
    size_t slot = 0;
    for (size_t i = 0; i < tb.preds.size(); i++)
      if (tb.preds[i] == from) slot = i + 1;
    SIMPLEC_CHECK(slot != 0, "isel", "edge to a region from a block that is not its predecessor");
    MInst pm(MOp::ParMove);
    for (Node* phi : tb.nodes) {
      if (phi->op != Op::Phi || phi->type->kind() == TKind::Mem) continue;
      pm.ops.push_back(reg(phi));
      pm.ops.push_back(use(phi, slot));
    }
    if (!pm.ops.empty()) emit(std::move(pm));
  }

  void selectNode(int b, Node* n) {
    setPosition(n);
    switch (n->op) {
      case Op::Fun:
        selectParms(n);
        break;
      case Op::Region: case Op::Loop: case Op::Phi: case Op::CProj:
      case Op::Parm: case Op::CallEnd: case Op::Never:
        break;  // Never: its exit arm is never taken; selectBlock jumps to the other  // no code: heads, merges (moved at predecessors), parameters (at entry)
      case Op::Proj:
        if (n->aux == 2) {
          emit(MOp::Mov, {reg(n), Opnd::preg(isFloatValue(n) ? XMM0 : RAX)});
          const Node* call = n->in[0]->in[0];
          if (isFloatValue(n) && call && call->op == Op::Call && (call->aux >> kCallF32Result & 1))
            emit(MOp::CvtSS2SD, {reg(n)});
        }
        break;
      case Op::Con: break;  // made where it is read (constantVReg)
      case Op::Add: selectAdd(n); break;
      case Op::And:
        if (int w = zeroExtendWidth(n)) {
          MInst mi(MOp::MovZX, {reg(n), reg(n->in[1])});
          mi.size = uint8_t(w);
          emit(std::move(mi));
          break;
        }
        selectBinary(n);
        break;
      case Op::Sar:
        if (int w = signExtendWidth(n)) {
          MInst mi(MOp::MovSX, {reg(n), reg(n->in[1]->in[1])});
          mi.size = uint8_t(w);
          emit(std::move(mi));
          break;
        }
        selectShift(n);
        break;
      case Op::Sub: case Op::Or: case Op::Xor: case Op::Mul: selectBinary(n); break;
      case Op::Shl: case Op::Shr: selectShift(n); break;
      case Op::Div: case Op::Mod: selectDivMod(n); break;
      case Op::Cast:  // only the optimizer's knowledge changes: no code (see vregOf)
        if (castsSameClass(n)) break;
        emit(MOp::Mov, {reg(n), reg(n->in[1])});
        break;
      case Op::Neg:
        emit(MOp::Mov, {reg(n), reg(n->in[1])});
        emit(MOp::Neg, {reg(n)});
        break;
      case Op::Not: {
        emit(MOp::Test, {reg(n->in[1]), reg(n->in[1])});
        MInst set(MOp::Setcc, {reg(n)});
        set.cc = Cond::E;
        emit(std::move(set));
        break;
      }
      case Op::EQ: case Op::NE: case Op::LT: case Op::LE: case Op::FLT: case Op::FLE: {
        MInst set(MOp::Setcc, {reg(n)});
        set.cc = emitCompare(n);
        emit(std::move(set));
        break;
      }
      case Op::FEQ: case Op::FNE: selectFloatEquality(n); break;
      case Op::FAdd: case Op::FSub: case Op::FMul: case Op::FDiv: case Op::FMin: case Op::FMax: {
        MOp op = n->op == Op::FAdd ? MOp::FAdd : n->op == Op::FSub ? MOp::FSub : n->op == Op::FMul ? MOp::FMul
               : n->op == Op::FDiv ? MOp::FDiv : n->op == Op::FMin ? MOp::FMin : MOp::FMax;
        size_t other = foldedLoad(n->in[1]) ? 2 : 1;  // a folded load is the memory operand
        emit(MOp::Mov, {reg(n), reg(n->in[other])});
        emit(op, {reg(n), use(n, 3 - other)});
        break;
      }
      case Op::VSplat:
        emit(MOp::Mov, {reg(n), reg(n->in[1])});
        emit(MOp::VSplat, {reg(n)});
        break;
      case Op::VSqrt: emit(MOp::VSqrt, {reg(n), reg(n->in[1])}); break;
      case Op::VAdd: case Op::VSub: case Op::VMul: case Op::VDiv: case Op::VMin: case Op::VMax: {
        MOp op = n->op == Op::VAdd ? MOp::VAdd : n->op == Op::VSub ? MOp::VSub : n->op == Op::VMul ? MOp::VMul
               : n->op == Op::VDiv ? MOp::VDiv : n->op == Op::VMin ? MOp::VMin : MOp::VMax;
        // Two-address: the copy into the result is free when its source
        // dies here. An operand from another block (a splat made before a
        // loop) lives on, so a commutative kind starts from the other.
        size_t first = 1;
        if ((n->op == Op::VAdd || n->op == Op::VMul) && s_.blockIndexOf(n->in[1]) != b &&
            s_.blockIndexOf(n->in[2]) == b)
          first = 2;
        emit(MOp::Mov, {reg(n), reg(n->in[first])});
        emit(op, {reg(n), reg(n->in[3 - first])});
        break;
      }
      case Op::FNeg: case Op::FAbs: case Op::VNeg: case Op::VAbs: {
        // The sign masks are two lanes wide: the same instruction serves both.
        bool neg = n->op == Op::FNeg || n->op == Op::VNeg;
        (neg ? cx_.usesSignMask : cx_.usesAbsMask) = true;
        emit(MOp::Mov, {reg(n), reg(n->in[1])});
        emit(neg ? MOp::FXor : MOp::FAnd,
             {reg(n), Opnd::memSym(neg ? IselContext::kSignMaskLabel : IselContext::kAbsMaskLabel)});
        break;
      }
      case Op::FSqrt: emit(MOp::FSqrt, {reg(n), reg(n->in[1])}); break;
      case Op::IToF: emit(MOp::CvtSI2SD, {reg(n), reg(n->in[1])}); break;
      case Op::FToI: selectFloatToInt(n); break;
      case Op::FToF32:
        emit(MOp::Mov, {reg(n), reg(n->in[1])});
        emit(MOp::RoundF32, {reg(n)});
        break;
      case Op::FFloor: case Op::FCeil: {
        // No SSE2 instruction rounds to an integer (roundsd is SSE4.1).
        emit(MOp::Mov, {Opnd::preg(XMM0), reg(n->in[1])});
        MInst call(MOp::Call, {Opnd::symbol(n->op == Op::FFloor ? "__simplec_floor" : "__simplec_ceil")});
        call.argRegs = {XMM0};
        emit(std::move(call));
        emit(MOp::Mov, {reg(n), Opnd::preg(XMM0)});
        break;
      }
      case Op::ZeroCheck: selectZeroCheck(n); break;
      case Op::BoundsCheck: selectBoundsCheck(n); break;
      case Op::Call: selectCall(n); break;
      case Op::New: selectNew(n); break;
      case Op::Load: selectLoad(n); break;
      case Op::Store: selectStore(n); break;
      case Op::MergeMem: break;  // memory: no value
      case Op::If: selectIf(b, n); break;
      case Op::Select: selectSelect(n); break;
      case Op::Return: selectReturn(n); break;
      default:
        internalError("isel", std::string("no instruction selection for ") + n->label());
    }
  }

  // Flags for compare n (a Cmp or Ucomisd); returns the condition that is
  // true when n holds.
  Cond emitCompare(Node* n) {
    if (n->op == Op::FLT || n->op == Op::FLE) {
      emit(MOp::Ucomisd, {reg(n->in[2]), use(n, 1)});
    } else if (foldedLoad(n->in[1]) || foldsImm(n, 1, n->in[1])) {
      emit(MOp::Cmp, {reg(n->in[2]), use(n, 1)});
      return swapOperands(condOf(n->op));
    } else {
      emit(MOp::Cmp, {reg(n->in[1]), use(n, 2)});
    }
    return condOf(n->op);
  }

  // ==: ZF and not PF; !=: not ZF or PF (unordered: NaN != anything).
  void selectFloatEquality(Node* n) {
    bool eq = n->op == Op::FEQ;
    emit(MOp::Ucomisd, {reg(n->in[1]), reg(n->in[2])});
    int t = f_.newVReg();
    MInst a(MOp::Setcc, {reg(n)});
    a.cc = eq ? Cond::E : Cond::NE;
    emit(std::move(a));
    MInst b(MOp::Setcc, {Opnd::vreg(t)});
    b.cc = eq ? Cond::NP : Cond::P;
    emit(std::move(b));
    emit(eq ? MOp::And : MOp::Or, {reg(n), Opnd::vreg(t)});
  }

  // cvttsd2si gives INT64_MIN for NaN and out-of-range values; NaN must give
  // 0 and values >= 2^63 INT64_MAX (below -2^63 INT64_MIN is already right).
  void selectFloatToInt(Node* n) {
    Opnd x = reg(n->in[1]);
    emit(MOp::CvtTSD2SI, {reg(n), x});
    int zero = f_.newVReg(), big = f_.newVReg();
    emit(MOp::Ucomisd, {x, x});
    emit(MOp::Mov, {Opnd::vreg(zero), Opnd::imm64(0)});
    MInst nan(MOp::Cmov, {reg(n), Opnd::vreg(zero)});
    nan.cc = Cond::P;
    emit(std::move(nan));
    emit(MOp::Ucomisd, {x, floatConst(9223372036854775808.0)});
    emit(MOp::Mov, {Opnd::vreg(big), Opnd::imm64(INT64_MAX)});
    MInst sat(MOp::Cmov, {reg(n), Opnd::vreg(big)});
    sat.cc = Cond::AE;  // unordered sets CF: NaN is not >= 2^63
    emit(std::move(sat));
  }

  Opnd floatConst(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    cx_.floatConsts.insert(bits);
    return Opnd::memSym(IselContext::floatLabel(bits));
  }

  void selectParms(Node* fun) {
    // Copy every incoming argument out of its ABI register first.
    std::vector<Node*> parms;
    for (Node* u : fun->out)
      if (u->op == Op::Parm && u->aux >= 0 && inFunction(u)) parms.push_back(u);
    std::sort(parms.begin(), parms.end(), [](Node* a, Node* b) { return a->aux < b->aux; });
    const FunInfo& info = g_.info();
    std::vector<bool> isFloat;
    for (const Type* t : info.paramTypes) isFloat.push_back(t && t->isFlt());
    std::vector<ArgPlace> places = placeArgs(isFloat);
    f_.numIncomingStackArgs = 0;
    for (const ArgPlace& a : places)
      if (a.stack >= 0) f_.numIncomingStackArgs++;
    for (Node* p : parms) {
      SIMPLEC_CHECK(size_t(p->aux) < places.size(), "isel", "parameter beyond the function's parameter list");
      const ArgPlace& a = places[size_t(p->aux)];
      bool single = size_t(p->aux) < info.f32Params.size() && info.f32Params[size_t(p->aux)];
      MInst mv(MOp::Mov, {reg(p), a.reg != NoReg ? Opnd::preg(a.reg) : Opnd::inArg(a.stack)});
      if (single && a.reg == NoReg) mv.size = 4;
      emit(std::move(mv));
      if (single) emit(MOp::CvtSS2SD, {reg(p)});  // an f32 arrives as single precision
    }
  }

  void selectAdd(Node* n) {
    if (foldedLoad(n->in[1]) || foldedLoad(n->in[2])) {
      size_t other = foldedLoad(n->in[1]) ? 2 : 1;
      emit(MOp::Mov, {reg(n), reg(n->in[other])});
      emit(MOp::Add, {reg(n), use(n, 3 - other)});
      return;
    }
    const Node* x = n->in[1];
    if (x->op == Op::Add && isFused(x)) {  // (a + b) + k: lea [a + b + k]
      Opnd m = Opnd::memV(vregOf(x->in[1]), n->in[2]->type->value());
      m.index = vregOf(x->in[2]);
      m.indexVirt = true;
      emit(MOp::Lea, {reg(n), m});
      return;
    }
    Opnd b = use(n, 2);
    Opnd m;
    m.kind = Opnd::Mem;
    m.base = vregOf(n->in[1]);
    m.baseVirt = true;
    if (b.kind == Opnd::Imm) {
      m.imm = b.imm;
    } else {
      m.index = b.reg;
      m.indexVirt = true;
    }
    emit(MOp::Lea, {reg(n), m});
  }

  void selectBinary(Node* n) {
    if (n->op == Op::Mul && isIntCon(n->in[2])) {
      int64_t k = n->in[2]->type->value();
      if (k == 3 || k == 5 || k == 9) {  // x * 3 = lea [x + x*2]: faster than imul
        Opnd m = Opnd::memV(vregOf(n->in[1]), 0);
        m.index = m.base;
        m.indexVirt = true;
        m.scale = uint8_t(k - 1);
        emit(MOp::Lea, {reg(n), m});
        return;
      }
    }
    MOp op = n->op == Op::Sub ? MOp::Sub : n->op == Op::And ? MOp::And : n->op == Op::Or ? MOp::Or
           : n->op == Op::Xor ? MOp::Xor : MOp::Imul;
    size_t other = foldedLoad(n->in[1]) ? 2 : 1;  // a folded load is the memory operand
    emit(MOp::Mov, {reg(n), reg(n->in[other])});
    emit(op, {reg(n), use(n, 3 - other)});
  }

  void selectShift(Node* n) {
    MOp op = n->op == Op::Shl ? MOp::Shl : n->op == Op::Sar ? MOp::Sar : MOp::Shr;
    Opnd cnt = use(n, 2);
    if (cnt.kind == Opnd::Imm) {
      cnt.imm &= 63;
    } else {
      emit(MOp::Mov, {Opnd::preg(RCX), cnt});
      cnt = Opnd::preg(RCX);
    }
    emit(MOp::Mov, {reg(n), reg(n->in[1])});
    emit(op, {reg(n), cnt});
  }

  // A constant divisor other than 0 and INT64_MIN: division without idiv.
  static bool constantDivisor(const Node* n) {
    const Node* d = n->in[2];
    return isIntCon(d) && d->type->value() != 0 && d->type->value() != INT64_MIN;
  }

  // x / d and x % d for a constant d (div_magic.h): the quotient q by a
  // multiply-high (or shifts, for a power of two), the remainder x - q * d.
  void selectDivModByConstant(Node* n) {
    int64_t d = n->in[2]->type->value();
    Opnd x = reg(n->in[1]);
    uint64_t ad = d < 0 ? 0 - uint64_t(d) : uint64_t(d);
    // A dividend the optimizer proved non-negative needs no rounding toward
    // zero: by 2^k the quotient is a shift and the remainder a mask. (Done
    // here, not as a peephole: a node's range may still widen while the
    // peepholes run, and the rewrite must not depend on it then.)
    const Type* xt = n->in[1]->type;
    bool nonNegative = d > 0 && xt->isInt() && !xt->isIntTop() && xt->lo() >= 0;
    if (nonNegative && ad > 1 && (ad & (ad - 1)) == 0) {
      emit(MOp::Mov, {reg(n), x});
      if (n->op == Op::Div) emit(MOp::Sar, {reg(n), Opnd::imm64(__builtin_ctzll(ad))});
      else if (fitsImm32(d - 1)) emit(MOp::And, {reg(n), Opnd::imm64(d - 1)});
      else {
        Opnd mask = Opnd::vreg(f_.newVReg(RegClass::Gpr));
        emit(MOp::Mov, {mask, Opnd::imm64(d - 1)});
        emit(MOp::And, {reg(n), mask});
      }
      return;
    }
    Opnd q = Opnd::vreg(f_.newVReg(RegClass::Gpr));
    if (ad == 1) {
      emit(MOp::Mov, {q, x});
      if (d < 0) emit(MOp::Neg, {q});  // wraps: MIN / -1 is MIN
    } else if ((ad & (ad - 1)) == 0) {
      // Round toward zero: add 2^k - 1 to a negative x before the shift.
      int k = __builtin_ctzll(ad);
      emit(MOp::Mov, {q, x});
      emit(MOp::Sar, {q, Opnd::imm64(63)});
      emit(MOp::Shr, {q, Opnd::imm64(64 - k)});
      emit(MOp::Add, {q, x});
      emit(MOp::Sar, {q, Opnd::imm64(k)});
      if (d < 0) emit(MOp::Neg, {q});
    } else {
      DivMagic m = signedDivMagic(d);
      emit(MOp::Mov, {Opnd::preg(RAX), Opnd::imm64(m.multiplier)});
      emit(MOp::SMulHi, {x});
      emit(MOp::Mov, {q, Opnd::preg(RDX)});
      if (d > 0 && m.multiplier < 0) emit(MOp::Add, {q, x});
      if (d < 0 && m.multiplier > 0) emit(MOp::Sub, {q, x});
      if (m.shift > 0) emit(MOp::Sar, {q, Opnd::imm64(m.shift)});
      // Plus one for a negative quotient: none when the quotient cannot be
      // negative, always when it must be (x and d of opposite signs, x not
      // 0: strbuild's digit loop divides y <= -1 by 10).
      bool known = xt->isInt() && !xt->isIntTop();
      bool positive = known && ((d > 0 && xt->lo() >= 0) || (d < 0 && xt->hi() <= 0));
      bool negative = known && ((d > 0 && xt->hi() <= -1) || (d < 0 && xt->lo() >= 1));
      if (negative) {
        emit(MOp::Add, {q, Opnd::imm64(1)});
      } else if (!positive) {
        Opnd sign = Opnd::vreg(f_.newVReg(RegClass::Gpr));
        emit(MOp::Mov, {sign, q});
        emit(MOp::Shr, {sign, Opnd::imm64(63)});
        emit(MOp::Add, {q, sign});
      }
    }
    if (n->op == Op::Div) {
      emit(MOp::Mov, {reg(n), q});
      return;
    }
    if (fitsImm32(d)) {
      emit(MOp::Imul, {q, Opnd::imm64(d)});
    } else {
      Opnd dv = Opnd::vreg(f_.newVReg(RegClass::Gpr));
      emit(MOp::Mov, {dv, Opnd::imm64(d)});
      emit(MOp::Imul, {q, dv});
    }
    emit(MOp::Mov, {reg(n), x});
    emit(MOp::Sub, {reg(n), q});
  }

  void selectDivMod(Node* n) {
    if (constantDivisor(n)) {
      selectDivModByConstant(n);
      return;
    }
    // idiv takes the dividend in rax; the divisor goes to rcx so that it can
    // never sit in rdx, which the sign extension overwrites.
    emit(MOp::Mov, {Opnd::preg(RAX), reg(n->in[1])});
    emit(MOp::Mov, {Opnd::preg(RCX), reg(n->in[2])});
    emit(MOp::SDivRem, {Opnd::preg(RCX)});
    emit(MOp::Mov, {reg(n), Opnd::preg(n->op == Op::Div ? RAX : RDX)});
  }

  // The source frames of a call at `pos`, for runtime error traces.
  int chainOf(SrcPos pos) { return addCallChain(f_, g_.unit(), g_.funIndex(), pos); }

  // The position passed to the runtime for an error at `pos`: for sys
  // library code, the user's call into it (line 0 when only the run-time
  // call chain knows it: the runtime then takes the first frame's).
  SrcPos reported(SrcPos pos) {
    SrcPos r = reportedPosition(g_.unit(), g_.funIndex(), pos);
    if (!r.valid()) r = SrcPos{};
    return r;
  }

  // Out-of-line stub reporting a runtime error at `pos`; returns its block.
  // `a` and `b` (an index and a length) are the values the message shows.
  // They go to r8/r9 first: a value the stub reads then ends there, before
  // rdi-rcx are set, so it may live in those registers in the code the stub
  // hangs off (else every index a check reports stays out of rdi, rsi, rdx
  // and rcx for its whole life, and a loop runs short of registers).
  int errorStub(int64_t kind, SrcPos pos, Opnd a = Opnd::imm64(0), Opnd b = Opnd::imm64(0)) {
    int saved = cur_;
    int stub = newBlock(0);
    f_.blocks[size_t(stub)].cold = true;
    cur_ = stub;
    SrcPos at = reported(pos);
    emit(MOp::Mov, {Opnd::preg(R8), a});
    emit(MOp::Mov, {Opnd::preg(R9), b});
    emit(MOp::Mov, {Opnd::preg(RDI), Opnd::imm64(kind)});
    emit(MOp::Lea, {Opnd::preg(RSI), Opnd::memSym(cx_.fileLabels[at.file])});
    emit(MOp::Mov, {Opnd::preg(RDX), Opnd::imm64(at.line)});
    emit(MOp::Mov, {Opnd::preg(RCX), Opnd::imm64(at.col)});
    MInst call(MOp::Call, {Opnd::symbol("__simplec_rt_error")});
    call.argRegs = {RDI, RSI, RDX, RCX, R8, R9};
    call.noReturn = true;
    call.chain = chainOf(pos);
    emit(std::move(call));
    cur_ = saved;
    return stub;
  }

  void selectZeroCheck(Node* n) {
    Opnd v = reg(n->in[1]);
    emit(MOp::Test, {v, v});
    // aux 1: the result of a C function declared non-null (parse_fun.cpp).
    int stub = errorStub(n->aux == 1 ? kErrNullResult : kErrDivZero, n->pos);
    MInst j(MOp::Jcc, {Opnd::block(stub)});
    j.cc = Cond::E;
    emit(std::move(j));
    succ(cur_, stub);
    // The check ends a MIR block: execution continues in a fresh one, laid
    // out right after it.
    int next = newBlock(f_.blocks[size_t(cur_)].loopDepth);
    emit(MOp::Jmp, {Opnd::block(next)});
    succ(cur_, next);
    cur_ = next;
    layout_.push_back(cur_);
  }

  // [ptr + off] as an x86 address: off = (i << k) + disp becomes
  // [ptr + i * 2^k + disp] when that shape is fused (see findFusedAddresses).
  Opnd address(const Node* ptr, const Node* off) {
    Opnd m;
    m.kind = Opnd::Mem;
    m.base = vregOf(ptr);
    m.baseVirt = true;
    if (isIntCon(off) && fitsImm32(off->type->value())) {
      m.imm = off->type->value();
      return m;
    }
    const Node* x = off;
    if (isFused(off) && off->op == Op::Add) {
      m.imm = off->in[2]->type->value();
      x = off->in[1];
    }
    if (isFused(x) && x->op == Op::Shl) {
      m.scale = uint8_t(1) << x->in[2]->type->value();
      x = x->in[1];
      if (isFused(x) && x->op == Op::Add) {  // (y + c) << k: c << k joins the displacement
        m.imm += x->in[2]->type->value() * int64_t(m.scale);
        x = x->in[1];
      }
    }
    m.index = vregOf(x);
    m.indexVirt = true;
    return m;
  }

  void selectLoad(Node* n) {
    MemAccess m = MemAccess::decode(n->aux);
    if (m.value == MemValue::Float) {
      // An f32 slot holds a single; values are doubles in registers.
      MInst mi(MOp::Mov, {reg(n), address(n->in[2], n->in[3])});
      mi.size = uint8_t(m.size);
      emit(std::move(mi));
      if (m.size == 4) emit(MOp::CvtSS2SD, {reg(n)});
      return;
    }
    MInst mi(m.size == 8 ? MOp::Mov : m.isSigned ? MOp::MovSX : MOp::MovZX, {reg(n), address(n->in[2], n->in[3])});
    mi.size = uint8_t(m.size);
    emit(std::move(mi));
  }

  void selectStore(Node* n) {
    MemAccess m = MemAccess::decode(n->aux);
    Opnd value = use(n, 4);
    if (m.value == MemValue::Float && m.size == 4) {
      // Stored as a single: convert a copy, the double may have other uses.
      Opnd single = Opnd::vreg(f_.newVReg(RegClass::Xmm));
      emit(MOp::Mov, {single, value});
      emit(MOp::CvtSD2SS, {single});
      value = single;
    }
    MInst mi(MOp::Mov, {address(n->in[2], n->in[3]), value});
    mi.size = uint8_t(m.size);
    emit(std::move(mi));
  }

  void selectBoundsCheck(Node* n) {
    // One unsigned compare: a negative index is a huge unsigned one.
    Opnd len = use(n, 2);
    emit(MOp::Cmp, {reg(n->in[1]), len});
    int stub = errorStub(kErrBounds, n->pos, reg(n->in[1]), len);
    MInst j(MOp::Jcc, {Opnd::block(stub)});
    j.cc = Cond::AE;
    emit(std::move(j));
    succ(cur_, stub);
    int next = newBlock(f_.blocks[size_t(cur_)].loopDepth);
    emit(MOp::Jmp, {Opnd::block(next)});
    succ(cur_, next);
    cur_ = next;
    layout_.push_back(cur_);
  }

  void selectNew(Node* n) {
    MInst call(MOp::Call, {Opnd::symbol("__simplec_new_array")});
    SrcPos at = reported(n->pos);
    emit(MOp::Mov, {Opnd::preg(RDI), use(n, 2)});
    emit(MOp::Mov, {Opnd::preg(RSI), Opnd::imm64(MemAccess::decode(n->aux).size)});
    emit(MOp::Lea, {Opnd::preg(RDX), Opnd::memSym(cx_.fileLabels[at.file])});
    emit(MOp::Mov, {Opnd::preg(RCX), Opnd::imm64(at.line)});
    emit(MOp::Mov, {Opnd::preg(R8), Opnd::imm64(at.col)});
    call.argRegs = {RDI, RSI, RDX, RCX, R8};
    call.chain = chainOf(n->pos);
    emit(std::move(call));
  }

  void selectCall(Node* n) {
    size_t nargs = n->in.size() - 3;
    std::vector<bool> isFloat;
    for (size_t i = 0; i < nargs; i++) isFloat.push_back(isFloatValue(n->in[3 + i]));
    std::vector<ArgPlace> places = placeArgs(isFloat);
    int stackBytes = 0;
    for (const ArgPlace& a : places)
      if (a.stack >= 0) stackBytes += 8;
    f_.outArgBytes = std::max(f_.outArgBytes, (stackBytes + 15) & ~15);
    // Stack arguments first, then register arguments (so nothing clobbers them).
    auto single = [&](size_t i) { return i < size_t(kCallF32Result) && (n->aux >> i & 1) && isFloat[i]; };
    for (size_t i = 0; i < nargs; i++) {
      if (places[i].stack < 0) continue;
      Opnd v = use(n, 3 + i);
      if (single(i)) {
        // An f32 goes on the stack as 4 bytes of single precision.
        int t = f_.newVReg(RegClass::Xmm);
        emit(MOp::Mov, {Opnd::vreg(t), v});
        emit(MOp::CvtSD2SS, {Opnd::vreg(t)});
        v = Opnd::vreg(t);
      }
      MInst st(MOp::Mov, {Opnd::memP(RSP, int64_t(places[i].stack) * 8), v});
      if (single(i)) st.size = 4;
      emit(std::move(st));
    }
    MInst call(MOp::Call);
    for (size_t i = 0; i < nargs; i++) {
      if (places[i].reg == NoReg) continue;
      emit(MOp::Mov, {Opnd::preg(places[i].reg), use(n, 3 + i)});
      if (single(i)) emit(MOp::CvtSD2SS, {Opnd::preg(places[i].reg)});
      call.argRegs.push_back(places[i].reg);
    }
    Node* fp = n->in[2];
    bool direct = fp->op == Op::Con && fp->type->kind() == TKind::FunPtr && fp->type->isConst();
    if (direct && g_.unit().funs[size_t(fp->type->fun())].isExtern) {
      // System V: a variadic C callee (printf) reads the number of vector
      // registers used from al; harmless for any other C function.
      int vec = 0;
      for (const ArgPlace& a : places) vec += a.reg != NoReg && isXmm(a.reg);
      emit(MOp::Mov, {Opnd::preg(RAX), Opnd::imm64(vec)});
      call.argRegs.push_back(RAX);
    }
    if (direct)
      call.ops.push_back(Opnd::symbol(g_.unit().funs[size_t(fp->type->fun())].symbol));
    else
      call.ops.push_back(reg(fp));
    call.chain = chainOf(n->pos);
    emit(std::move(call));
  }

  // Sets the flags for predicate p (a compare or `x & k` fused into its one
  // user, else any value tested against 0); returns the condition that
  // holds when p is true.
  Cond emitPredicate(Node* p) {
    if (p->op == Op::Not && isFused(p)) return negate(emitPredicate(p->in[1]));  // !x: x's flags, the other way
    if (isCompare(p) && isFused(p)) return emitCompare(p);
    if (p->op == Op::And && isFused(p)) {
      emit(MOp::Test, {reg(p->in[1]), use(p, 2)});  // if (x & 1): test x, 1
    } else {
      Opnd v = reg(p);
      emit(MOp::Test, {v, v});
    }
    return Cond::NE;
  }

  // dst = false value; flags; cmov the true value (mov leaves the flags).
  void selectSelect(Node* n) {
    Cond cc = emitPredicate(n->in[1]);
    emit(MOp::Mov, {reg(n), use(n, 3)});
    MInst mv(MOp::Cmov, {reg(n), reg(n->in[2])});
    mv.cc = cc;
    emit(std::move(mv));
  }

  // If n branches on a fused x == y or x != y of floats (under fused
  // negations): ucomisd, then the unequal arm on ZF clear and on PF set
  // (unordered: NaN equals nothing), else the equal arm. 3 instructions
  // instead of 8 (two setcc, and, test).
  bool selectFloatEqualityBranch(Node* n, int tb, int fb) {
    Node* p = n->in[1];
    bool negated = false;
    while (p->op == Op::Not && isFused(p)) {
      negated = !negated;
      p = p->in[1];
    }
    if ((p->op != Op::FEQ && p->op != Op::FNE) || !isFused(p)) return false;
    bool trueWhenEqual = (p->op == Op::FEQ) != negated;
    int equal = trueWhenEqual ? tb : fb, unequal = trueWhenEqual ? fb : tb;
    emit(MOp::Ucomisd, {reg(p->in[1]), reg(p->in[2])});
    for (Cond c : {Cond::NE, Cond::P}) {
      MInst j(MOp::Jcc, {Opnd::block(unequal)});
      j.cc = c;
      emit(std::move(j));
    }
    emit(MOp::Jmp, {Opnd::block(equal)});
    return true;
  }

  void selectIf(int b, Node* n) {
    const BasicBlock& bb = s_.blocks[size_t(b)];
    SIMPLEC_CHECK(bb.succs.size() == 2, "isel", "an If block needs two successors");
    int tb = firstMBlock_[size_t(bb.succs[0])], fb = firstMBlock_[size_t(bb.succs[1])];
    if (selectFloatEqualityBranch(n, tb, fb)) {
      succ(cur_, tb);
      succ(cur_, fb);
      return;
    }
    Cond cc = emitPredicate(n->in[1]);
    // Branch to the arm that is not laid out next, fall into the other.
    int next = size_t(b + 1) < s_.blocks.size() ? firstMBlock_[size_t(b + 1)] : -1;
    int jumpTo = tb, fallTo = fb;
    if (tb == next) {
      std::swap(jumpTo, fallTo);
      cc = negate(cc);
    }
    MInst j(MOp::Jcc, {Opnd::block(jumpTo)});
    j.cc = cc;
    emit(std::move(j));
    emit(MOp::Jmp, {Opnd::block(fallTo)});
    succ(cur_, tb);
    succ(cur_, fb);
  }

  void selectReturn(Node* n) {
    MInst ret(MOp::Ret);
    const FunInfo& info = g_.info();
    bool isFloat = info.retType && info.retType->isFlt();
    if (info.retType) {
      emit(MOp::Mov, {Opnd::preg(isFloat ? XMM0 : RAX), use(n, 2)});
      if (isFloat && info.f32Result) emit(MOp::CvtSD2SS, {Opnd::preg(XMM0)});
    } else {
      emit(MOp::Mov, {Opnd::preg(RAX), Opnd::imm64(0)});
    }
    ret.argRegs = {isFloat ? XMM0 : RAX};
    emit(std::move(ret));
  }

  // Blocks in schedule order (each check's continuation right after the
  // check), then the cold stubs.
  void layoutColdLast() {
    std::vector<int> order = layout_;
    for (size_t i = 0; i < f_.blocks.size(); i++)
      if (f_.blocks[i].cold) order.push_back(int(i));
    std::vector<int> newIndex(f_.blocks.size());
    for (size_t i = 0; i < order.size(); i++) newIndex[size_t(order[i])] = int(i);
    std::vector<MBlock> blocks;
    blocks.reserve(order.size());
    for (int old : order) blocks.push_back(std::move(f_.blocks[size_t(old)]));
    for (MBlock& mb : blocks) {
      for (int& s : mb.succs) s = newIndex[size_t(s)];
      for (MInst& mi : mb.insts)
        for (Opnd& o : mi.ops)
          if (o.kind == Opnd::Block) o.reg = newIndex[size_t(o.reg)];
    }
    f_.blocks = std::move(blocks);
  }

  // x & 0xFF, 0xFFFF, 0xFFFFFFFF (a narrow store's truncation): the bytes
  // of a zero extension, else 0.
  static int zeroExtendWidth(const Node* n) {
    if (n->op != Op::And || !isIntCon(n->in[2])) return 0;
    switch (n->in[2]->type->value()) {
      case 0xFF: return 1;
      case 0xFFFF: return 2;
      case 0xFFFFFFFF: return 4;
      default: return 0;
    }
  }
  // (x << c) >> c with c = 56, 48, 32 (a signed narrow store's truncation):
  // the bytes of a sign extension, else 0.
  static int signExtendWidth(const Node* n) {
    if (n->op != Op::Sar || !isIntCon(n->in[2]) || n->in[1]->op != Op::Shl || !isIntCon(n->in[1]->in[2])) return 0;
    int64_t c = n->in[2]->type->value();
    if (n->in[1]->in[2]->type->value() != c || (c != 56 && c != 48 && c != 32)) return 0;
    return int(64 - c) / 8;
  }

 public:
  // A Shl whose every use sign-extends it is folded into those uses.
  void findFusedShifts() {
    for (const BasicBlock& bb : s_.blocks)
      for (Node* n : bb.nodes) {
        if (n->op != Op::Shl) continue;
        bool allExtend = true;
        for (Node* u : n->out)
          if (inFunction(u)) allExtend = allExtend && u->in[1] == n && signExtendWidth(u);
        if (allExtend) fused_[n->id] = 1;
      }
  }

  // Compares used only by their block's final If are emitted with the branch.
  // Address arithmetic used only as the offset of loads and stores folds
  // into their addressing mode: off = (i << k) + disp with k <= 3.
  void findFusedAddresses() {
    for (const BasicBlock& bb : s_.blocks)
      for (Node* n : bb.nodes) {
        if (n->op != Op::Add || !isIntCon(n->in[2]) || !fitsImm32(n->in[2]->type->value())) continue;
        bool onlyOffsets = true;
        for (Node* u : n->out)
          if (inFunction(u) && !((u->op == Op::Load || u->op == Op::Store) && u->in[3] == n && u->in[2] != n &&
                                 (u->op != Op::Store || u->in[4] != n)))
            onlyOffsets = false;
        if (!onlyOffsets) continue;
        fused_[n->id] = 1;
      }
    // The shift under them folds too when only such sums use it (`8(b,i,8)`
    // and `24(b,i,8)` of a vectorized loop's two lane pairs).
    for (const BasicBlock& bb : s_.blocks)
      for (Node* n : bb.nodes) {
        if (n->op != Op::Add || !isFused(n) || !isIntCon(n->in[2])) continue;
        Node* x = n->in[1];
        if (isFused(x) || x->op != Op::Shl || !isIntCon(x->in[2]) || x->in[2]->type->value() < 1 ||
            x->in[2]->type->value() > 3)
          continue;
        bool onlySums = true;
        for (Node* u : x->out)
          if (inFunction(u) && !(u->op == Op::Add && isFused(u) && u->in[1] == x && u->in[2] != x)) onlySums = false;
        if (onlySums) fused_[x->id] = 1;
      }
    // And an index y + c under such a shift: `a[j - 1]` is [a + j*8 + 0],
    // with no register for j - 1 (when nothing else reads it).
    for (const BasicBlock& bb : s_.blocks)
      for (Node* n : bb.nodes) {
        if (n->op != Op::Shl || !isFused(n) || !isAddressShift(n)) continue;
        Node* y = n->in[1];
        if (isFused(y) || y->op != Op::Add || !isIntCon(y->in[2]) || y->in[1] == y->in[2]) continue;
        int64_t c = y->in[2]->type->value();
        if (c < -kMaxFoldedIndexConst || c > kMaxFoldedIndexConst) continue;
        bool onlyShifts = true;
        for (Node* u : y->out) {
          if (!inFunction(u)) continue;
          if (!(u->op == Op::Shl && isFused(u) && isAddressShift(u) && u->in[1] == y)) {
            onlyShifts = false;
            break;
          }
          for (Node* w : u->out)  // every displacement still fits
            if (inFunction(w) && !fitsImm32(w->in[2]->type->value() + (c << u->in[2]->type->value())))
              onlyShifts = false;
        }
        if (onlyShifts) fused_[y->id] = 1;
      }
  }

  // A fused Shl under fused offset sums (not one a sign extension folds).
  bool isAddressShift(const Node* shl) const {
    for (const Node* u : shl->out)
      if (inFunction(u) && !(u->op == Op::Add && isFused(u) && u->in[1] == shl)) return false;
    return true;
  }
  // Small enough that c << 3 plus any fused displacement fits 32 bits.
  static constexpr int64_t kMaxFoldedIndexConst = 1 << 20;

  // (a + b) + k, the inner sum used only there and in the same block, is
  // one three-part lea (spectral's `(i + j) * (i + j + 1) / 2 + i + 1`).
  void findFusedAdds() {
    for (const BasicBlock& bb : s_.blocks)
      for (Node* n : bb.nodes) {
        if (n->op != Op::Add || isFused(n) || !isIntCon(n->in[2]) || !fitsImm32(n->in[2]->type->value())) continue;
        Node* x = n->in[1];
        if (x->op != Op::Add || isFused(x) || isIntCon(x->in[2]) || x->in[1]->op == Op::Load ||
            x->in[2]->op == Op::Load || !usedOnlyInBlockOf(x, n))
          continue;
        fused_[x->id] = 1;
      }
  }

  // A load used once, by an instruction of its own block that can take a
  // memory operand (`add rax, [rbx + 8]`, `cmp rcx, [rax]`, `mulsd xmm0,
  // [rdx + 16]`), is read by that instruction instead: the load then
  // happens later, at its user, so nothing that may write memory (a store,
  // a call, an allocation) may come between the two.
  void findFusedLoads() {
    std::vector<char> readsMemory(g_.size(), 0);  // by node id: users given a load already
    std::vector<int> nextWriter;  // by index in the block: the first store/call/new at or after it
    for (size_t b = 0; b < s_.blocks.size(); b++) {
      const BasicBlock& bb = s_.blocks[b];
      size_t n = bb.nodes.size();
      nextWriter.assign(n + 1, int(n));
      for (size_t k = n; k-- > 0;) {
        Op op = bb.nodes[k]->op;
        nextWriter[k] = op == Op::Store || op == Op::Call || op == Op::New ? int(k) : nextWriter[k + 1];
      }
      for (size_t i = 0; i < n; i++) {
        Node* l = bb.nodes[i];
        if (l->op != Op::Load) continue;
        Node* user = nullptr;
        int edges = 0;
        for (Node* u : l->out)
          if (inFunction(u)) {
            user = u;
            edges++;
          }
        // One memory operand per instruction: the first load folds, the other stays.
        if (edges != 1 || (isFused(user) && !isCompare(user)) || readsMemory[user->id]) continue;
        size_t slot = 0;
        for (size_t k = 0; k < user->in.size(); k++)
          if (user->in[k] == l) slot = k;
        if (!takesMemoryOperand(user, slot, MemAccess::decode(l->aux))) continue;
        // A compare fused into its branch is emitted at the block's end,
        // one fused into a Select at the Select (both in the compare's
        // block); any other user must come later in this block.
        size_t until;  // the load moves down to just before this index
        if (isFused(user)) {
          if (s_.blockIndexOf(user) != int(b)) continue;
          const Node* tester = user;  // through a fused `!`
          do {
            const Node* from = tester;
            for (const Node* u : from->out)
              if (inFunction(u)) tester = u;
          } while (tester->op == Op::Not && isFused(tester));
          until = tester && tester->op == Op::Select ? size_t(indexInBlock_[tester->id]) : n;
        } else if (s_.blockIndexOf(user) == int(b) && size_t(indexInBlock_[user->id]) > i) {
          until = size_t(indexInBlock_[user->id]);
        } else {
          continue;
        }
        if (size_t(nextWriter[i + 1]) >= until) {
          fused_[l->id] = 1;
          readsMemory[user->id] = 1;
        }
      }
    }
  }

  void findFusedCompares() {
    for (const BasicBlock& bb : s_.blocks) {
      std::vector<Node*> testers;  // the block's If and Selects
      for (Node* n : bb.nodes)
        if (n->op == Op::Select) testers.push_back(n);
      Node* last = bb.last();
      if (last && last->op == Op::If) testers.push_back(last);
      for (Node* t : testers) fusePredicate(t);
    }
  }

  // Fuses the predicate of If or Select `last` into it when it is in the
  // same block and used by nothing else.
  void fusePredicate(Node* last) {
    Node* p = last->in[1];
    // `!x` tested alone branches on x's flags with the opposite condition
    // (sieve's `if (!composite[i])` was test, sete, movzbl, test, je).
    if (p->op == Op::Not) {
      if (!usedOnlyInBlockOf(p, last)) return;
      fused_[p->id] = 1;
      p = p->in[1];
    }
    // `x & k` tested by the branch or select alone becomes `test x, k`.
    bool testAnd = p->op == Op::And && isIntCon(p->in[2]) && fitsImm32(p->in[2]->type->value());
    // A branch on float (in)equality takes two jumps (selectIf); a select
    // has one condition code, so it takes the 0/1 value.
    bool floatEq = last->op == Op::If && (p->op == Op::FEQ || p->op == Op::FNE);
    if ((isCompare(p) || testAnd || floatEq) && usedOnlyInBlockOf(p, last)) fused_[p->id] = 1;
  }

  // p is in `last`'s block and nothing else uses it: it can be emitted with
  // its user, after whatever the schedule put between them (so nothing
  // clobbers the flags): compares, `and` and `not` have no effects.
  bool usedOnlyInBlockOf(const Node* p, const Node* last) const {
    if (s_.blockIndexOf(p) != s_.blockIndexOf(last)) return false;
    int uses = 0;
    for (const Node* u : p->out)
      if (inFunction(u)) uses++;
    return uses == 1;
  }


 private:
  const Graph& g_;
  const Schedule& s_;
  const IselContext& cx_;
  MFunction f_;
  int cur_ = 0;
  int curBlock_ = 0;  // the schedule block being selected
  // Constants by (node, home block), and those each block makes at its end.
  std::unordered_map<uint64_t, MadeConstant> made_;
  std::vector<std::vector<const Node*>> hoisted_;
  std::vector<int> firstMBlock_, lastMBlock_;
  std::vector<int> layout_;  // non-cold blocks in layout order
  // By node id (ids are dense per graph): the node's vreg or -1, and
  // whether the node is fused into its user (emitted as part of it).
  std::vector<int> vreg_;
  std::vector<char> fused_;
  std::vector<int> indexInBlock_;  // by node id: position in its block's node list
};

}  // namespace

std::string IselContext::floatLabel(uint64_t bits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ".Lflt.%016llx", static_cast<unsigned long long>(bits));
  return buf;
}

MFunction selectInstructions(const Graph& g, const Schedule& s, const IselContext& cx) {
  Selector sel(g, s, cx);
  sel.findFusedCompares();
  sel.findFusedShifts();
  sel.findFusedAddresses();
  sel.findFusedAdds();
  sel.findFusedLoads();
  return sel.run();
}

}  // namespace simplec
