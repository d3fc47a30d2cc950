// Tests for codegen/dead_defs.h: defs of virtual registers nothing needs are
// removed, chains and loop-carried cycles of them included; what stores,
// sets flags or feeds an instruction that stays is kept.
#include <catch2/catch.hpp>

#include "codegen/dead_defs.h"
#include "test/unit/codegen/mir_builder.h"
#include "test/unit/codegen/program_mir.h"

using namespace simplec;
using namespace simplec::mir;
using simplec::test::FnBuilder;
using simplec::test::I;
using simplec::test::P;
using simplec::test::programMir;
using simplec::test::V;

namespace {

int count(const MFunction& f, MOp op) {
  int n = 0;
  for (const MBlock& b : f.blocks)
    for (const MInst& mi : b.insts) n += mi.op == op;
  return n;
}

}  // namespace

TEST_CASE("codegen/dead_defs: unread defs go, chains and cycles of them too", "[codegen][dead_defs]") {
  FnBuilder fb;
  int b0 = fb.block(), b1 = fb.block(1), b2 = fb.block();
  int x = fb.vreg(), dead1 = fb.vreg(), dead2 = fb.vreg(), kept = fb.vreg(), stored = fb.vreg(),
      sel = fb.vreg(), counter = fb.vreg();
  fb.at(b0);
  fb.mov(V(x), P(RDI));
  fb.mov(V(dead1), V(x));                                  // read only by dead2's lea
  fb.emit(MOp::Lea, {V(dead2), Opnd::memV(dead1, 1)});    // read by nothing
  fb.mov(V(kept), V(x));                                   // read by the add, which stays
  fb.op(MOp::Add, V(kept), I(1));                          // writes flags: never removed
  fb.mov(V(stored), I(5));
  fb.mov(Opnd::memV(x, 8), V(stored));                     // a store stays, and needs `stored`
  fb.mov(V(sel), V(x));
  fb.cmp(V(x), I(3));
  fb.cmov(Cond::L, V(sel), V(stored));                     // a dead select and its first value
  fb.mov(V(counter), I(0));
  fb.jmp(b1);
  fb.at(b1);
  fb.emit(MOp::Lea, {V(counter), Opnd::memV(counter, 1)});  // only feeds itself round the loop
  fb.cmp(V(x), I(0));
  fb.jcc(Cond::NE, b1);
  fb.jmp(b2);
  fb.at(b2);
  fb.mov(P(RAX), V(x));
  fb.emit(MOp::Ret).argRegs.push_back(RAX);
  MFunction& f = fb.f;
  CHECK(removeDeadDefs(f) == 6);
  CHECK(count(f, MOp::Lea) == 0);
  CHECK(count(f, MOp::Cmov) == 0);
  CHECK(count(f, MOp::Add) == 1);
  CHECK(count(f, MOp::Cmp) == 2);
  // x, kept's copy, stored, the store, rax: five moves left.
  CHECK(count(f, MOp::Mov) == 5);
  CHECK(removeDeadDefs(f) == 0);
}

TEST_CASE("codegen/dead_defs: in the -O2 pipeline every vreg written is read", "[codegen][dead_defs]") {
  // `& 0xFFFFFFFF` is a zero extension (movzx), which never reads the mask
  // the selector made a register for (it does not fit an immediate).
  MFunction f = programMir("val f = { int x, int y -> return (x * y) & 0xFFFFFFFF; };", "f");
  INFO(print(f));
  std::vector<char> read(f.vregs.size(), 0), written(f.vregs.size(), 0);
  for (const MBlock& b : f.blocks)
    for (const MInst& mi : b.insts)
      forEachDefUse(
          mi, [&](const Opnd& o) { if (o.kind == Opnd::VReg) read[size_t(o.reg)] = 1; },
          [&](const Opnd& o) { if (o.kind == Opnd::VReg) written[size_t(o.reg)] = 1; }, [](int) {});
  for (size_t v = 0; v < f.vregs.size(); v++) {
    INFO("v" << v);
    CHECK((!written[v] || read[v]));
  }
}
