// Tests for codegen/mir.cpp: register tables, condition codes, defUses (the
// operand roles every later pass relies on) and the text printer.
#include <catch2/catch.hpp>

#include <algorithm>

#include "codegen/mir.h"
#include "test/unit/codegen/mir_builder.h"

using namespace simplec;
using namespace simplec::mir;
using simplec::test::FnBuilder;
using simplec::test::I;
using simplec::test::P;
using simplec::test::V;

namespace {

bool has(const std::vector<Opnd>& v, const Opnd& o) {
  return std::find(v.begin(), v.end(), o) != v.end();
}

}  // namespace

TEST_CASE("mir: register names and System V tables", "[mir]") {
  CHECK(std::string(pregName(RAX)) == "rax");
  CHECK(std::string(pregName(RSP)) == "rsp");
  CHECK(std::string(pregName(R15)) == "r15");
  CHECK(std::string(pregName(XMM0)) == "xmm0");
  CHECK(std::string(pregName(XMM15)) == "xmm15");
  CHECK(std::string(pregName(-1)) == "noreg");
  CHECK(std::string(pregName(99)) == "noreg");
  const int args[6] = {RDI, RSI, RDX, RCX, R8, R9};
  for (int i = 0; i < 6; ++i) CHECK(kIntArgRegs[i] == args[i]);
  const int callee[5] = {RBX, R12, R13, R14, R15};
  for (int i = 0; i < 5; ++i) CHECK(kCalleeSaved[i] == callee[i]);
  // Every GPR but rsp/rbp is exactly one of caller- or callee-saved.
  for (int r = 0; r < 16; ++r) {
    int n = int(std::count(kCallerSaved, kCallerSaved + 9, r) +
                std::count(kCalleeSaved, kCalleeSaved + 5, r));
    CHECK(n == (r == RSP || r == RBP ? 0 : 1));
  }
  CHECK(std::count(kCallerSaved, kCallerSaved + 9, kScratch) == 1);
  CHECK(std::count(kCallerSaved, kCallerSaved + 9, kScratch2) == 1);
}

TEST_CASE("mir: condition codes", "[mir]") {
  const Cond all[] = {Cond::E, Cond::NE, Cond::L, Cond::LE, Cond::G,
                      Cond::GE, Cond::B, Cond::BE, Cond::A, Cond::AE};
  for (Cond c : all) {
    CHECK(negate(negate(c)) == c);
    CHECK(negate(c) != c);
    CHECK(swapOperands(swapOperands(c)) == c);
  }
  CHECK(negate(Cond::L) == Cond::GE);
  CHECK(negate(Cond::A) == Cond::BE);
  CHECK(swapOperands(Cond::L) == Cond::G);
  CHECK(swapOperands(Cond::BE) == Cond::AE);
  CHECK(swapOperands(Cond::E) == Cond::E);
  CHECK(std::string(condName(Cond::LE)) == "le");
  CHECK(std::string(condName(Cond::AE)) == "ae");
  CHECK(std::string(mopName(MOp::SDivRem)) == "sdivrem");
  CHECK(std::string(mopName(MOp::ParMove)) == "parmove");
}

TEST_CASE("mir: operand equality", "[mir]") {
  CHECK(Opnd::vreg(3) == Opnd::vreg(3));
  CHECK_FALSE(Opnd::vreg(3) == Opnd::preg(3));
  CHECK_FALSE(Opnd::slot(1) == Opnd::inArg(1));
  CHECK(Opnd::imm64(-5) == Opnd::imm64(-5));
  CHECK_FALSE(Opnd::imm64(5) == Opnd::imm64(6));
  CHECK(Opnd::memP(RBP, -8) == Opnd::memP(RBP, -8));
  CHECK_FALSE(Opnd::memP(RBP, -8) == Opnd::memP(RBP, -16));
  CHECK_FALSE(Opnd::memP(3, 0) == Opnd::memV(3, 0));
  CHECK(Opnd::symbol("f") == Opnd::symbol("f"));
  CHECK_FALSE(Opnd::memSym("a") == Opnd::memSym("b"));
}

TEST_CASE("mir: defUses follows the operand roles", "[mir]") {
  SECTION("two-address alu reads and writes its destination") {
    DefUse du = defUses(MInst(MOp::Add, {V(1), V(2)}));
    CHECK(du.uses.size() == 2);
    CHECK(has(du.uses, V(1)));
    CHECK(has(du.uses, V(2)));
    REQUIRE(du.defs.size() == 1);
    CHECK(du.defs[0] == V(1));
  }
  SECTION("mov writes only its destination; memory operands read base and index") {
    Opnd m = Opnd::memV(4, 8);
    m.index = 5;
    m.indexVirt = true;
    m.scale = 8;
    DefUse load = defUses(MInst(MOp::Mov, {V(1), m}));
    CHECK(load.defs.size() == 1);
    CHECK(load.uses.size() == 2);
    CHECK(has(load.uses, V(4)));
    CHECK(has(load.uses, V(5)));
    DefUse st = defUses(MInst(MOp::Mov, {m, V(1)}));
    CHECK(st.defs.empty());
    CHECK(st.uses.size() == 3);
    DefUse slotStore = defUses(MInst(MOp::Mov, {Opnd::slot(0), V(1)}));
    CHECK(slotStore.defs.empty());
    CHECK(slotStore.uses.size() == 1);
  }
  SECTION("shift by rcx reads rcx") {
    DefUse du = defUses(MInst(MOp::Shl, {V(1), P(RCX)}));
    CHECK(has(du.uses, P(RCX)));
    CHECK(has(du.uses, V(1)));
    CHECK(du.defs.size() == 1);
    DefUse imm = defUses(MInst(MOp::Sar, {V(1), I(3)}));
    CHECK(imm.uses.size() == 1);
  }
  SECTION("sdivrem reads rax and its operand, writes rax and rdx") {
    DefUse du = defUses(MInst(MOp::SDivRem, {V(7)}));
    CHECK(has(du.uses, V(7)));
    CHECK(has(du.uses, P(RAX)));
    CHECK(has(du.defs, P(RAX)));
    CHECK(has(du.defs, P(RDX)));
    CHECK(du.defs.size() == 2);
  }
  SECTION("call reads its argument registers and clobbers all caller-saved") {
    MInst c(MOp::Call, {Opnd::symbol("g")});
    c.argRegs = {RDI, RSI};
    DefUse du = defUses(c);
    CHECK(du.uses.size() == 2);
    CHECK(has(du.uses, P(RDI)));
    CHECK(has(du.uses, P(RSI)));
    CHECK(du.defs.empty());
    for (int r : kCallerSaved) CHECK(std::count(du.clobbers.begin(), du.clobbers.end(), r) == 1);
    CHECK(std::count(du.clobbers.begin(), du.clobbers.end(), int(RAX)) == 1);
    CHECK(std::count(du.clobbers.begin(), du.clobbers.end(), int(XMM0)) == 1);
    CHECK(std::count(du.clobbers.begin(), du.clobbers.end(), int(XMM15)) == 1);
    for (int r : kCalleeSaved) CHECK(std::count(du.clobbers.begin(), du.clobbers.end(), r) == 0);
    MInst ind(MOp::Call, {V(9)});
    CHECK(has(defUses(ind).uses, V(9)));
  }
  SECTION("ret reads its result registers") {
    MInst r(MOp::Ret);
    r.argRegs = {RAX};
    DefUse du = defUses(r);
    CHECK(du.uses.size() == 1);
    CHECK(du.uses[0] == P(RAX));
  }
  SECTION("parmove: even operands written, odd operands read") {
    DefUse du = defUses(MInst(MOp::ParMove, {V(1), V(2), V(2), V(1), V(3), I(4)}));
    CHECK(du.defs.size() == 3);
    CHECK(has(du.defs, V(1)));
    CHECK(has(du.defs, V(3)));
    CHECK(du.uses.size() == 2);
    CHECK(has(du.uses, V(2)));
  }
  SECTION("cmov reads and writes its destination, setcc only writes") {
    MInst cm(MOp::Cmov, {V(1), V(2)});
    DefUse du = defUses(cm);
    CHECK(has(du.uses, V(1)));
    CHECK(has(du.defs, V(1)));
    DefUse s = defUses(MInst(MOp::Setcc, {V(4)}));
    CHECK(s.uses.empty());
    CHECK(s.defs.size() == 1);
    DefUse c = defUses(MInst(MOp::Cmp, {V(1), I(0)}));
    CHECK(c.defs.empty());
    CHECK(c.uses.size() == 1);
    DefUse l = defUses(MInst(MOp::Lea, {V(1), Opnd::memV(2, 16)}));
    CHECK(has(l.defs, V(1)));
    CHECK(has(l.uses, V(2)));
    CHECK(l.uses.size() == 1);
  }
}

TEST_CASE("mir: printer is deterministic and readable", "[mir]") {
  FnBuilder b("sum");
  int b0 = b.block(), b1 = b.block(1), b2 = b.block(1), b3 = b.block();
  int n = b.vreg(), s = b.vreg();
  b.at(b0);
  b.mov(V(n), P(RDI));
  b.mov(V(s), I(0));
  b.at(b1);
  b.cmp(V(n), I(0));
  b.jcc(Cond::LE, b3);
  b.at(b2);
  b.op(MOp::Add, V(s), V(n));
  b.op(MOp::Sub, V(n), I(1));
  b.jmp(b1);
  b.at(b3);
  Opnd m = Opnd::memV(s, -16);
  m.index = RCX;
  m.scale = 4;
  b.emit(MOp::MovZX, {V(s), m}).size = 1;
  b.ret(V(s));
  MFunction& f = b.finish();
  f.global = true;
  std::string expected =
      "function sum global slots=0\n"
      "b0:  succs b1\n"
      "  mov v0, rdi\n"
      "  mov v1, 0\n"
      "b1:  (loop depth 1) succs b3 b2\n"
      "  cmp v0, 0\n"
      "  jle b3\n"
      "b2:  (loop depth 1) succs b1\n"
      "  add v1, v0\n"
      "  sub v0, 1\n"
      "  jmp b1\n"
      "b3:\n"
      "  movzx.1 v1, [v1 + rcx*4 - 16]\n"
      "  mov rax, v1\n"
      "  ret (rax)\n";
  CHECK(print(f) == expected);
  CHECK(print(f) == print(f));

  MModule mod;
  mod.sourceName = "a.smp";
  mod.externs = {"puts"};
  mod.rodata.push_back({".Lstr0", std::string("hi\n\"", 4), 1});
  mod.funcs.push_back(f);
  std::string text = print(mod);
  CHECK(text.rfind("module a.smp\nextern puts\ndata .Lstr0 align 1 \"hi\\x0a\\\"\"\n\n", 0) == 0);
  CHECK(text.find(expected) != std::string::npos);
}

TEST_CASE("mir: printer shows calls, slots and parallel moves", "[mir]") {
  FnBuilder b("g");
  b.at(b.block());
  int x = b.vreg(), y = b.vreg();
  b.mov(V(x), Opnd::inArg(0));
  b.mov(Opnd::slot(2), V(x));
  b.call("h", {V(x)}, y);
  b.parmove({{V(x), V(y)}, {V(y), V(x)}});
  b.emit(MOp::Call, {Opnd::symbol("rt_panic")}).noReturn = true;
  b.f.blocks[0].cold = true;
  std::string text = print(b.finish());
  CHECK(text.find("\nb0:  cold\n") != std::string::npos);
  CHECK(text.find("  mov v0, inarg0\n  mov slot2, v0\n  mov rdi, v0\n  call h (rdi)\n"
                  "  mov v1, rax\n  parmove v0 <- v1, v1 <- v0\n  call rt_panic noreturn\n") !=
        std::string::npos);
}
