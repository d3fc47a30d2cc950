// Tests for the IR printers (son/printer.h): the exact text of a straight-line
// function and of a loop (back edges print as numbers defined later), the
// renumbering that makes the text independent of node ids, function headers
// (entry marker, externals skipped), and the Graphviz form.
#include <catch2/catch.hpp>

#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;

namespace {

// f(x) = x + 3, built after `junk` nodes were made and dropped.
std::string straightLine(int junk) {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  for (int i = 0; i < junk; i++) g.kill(g.con(Type::intConst(i)));
  b.ret(b.fun, b.add(b.parm(0), b.con(3)));
  return printGraph(g);
}

}  // namespace

TEST_CASE("son/printer: a straight-line function", "[son][printer]") {
  // Definitions before uses, inputs in slot order; Start is named, not
  // numbered; an empty slot is '_'; constants print no type.
  CHECK(straightLine(0) ==
        "fun f:\n"
        "  %1 = Fun f Start : ctrl\n"
        "  %2 = Parm mem %1 : mem\n"
        "  %3 = Parm 0 %1 : int\n"
        "  %4 = Con 3 Start\n"
        "  %5 = Add _, %3, %4 : int\n"
        "  %6 = Return %1, %2, %5 : ctrl\n");
  // Node ids do not show.
  CHECK(straightLine(7) == straightLine(0));
}

TEST_CASE("son/printer: a loop prints its back edges by number", "[son][printer]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* lp = b.loop(b.fun);
  Node* phi = b.loopPhi(lp, b.con(0));
  Node* inc = b.add(phi, b.con(1));
  g.setDef(phi, 2, inc);
  SonBuilder::Branch br = b.branch(lp, b.op(Op::LT, phi, b.parm(0)));
  b.closeLoop(lp, br.t);
  b.ret(br.f, phi);
  CHECK(printGraph(g) ==
        "fun f:\n"
        "  %1 = Fun f Start : ctrl\n"
        "  %2 = CProj 0 %10 : ctrl\n"
        "  %3 = Loop _, %1, %2 : ctrl\n"
        "  %4 = Con 0 Start\n"
        "  %5 = Con 1 Start\n"
        "  %6 = Add _, %7, %5 : int\n"
        "  %7 = Phi %3, %4, %6 : int\n"
        "  %8 = Parm 0 %1 : int\n"
        "  %9 = LT _, %7, %8 : [0,1]\n"
        "  %10 = If %3, %9 : (ctrl, ctrl)\n"
        "  %11 = CProj 1 %10 : ctrl\n"
        "  %12 = Parm mem %1 : mem\n"
        "  %13 = Return %11, %12, %7 : ctrl\n");
}

TEST_CASE("son/printer: function headers", "[son][printer]") {
  Unit g;
  SonBuilder f(g, "main", 0);
  g.funs[size_t(f.index)].isEntry = true;
  auto call = f.call(f.fun, f.mem, 2, {});
  f.ret(call.ctrl, call.mem, call.value);
  SonBuilder h(g, "helper", 0);  // never finished: no Return, not printed
  FunInfo ext;
  ext.name = ext.symbol = "ext";
  ext.isExtern = true;
  g.funs.push_back(std::move(ext));
  SonBuilder k(g, "k", 0);
  k.ret(k.fun, k.con(-4));
  CHECK(printGraph(g) ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Parm mem %1 : mem\n"
        "  %3 = Con fun#2 Start\n"
        "  %4 = Call %1, %2, %3 : ctrl\n"
        "  %5 = CallEnd %4 : (ctrl, mem, int)\n"
        "  %6 = CProj 0 %5 : ctrl\n"
        "  %7 = Proj 1 %5 : mem\n"
        "  %8 = Proj 2 %5 : int\n"
        "  %9 = Return %6, %7, %8 : ctrl\n"
        "fun k:\n"
        "  %10 = Fun k Start : ctrl\n"
        "  %11 = Parm mem %10 : mem\n"
        "  %12 = Con -4 Start\n"
        "  %13 = Return %10, %11, %12 : ctrl\n");
}

TEST_CASE("son/printer: node labels", "[son][printer]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  CHECK(b.con(42)->label() == "Con 42");
  CHECK(g.con(Type::funPtr(3))->label() == "Con fun#3");
  CHECK(b.mem->label() == "Parm mem");
  CHECK(b.parm(0)->label() == "Parm 0");
  CHECK(b.fun->label() == "Fun f");
  SonBuilder::Branch br = b.branch(b.fun, b.parm(0));
  CHECK(br.t->label() == "CProj 0");
  CHECK(br.f->label() == "CProj 1");
  CHECK(br.iff->label() == "If");
  CHECK(b.op(Op::Shr, b.parm(0), b.parm(0))->label() == "Shr");
  CHECK(g.make(Op::Con, {g.start()})->label() == "Con ?");  // not typed yet
}

TEST_CASE("son/printer: Graphviz output", "[son][printer]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Node* add = b.add(b.parm(0), b.con(3));
  Node* ret = b.ret(b.fun, add);
  std::string dot = printDot(u);
  // Node names carry the function index: nodes of two graphs may share ids.
  auto id = [](const Node* n) { return "f0n" + std::to_string(n->id); };
  CHECK(dot.rfind("digraph simplec {\n", 0) == 0);
  CHECK(dot.find("subgraph \"cluster_f\"") != std::string::npos);
  CHECK(dot.find(id(add) + " [label=\"Add\"];") != std::string::npos);
  CHECK(dot.find(id(ret) + " [label=\"Return\", shape=box, style=bold];") != std::string::npos);
  // Control edges are bold red, data edges plain; edges to Start are left out.
  CHECK(dot.find(id(ret) + " -> " + id(b.fun) + " [color=red, style=bold];") != std::string::npos);
  CHECK(dot.find(id(add) + " -> " + id(b.parm(0)) + ";") != std::string::npos);
  CHECK(dot.find(" -> f0n0") == std::string::npos);
  CHECK(dot.substr(dot.size() - 2) == "}\n");
}
