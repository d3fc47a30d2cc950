// Tests for codegen/spill_split: the copies made for spilled values (where
// they are made, and that none lives across a call), and the allocator's
// second scan that uses them (fewer slot reads, the same results).
#include <catch2/catch.hpp>

#include "codegen/regalloc.h"
#include "codegen/spill_split.h"
#include "test/unit/codegen/alloc_check.h"
#include "test/unit/codegen/mir_builder.h"

using namespace simplec;
using namespace simplec::mir;
using namespace simplec::test;

namespace {

bool reads(const MInst& mi, int v) {
  DefUse du = defUses(mi);
  for (const Opnd& o : du.uses)
    if (o.kind == Opnd::VReg && o.reg == v) return true;
  return false;
}
bool writes(const MInst& mi, int v) {
  DefUse du = defUses(mi);
  for (const Opnd& o : du.defs)
    if (o.kind == Opnd::VReg && o.reg == v) return true;
  return false;
}
bool isCopy(const MInst& mi, int to, int from) {
  return mi.op == MOp::Mov && mi.ops.size() == 2 && mi.ops[0] == Opnd::vreg(to) &&
         mi.ops[1] == Opnd::vreg(from);
}

// Instructions of the allocated code that read a frame slot.
int slotReads(const MFunction& f) {
  int n = 0;
  for (const MBlock& b : f.blocks)
    for (const MInst& mi : b.insts)
      for (size_t i = 0; i < mi.ops.size(); ++i)
        if (mi.ops[i].kind == Opnd::Slot && operandRole(mi, i) != OpndRole::Def) ++n;
  return n;
}

}  // namespace

TEST_CASE("spill split: one copy per stretch between calls, none across a call", "[regalloc][split]") {
  FnBuilder b;
  b.at(b.block());
  int v = b.vreg(), x = b.vreg(), y = b.vreg(), z = b.vreg(), w = b.vreg(), q = b.vreg(),
      lone = b.vreg();
  b.mov(V(v), I(7));             // no read before the call: written in the slot
  b.call("g", {}, -1);
  b.mov(V(x), V(v));             // stretch 1: two reads
  b.op(MOp::Add, V(x), V(v));
  b.call("g", {}, -1);
  b.mov(V(y), V(v));             // stretch 2: two reads
  b.op(MOp::Imul, V(y), V(v));
  b.mov(V(v), I(5));             // a new value, read twice after
  b.mov(V(z), V(v));
  b.op(MOp::Sub, V(z), V(v));
  b.call("g", {}, -1);
  b.mov(V(w), V(v));             // stretch 3: one read stays in the slot
  b.mov(V(lone), V(x));
  b.op(MOp::Add, V(lone), V(y));
  b.op(MOp::Add, V(lone), V(z));
  b.op(MOp::Add, V(lone), V(w));
  b.mov(V(q), V(lone));
  b.ret(V(q));
  MFunction f = b.finish();
  std::vector<bool> spilled(f.vregs.size(), false);
  spilled[size_t(v)] = true;
  int before = int(f.vregs.size());
  SpilledCopies c = splitSpilled(f, spilled, {0});
  // Two reloads and one definition copy, all of v.
  REQUIRE(int(f.vregs.size()) == before + 3);
  REQUIRE(c.first == before);
  REQUIRE(c.parent == std::vector<int>{v, v, v});
  // Lives in positions of the code before (instruction i reads at 2i):
  // the first reload from the read of `mov x, v` (instruction 2) to that
  // of `add x, v`; the definition copy from the write of `mov v, 5`
  // (instruction 7) to the read of `sub z, v` (instruction 9).
  CHECK(c.life[0].from == 4);
  CHECK(c.life[0].to == 6);
  CHECK(c.life[2].from == 15);
  CHECK(c.life[2].to == 18);

  const std::vector<MInst>& code = f.blocks[0].insts;
  int reloads = 0, stores = 0, readsOfV = 0;
  std::vector<bool> live(f.vregs.size(), false);  // copies made since the last call
  for (const MInst& mi : code) {
    for (int t = before; t < before + 3; ++t) {
      if (reads(mi, t)) CHECK(live[size_t(t)]);  // never read after a call
      if (writes(mi, t)) live[size_t(t)] = true;
      if (isCopy(mi, t, v)) ++reloads;
      if (isCopy(mi, v, t)) ++stores;
    }
    if (mi.op == MOp::Call) live.assign(live.size(), false);
    if (reads(mi, v)) ++readsOfV;
  }
  CHECK(reloads == 2);
  CHECK(stores == 1);  // the definition's copy goes to the slot at once
  // v is read by the two reloads and the lone read after the second call.
  CHECK(readsOfV == 3);
}

TEST_CASE("spill split: a two-address update through a copy is stored back", "[regalloc][split]") {
  FnBuilder b;
  b.at(b.block());
  int v = b.vreg(), s = b.vreg();
  b.mov(V(v), I(3));
  b.mov(V(s), V(v));
  b.op(MOp::Add, V(v), I(4));   // read and written: the copy is updated, then stored
  b.op(MOp::Add, V(s), V(v));
  b.ret(V(s));
  MFunction f = b.finish();
  std::vector<bool> spilled(f.vregs.size(), false);
  spilled[size_t(v)] = true;
  SpilledCopies c = splitSpilled(f, spilled, {0});
  // One copy: made by the first definition (two reads follow), updated by
  // the add and stored after it, read by the last instruction.
  REQUIRE(f.vregs.size() == 3);
  const std::vector<MInst>& code = f.blocks[0].insts;
  int adds = 0;
  for (size_t i = 0; i < code.size(); ++i) {
    const MInst& mi = code[i];
    if (mi.op == MOp::Add && mi.ops[1] == I(4)) {
      ++adds;
      REQUIRE(mi.ops[0].kind == Opnd::VReg);
      int t = mi.ops[0].reg;
      CHECK(t == c.first);
      REQUIRE(i + 1 < code.size());
      CHECK(isCopy(code[i + 1], v, t));
    }
  }
  CHECK(adds == 1);
  // Written by `mov v, 3` (instruction 0), updated and stored at the add
  // (instruction 2), read by the last add (instruction 3).
  REQUIRE(c.parent == std::vector<int>{v});
  CHECK(c.life[0].from == 1);
  CHECK(c.life[0].to == 6);
}

TEST_CASE("spill split: values spilled across a call are reloaded once per stretch", "[regalloc][split]") {
  // Seven values live across a call: five callee-saved registers hold five,
  // two are spilled. After the call each is read four times; with the
  // split, each is reloaded once into a free caller-saved register.
  FnBuilder b;
  b.at(b.block());
  std::vector<int> keep = b.valuesFrom(b.params(2), 7, MOp::Imul, [](int i) { return i + 3; });
  int r = b.vreg(), acc = b.vreg();
  b.call("g", {V(keep[0])}, r);
  b.mov(V(acc), V(r));
  for (int round = 0; round < 4; ++round)
    for (int x : keep) {
      b.op(MOp::Imul, V(acc), I(5));
      b.op(round % 2 ? MOp::Xor : MOp::Add, V(acc), V(x));
    }
  b.ret(V(acc));
  MFunction f = b.finish();
  std::vector<InterpConfig> in(2);
  in[0].args = {3, -11};
  in[1].args = {1000003, 77};
  in[1].seed = 2;
  for (InterpConfig& cfg : in)
    cfg.callees["g"].fn = [](const std::vector<int64_t>& a) { return int64_t(uint64_t(a[0]) * 31 + 1); };
  AllocCheck on = allocateAndCompare(f, in, true);
  AllocCheck off = allocateAndCompare(f, in, false);
  INFO(on.error << off.error);
  REQUIRE(on.ok());
  REQUIRE(off.ok());

  MFunction withSplit = f, without = f;
  allocateRegisters(withSplit, true);
  allocateRegisters(without, false);
  // Without: 2 spilled values x 4 reads after the call. With: one reload each.
  CHECK(slotReads(without) >= 8);
  CHECK(slotReads(withSplit) <= 2);
}
