// Tests for opt/inline.h, opt/unused_funs.h and opt/call_graph.h: small and
// single-call-site callees are copied into their callers, recursion stays a
// call (but a small function calling itself gets one level of its
// recursion copied into itself), copies keep their source positions, and
// functions nothing can call any more are removed.
#include <catch2/catch.hpp>

#include "lexer/diag.h"
#include "lexer/work_counters.h"
#include "opt/call_graph.h"
#include "opt/inline.h"
#include "opt/iterate.h"
#include "opt/unused_funs.h"
#include "parser/parser.h"
#include "son/evaluator.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::sontest::SonBuilder;

namespace {

void parse(Unit& g, const std::string& src) {
  SourceFile file("t.smp", src);
  DiagEngine diag(stderr);
  REQUIRE(parseFile(file, diag, g));
}

int funIndex(const Unit& g, const std::string& name) {
  for (size_t i = 0; i < g.funs.size(); i++)
    if (g.funs[i].name == name) return int(i);
  FAIL("no function " << name);
  return -1;
}

// Direct calls left in function `name`'s body.
int callsIn(const Unit& g, const std::string& name) {
  return int(sontest::liveOfKind(*g.graph(funIndex(g, name)), Op::Call).size());
}

bool present(const Unit& g, const std::string& name) { return g.funs[size_t(funIndex(g, name))].hasBody(); }

}  // namespace

TEST_CASE("opt/inline: a small callee is copied into every caller", "[opt][inline]") {
  Unit g;
  parse(g, "val sq = { int x -> return x * x; };\nreturn sq(arg) + sq(arg + 1);");
  CHECK(callsIn(g, "main") == 2);
  CHECK(inlineCalls(g) == 2);
  CHECK(callsIn(g, "main") == 0);
  CHECK(sontest::verifyText(g) == "");
  CHECK(removeUnusedFunctions(g) == 1);
  CHECK_FALSE(present(g, "sq"));
  CHECK(sontest::verifyText(g) == "");
}

TEST_CASE("opt/inline: recursion stays a call", "[opt][inline]") {
  Unit g;
  parse(g,
        "val fact = { int n -> if (n <= 1) return 1; return n * fact(n - 1); };\n"
        "val even = { int n -> if (n == 0) return true; return odd(n - 1); };\n"
        "val odd = { int n -> if (n == 0) return false; return even(n - 1); };\n"
        "return fact(arg) + even(arg);");
  CHECK(inlineCalls(g) == 0);
  CHECK(callsIn(g, "main") == 2);
  CHECK(callsIn(g, "fact") == 1);
  CallGraph cg(g);
  CHECK(cg.recursive(funIndex(g, "fact")));
  CHECK(cg.recursive(funIndex(g, "even")));
  CHECK(cg.component[size_t(funIndex(g, "even"))] == cg.component[size_t(funIndex(g, "odd"))]);
  CHECK_FALSE(cg.recursive(funIndex(g, "main")));
  CHECK(removeUnusedFunctions(g) == 0);
}

TEST_CASE("opt/inline: a small function calling itself gets one level of its recursion copied", "[opt][inline]") {
  Unit g;
  parse(g,
        "val fib = { int n -> if (n < 2) return n; return fib(n - 1) + fib(n - 2); };\n"
        "sys.io.p(fib(arg + 19)); return fib(arg + 9);");
  EvalResult before = evaluateProgram(g, 1, EvalOptions{});
  CHECK(callsIn(g, "fib") == 2);
  CHECK(inlineSelfCalls(g) == 2);
  CHECK(sontest::verifyText(g) == "");
  // Each copy is of the body before any copy went in: two calls each.
  CHECK(callsIn(g, "fib") == 4);
  CHECK(callsIn(g, "main") == 3);  // fib stays recursive: not copied into main (one call prints)
  EvalResult after = evaluateProgram(g, 1, EvalOptions{});
  CHECK(evalDifference(before, after) == "");
  CHECK(after.out == "6765");
  CHECK(after.returnValue == 55);
  CHECK(before.out == after.out);
}

TEST_CASE("opt/inline: mutual, large and many-site recursion is not copied into itself", "[opt][inline]") {
  Unit g;
  parse(g,
        "val even = { int n -> if (n == 0) return true; return odd(n - 1); };\n"
        "val odd = { int n -> if (n == 0) return false; return even(n - 1); };\n"
        "val five = { int n -> if (n < 1) return 1;\n"
        "  return five(n - 1) + five(n - 2) + five(n - 3) + five(n - 4) + five(n - 5); };\n"
        "val big = { int n -> if (n < 1) return 1; int s = n;\n"
        "  for (int i = 0; i < n; i++) { s = s * 31 + i; s = s ^ (s >> 7); s = s + i * i; s = s - (s >> 3); }\n"
        "  for (int i = 0; i < n; i++) { s = s * 17 + i; s = s ^ (s << 5); s = s + i * 3; s = s - (s >> 2); }\n"
        "  return s + big(n - 1); };\n"
        "if (even(arg)) return five(arg) + big(arg); return 0;");
  CHECK(inlineSelfCalls(g) == 0);
  CHECK(callsIn(g, "even") == 1);
  CHECK(callsIn(g, "five") == 5);
  CHECK(callsIn(g, "big") == 1);
}

TEST_CASE("opt/inline: -g: copies of a function into itself name its variables", "[opt][inline]") {
  Unit g;
  g.debugInfo = true;
  parse(g,
        "val f = { int n ->\n    int m = n * 2;\n    if (n < 2) return m;\n"
        "    return f(n - 1) + f(n - 2) + m;\n};\nreturn f(arg + 5);");
  EvalResult before = evaluateProgram(g, 1, EvalOptions{});
  size_t varsBefore = g.funs[size_t(funIndex(g, "f"))].debugVars.size();
  CHECK(inlineSelfCalls(g) == 2);
  CHECK(sontest::verifyText(g) == "");
  const FunInfo& f = g.funs[size_t(funIndex(g, "f"))];
  // n and m of each of the two inlined frames.
  int inlined = 0;
  for (const DebugVar& v : f.debugVars)
    if (v.inlineSite >= 0) {
      inlined++;
      CHECK((v.name == "n" || v.name == "m"));
      CHECK(g.inlineSites[size_t(v.inlineSite)].callee == funIndex(g, "f"));
    }
  CHECK(inlined == 4);
  CHECK(f.debugVars.size() == varsBefore + 4);
  EvalResult after = evaluateProgram(g, 1, EvalOptions{});
  CHECK(evalDifference(before, after) == "");
  CHECK(before.returnValue == after.returnValue);
}

TEST_CASE("opt/inline: a large callee is inlined only at its one call site", "[opt][inline]") {
  // big's body is well over kSmallCallee nodes.
  std::string big = "val big = { int x ->\n  int s = 0;\n";
  for (int i = 0; i < 30; i++) big += "  s = s * 3 + x / " + std::to_string(i + 2) + ";\n";
  big += "  return s;\n};\n";
  SECTION("one call site") {
    Unit g;
    parse(g, big + "return big(arg);");
    CHECK(inlineCalls(g) == 1);
    CHECK(callsIn(g, "main") == 0);
    // Nothing else can call it: its body went with the inlining.
    CHECK_FALSE(present(g, "big"));
    CHECK(removeUnusedFunctions(g) == 0);
  }
  SECTION("two call sites") {
    Unit g;
    parse(g, big + "return big(arg) + big(2);");
    CHECK(inlineCalls(g) == 0);
    CHECK(callsIn(g, "main") == 2);
  }
  SECTION("one call site, but the function escapes as a value") {
    Unit g;
    parse(g, big + "val k = big; val apply = { {int -> int} f, int v -> return f(v); };\n"
                   "return big(arg) + apply(k, 3);");
    CallGraph cg(g);
    CHECK(cg.escapes(funIndex(g, "big")));
    inlineCalls(g);
    sontest::onEachFunction(g, [](Graph& fg) { iterPeeps(fg, 0, true); });
    CHECK(present(g, "big"));
    CHECK(sontest::verifyText(g) == "");
  }
}

TEST_CASE("opt/inline: a chain of functions each called once is copied within the unit's budget", "[opt][inline]") {
  // c_i calls c_(i-1) once: bottom-up, each copy would hold the whole chain
  // below it (quadratic). All copies of larger callees together stay within
  // kUnitGrowthFactor times the unit plus kUnitGrowthConstant; a callee
  // inlined at its one site goes at once. The program still means the same.
  std::string s = "val c0 = { int x -> return x * 7 + 1; };\n";
  for (int i = 1; i < 600; i++)
    s += "val c" + std::to_string(i) + " = { int x -> int y = x * " + std::to_string(i % 9 + 2) + " + c" +
         std::to_string(i - 1) + "(x + 1); return y - x / 3; };\n";
  s += "return c599(arg) & 127;";
  Unit g;
  parse(g, s);
  EvalResult before = evaluateProgram(g, 3, EvalOptions{});
  CallGraph cg(g);
  size_t unit = 0;
  for (size_t f = 0; f < g.funs.size(); f++) unit += cg.bodySize[f];
  workCounters() = WorkCounters{};
  CHECK(inlineCalls(g) > 0);
  uint64_t copied = workCounters().inlinedNodes;
  INFO("unit " << unit << " nodes, copied " << copied);
  CHECK(copied <= kUnitGrowthFactor * unit + kUnitGrowthConstant + 600 * kSmallCallee);
  CHECK(copied > kUnitGrowthConstant);  // the budget, not the chain, stopped it
  size_t bodies = 0, live = 0;
  for (const FunInfo& f : g.funs)
    if (f.hasBody()) {
      bodies++;
      live += liveNodes(*f.graph).size();
    }
  CHECK(bodies < 300);
  CHECK(live < 4 * unit);
  CHECK(sontest::verifyText(g) == "");
  EvalResult after = evaluateProgram(g, 3, EvalOptions{});
  CHECK(after.returnValue == before.returnValue);
  CHECK(after.error == before.error);
}

TEST_CASE("opt/inline: the copy keeps the callee's source positions", "[opt][inline]") {
  Unit g;
  parse(g, "val dv = { int a, int b ->\n    return a / b;\n};\nreturn dv(10, arg - 1);");
  CHECK(inlineCalls(g) == 1);
  int checks = 0;
  for (Node* x : liveNodes(*g.graph(funIndex(g, "main"))))
    if (x->op == Op::ZeroCheck) {
      checks++;
      CHECK(x->pos.line == 2);
      CHECK(x->pos.col == 14);
    }
  CHECK(checks == 1);
}

TEST_CASE("opt/inline: -g: the callee's variables become the inlined frame's, on the copies' values", "[opt][inline]") {
  Unit g;
  g.debugInfo = true;
  parse(g, "val f = { int a, int b ->\n    int c = a * b;\n    int d = c;\n    d = d + 1;\n    return d;\n};\n"
           "return f(arg, 3);");
  CHECK(inlineCalls(g) == 1);
  const FunInfo& main = g.funs[size_t(funIndex(g, "main"))];
  const Graph& mg = *g.graph(funIndex(g, "main"));
  // a, b and c (one value each) are copied; d, assigned again, is not.
  std::vector<std::string> names;
  int site = -2;
  for (const DebugVar& v : main.debugVars)
    if (v.inlineSite >= 0) {
      names.push_back(v.name);
      if (site == -2) site = v.inlineSite;
      CHECK(v.inlineSite == site);  // one frame: this call's
    }
  CHECK(names == std::vector<std::string>{"a", "b", "c"});
  REQUIRE(site >= 0);
  CHECK(g.inlineSites[size_t(site)].callee == funIndex(g, "f"));
  // `a` names the argument: main's own parameter `arg`.
  bool argNamesA = false;
  for (const Node* n : mg.nodes())
    if (!n->dead && n->op == Op::Parm && n->aux == 0)
      for (uint32_t k = n->dbg; k != 0; k = mg.debugNames[k].next)
        argNamesA |= main.debugVars[size_t(mg.debugNames[k].var)].name == "a";
  CHECK(argNamesA);
}

TEST_CASE("opt/inline: a hand-built call is replaced by the callee's body", "[opt][inline]") {
  Unit g;
  SonBuilder callee(g, "inc", 1);
  callee.ret(callee.fun, callee.add(callee.parm(0), callee.con(1)));
  SonBuilder caller(g, "main", 1);
  g.funs[size_t(caller.index)].isEntry = true;
  auto c = caller.call(caller.fun, caller.mem, callee.index, {caller.parm(0)});
  caller.ret(c.ctrl, c.mem, caller.add(c.value, caller.con(5)));
  REQUIRE(sontest::verifyText(g) == "");
  CHECK(inlineCalls(g) == 1);
  CHECK(sontest::verifyText(g) == "");
  // main's Return now takes its control and memory straight from main's entry.
  Node* ret = g.funs[size_t(caller.index)].ret;
  CHECK(ret->in[0] == caller.fun);
  CHECK(ret->in[1] == caller.mem);
  Node* sum = ret->in[2];
  REQUIRE(sum->op == Op::Add);
  REQUIRE(sum->in[1]->op == Op::Add);
  CHECK(sum->in[1]->in[1] == caller.parm(0));
  // Its one call inlined, nothing can call inc: its body is gone already.
  CHECK_FALSE(g.funs[size_t(callee.index)].hasBody());
  CHECK(removeUnusedFunctions(g) == 0);
  CHECK(sontest::verifyText(g) == "");
}

TEST_CASE("opt/unused_funs: what main or an export reaches stays", "[opt][inline]") {
  SECTION("a program") {
    Unit g;
    parse(g,
          "val used = { int x -> return x + 1; };\n"
          "val unused = { int x -> return unused2(x) + 1; };\n"
          "val unused2 = { int x -> if (x > 0) return unused(x - 1); return 0; };\n"
          "val held = { int x -> return x; };\n"
          "val h = held;\n"
          "return used(arg) + h(2);");
    CHECK(removeUnusedFunctions(g) == 2);
    CHECK(present(g, "used"));
    CHECK(present(g, "held"));
    CHECK_FALSE(present(g, "unused"));
    CHECK_FALSE(present(g, "unused2"));
    CHECK(sontest::verifyText(g) == "");
  }
  SECTION("a library keeps its exported functions") {
    Unit g;
    parse(g, "val a = { int x -> return x + 1; };\nval b = { int x -> return a(x) * 2; };\n");
    CHECK(removeUnusedFunctions(g) == 0);
    CHECK(present(g, "a"));
    CHECK(present(g, "b"));
  }
}

TEST_CASE("opt/call_graph: a swept body is scanned without the walk from Stop, to the same graph",
          "[opt][inline][work]") {
  const std::string src =
      "val sq = { int x -> return x * x; };\n"
      "val twice = { int x -> return sq(x) + sq(x + 1); };\n"
      "val pick = { int k -> { int -> int } f = k > 0 ? sq : twice; return f(k); };\n"
      "return twice(arg) + pick(arg) + sq(3);";
  Unit g;
  parse(g, src);
  // Parsed bodies are swept: building the graph walks nothing.
  workCounters() = WorkCounters{};
  CallGraph fast(g);
  CHECK(workCounters().liveNodeVisits == 0);
  // Edited since (a node made): the walk from Stop, and the same answer.
  for (FunInfo& f : g.funs)
    if (f.hasBody()) f.graph->con(Type::intConst(12345));
  CallGraph walked(g);
  CHECK(workCounters().liveNodeVisits > 0);
  CHECK(fast.directCalls == walked.directCalls);
  CHECK(fast.refs == walked.refs);
  CHECK(fast.callSites == walked.callSites);
  CHECK(fast.bodySize == walked.bodySize);
  CHECK(fast.hasIndirectCall == walked.hasIndirectCall);
  CHECK(fast.component == walked.component);
  int sq = funIndex(g, "sq"), pick = funIndex(g, "pick");
  CHECK(fast.escapes(sq));
  CHECK(fast.hasIndirectCall[size_t(pick)]);
  CHECK(fast.callSites[size_t(sq)] == 3);
}
