// Tests for codegen/regalloc.cpp. Each function is run on the MIR
// interpreter before allocation and after allocation + frame lowering, on
// several inputs, and the results must agree (alloc_check.h); the allocated
// code is also inspected for the properties the allocator promises.
#include <catch2/catch.hpp>

#include <algorithm>

#include "codegen/frame.h"
#include "codegen/regalloc.h"
#include "lexer/diag.h"
#include "test/unit/codegen/alloc_check.h"
#include "test/unit/codegen/mir_builder.h"
#include "test/unit/codegen/random_mir.h"

using namespace simplec;
using namespace simplec::mir;
using namespace simplec::test;

namespace {

std::vector<InterpConfig> inputs(const std::vector<std::vector<int64_t>>& argSets) {
  std::vector<InterpConfig> out;
  uint64_t seed = 1;
  for (const auto& a : argSets) {
    InterpConfig c;
    c.args = a;
    c.seed = seed++;
    out.push_back(c);
  }
  return out;
}

#define REQUIRE_SAME(check) \
  do {                      \
    INFO((check).error);    \
    REQUIRE((check).ok());  \
  } while (0)

// Moves from one register to another in `b`.
int regToRegMoves(const MBlock& b) {
  int n = 0;
  for (const MInst& mi : b.insts)
    n += mi.op == MOp::Mov && mi.ops[0].kind == Opnd::PReg && mi.ops[1].kind == Opnd::PReg &&
         mi.ops[0].reg != mi.ops[1].reg;
  return n;
}

int countOps(const MFunction& f, MOp op) {
  int n = 0;
  for (const MBlock& b : f.blocks)
    for (const MInst& mi : b.insts) n += mi.op == op;
  return n;
}

// Registers read or written by any instruction of `f`.
std::vector<int> touchedRegs(const MFunction& f) {
  std::vector<int> out;
  for (const MBlock& b : f.blocks)
    for (const MInst& mi : b.insts) {
      DefUse du = defUses(mi);
      for (const auto* list : {&du.uses, &du.defs})
        for (const Opnd& o : *list)
          if (o.kind == Opnd::PReg && std::find(out.begin(), out.end(), o.reg) == out.end())
            out.push_back(o.reg);
    }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("regalloc: straight-line code", "[regalloc]") {
  FnBuilder b;
  b.at(b.block());
  std::vector<int> p = b.params(3);
  int t = b.vreg(), u = b.vreg();
  b.mov(V(t), V(p[0]));
  b.op(MOp::Imul, V(t), V(p[1]));
  b.mov(V(u), V(p[2]));
  b.op(MOp::Sub, V(u), I(7));
  b.op(MOp::Xor, V(t), V(u));
  b.op(MOp::Add, V(t), V(p[0]));
  b.ret(V(t));
  AllocCheck c = allocateAndCompare(b.finish(), inputs({{1, 2, 3}, {-5, 9, 100}, {0, 0, 0}}));
  REQUIRE_SAME(c);
  CHECK(c.before[1].ret == ((-5 * 9) ^ 93) - 5);
  // Few values, no calls: nothing spilled, no callee-saved register used.
  CHECK(c.allocated.numSlots == 0);
  CHECK(c.allocated.usedCalleeSaved.empty());
  // Hints coalesce the parameter copies, the copy into rax and the
  // two-address copies whose source dies; only t = a remains. (A leaf
  // without slots: no frame.)
  CHECK(print(c.allocated) ==
        "function f slots=0\n"
        "b0:\n"
        "  mov rax, rdi\n"
        "  imul rax, rsi\n"
        "  sub rdx, 7\n"
        "  xor rax, rdx\n"
        "  add rax, rdi\n"
        "  ret (rax)\n");
}

TEST_CASE("regalloc: loop summing 1..n", "[regalloc]") {
  FnBuilder b;
  int b0 = b.block(), b1 = b.block(1), b2 = b.block(1), b3 = b.block();
  int n = b.vreg(), s = b.vreg(), i = b.vreg(), i2 = b.vreg(), s2 = b.vreg();
  b.at(b0);
  b.mov(V(n), P(RDI));
  b.parmove({{V(s), I(0)}, {V(i), I(1)}});
  b.at(b1);
  b.cmp(V(i), V(n));
  b.jcc(Cond::G, b3);
  b.at(b2);
  b.mov(V(s2), V(s));
  b.op(MOp::Add, V(s2), V(i));
  b.mov(V(i2), V(i));
  b.op(MOp::Add, V(i2), I(1));
  b.parmove({{V(s), V(s2)}, {V(i), V(i2)}});
  b.jmp(b1);
  b.at(b3);
  b.ret(V(s));
  AllocCheck c = allocateAndCompare(b.finish(), inputs({{10}, {0}, {1}, {100}}));
  REQUIRE_SAME(c);
  CHECK(c.before[0].ret == 55);
  CHECK(c.before[3].ret == 5050);
  CHECK(c.allocated.numSlots == 0);
  // With lifetime holes the loop-carried copies coalesce: the body needs no
  // move at all besides the two adds.
  const MBlock& body = c.allocated.blocks[size_t(b2)];
  CHECK(countOps(c.allocated, MOp::ParMove) == 0);
  CHECK(body.insts.size() == 3);
}

TEST_CASE("regalloc: a loop variable stepped in one arm of an if needs no move", "[regalloc]") {
  // for (i = 0; i < n; i++) if (i & 1) cnt++;  -- cnt's Phi, the merge
  // and cnt + 1 are one copy group: the value computed in the arm has no
  // copy of its own to go to, yet takes the Phi's register (with only
  // direct hints it took a fresh one, moved to the merge's and back).
  FnBuilder b;
  int b0 = b.block(), head = b.block(1), test = b.block(1), inc = b.block(1), skip = b.block(1),
      latch = b.block(1), out = b.block();
  int n = b.vreg(), i = b.vreg(), cnt = b.vreg(), next = b.vreg(), merged = b.vreg(), bit = b.vreg(),
      i2 = b.vreg(), early = b.vreg();
  b.at(b0);
  b.mov(V(n), P(RDI));
  // Holds the first register while cnt is given one, free again in the arm.
  b.mov(V(early), I(3));
  b.parmove({{V(i), I(0)}, {V(cnt), I(0)}});
  b.cmp(V(early), V(n));
  b.jcc(Cond::E, out);
  b.at(head);
  b.cmp(V(i), V(n));
  b.jcc(Cond::GE, out);
  b.at(test);
  b.mov(V(bit), V(i));
  b.op(MOp::And, V(bit), I(1));
  b.cmp(V(bit), I(0));
  b.jcc(Cond::E, skip);
  b.at(inc);
  b.emit(MOp::Lea, {V(next), Opnd::memV(cnt, 1)});
  b.parmove({{V(merged), V(next)}});
  b.jmp(latch);
  b.at(skip);
  b.parmove({{V(merged), V(cnt)}});
  b.at(latch);
  b.emit(MOp::Lea, {V(i2), Opnd::memV(i, 1)});
  b.parmove({{V(cnt), V(merged)}, {V(i), V(i2)}});
  b.jmp(head);
  b.at(out);
  b.ret(V(cnt));
  AllocCheck c = allocateAndCompare(b.finish(), inputs({{10}, {0}, {7}, {3}}));
  REQUIRE_SAME(c);
  CHECK(c.before[0].ret == 5);
  CHECK(c.before[2].ret == 3);
  CHECK(c.before[3].ret == 0);
  // Register-to-register moves left: n from rdi, i for the and, cnt to rax.
  int regMoves = 0;
  for (const MBlock& blk : c.allocated.blocks) regMoves += regToRegMoves(blk);
  CHECK(regMoves <= 3);
  const MBlock& arm = c.allocated.blocks[size_t(inc)];
  REQUIRE(!arm.insts.empty());
  CHECK(arm.insts[0].op == MOp::Lea);
  CHECK(arm.insts[0].ops[0].reg == arm.insts[0].ops[1].base);  // cnt + 1 in cnt's register
}

TEST_CASE("regalloc: a loop counter's Phi takes a register its increment can keep", "[regalloc]") {
  // steps = 0; do { steps2 = steps + 1; x = x / 7; steps = steps2; } while (x != 0)
  // The Phi `steps` lives from the head to the increment, where no
  // register is taken: alone it would get rax. Its increment lives across
  // the division, which writes rax and rdx. Choosing for the copy group
  // (a register free for both) leaves the back edge without a move for it.
  FnBuilder b;
  int b0 = b.block(), body = b.block(1), latch = b.block(1), out = b.block();
  int n = b.vreg(), x = b.vreg(), steps = b.vreg(), steps2 = b.vreg(), d = b.vreg(), q = b.vreg();
  b.at(b0);
  b.mov(V(n), P(RDI));
  b.parmove({{V(steps), I(0)}, {V(x), V(n)}});
  b.at(body);
  b.emit(MOp::Lea, {V(steps2), Opnd::memV(steps, 1)});
  b.mov(V(d), I(7));
  b.mov(P(RAX), V(x));
  b.emit(MOp::SDivRem, {V(d)});
  b.mov(V(q), P(RAX));
  b.cmp(V(q), I(0));
  b.jcc(Cond::E, out);
  b.at(latch);
  b.parmove({{V(steps), V(steps2)}, {V(x), V(q)}});
  b.jmp(body);
  b.at(out);
  b.ret(V(steps2));
  AllocCheck c = allocateAndCompare(b.finish(), inputs({{1}, {6}, {7}, {100000}, {-50}}));
  REQUIRE_SAME(c);
  CHECK(c.before[3].ret == 6);
  const MBlock& back = c.allocated.blocks[size_t(latch)];
  const MInst& lea = c.allocated.blocks[size_t(body)].insts[0];
  REQUIRE(lea.op == MOp::Lea);
  CHECK(lea.ops[0].reg == lea.ops[1].base);  // steps + 1 in steps' register
  CHECK(regToRegMoves(back) <= 1);  // at most x's
}

TEST_CASE("regalloc: of a copy group's registers, a copy takes the one the group got first", "[regalloc]") {
  // A Phi at a loop's head (pc), its increment (next = pc + 2) and a value
  // loaded in the loop (arg) meet at a merge: pc' = cond ? arg : next.
  // Both copies into the merge are free to coalesce; the merge taking pc's
  // register (the group's first) leaves the back edge without a move, and
  // the move to the arm that took arg.
  FnBuilder b;
  int b0 = b.block(), head = b.block(1), armArg = b.block(1), armNext = b.block(1), merge = b.block(1),
      out = b.block();
  int base = b.vreg(), pc = b.vreg(), next = b.vreg(), arg = b.vreg(), merged = b.vreg(), cnt = b.vreg(),
      cnt2 = b.vreg();
  b.at(b0);
  b.mov(V(base), P(RDI));
  b.parmove({{V(pc), I(0)}, {V(cnt), I(0)}});
  b.at(head);
  Opnd element = Opnd::memV(base, 0);  // base[pc]
  element.index = pc;
  element.indexVirt = true;
  element.scale = 8;
  b.mov(V(arg), element);
  b.emit(MOp::Lea, {V(next), Opnd::memV(pc, 2)});
  b.emit(MOp::Lea, {V(cnt2), Opnd::memV(cnt, 1)});
  b.cmp(V(arg), I(5));
  b.jcc(Cond::E, armArg);
  b.jmp(armNext);
  b.at(armArg);
  b.parmove({{V(merged), V(arg)}});
  b.jmp(merge);
  b.at(armNext);
  b.parmove({{V(merged), V(next)}});
  b.at(merge);
  b.parmove({{V(pc), V(merged)}, {V(cnt), V(cnt2)}});
  b.cmp(V(pc), I(8));
  b.jcc(Cond::L, head);
  b.at(out);
  b.ret(V(cnt));
  std::vector<InterpConfig> in = inputs({{kHeapAddr}, {kHeapAddr}});
  in[0].heap = std::vector<int64_t>(16, 0);
  in[0].heap[0] = 5;  // pc: 0, 5, 7, 9
  in[1].heap = std::vector<int64_t>(16, 1);  // pc: 0, 2, 4, 6, 8
  AllocCheck c = allocateAndCompare(b.finish(), in);
  REQUIRE_SAME(c);
  CHECK(c.before[0].ret == 3);
  CHECK(c.before[1].ret == 4);
  CHECK(regToRegMoves(c.allocated.blocks[size_t(merge)]) == 0);
}

TEST_CASE("regalloc: diamond with phis", "[regalloc]") {
  // r = a < b ? a * 2 : b - a, then a swap of (a, b) on one arm only.
  FnBuilder b;
  int b0 = b.block(), bt = b.block(), be = b.block(), bj = b.block();
  b.at(b0);
  std::vector<int> p = b.params(2);
  int r = b.vreg(), x = b.vreg(), y = b.vreg(), t = b.vreg();
  b.mov(V(x), V(p[0]));
  b.mov(V(y), V(p[1]));
  b.cmp(V(x), V(y));
  b.jcc(Cond::GE, be);
  b.at(bt);
  b.mov(V(t), V(x));
  b.op(MOp::Add, V(t), V(t));
  b.parmove({{V(r), V(t)}, {V(x), V(y)}, {V(y), V(x)}});
  b.jmp(bj);
  b.at(be);
  b.mov(V(t), V(y));
  b.op(MOp::Sub, V(t), V(x));
  b.parmove({{V(r), V(t)}});
  b.at(bj);
  b.op(MOp::Imul, V(r), I(1000));
  b.op(MOp::Add, V(r), V(x));
  b.op(MOp::Imul, V(r), I(1000));
  b.op(MOp::Add, V(r), V(y));
  b.ret(V(r));
  AllocCheck c = allocateAndCompare(b.finish(), inputs({{3, 8}, {8, 3}, {5, 5}, {-4, 2}}));
  REQUIRE_SAME(c);
  CHECK(c.before[0].ret == (6 * 1000 + 8) * 1000 + 3);
  CHECK(c.before[1].ret == (-5 * 1000 + 8) * 1000 + 3);
}

TEST_CASE("regalloc: many simultaneously live values are spilled", "[regalloc]") {
  // 30 values live at once, combined pairwise in the end; the function also
  // computes a[i] * b[j] products so that spilled values feed every
  // instruction form (two-address, memory source, cmov, shifts).
  const int kN = 30;
  FnBuilder b;
  b.at(b.block());
  std::vector<int> p = b.params(3);
  std::vector<int> v;
  for (int i = 0; i < kN; ++i) {
    int x = b.vreg();
    b.mov(V(x), V(p[size_t(i % 3)]));
    b.op(MOp::Imul, V(x), I(i + 1));
    b.op(MOp::Add, V(x), I(i * i));
    v.push_back(x);
  }
  for (int i = 0; i < kN; ++i) {
    b.op(MOp::Xor, V(v[size_t(i)]), V(v[size_t((i * 7 + 3) % kN)]));
    b.cmp(V(v[size_t(i)]), V(v[size_t((i + 1) % kN)]));
    b.cmov(Cond::L, V(v[size_t(i)]), V(v[size_t((i + 2) % kN)]));
    b.op(MOp::Shl, V(v[size_t(i)]), I(i % 5));
  }
  int acc = b.vreg();
  b.mov(V(acc), I(0));
  for (int i = 0; i < kN; ++i) {
    b.op(MOp::Imul, V(acc), I(17));
    b.op(MOp::Add, V(acc), V(v[size_t(i)]));
  }
  b.ret(V(acc));
  AllocCheck c =
      allocateAndCompare(b.finish(), inputs({{1, 2, 3}, {-100, 77, 5}, {123456789, -1, 0}}));
  REQUIRE_SAME(c);
  CHECK(c.allocated.numSlots > 0);
  // Spill slots are shared only by values that are never live together, and
  // about kN - 12 values must be in memory at the peak.
  CHECK(c.allocated.numSlots >= kN - 12);
  CHECK(c.allocated.numSlots <= kN);
}

TEST_CASE("regalloc: values live across calls", "[regalloc]") {
  // Five values survive two calls (callee-saved registers), two more force
  // spills across the call; the call results feed the arguments of the next.
  FnBuilder b;
  b.at(b.block());
  std::vector<int> keep = b.valuesFrom(b.params(2), 7, MOp::Add, [](int i) { return i * 10; });
  int r1 = b.vreg(), r2 = b.vreg(), acc = b.vreg();
  b.call("g", {V(keep[0]), V(keep[1]), I(5)}, r1);
  b.call("h", {V(r1), V(keep[2])}, r2);
  b.mov(V(acc), V(r2));
  for (int x : keep) {
    b.op(MOp::Imul, V(acc), I(3));
    b.op(MOp::Add, V(acc), V(x));
  }
  b.ret(V(acc));
  std::vector<InterpConfig> in = inputs({{1, 2}, {-7, 40}});
  for (InterpConfig& cfg : in) {
    // Wrapping arithmetic: wrong code may pass garbage.
    cfg.callees["g"].fn = [](const std::vector<int64_t>& a) {
      return int64_t(uint64_t(a[0]) * 100 + uint64_t(a[1]) - uint64_t(a[2]));
    };
    cfg.callees["h"].fn = [](const std::vector<int64_t>& a) {
      return int64_t(uint64_t(a[0]) - 3 * uint64_t(a[1]));
    };
  }
  AllocCheck c = allocateAndCompare(b.finish(), in);
  REQUIRE_SAME(c);
  REQUIRE(c.before[0].calls.size() == 2);
  CHECK(c.before[0].calls[0] == "g(1, 12, 5) = 107");
  // All five callee-saved registers are needed; they are saved and restored
  // (the interpreter checks the restore at ret).
  CHECK(c.allocated.usedCalleeSaved == std::vector<int>{RBX, R12, R13, R14, R15});
  CHECK(c.allocated.numSlots >= 2);
}

namespace {

// for (i = 0; i < n; i++) { s0 += i; ...; s7 += i; if (i == 77) g(s0); }
// return s0 + ... + s7: ten values live across a call that runs once.
struct ColdCallLoop {
  MFunction f;
  int body, cold;
};
ColdCallLoop coldCallLoop() {
  FnBuilder b;
  int b0 = b.block(), head = b.block(1), body = b.block(1), cold = b.block(1), latch = b.block(1),
      out = b.block();
  int n = b.vreg(), i = b.vreg(), i2 = b.vreg(), r = b.vreg(), acc = b.vreg();
  std::vector<int> s;
  for (int k = 0; k < 8; ++k) s.push_back(b.vreg());
  b.at(b0);
  b.mov(V(n), P(RDI));
  std::vector<std::pair<Opnd, Opnd>> init{{V(i), I(0)}};
  for (int k = 0; k < 8; ++k) init.push_back({V(s[size_t(k)]), I(k)});
  b.parmove(init);
  b.at(head);
  b.cmp(V(i), V(n));
  b.jcc(Cond::GE, out);
  b.at(body);
  for (int k = 0; k < 8; ++k) b.op(MOp::Add, V(s[size_t(k)]), V(k % 2 ? i : s[size_t(k) - (k > 0)]));
  b.cmp(V(i), I(77));
  b.jcc(Cond::NE, latch);
  b.at(cold);
  b.call("g", {V(s[0])}, r);
  b.op(MOp::Add, V(s[1]), V(r));
  b.at(latch);
  b.emit(MOp::Lea, {V(i2), Opnd::memV(i, 1)});
  b.parmove({{V(i), V(i2)}});
  b.jmp(head);
  b.at(out);
  b.mov(V(acc), V(s[0]));
  for (int k = 1; k < 8; ++k) b.op(MOp::Add, V(acc), V(s[size_t(k)]));
  b.ret(V(acc));
  return {b.finish(), body, cold};
}

// Frame accesses ([rbp + k], after frame lowering) in block b.
int frameAccesses(const MFunction& f, int b) {
  int n = 0;
  for (const MInst& mi : f.blocks[size_t(b)].insts)
    for (const Opnd& o : mi.ops) n += o.kind == Opnd::Mem && o.base == RBP && !o.baseVirt;
  return n;
}

}  // namespace

TEST_CASE("regalloc: values live across a rarely taken call are saved around it", "[regalloc]") {
  ColdCallLoop l = coldCallLoop();
  std::vector<InterpConfig> in = inputs({{100}, {10}, {0}, {78}});
  for (InterpConfig& cfg : in)
    cfg.callees["g"].fn = [](const std::vector<int64_t>& a) { return int64_t(uint64_t(a[0]) * 3 + 1); };
  // Ten values cross the call; five callee-saved registers hold five.
  // Without a second chance (-O0) the others are spilled: the loop body
  // reads and writes their slots every iteration.
  AllocCheck spilled = allocateAndCompare(l.f, in, false);
  REQUIRE_SAME(spilled);
  CHECK(frameAccesses(spilled.allocated, l.body) >= 4);
  // With it they stay in caller-saved registers, stored before the call and
  // loaded back after it, in the block that makes the call only.
  AllocCheck saved = allocateAndCompare(l.f, in);
  REQUIRE_SAME(saved);
  CHECK(saved.before[0].calls.size() == 1);
  CHECK(frameAccesses(saved.allocated, l.body) == 0);
  CHECK(frameAccesses(saved.allocated, l.cold) >= 2 * (10 - 5 - 1));
}

TEST_CASE("regalloc: a spill may evict several values sharing a register", "[regalloc]") {
  // Everything lives across calls, so only the 5 callee-saved registers are
  // usable. k1..k4 (many uses) take four; a takes the fifth, and b, living
  // in a's lifetime hole, shares it. c then overlaps both a and b and is
  // used more than the two together: both must be evicted from that
  // register, not just one.
  FnBuilder b;
  b.at(b.block());
  std::vector<int> p = b.params(2);
  std::vector<int> k;
  for (int i = 0; i < 4; ++i) {
    int x = b.vreg();
    b.mov(V(x), V(p[size_t(i % 2)]));
    b.op(MOp::Add, V(x), I(i));
    k.push_back(x);
  }
  int a = b.vreg(), bv = b.vreg(), c = b.vreg();
  b.mov(V(a), I(1));
  b.call("f", {}, -1);
  b.call("g", {V(a)}, -1);  // last use of the first a
  b.mov(V(bv), I(2));       // b lives in a's hole
  b.call("f", {}, -1);
  b.mov(V(c), I(3));
  b.call("f", {}, -1);
  b.call("g", {V(bv)}, -1);
  b.mov(V(a), I(4));        // a again
  b.call("f", {}, -1);
  b.call("g", {V(a)}, -1);
  for (int i = 0; i < 8; ++i) b.call("g", {V(c)}, -1);
  int acc = b.vreg();
  b.mov(V(acc), I(0));
  for (int i = 0; i < 6; ++i)
    for (int x : k) {
      b.op(MOp::Imul, V(acc), I(3));
      b.op(MOp::Add, V(acc), V(x));
    }
  b.ret(V(acc));
  AllocCheck ch = allocateAndCompare(b.finish(), inputs({{5, 6}, {-1, 100}}));
  REQUIRE_SAME(ch);
  CHECK(ch.before[0].calls.size() == 15);
  CHECK(ch.allocated.usedCalleeSaved.size() == 5);
  // a and b are spilled (b sits inside a's lifetime, so they get a slot
  // each) and c stays in a register: the only argument loads from the frame
  // are a, b, a.
  CHECK(ch.allocated.numSlots == 2);
  int argLoads = 0;
  for (const MInst& mi : ch.allocated.blocks[0].insts)
    if (mi.op == MOp::Mov && mi.ops[0] == P(RDI) && mi.ops[1].kind == Opnd::Mem) ++argLoads;
  CHECK(argLoads == 3);
}

TEST_CASE("regalloc: division with fixed rax and rdx", "[regalloc]") {
  // q = a / d, r = a % d with several other values live across the
  // division, including the divisor, which must not be put in rax or rdx.
  FnBuilder b;
  b.at(b.block());
  std::vector<int> p = b.params(3);
  int q = b.vreg(), r = b.vreg(), q2 = b.vreg(), acc = b.vreg();
  b.mov(P(RAX), V(p[0]));
  b.emit(MOp::SDivRem, {V(p[1])});
  b.mov(V(q), P(RAX));
  b.mov(V(r), P(RDX));
  b.mov(P(RAX), V(p[2]));
  b.emit(MOp::SDivRem, {V(p[1])});
  b.mov(V(q2), P(RAX));
  b.mov(V(acc), V(q));
  b.op(MOp::Imul, V(acc), I(1000));
  b.op(MOp::Add, V(acc), V(r));
  b.op(MOp::Imul, V(acc), I(1000));
  b.op(MOp::Add, V(acc), V(q2));
  b.op(MOp::Add, V(acc), V(p[0]));
  b.op(MOp::Add, V(acc), V(p[1]));
  b.op(MOp::Add, V(acc), V(p[2]));
  b.ret(V(acc));
  AllocCheck c = allocateAndCompare(
      b.finish(), inputs({{100, 7, 50}, {-100, 7, -50}, {5, -1, INT64_MIN}, {7, 100, 3}}));
  REQUIRE_SAME(c);
  CHECK(c.before[0].ret == (14 * 1000 + 2) * 1000 + 7 + 157);
  for (const MBlock& blk : c.allocated.blocks)
    for (const MInst& mi : blk.insts)
      if (mi.op == MOp::SDivRem) {
        REQUIRE(mi.ops[0].kind == Opnd::PReg);
        CHECK(mi.ops[0].reg != RAX);
        CHECK(mi.ops[0].reg != RDX);
      }
}

TEST_CASE("regalloc: shifts by rcx", "[regalloc]") {
  // A value live across the shifts must not sit in rcx, and the parameter
  // arriving in rcx must be moved out of the way before rcx is set.
  FnBuilder b;
  b.at(b.block());
  std::vector<int> p = b.params(4);  // p[3] arrives in rcx
  int x = b.vreg(), y = b.vreg();
  b.mov(V(x), V(p[0]));
  b.mov(P(RCX), V(p[1]));
  b.op(MOp::Shl, V(x), P(RCX));
  b.mov(V(y), V(p[2]));
  b.mov(P(RCX), V(p[3]));
  b.op(MOp::Sar, V(y), P(RCX));
  b.op(MOp::Xor, V(x), V(y));
  b.op(MOp::Add, V(x), V(p[3]));
  b.op(MOp::Add, V(x), V(p[1]));
  b.ret(V(x));
  AllocCheck c = allocateAndCompare(
      b.finish(), inputs({{1, 4, -64, 3}, {5, 63, 1000, 0}, {-1, 65, 7, 2}}));
  REQUIRE_SAME(c);
  CHECK(c.before[0].ret == ((1 << 4) ^ (-64 >> 3)) + 3 + 4);
}

TEST_CASE("regalloc: parallel-move cycles through registers, slots and immediates",
          "[regalloc]") {
  // A loop rotating three values and swapping two more on every
  // iteration, under enough pressure that some of them are spilled.
  for (int extra : {0, 14}) {
    FnBuilder b;
    int b0 = b.block(), head = b.block(1), body = b.block(1), exit = b.block();
    b.at(b0);
    std::vector<int> p = b.params(2);
    int a = b.vreg(), bb = b.vreg(), cc = b.vreg(), d = b.vreg(), e = b.vreg(), n = b.vreg();
    std::vector<int> ballast;
    b.parmove({{V(a), V(p[0])}, {V(bb), V(p[1])}, {V(cc), I(3)}, {V(d), I(4)}, {V(e), I(5)},
               {V(n), I(7)}});
    for (int i = 0; i < extra; ++i) {
      int x = b.vreg();
      b.mov(V(x), V(p[size_t(i % 2)]));
      b.op(MOp::Add, V(x), I(i));
      ballast.push_back(x);
    }
    b.at(head);
    b.cmp(V(n), I(0));
    b.jcc(Cond::LE, exit);
    b.at(body);
    for (int x : ballast) b.op(MOp::Add, V(x), V(a));
    b.op(MOp::Sub, V(n), I(1));
    b.op(MOp::Add, V(a), I(1));
    b.parmove({{V(a), V(bb)}, {V(bb), V(cc)}, {V(cc), V(a)}, {V(d), V(e)}, {V(e), V(d)},
               {V(n), V(n)}});
    b.jmp(head);
    b.at(exit);
    int acc = b.vreg();
    b.mov(V(acc), V(a));
    for (int x : std::vector<int>{bb, cc, d, e}) {
      b.op(MOp::Imul, V(acc), I(10));
      b.op(MOp::Add, V(acc), V(x));
    }
    for (int x : ballast) b.op(MOp::Xor, V(acc), V(x));
    b.ret(V(acc));
    AllocCheck c = allocateAndCompare(b.finish(), inputs({{1, 2}, {9, -9}}));
    INFO("extra values: " << extra);
    REQUIRE_SAME(c);
    if (extra == 0) CHECK(c.allocated.numSlots == 0);
    else CHECK(c.allocated.numSlots > 0);
  }
}

TEST_CASE("regalloc: stack-passed arguments, incoming and outgoing", "[regalloc]") {
  FnBuilder b;
  b.at(b.block());
  std::vector<int> p = b.params(9);  // three on the stack
  int r = b.vreg(), acc = b.vreg();
  std::vector<Opnd> args;
  for (int i = 8; i >= 0; --i) args.push_back(V(p[size_t(i)]));
  b.call("many", args, r);
  b.mov(V(acc), V(r));
  for (int x : p) {
    b.op(MOp::Imul, V(acc), I(5));
    b.op(MOp::Add, V(acc), V(x));
  }
  b.ret(V(acc));
  std::vector<InterpConfig> in =
      inputs({{1, 2, 3, 4, 5, 6, 7, 8, 9}, {-1, -2, -3, -4, -5, -6, 70, 80, 90}});
  for (InterpConfig& cfg : in) {
    cfg.callees["many"].stackArgs = 3;
    cfg.callees["many"].fn = [](const std::vector<int64_t>& a) {
      uint64_t h = 0;
      for (int64_t x : a) h = h * 3 + uint64_t(x);
      return int64_t(h);
    };
  }
  AllocCheck c = allocateAndCompare(b.finish(), in);
  REQUIRE_SAME(c);
  CHECK(c.before[0].calls[0] == "many(9, 8, 7, 6, 5, 4, 3, 2, 1) = 83653");
}

TEST_CASE("regalloc: xmm values get xmm registers and are spilled across calls",
          "[regalloc]") {
  // 16 xmm values (more than the 14 allocatable xmm registers), rotated by
  // a ParMove, then all live across a call, which clobbers every xmm.
  FnBuilder b;
  b.at(b.block());
  std::vector<int> p = b.params(2);
  std::vector<int> xs;
  for (int i = 0; i < 16; ++i) {
    int t = b.vreg(), x = b.f.newVReg(RegClass::Xmm);
    b.mov(V(t), V(p[size_t(i % 2)]));
    b.op(MOp::Add, V(t), I(i * 3));
    b.mov(V(x), V(t));  // movq xmm, gpr
    xs.push_back(x);
  }
  b.parmove({{V(xs[0]), V(xs[1])}, {V(xs[1]), V(xs[2])}, {V(xs[2]), V(xs[0])},
             {V(xs[3]), I(77)}});
  // Xmm values that die before the call can stay in xmm registers.
  int pre = b.vreg();
  b.mov(V(pre), I(0));
  for (int i = 0; i < 6; ++i) {
    int x = b.f.newVReg(RegClass::Xmm), y = b.f.newVReg(RegClass::Xmm), t = b.vreg();
    b.mov(V(x), V(p[0]));
    b.mov(V(y), V(x));
    b.parmove({{V(x), V(y)}, {V(y), I(i)}});
    b.mov(V(t), V(y));
    b.op(MOp::Add, V(pre), V(t));
    b.mov(V(t), V(x));
    b.op(MOp::Add, V(pre), V(t));
  }
  int r = b.vreg(), acc = b.vreg();
  b.call("g", {V(p[0])}, r);
  b.mov(V(acc), V(r));
  b.op(MOp::Add, V(acc), V(pre));
  for (int x : xs) {
    int t = b.vreg();
    b.mov(V(t), V(x));
    b.op(MOp::Imul, V(acc), I(7));
    b.op(MOp::Add, V(acc), V(t));
  }
  b.ret(V(acc));
  AllocCheck c = allocateAndCompare(b.finish(), inputs({{1, 2}, {-50, 1000}}));
  REQUIRE_SAME(c);
  CHECK(c.allocated.numSlots >= 16);
  bool sawXmm = false;
  for (const MBlock& blk : c.allocated.blocks)
    for (const MInst& mi : blk.insts)
      for (const Opnd& o : mi.ops)
        if (o.kind == Opnd::PReg && isXmm(o.reg)) {
          sawXmm = true;
          // Allocatable xmm0..xmm13, or a scratch register.
          CHECK((o.reg <= XMM0 + 13 || o.reg == kXmmScratch || o.reg == kXmmScratch2));
        }
  CHECK(sawXmm);
}

TEST_CASE("regalloc: scratch and reserved registers are never allocated", "[regalloc]") {
  RandomMirOptions o;
  o.numValues = 40;
  MFunction f = randomMir(7, o);
  allocateRegisters(f);
  REQUIRE(findVirtualRegisters(f).empty());
  for (int r : touchedRegs(f)) {
    CHECK(r != RBP);
    CHECK_FALSE(isXmm(r));
  }
  // rsp only as a memory base (outgoing arguments), never as a value.
  for (const MBlock& blk : f.blocks)
    for (const MInst& mi : blk.insts)
      for (const Opnd& op : mi.ops) CHECK_FALSE((op.kind == Opnd::PReg && op.reg == RSP));
}

TEST_CASE("regalloc: allocation is deterministic", "[regalloc]") {
  RandomMirOptions o;
  o.numValues = 30;
  MFunction f1 = randomMir(99, o), f2 = randomMir(99, o);
  REQUIRE(print(f1) == print(f2));
  allocateRegisters(f1);
  allocateRegisters(f2);
  CHECK(print(f1) == print(f2));
  lowerFrame(f1);
  lowerFrame(f2);
  CHECK(print(f1) == print(f2));
}

TEST_CASE("regalloc: malformed input is an internal error, not a crash", "[regalloc]") {
  FnBuilder b;
  b.at(b.block());
  b.mov(V(5), I(1));  // vreg 5 was never created
  b.emit(MOp::Ret);
  CHECK_THROWS_AS(allocateRegisters(b.finish()), InternalError);
  FnBuilder c;
  c.at(c.block());
  int v = c.vreg();
  c.emit(MOp::ParMove, {V(v)});  // odd operand count
  c.emit(MOp::Ret);
  CHECK_THROWS_AS(allocateRegisters(c.finish()), InternalError);
  MFunction empty;
  allocateRegisters(empty);
  CHECK(empty.blocks.empty());
}

TEST_CASE("regalloc: random programs behave the same after allocation", "[regalloc][fuzz]") {
  // Low, medium and high register pressure; with and without calls.
  struct Shape {
    int values, statements, depth;
    bool calls;
  };
  const Shape shapes[] = {{4, 25, 2, true},   {10, 30, 2, true}, {24, 30, 2, true},
                          {40, 40, 3, true},  {24, 40, 2, false}, {110, 60, 2, true}};
  // Both with the splitting of spilled values (-O1 and up) and without (-O0).
  int runs = 0;
  for (bool split : {true, false})
    for (const Shape& s : shapes) {
      for (uint64_t seed = 1; seed <= 40; ++seed) {
        RandomMirOptions o;
        o.numValues = s.values;
        o.numStatements = s.statements;
        o.maxDepth = s.depth;
        o.calls = s.calls;
        MFunction f = randomMir(seed, o);
        AllocCheck c = allocateAndCompare(f, randomMirInputs(seed, 3), split);
        INFO("split " << split << " values " << s.values << " seed " << seed << "\n" << c.error << "\n"
                      << (c.ok() ? std::string() : print(f)));
        REQUIRE(c.ok());
        ++runs;
      }
    }
  CHECK(runs == 480);
}
