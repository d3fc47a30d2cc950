// Tests for the opcode table generated from son/ops.def (son/node.h): names,
// flags and the Node predicates built on them.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "son/node.h"

using namespace simplec;

TEST_CASE("son/node: the opcode table", "[son][node]") {
  CHECK(std::string(opName(Op::Add)) == "Add");
  CHECK(std::string(opName(Op::ZeroCheck)) == "ZeroCheck");
  CHECK(std::string(opName(Op::CallEnd)) == "CallEnd");
  // Names are unique and non-empty.
  std::set<std::string> names;
  for (int i = 0; i < kNumOps; i++) {
    std::string n = opName(Op(i));
    CHECK_FALSE(n.empty());
    names.insert(n);
  }
  CHECK(int(names.size()) == kNumOps);
}

TEST_CASE("son/node: flags", "[son][node]") {
  auto flags = [](Op op) { return opInfo(op).flags; };
  for (Op op : {Op::Start, Op::Stop, Op::Fun, Op::Return, Op::Region, Op::Loop, Op::If, Op::CProj,
                Op::ZeroCheck, Op::Call, Op::CallEnd}) {
    INFO(opName(op));
    CHECK((flags(op) & CFG) != 0);
  }
  for (Op op : {Op::Parm, Op::Proj, Op::Phi, Op::Con, Op::Add, Op::Div, Op::EQ, Op::Scope}) {
    INFO(opName(op));
    CHECK((flags(op) & CFG) == 0);
  }
  for (Op op : {Op::Add, Op::Mul, Op::And, Op::Or, Op::Xor, Op::EQ, Op::NE}) {
    INFO(opName(op));
    CHECK((flags(op) & COMM) != 0);
  }
  for (Op op : {Op::Sub, Op::Div, Op::Mod, Op::Shl, Op::Sar, Op::Shr, Op::LT, Op::LE}) {
    INFO(opName(op));
    CHECK((flags(op) & COMM) == 0);
  }
  CHECK((flags(Op::If) & MULTI) != 0);
  CHECK((flags(Op::CallEnd) & MULTI) != 0);
  CHECK((flags(Op::Div) & CTRL) != 0);
  CHECK((flags(Op::Mod) & CTRL) != 0);

  Node n(0, Op::Loop);
  CHECK(n.isCFG());
  CHECK(n.isRegion());
  CHECK_FALSE(n.isMulti());
  Node a(1, Op::Add);
  CHECK(a.isCommutative());
  CHECK_FALSE(a.isCFG());
  CHECK(a.unused());
  a.keep = 1;
  CHECK_FALSE(a.unused());
  CHECK(a.ctrl() == nullptr);
}
