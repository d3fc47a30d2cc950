// Tests for codegen/debug_versions.cpp: which value a reassigned variable
// holds, instruction by instruction, on final machine code, and where.
#include <catch2/catch.hpp>

#include "codegen/debug_locations.h"
#include "codegen/debug_versions.h"
#include "test/unit/codegen/debug_ranges_check.h"
#include "test/unit/codegen/mir_builder.h"

using namespace simplec;
using namespace simplec::mir;
using namespace simplec::test;

namespace {

// One reassigned variable, x (debugVars[0]).
void reassignedX(FnBuilder& b) {
  DebugVarLoc x;
  x.var.name = "x";
  x.var.reassigned = true;
  b.f.debugVars.push_back(x);
}

DebugAssign assign(DebugAssign::Kind kind, int value, uint32_t seq, SrcPos passAt = SrcPos{}) {
  DebugAssign a;
  a.var = 0;
  a.kind = kind;
  a.value = value;
  a.seq = seq;
  a.passAt = passAt;
  return a;
}

MInst& at(MInst& mi, uint32_t line, uint32_t col = 1) {
  mi.line = line;
  mi.col = col;
  return mi;
}

// One block where x is declared as a (line 1, ending at 1:12), then gets
// x = x * 3 (line 2, ending at 2:14), value 0 then value 1; value 0 is put
// in rbx by the block's first instruction (line 1).
void declaredThenAssigned(FnBuilder& b) {
  reassignedX(b);
  b.f.numDebugValues = 2;
  b.at(b.block());
  b.f.blocks[0].dbgAssigns = {assign(DebugAssign::AtDef, 0, 1, SrcPos{1, 12}),
                              assign(DebugAssign::AtDef, 1, 2, SrcPos{2, 14})};
  at(b.emit(MOp::Mov, {P(RBX), P(RDI)}), 1, 9).dbgValue = 1;  // 0: value 0 in rbx
}

std::vector<DebugRange> rangesOfX(FnBuilder& b) {
  return debugVersionRanges(b.f, debugLocations(b.f))[0];
}

}  // namespace

TEST_CASE("debug versions: the old value until the source passes the assignment, then the new one") {
  FnBuilder b;
  declaredThenAssigned(b);  // line 3: f(x);
  at(b.emit(MOp::Mov, {P(RCX), I(3)}), 2, 9);                 // 1: line 2 passes line 1's end
  at(b.emit(MOp::Imul, {P(RCX), P(RBX)}), 2, 11).dbgValue = 2;  // 2: value 1 in rcx
  at(b.emit(MOp::Mov, {P(RDI), P(RCX)}), 3, 5);                // 3: line 3 passes line 2's end
  at(b.emit(MOp::Ret), 3, 5);                                  // 4
  // During line 2 the new value is already in rcx, but x is still a.
  checkRanges(rangesOfX(b), {{1, 3, regPlace(RBX)}, {3, 5, regPlace(RCX)}});
}

TEST_CASE("debug versions: a new value computed after the source passed it is awaited, the old one not shown") {
  FnBuilder b;
  declaredThenAssigned(b);  // rbx keeps value 0 across the call
  at(b.emit(MOp::Call, {Opnd::symbol("g")}), 3, 1);           // 1: line 3 runs before x's new value
  at(b.emit(MOp::Mov, {P(R12), I(5)}), 2, 9).dbgValue = 2;    // 2: scheduled after the call
  b.emit(MOp::Ret);                                           // 3
  // At the call the source has passed `x = ...`: not rbx's old value.
  checkRanges(rangesOfX(b), {{3, 4, regPlace(R12)}});
}

TEST_CASE("debug versions: merges keep agreement, lose disagreement, and take the merge's own value") {
  FnBuilder b;
  reassignedX(b);
  b.f.numDebugValues = 3;
  int b0 = b.block(), b1 = b.block(), b2 = b.block(), b3 = b.block();
  b.at(b0);
  b.f.blocks[size_t(b0)].dbgAssigns = {assign(DebugAssign::Const, -1, 1)};
  b.f.blocks[size_t(b0)].dbgAssigns[0].constBits = 7;
  b.cmp(P(RDI), I(0));   // 0: x = 7
  b.jcc(Cond::E, b2);    // 1
  b.at(b1);
  b.f.blocks[size_t(b1)].dbgAssigns = {assign(DebugAssign::AtDef, 1, 2)};
  b.emit(MOp::Mov, {P(RBX), I(9)}).dbgValue = 2;  // 2: x = 9 on this path only
  b.op(MOp::Add, P(RAX), I(1));                   // 3
  b.at(b2);              // the predecessors disagree: nothing known
  b.cmp(P(RDI), I(1));   // 4
  b.jmp(b3);             // 5
  b.at(b3);
  b.f.blocks[size_t(b3)].dbgEntry.push_back({R12, 2});
  b.f.blocks[size_t(b3)].dbgAssigns = {assign(DebugAssign::Ready, 2, 3)};  // the merge's Phi
  b.emit(MOp::Ret);      // 6
  b.finish();
  checkRanges(rangesOfX(b), {{0, 2, constPlace(7)}, {3, 4, regPlace(RBX)}, {6, 7, regPlace(R12)}});
}

TEST_CASE("debug versions: a loop counter in a rotated loop keeps the Phi's value through the body") {
  FnBuilder b;
  reassignedX(b);
  b.f.numDebugValues = 2;
  int b0 = b.block(), b1 = b.block(1), b2 = b.block(1), b3 = b.block();
  b.at(b0);
  b.f.blocks[size_t(b0)].dbgAssigns = {assign(DebugAssign::Const, -1, 1)};
  b.mov(P(RAX), I(0));                       // 0: x = 0
  b.at(b1);                                  // the loop head: x is its Phi, in rax
  b.f.blocks[size_t(b1)].dbgEntry.push_back({RAX, 0});
  b.f.blocks[size_t(b1)].dbgAssigns = {assign(DebugAssign::Ready, 0, 2)};
  at(b.emit(MOp::Cmp, {P(RAX), I(10)}), 4, 1);  // 1
  b.jcc(Cond::GE, b3);                        // 2
  b.at(b2);                                  // the body: x = x + 1 (line 5)
  b.f.blocks[size_t(b2)].dbgAssigns = {assign(DebugAssign::AtDef, 1, 3, SrcPos{5, 10})};
  at(b.emit(MOp::Lea, {P(RAX), Opnd::memP(RAX, 1)}), 5, 7).dbgValue = 2;  // 3
  // The head's test copied to the end of the body (branch duplication):
  // the head's facts hold where the copy starts.
  b.f.blocks[size_t(b2)].dbgTailAt = 1;
  b.f.blocks[size_t(b2)].dbgTailEntry = {{RAX, 0}};
  b.f.blocks[size_t(b2)].dbgTailAssigns = {assign(DebugAssign::Ready, 0, 2)};
  at(b.emit(MOp::Cmp, {P(RAX), I(10)}), 4, 1);  // 4
  b.jcc(Cond::L, b2);                         // 5
  b.at(b3);
  b.emit(MOp::Ret);                           // 6
  b.finish();
  // Both ways into the body agree that x is the Phi in rax.
  checkRanges(rangesOfX(b), {{0, 1, constPlace(0)}, {1, 7, regPlace(RAX)}});
  // Without the copy's facts the body would not know x.
  b.f.blocks[size_t(b2)].dbgTailAt = -1;
  checkRanges(rangesOfX(b), {{0, 1, constPlace(0)}, {1, 3, regPlace(RAX)}});
}

TEST_CASE("debug versions: inlined code stands at its call; no reassigned variable, no ranges") {
  FnBuilder b;
  reassignedX(b);
  b.f.numDebugValues = 1;
  b.f.dbgSiteCalls = {{4, SrcPos{9, 3}}};
  b.at(b.block());
  MInst& mi = b.emit(MOp::Cmp, {P(RAX), I(0)});
  mi.line = 2;
  mi.col = 1;
  mi.site = 4;
  CHECK(sourcePosition(b.f, mi).line == 9);
  CHECK(sourcePosition(b.f, mi).col == 3);
  CHECK(sourcePassed(SrcPos{8, 20}, SrcPos{9, 3}));
  CHECK(!sourcePassed(SrcPos{9, 4}, SrcPos{9, 3}));
  CHECK(!sourcePassed(SrcPos{1, 1}, SrcPos{}));
  b.f.debugVars[0].var.reassigned = false;
  CHECK(debugVersionRanges(b.f, debugLocations(b.f))[0].empty());
}
