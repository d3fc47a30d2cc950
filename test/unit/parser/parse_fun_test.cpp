// Tests for functions (parser/parse_fun.cpp): a function literal becomes a
// Fun/Parm/Return subgraph and a call a Call/CallEnd with its projections;
// functions may be called before their definition and recursively; function
// values pass through parameters; sys.io.p calls a runtime extern; the
// function-form entry and library form; and the errors of calls.
#include <catch2/catch.hpp>

#include <string>

#include "test/unit/parser/parse_helpers.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::parsetest::optimizedIR;
using simplec::parsetest::parseIR;
using simplec::parsetest::Parsed;
using simplec::parsetest::parseText;

namespace {

const FunInfo* findFun(const Unit& g, const std::string& name) {
  for (const FunInfo& f : g.funs)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("parser/fun: a function and a call", "[parser][fun]") {
  CHECK(parseIR("val sq = { int x -> x * x; }; return sq(arg);") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Parm mem %1 : mem\n"
        "  %3 = Con fun#1 Start\n"
        "  %4 = Parm 0 %1 : int\n"
        "  %5 = Call %1, %2, %3, %4 : ctrl\n"
        "  %6 = CallEnd %5 : (ctrl, mem, int)\n"
        "  %7 = CProj 0 %6 : ctrl\n"
        "  %8 = Proj 1 %6 : mem\n"
        "  %9 = Proj 2 %6 : int\n"
        "  %10 = Return %7, %8, %9 : ctrl\n"
        "fun sq:\n"
        "  %11 = Fun sq Start : ctrl\n"
        "  %12 = Parm mem %11 : mem\n"
        "  %13 = Parm 0 %11 : int\n"
        "  %14 = Mul _, %13, %13 : int\n"
        "  %15 = Return %11, %12, %14 : ctrl\n");
  Parsed p = parseText("val sq = { int x -> x * x; }; return sq(arg);");
  const FunInfo* sq = findFun(*p.g, "sq");
  REQUIRE(sq);
  CHECK(sq->symbol == "sq");
  CHECK(sq->paramTypes == std::vector<const Type*>{Type::intBot()});
  CHECK(sq->retType == Type::intBot());
  CHECK_FALSE(sq->isEntry);
  const FunInfo* main = findFun(*p.g, "main");
  REQUIRE(main);
  CHECK(main->isEntry);
  CHECK(main->symbol == "main");
}

TEST_CASE("parser/fun: a function called before its definition", "[parser][fun]") {
  CHECK(parseIR("val a = { int x -> return b(x) + 1; };\n"
                "val b = { int y -> return y * 3; };\n"
                "return a(arg);") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Parm mem %1 : mem\n"
        "  %3 = Con fun#1 Start\n"
        "  %4 = Parm 0 %1 : int\n"
        "  %5 = Call %1, %2, %3, %4 : ctrl\n"
        "  %6 = CallEnd %5 : (ctrl, mem, int)\n"
        "  %7 = CProj 0 %6 : ctrl\n"
        "  %8 = Proj 1 %6 : mem\n"
        "  %9 = Proj 2 %6 : int\n"
        "  %10 = Return %7, %8, %9 : ctrl\n"
        "fun a:\n"
        "  %11 = Fun a Start : ctrl\n"
        "  %12 = Parm mem %11 : mem\n"
        "  %13 = Con fun#2 Start\n"
        "  %14 = Parm 0 %11 : int\n"
        "  %15 = Call %11, %12, %13, %14 : ctrl\n"
        "  %16 = CallEnd %15 : (ctrl, mem, int)\n"
        "  %17 = CProj 0 %16 : ctrl\n"
        "  %18 = Proj 1 %16 : mem\n"
        "  %19 = Proj 2 %16 : int\n"
        "  %20 = Con 1 Start\n"
        "  %21 = Add _, %19, %20 : int\n"
        "  %22 = Return %17, %18, %21 : ctrl\n"
        "fun b:\n"
        "  %23 = Fun b Start : ctrl\n"
        "  %24 = Parm mem %23 : mem\n"
        "  %25 = Parm 0 %23 : int\n"
        "  %26 = Con 3 Start\n"
        "  %27 = Mul _, %25, %26 : int\n"
        "  %28 = Return %23, %24, %27 : ctrl\n");
  // Also from the top level, before the definition.
  Parsed p = parseText("val r = f(3); val f = { int x -> x + 1; }; return r;");
  REQUIRE(p.ok);
  CHECK(p.verifyErrors() == "");
  CHECK(sontest::liveOfKind(*p.g, Op::Call).size() == 1);
}

TEST_CASE("parser/fun: recursion and mutual recursion", "[parser][fun]") {
  Parsed p = parseText("val fact = { int n -> n < 2 ? 1 : n * fact(n - 1); }; return fact(arg);");
  REQUIRE(p.ok);
  CHECK(p.verifyErrors() == "");
  const FunInfo* fact = findFun(*p.g, "fact");
  REQUIRE(fact);
  int index = int(fact - p.g->funs.data());
  // fact calls itself.
  int selfCalls = 0;
  for (Node* c : sontest::liveOfKind(*p.g, Op::Call))
    if (c->in[2]->type == Type::funPtr(index) && c->in[0] != p.g->funs[0].fun) selfCalls++;
  CHECK(selfCalls == 1);
  optimizedIR("val even = { int n -> n == 0 ? true : odd(n - 1); };\n"
              "val odd = { int n -> n == 0 ? false : even(n - 1); };\n"
              "return even(arg);");
  // A bool-returning recursive function keeps its bool type.
  Parsed q = parseText("val even = { int n -> n == 0 ? true : odd(n - 1); };\n"
                       "val odd = { int n -> n == 0 ? false : even(n - 1); };\n"
                       "return even(arg);");
  REQUIRE(q.ok);
  CHECK(findFun(*q.g, "even")->retType == Type::boolType());
}

TEST_CASE("parser/fun: function values and calls through them", "[parser][fun]") {
  std::string ir = parseIR(
      "val ap = { {int -> int} f, int x -> f(x); };\n"
      "val inc = { int x -> x + 1; };\n"
      "return ap(inc, arg);");
  // ap calls whatever its first parameter holds.
  CHECK(ir.find("fun ap:\n"
                "  %12 = Fun ap Start : ctrl\n"
                "  %13 = Parm mem %12 : mem\n"
                "  %14 = Parm 0 %12 : fun\n"
                "  %15 = Parm 1 %12 : int\n"
                "  %16 = Call %12, %13, %14, %15 : ctrl\n") != std::string::npos);
  // main passes inc's address.
  CHECK(ir.find("%6 = Call %1, %2, %3, %4, %5 : ctrl") != std::string::npos);
  CHECK(ir.find("%4 = Con fun#2 Start") != std::string::npos);
}

TEST_CASE("parser/fun: constants of enclosing functions are visible, variables are not", "[parser][fun]") {
  CHECK(parseIR("val k = 3; val f = { int x -> x + k; }; return f(1);").find("Add _, %13, %14") !=
        std::string::npos);
  Parsed p = parseText("int k = arg; val f = { int x -> x + k; }; return f(1);");
  CHECK_FALSE(p.ok);
  CHECK(p.errorLines() ==
        std::vector<std::string>{"1:37: 'k' of an enclosing function is not a constant and cannot be used here"});
}

TEST_CASE("parser/fun: sys.io.p calls the runtime", "[parser][fun]") {
  Parsed p = parseText("sys.io.p(arg); sys.io.p(arg > 1); sys.io.p(\"hey\"); return 0;");
  REQUIRE(p.ok);
  CHECK(p.verifyErrors() == "");
  for (const char* sym : {"__simplec_print_i64", "__simplec_print_bool", "__simplec_print_ary"}) {
    INFO(sym);
    const FunInfo* f = findFun(*p.g, sym);
    REQUIRE(f);
    CHECK(f->isExtern);
    CHECK(f->symbol == sym);
  }
  REQUIRE(p.g->strings == std::vector<std::string>{"hey"});
  // The string call passes the string (its length is in its header); calls
  // are chained through control and memory in program order.
  auto calls = sontest::liveOfKind(*p.g, Op::Call);
  REQUIRE(calls.size() == 3);
  Node* str = nullptr;
  for (Node* c : calls)
    if (c->in.size() == 4 && c->in[3]->type->isPtr()) str = c;
  REQUIRE(str);
  CHECK(str->in[3]->type == Type::dataPtr(0));
  const Node* ret = p.g->funs[0].ret;
  REQUIRE(ret);
  CHECK(ret->in[0]->op == Op::CProj);
  CHECK(ret->in[0]->in[0]->in[0] == str);  // the last call is the last one before the return
  CHECK(ret->in[1]->op == Op::Proj);       // memory comes out of it
}

TEST_CASE("parser/fun: entry forms", "[parser][fun]") {
  // Function form: `val main` is the entry.
  CHECK(parseIR("val main = { int arg -> return arg * 2; };") ==
        "fun main (entry):\n"
        "  %1 = Fun main Start : ctrl\n"
        "  %2 = Parm mem %1 : mem\n"
        "  %3 = Parm 0 %1 : int\n"
        "  %4 = Con 1 Start\n"
        "  %5 = Shl _, %3, %4 : int\n"
        "  %6 = Return %1, %2, %5 : ctrl\n");
  // Library form: no entry, every top-level function global.
  Parsed lib = parseText("val f = { int x -> x; }; val g = { -> 1; };");
  REQUIRE(lib.ok);
  CHECK(lib.verifyErrors() == "");
  for (const char* name : {"f", "g"}) {
    const FunInfo* f = findFun(*lib.g, name);
    REQUIRE(f);
    CHECK(f->isGlobal);
    CHECK_FALSE(f->isEntry);
  }
  CHECK(lib.ir().find("(entry)") == std::string::npos);
  // Both forms at once is an error.
  Parsed both = parseText("val main = { -> return 1; }; return 2;");
  CHECK_FALSE(both.ok);
  CHECK(both.errorLines() ==
        std::vector<std::string>{"1:5: a program cannot have both top-level statements and 'val main'"});
}

TEST_CASE("parser/fun: errors of functions and calls", "[parser][fun]") {
  struct Case {
    const char* src;
    const char* error;
  };
  const Case cases[] = {
      {"val f = { int x -> x; };\nreturn f(1, 2);", "2:9: wrong number of arguments: expected 1, found 2"},
      {"int x = 3; return x(1);", "1:20: cannot call a value of type 'int'"},
      {"val f = { int a, int a -> a; }; return f(1, 2);", "1:22: redefinition of 'a'"},
      {"val f = { {int -> int} g -> g(1); }; return f(5);", "1:47: type mismatch: expected '{ int -> int }', found 'int'"},
      {"val f = { int x -> x; }; f = { int y -> y; }; return 0;", "1:28: cannot assign to val 'f'"},
      {"sys.io.q(1); return 0;", "1:1: unknown name 'sys.io.q'"},
  };
  for (const Case& c : cases) {
    INFO(c.src);
    Parsed p = parseText(c.src);
    INFO(p.diags);
    CHECK_FALSE(p.ok);
    REQUIRE_FALSE(p.errorLines().empty());
    CHECK(p.errorLines()[0] == c.error);
  }
  // A bool parameter keeps the low bit of an int argument.
  Parsed b = parseText("val f = { bool b -> b; }; return f(5);");
  REQUIRE(b.ok);
  auto calls = sontest::liveOfKind(*b.g, Op::Call);
  REQUIRE(calls.size() == 1);
  CHECK(calls[0]->in[3]->type == Type::intConst(1));
}

TEST_CASE("parser/fun: the script's result type follows its returns", "[parser][fun]") {
  auto entry = [](const Parsed& p) -> const FunInfo* {
    for (const FunInfo& f : p.g->funs)
      if (f.isEntry) return &f;
    return nullptr;
  };
  struct Case {
    const char* src;
    const char* type;  // the entry's lattice result type, or "" for none
    uint32_t line, col;  // where that type was decided
  };
  const Case cases[] = {
      {"return arg;", "int", 1, 8},
      {"if (arg > 1) return arg;\nreturn 2.5;", "flt", 2, 8},
      {"if (arg > 1) return;\nsys.io.p(arg);", "", 1, 14},
      {"sys.io.p(arg);", "int", 1, 15},  // falling off the end returns 0
      {"return arg;\nreturn null;", "int", 1, 8},  // an unreachable return does not count
  };
  for (const Case& c : cases) {
    INFO(c.src);
    Parsed p = parseText(c.src);
    INFO(p.diags);
    REQUIRE(p.ok);
    const FunInfo* e = entry(p);
    REQUIRE(e);
    std::string t = !e->retType ? "" : e->retType->isFlt() ? "flt" : e->retType->isInt() ? "int" : "other";
    CHECK(t == c.type);
    CHECK(e->retPos.line == c.line);
    CHECK(e->retPos.col == c.col);
  }
}

TEST_CASE("parser: each function's garbage is freed when its body ends, for the next ones to reuse",
          "[parser][fun][pool]") {
  // Every function leaves garbage: folded branches, loop Phis that turn out
  // to be redundant, values replaced by peepholes.
  std::string src;
  for (int i = 0; i < 300; i++) {
    std::string n = std::to_string(i);
    src += "val fn" + n + " = { int a ->\n  int s = a;\n  int t = 1;\n";
    src += "  for (int k = 0; k < 10; k++) { if (3 > 4) s = s + 9; s = s + k * 2 + t * 0; }\n";
    src += "  if (a == a) s = s + 1; else s = s - 1;\n  return s + " + n + ";\n};\n";
  }
  src += "return fn0(arg) + fn299(arg);\n";
  Parsed p = parseText(src);
  INFO(p.diags);
  REQUIRE(p.ok);
  size_t live = 0, ids = 0;
  for (const FunInfo& f : p.g->funs)
    if (f.graph) {
      live += f.graph->size() - f.graph->deadCount();
      ids += f.graph->size();
    }
  INFO("live " << live << ", node slots " << p.g->nodePool.capacity() << ", made " << p.g->nodesMade);
  // Function bodies are compacted: no dead node keeps an id ...
  CHECK(ids == live);
  // ... and storage follows the live nodes, not every node ever made
  // (chunks of 1024 slots: one chunk of slack).
  CHECK(p.g->nodesMade > live + live / 2);
  CHECK(p.g->nodePool.capacity() <= live + 1024);
}

TEST_CASE("parser: a recursive result type is learnt from a later return that clashed with the assumption",
          "[parser][fun]") {
  // The recursive return comes first: its type is assumed (bool), the
  // struct return clashes, and the next round assumes the struct.
  Parsed p = parseText(
      "struct S { int v; };\n"
      "val make = { int k ->\n"
      "  if (k > 100) return make(k - 1);\n"
      "  return new S { v = k; };\n"
      "};\n"
      "return make(200).v;\n");
  INFO(p.diags);
  CHECK(p.ok);
  CHECK(p.errors == 0);
}
