// Tests for codegen/debug_locations.cpp (where a debug value lives, per
// instruction, on final machine code) and codegen/x86_64/dwarf_encoding.cpp
// (LEB128, DWARF register numbers, location expressions).
#include <catch2/catch.hpp>

#include "codegen/debug_locations.h"
#include "codegen/debug_values.h"
#include "codegen/x86_64/dwarf_encoding.h"
#include "test/unit/codegen/debug_ranges_check.h"
#include "test/unit/codegen/mir_builder.h"

using namespace simplec;
using namespace simplec::mir;
using namespace simplec::test;

namespace {

Opnd rbpSlot(int64_t disp) { return Opnd::memP(RBP, disp); }

}  // namespace

TEST_CASE("debug locations: a value lives from its definition until its register is written") {
  FnBuilder b;
  b.f.numDebugValues = 1;
  b.at(b.block());
  b.mov(P(RAX), I(1));                   // 0
  b.mov(P(RBX), P(RDI));                 // 1: defines value 0 in rbx
  b.f.blocks[0].insts.back().dbgValue = 1;
  b.op(MOp::Add, P(RAX), P(RBX));        // 2
  b.mov(P(RBX), I(7));                   // 3: rbx is something else now
  b.emit(MOp::Ret);                      // 4
  checkRanges(debugLocations(b.f)[0], {{2, 4, regPlace(RBX)}});
}

TEST_CASE("debug locations: copies, spills and calls") {
  FnBuilder b;
  b.f.numDebugValues = 1;
  b.at(b.block());
  b.mov(P(RCX), P(RDI));                 // 0: value 0 in rcx
  b.f.blocks[0].insts.back().dbgValue = 1;
  b.mov(rbpSlot(-16), P(RCX));           // 1: spilled: rcx and the slot hold it
  b.emit(MOp::Call, {Opnd::symbol("g")}); // 2: clobbers rcx; the slot keeps it
  b.mov(P(RBX), rbpSlot(-16));           // 3: reloaded into rbx
  b.mov(rbpSlot(-16), I(0));             // 4: the slot is overwritten
  b.emit(MOp::Ret);                      // 5
  // At the call itself rcx no longer counts: a caller's frame is looked
  // at from inside its call, after the callee may have changed rcx.
  checkRanges(debugLocations(b.f)[0], {{1, 2, regPlace(RCX)}, {2, 4, slotPlace(-16)}, {4, 6, regPlace(RBX)}});
}

TEST_CASE("debug locations: a block start keeps only what every predecessor agrees on") {
  FnBuilder b;
  b.f.numDebugValues = 2;
  int b0 = b.block(), b1 = b.block(), b2 = b.block();
  b.at(b0);
  b.mov(P(RBX), P(RDI));                 // 0: value 0 in rbx
  b.f.blocks[0].insts.back().dbgValue = 1;
  b.mov(P(R12), P(RSI));                 // 1: value 1 in r12
  b.f.blocks[0].insts.back().dbgValue = 2;
  b.cmp(P(RDI), I(0));                   // 2
  b.jcc(Cond::E, b2);                    // 3
  b.at(b1);
  b.mov(P(R12), I(5));                   // 4: r12 changes on this path only
  b.at(b2);
  b.emit(MOp::Ret);                      // 5
  b.finish();
  auto loc = debugLocations(b.f);
  checkRanges(loc[0], {{1, 6, regPlace(RBX)}});
  checkRanges(loc[1], {{2, 5, regPlace(R12)}});
}

TEST_CASE("debug locations: a loop keeps a value its body does not overwrite, and Phis start at their block") {
  FnBuilder b;
  b.f.numDebugValues = 2;
  int b0 = b.block(), b1 = b.block(1), b2 = b.block();
  b.at(b0);
  b.mov(P(RBX), P(RDI));                 // 0: value 0 in rbx
  b.f.blocks[0].insts.back().dbgValue = 1;
  b.mov(P(RAX), I(0));                   // 1
  b.at(b1);                              // value 1 (a Phi) in rax at the head
  b.f.blocks[size_t(b1)].dbgEntry.push_back({RAX, 1});
  b.op(MOp::Add, P(RAX), I(1));          // 2: rax is the next iteration's value
  b.cmp(P(RAX), P(RBX));                 // 3
  b.jcc(Cond::L, b1);                    // 4
  b.at(b2);
  b.emit(MOp::Ret);                      // 5
  b.finish();
  auto loc = debugLocations(b.f);
  checkRanges(loc[0], {{1, 6, regPlace(RBX)}});
  checkRanges(loc[1], {{2, 3, regPlace(RAX)}});
}

TEST_CASE("debug locations: Phi entries in frame slots and a restored rbp") {
  FnBuilder b;
  b.f.numDebugValues = 1;
  b.f.usedCalleeSaved = {RBX};  // slot 0 is at [rbp - 16]
  int b0 = b.block();
  b.at(b0);
  b.f.blocks[0].dbgEntry.push_back({kDebugSlotBase + 0, 0});
  b.mov(P(RAX), rbpSlot(-16));           // 0
  b.emit(MOp::Pop, {P(RBP)});            // 1: the frame is gone
  b.emit(MOp::Ret);                      // 2
  checkRanges(debugLocations(b.f)[0], {{0, 1, slotPlace(-16)}, {1, 3, regPlace(RAX)}});
}

TEST_CASE("debug locations: a narrow parameter's register fills the gaps of its value") {
  std::vector<DebugRange> first{{3, 5, regPlace(RBX)}, {8, 9, regPlace(RAX)}};
  std::vector<DebugRange> second{{0, 4, regPlace(RDI)}, {5, 7, regPlace(RDI)}, {10, 12, slotPlace(-8)}};
  checkRanges(preferRanges(first, second),
        {{0, 3, regPlace(RDI)}, {3, 5, regPlace(RBX)}, {5, 7, regPlace(RDI)}, {8, 9, regPlace(RAX)}, {10, 12, slotPlace(-8)}});
  checkRanges(preferRanges({}, second), second);
  checkRanges(preferRanges(first, {}), first);
  // Joined where the place is the same on both sides of a boundary.
  checkRanges(preferRanges({{2, 4, regPlace(RDI)}}, {{0, 6, regPlace(RDI)}}), {{0, 6, regPlace(RDI)}});
}

TEST_CASE("debug locations: incoming stack arguments from the prologue on") {
  FnBuilder b;
  b.f.numDebugValues = 1;
  b.f.dbgInArgs.push_back({1, 0});  // [rbp + 24]
  b.at(b.block());
  b.emit(MOp::Push, {P(RBP)});           // 0
  b.mov(P(RBP), P(RSP));                 // 1
  b.mov(P(RAX), Opnd::memP(RBP, 24));    // 2
  b.emit(MOp::Pop, {P(RBP)});            // 3
  b.emit(MOp::Ret);                      // 4
  checkRanges(debugLocations(b.f)[0], {{2, 3, slotPlace(24)}, {3, 5, regPlace(RAX)}});
}

TEST_CASE("dwarf encoding: LEB128") {
  std::vector<uint8_t> u;
  x86_64::appendULEB(u, 624485);
  CHECK(u == std::vector<uint8_t>{0xe5, 0x8e, 0x26});
  std::vector<uint8_t> s;
  x86_64::appendSLEB(s, -123456);
  CHECK(s == std::vector<uint8_t>{0xc0, 0xbb, 0x78});
  std::vector<uint8_t> small;
  x86_64::appendSLEB(small, 63);
  x86_64::appendSLEB(small, 64);
  x86_64::appendSLEB(small, -64);
  x86_64::appendSLEB(small, -65);
  CHECK(small == std::vector<uint8_t>{0x3f, 0xc0, 0x00, 0x40, 0xbf, 0x7f});
  CHECK(x86_64::ulebSize(127) == 1);
  CHECK(x86_64::ulebSize(128) == 2);
  CHECK(x86_64::slebSize(-64) == 1);
  CHECK(x86_64::slebSize(-65) == 2);
}

TEST_CASE("dwarf encoding: registers and places") {
  CHECK(x86_64::dwarfRegister(RAX) == 0);
  CHECK(x86_64::dwarfRegister(RCX) == 2);
  CHECK(x86_64::dwarfRegister(RDX) == 1);
  CHECK(x86_64::dwarfRegister(RSI) == 4);
  CHECK(x86_64::dwarfRegister(RDI) == 5);
  CHECK(x86_64::dwarfRegister(RBP) == 6);
  CHECK(x86_64::dwarfRegister(RSP) == 7);
  CHECK(x86_64::dwarfRegister(R13) == 13);
  CHECK(x86_64::dwarfRegister(XMM0) == 17);
  CHECK(x86_64::dwarfRegister(XMM15) == 32);
  CHECK(x86_64::placeExpression(regPlace(RBX)) == std::vector<uint8_t>{0x53});          // DW_OP_reg3
  CHECK(x86_64::placeExpression(regPlace(XMM0 + 14)) == std::vector<uint8_t>{0x6f});      // DW_OP_reg31
  CHECK(x86_64::placeExpression(regPlace(XMM15)) == std::vector<uint8_t>{0x90, 32});
  CHECK(x86_64::placeExpression(slotPlace(-24)) == std::vector<uint8_t>{0x91, 0x68});     // DW_OP_fbreg -24
}
