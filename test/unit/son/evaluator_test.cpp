// Tests for the graph evaluator (son/evaluator.h): hand-built graphs
// (arithmetic, Phis assigned in parallel, guarded division, MIN / -1, data
// chains far deeper than the C++ stack allows, stale values after a long
// loop body, malformed graphs) and parsed programs run before and after the
// optimizer (loops, nested loops, recursion, function references, runtime
// errors with positions, output, limits), plus --check-passes's comparison.
#include <catch2/catch.hpp>

#include <pthread.h>

#include <climits>
#include <cstdint>
#include <functional>
#include <string>

#include "son/evaluator.h"
#include "son/mem_access.h"
#include "test/unit/parser/parse_helpers.h"
#include "test/unit/son/graph_builder.h"

using namespace simplec;
using simplec::parsetest::Parsed;
using simplec::parsetest::parseText;
using simplec::sontest::SonBuilder;

namespace {

// Adds an external print function to the unit and returns its index.
int addExtern(Unit& g, const std::string& symbol, int nParams) {
  FunInfo f;
  f.name = f.symbol = symbol;
  f.isExtern = true;
  for (int i = 0; i < nParams; i++) f.paramTypes.push_back(Type::intBot());
  g.funs.push_back(std::move(f));
  return int(g.funs.size()) - 1;
}

EvalOptions opts() {
  EvalOptions o;
  o.fileName = "t.smp";
  return o;
}

// Parses `src` (it must be valid) and, for level > 0, optimizes it.
std::unique_ptr<Unit> build(const std::string& src, int level) {
  Parsed p = parseText(src);
  INFO(src << "\n" << p.diags);
  REQUIRE(p.ok);
  if (level > 0) {
    PassOptions o;
    o.optLevel = level;
    o.verifyEach = true;
    afterParse(*p.g, o);
    runPipeline(*p.g, o);
  }
  return std::move(p.g);
}

EvalResult runAt(const std::string& src, int level, int64_t argc = 1, EvalOptions eo = opts()) {
  std::unique_ptr<Unit> g = build(src, level);
  return evaluateProgram(*g, argc, eo);
}

// Runs the program before and after optimization; both must agree.
EvalResult run(const std::string& src, int64_t argc = 1) {
  EvalResult r0 = runAt(src, 0, argc);
  EvalResult r2 = runAt(src, 2, argc);
  INFO(src);
  CHECK(r0.complete());
  CHECK(evalDifference(r0, r2) == "");
  CHECK(r0.returnValue == r2.returnValue);
  return r0;
}

// Runs fn on a thread with a 256 KiB stack: any recursion that grows with
// the graph would overflow it.
void onSmallStack(const std::function<void()>& fn) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(256) << 10);
  pthread_t t;
  auto body = [](void* p) -> void* {
    (*static_cast<const std::function<void()>*>(p))();
    return nullptr;
  };
  REQUIRE(pthread_create(&t, &attr, body, const_cast<std::function<void()>*>(&fn)) == 0);
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
}

}  // namespace

TEST_CASE("son/evaluator: arithmetic on hand-built graphs", "[son][evaluator]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Node* x = b.parm(0);
  Node* y = b.parm(1);
  // ((x + y) * (x - y)) ^ (x << 3) | (-y >> 1), (x < y) + (x <= y) * 2 + (x == y) * 4
  Node* v = b.op(Op::Xor, b.op(Op::Mul, b.add(x, y), b.op(Op::Sub, x, y)), b.op(Op::Shl, x, b.con(3)));
  v = b.op(Op::Or, v, b.op(Op::Sar, b.op(Op::Neg, y), b.con(1)));
  Node* c = b.add(b.op(Op::LT, x, y), b.add(b.op(Op::Mul, b.op(Op::LE, x, y), b.con(2)),
                                              b.op(Op::Mul, b.op(Op::EQ, x, y), b.con(4))));
  b.ret(b.fun, b.add(b.op(Op::Mul, v, b.con(8)), c));
  auto ref = [](int64_t x, int64_t y) {
    auto u = [](int64_t a) { return uint64_t(a); };
    int64_t v = int64_t((u(x) + u(y)) * (u(x) - u(y))) ^ int64_t(u(x) << 3);
    v |= int64_t(0 - u(y)) >> 1;
    int64_t c = (x < y) + (x <= y) * 2 + (x == y) * 4;
    return int64_t(u(v) * 8 + u(c));
  };
  for (auto [x0, y0] : {std::pair<int64_t, int64_t>{3, 5}, {5, 3}, {7, 7}, {-4, 9}, {INT64_MIN, -1},
                        {INT64_MAX, INT64_MIN}}) {
    EvalResult r = evaluate(u, 0, {x0, y0}, opts());
    INFO(x0 << " " << y0);
    CHECK(r.complete());
    CHECK(r.returnValue == ref(x0, y0));
    CHECK(r.exitStatus == int(uint64_t(ref(x0, y0)) & 255));
    CHECK(r.error == "");
  }
}

TEST_CASE("son/evaluator: a ZeroCheck guards Div and Mod; MIN / -1 wraps", "[son][evaluator]") {
  Unit u;
  SonBuilder b(u, "f", 2);
  Node* zc = b.zeroCheck(b.fun, b.parm(1));
  zc->pos = SrcPos{3, 14};
  Node* q = b.div(Op::Div, zc, b.parm(0), b.parm(1));
  Node* r = b.div(Op::Mod, zc, b.parm(0), b.parm(1));
  b.ret(zc, b.add(b.op(Op::Mul, q, b.con(1000)), r));
  CHECK(evaluate(u, 0, {47, 5}, opts()).returnValue == 9002);
  CHECK(evaluate(u, 0, {-47, 5}, opts()).returnValue == -9002);
  CHECK(evaluate(u, 0, {47, -5}, opts()).returnValue == -9000 + 2);
  EvalResult m = evaluate(u, 0, {INT64_MIN, -1}, opts());
  CHECK(m.complete());
  CHECK(m.returnValue == int64_t(uint64_t(INT64_MIN) * 1000));
  EvalResult z = evaluate(u, 0, {47, 0}, opts());
  CHECK(z.error == "t.smp:3:14: runtime error: division by zero");
  CHECK(z.exitStatus == 101);
  CHECK(z.complete());
}

TEST_CASE("son/evaluator: the Phis of a loop take their values in parallel", "[son][evaluator]") {
  // f(n): i, a, b = 0, 1, 2; while (i < n) { a, b = b, a; i++ } return a * 10 + b
  Unit u;
  SonBuilder b(u, "f", 1);
  Graph& g = b.g;
  Node* lp = b.loop(b.fun);
  Node* i = b.loopPhi(lp, b.con(0));
  Node* a = b.loopPhi(lp, b.con(1));
  Node* bb = b.loopPhi(lp, b.con(2));
  g.setDef(i, 2, b.add(i, b.con(1)));
  g.setDef(a, 2, bb);
  g.setDef(bb, 2, a);
  SonBuilder::Branch br = b.branch(lp, b.op(Op::LT, i, b.parm(0)));
  b.closeLoop(lp, br.t);
  b.ret(br.f, b.add(b.op(Op::Mul, a, b.con(10)), bb));
  CHECK(evaluate(u, 0, {0}, opts()).returnValue == 12);
  CHECK(evaluate(u, 0, {1}, opts()).returnValue == 21);
  CHECK(evaluate(u, 0, {4}, opts()).returnValue == 12);
  CHECK(evaluate(u, 0, {7}, opts()).returnValue == 21);
}

TEST_CASE("son/evaluator: the swap loop of a parsed program", "[son][evaluator]") {
  const char* src =
      "int a = 1; int b = 2; int i = 0; int n = arg * 3 + 2;\n"
      "while (i < n) { int t = a; a = b; b = t; i++; }\n"
      "sys.io.p(a); sys.io.p(\" \"); sys.io.p(b);\n"
      "return a * 10 + b;\n";
  EvalResult r1 = run(src, 1);  // n = 5
  CHECK(r1.out == "2 1");
  CHECK(r1.exitStatus == 21);
  EvalResult r2 = run(src, 2);  // n = 8
  CHECK(r2.out == "1 2");
  CHECK(r2.exitStatus == 12);
}

TEST_CASE("son/evaluator: nested loops, break and continue", "[son][evaluator]") {
  const char* src =
      "int total = 0;\n"
      "for (int i = 0; i < 30; i++) {\n"
      "  if (i % 7 == 6) continue;\n"
      "  int j = 0;\n"
      "  while (j < i) {\n"
      "    if (i * j > 400 + arg) break;\n"
      "    for (int k = 0; k < 3; k++) total += (i ^ j) + k;\n"
      "    j++;\n"
      "  }\n"
      "}\n"
      "sys.io.p(total);\n"
      "return total % 256;\n";
  int64_t total = 0;
  for (int64_t i = 0; i < 30; i++) {
    if (i % 7 == 6) continue;
    for (int64_t j = 0; j < i; j++) {
      if (i * j > 401) break;
      for (int64_t k = 0; k < 3; k++) total += (i ^ j) + k;
    }
  }
  EvalResult r = run(src);
  CHECK(r.out == std::to_string(total));
  CHECK(r.exitStatus == int(total % 256));
}

TEST_CASE("son/evaluator: recursion and mutual recursion", "[son][evaluator]") {
  const char* src =
      "val fib = { int n -> if (n < 2) return n; return fib(n - 1) + fib(n - 2); };\n"
      "val isEven = { int n -> if (n == 0) return true; return isOdd(n - 1); };\n"
      "val isOdd = { int n -> if (n == 0) return false; return isEven(n - 1); };\n"
      "val main = { int arg ->\n"
      "  sys.io.p(fib(20)); sys.io.p(\" \"); sys.io.p(isEven(arg + 9)); sys.io.p(\" \");\n"
      "  sys.io.p(isOdd(1001));\n"
      "  return fib(arg + 5);\n"
      "};\n";
  EvalResult r = run(src, 2);
  CHECK(r.out == "6765 false true");
  CHECK(r.returnValue == 13);
}

TEST_CASE("son/evaluator: calls through function references", "[son][evaluator]") {
  const char* src =
      "val add = { int a, int b -> return a + b; };\n"
      "val mul = { int a, int b -> return a * b; };\n"
      "val fold = { { int int -> int } op, int init, int n ->\n"
      "  int acc = init;\n"
      "  for (int i = 1; i <= n; i++) acc = op(acc, i);\n"
      "  return acc;\n"
      "};\n"
      "val main = { int arg ->\n"
      "  { int int -> int } h = arg > 1 ? add : mul;\n"
      "  sys.io.p(fold(add, 0, 100)); sys.io.p(\" \"); sys.io.p(fold(mul, 1, 10)); sys.io.p(\" \");\n"
      "  sys.io.p(h(6, 7)); sys.io.p(\" \"); sys.io.p(h == add);\n"
      "  return 0;\n"
      "};\n";
  CHECK(run(src, 1).out == "5050 3628800 42 false");
  CHECK(run(src, 2).out == "5050 3628800 13 true");
}

TEST_CASE("son/evaluator: division by zero reports its position after the output so far", "[son][evaluator]") {
  const char* src =
      "val ratio = { int a, int b ->\n"
      "  sys.io.p(a); sys.io.p(\"/\"); sys.io.p(b); sys.io.p(\"\\n\");\n"
      "  return a / b;\n"
      "};\n"
      "int t = 0;\n"
      "for (int i = 2; i >= 0 - arg; i--) t += ratio(100, i);\n"
      "return t;\n";
  EvalResult r = run(src, 1);
  CHECK(r.out == "100/2\n100/1\n100/0\n");
  CHECK(r.error == "t.smp:3:12: runtime error: division by zero");
  CHECK(r.exitStatus == 101);
  const char* mod = "int x = 7;\nx %= arg - 1;\nreturn x;\n";
  EvalResult m = run(mod, 1);
  CHECK(m.error == "t.smp:2:3: runtime error: division by zero");
  CHECK(m.out == "");
}

TEST_CASE("son/evaluator: MIN / -1 and MIN % -1 in a parsed program", "[son][evaluator]") {
  const char* src =
      "int min = -9223372036854775808;\n"
      "int m1 = arg - 2;\n"
      "sys.io.p(min / m1); sys.io.p(\" \"); sys.io.p(min % m1); sys.io.p(\" \"); sys.io.p(min / -1);\n"
      "return 0;\n";
  CHECK(run(src, 1).out == "-9223372036854775808 0 -9223372036854775808");
}

TEST_CASE("son/evaluator: printing integers, bools and strings", "[son][evaluator]") {
  const char* src =
      "sys.io.p(-9223372036854775807 - 1); sys.io.p(\"|\"); sys.io.p(arg == 1); sys.io.p(\"|\");\n"
      "sys.io.p(arg != 1); sys.io.p(\"|tab\\there\\n\"); sys.io.p(\"\"); sys.io.p(0);\n"
      "return 300;\n";
  EvalResult r = run(src, 1);
  CHECK(r.out == "-9223372036854775808|true|false|tab\there\n0");
  CHECK(r.returnValue == 300);
  CHECK(r.exitStatus == 44);
}

TEST_CASE("son/evaluator: main gets argc when it takes a parameter", "[son][evaluator]") {
  CHECK(run("return arg * 10 + 1;\n", 4).exitStatus == 41);
  CHECK(run("val main = { -> return 7; };\n", 4).exitStatus == 7);
  Unit g;
  EvalResult none = evaluateProgram(g, 1, opts());
  CHECK(!none.complete());
  CHECK(none.unsupported.find("no main") != std::string::npos);
}

TEST_CASE("son/evaluator: the step limit stops an endless loop with its output", "[son][evaluator]") {
  const char* src = "int i = 0;\nwhile (arg) { sys.io.p(\"x\"); i++; }\nreturn i;\n";
  for (int level : {0, 2}) {
    EvalOptions o = opts();
    o.maxSteps = 5000;
    EvalResult r = runAt(src, level, 1, o);
    INFO("level " << level);
    CHECK(r.stepLimitExceeded);
    CHECK(!r.complete());
    CHECK(r.steps == 5001);
    CHECK(r.out.size() > 100);
    CHECK(r.out == std::string(r.out.size(), 'x'));
  }
  EvalOptions small = opts();
  small.maxOutputBytes = 64;
  EvalResult big = runAt(src, 2, 1, small);
  CHECK(big.outputLimitExceeded);
  CHECK(big.out == std::string(64, 'x'));
}

TEST_CASE("son/evaluator: unbounded recursion is a stack overflow", "[son][evaluator]") {
  const char* src = "val f = { int n -> return 1 + f(n + 1); };\nsys.io.p(\"go\");\nreturn f(0);\n";
  EvalOptions o = opts();
  o.maxCallDepth = 1000;
  EvalResult r = runAt(src, 2, 1, o);
  CHECK(r.error == "t.smp:1:9: runtime error: stack overflow");
  CHECK(r.exitStatus == 101);
  CHECK(r.out == "go");
  EvalOptions bytes = opts();
  bytes.maxStackBytes = 1 << 16;
  CHECK(runAt(src, 0, 1, bytes).error == "t.smp:1:9: runtime error: stack overflow");
  // Deep but finite recursion is fine.
  CHECK(run("val f = { int n -> if (n == 0) return 0; return 1 + f(n - 1); };\nreturn f(arg * 50000) % 256;\n", 2)
            .returnValue == 100000 % 256);
}

TEST_CASE("son/evaluator: a 100k-node data chain needs no C++ stack", "[son][evaluator]") {
  Unit u;
  SonBuilder b(u, "f", 1);
  Node* x = b.parm(0);
  for (int i = 0; i < 100000; i++) x = b.add(x, b.con(i % 3 == 0 ? 2 : -1));
  b.ret(b.fun, x);
  EvalResult r;
  onSmallStack([&] { r = evaluate(u, 0, {5}, opts()); });
  CHECK(r.complete());
  CHECK(r.returnValue == 5 + 33334 * 2 - 66666);
}

TEST_CASE("son/evaluator: values computed in a long loop body go stale each iteration", "[son][evaluator]") {
  // f(n, k): s = 0; for (i = 0; i < n; i++) s += (i + k) + 1 + 1 ... (3000 times).
  // The loop's Phis have more dependents than a stale list keeps.
  Unit u;
  SonBuilder b(u, "f", 2);
  Graph& g = b.g;
  Node* lp = b.loop(b.fun);
  Node* i = b.loopPhi(lp, b.con(0));
  Node* s = b.loopPhi(lp, b.con(0));
  Node* k2 = b.op(Op::Mul, b.parm(1), b.con(2));  // loop invariant
  Node* v = b.add(i, k2);
  for (int j = 0; j < 3000; j++) v = b.add(v, b.con(1));
  g.setDef(i, 2, b.add(i, b.con(1)));
  g.setDef(s, 2, b.add(s, v));
  SonBuilder::Branch br = b.branch(lp, b.op(Op::LT, i, b.parm(0)));
  b.closeLoop(lp, br.t);
  b.ret(br.f, s);
  for (int64_t n : {0, 1, 5, 40}) {
    int64_t want = 0;
    for (int64_t j = 0; j < n; j++) want += j + 14 + 3000;
    CHECK(evaluate(u, 0, {n, 7}, opts()).returnValue == want);
  }
}

TEST_CASE("son/evaluator: call results in a loop are fresh each iteration", "[son][evaluator]") {
  const char* src =
      "val sq = { int x -> return x * x; };\n"
      "int s = 0;\n"
      "for (int i = 0; i < 10 + arg; i++) { int q = sq(i); s += q + q / 2; }\n"
      "return s % 256;\n";
  int64_t s = 0;
  for (int64_t i = 0; i < 11; i++) s += i * i + i * i / 2;
  CHECK(run(src, 1).returnValue == s % 256);
}

TEST_CASE("son/evaluator: malformed graphs are internal errors", "[son][evaluator]") {
  SECTION("a data cycle without a Phi") {
    Unit u;
    SonBuilder b(u, "f", 1);
    Graph& g = b.g;
    Node* a = b.add(b.parm(0), b.con(1));
    Node* c = b.add(a, b.con(2));
    g.setDef(a, 1, c);
    b.ret(b.fun, c);
    CHECK_THROWS_AS(evaluate(u, 0, {1}, opts()), InternalError);
  }
  SECTION("a division by zero no ZeroCheck guards") {
    Unit u;
    SonBuilder b(u, "f", 1);
    b.ret(b.fun, b.div(Op::Div, nullptr, b.con(1), b.parm(0)));
    CHECK(evaluate(u, 0, {1}, opts()).returnValue == 1);
    CHECK_THROWS_AS(evaluate(u, 0, {0}, opts()), InternalError);
  }
  SECTION("a Phi read where its region was not entered") {
    // if (x) check(p) -> r; else -> r; p = Phi(r, 1, 2): the check reads p
    // before control has reached r.
    Unit u;
    SonBuilder b(u, "f", 1);
    Graph& g = b.g;
    SonBuilder::Branch br = b.branch(b.fun, b.parm(0));
    Node* zc = b.zeroCheck(br.t, b.con(1));
    Node* r = b.region({zc, br.f});
    Node* p = b.phi(r, {b.con(1), b.con(2)});
    g.setDef(zc, 1, p);
    b.ret(r, p);
    CHECK(evaluate(u, 0, {0}, opts()).returnValue == 2);
    CHECK_THROWS_AS(evaluate(u, 0, {1}, opts()), InternalError);
  }
  SECTION("a missing argument") {
    Unit u;
    SonBuilder b(u, "f", 2);
    b.ret(b.fun, b.add(b.parm(0), b.parm(1)));
    CHECK_THROWS_AS(evaluate(u, 0, {1}, opts()), InternalError);
    CHECK_THROWS_AS(evaluate(u, 5, {1, 2}, opts()), InternalError);
  }
}

TEST_CASE("son/evaluator: struct objects hold narrow fields packed in words", "[son][evaluator]") {
  // Each store writes its own bytes only: all ones, then the neighbours.
  EvalResult r = run(
      "struct P { u8 a; i8 b; i16 c; f32 d; int e; };\n"
      "P !p = new P; p.a = -1; p.b = -1; p.c = -1; p.d = -1.0; p.e = -1;\n"
      "p.b = arg; p.d = 0.1; p.a = 300;\n"
      "sys.io.p(p.a); sys.io.p(\" \"); sys.io.p(p.b); sys.io.p(\" \"); sys.io.p(p.c); sys.io.p(\" \");\n"
      "sys.io.p(p.d == 0.1); sys.io.p(\" \"); sys.io.p(p.e); return 0;",
      200);
  CHECK(r.out == "44 -56 -1 false -1");
}

TEST_CASE("son/evaluator: a struct access outside its fields or misaligned is an internal error", "[son][evaluator]") {
  // new S (16 bytes of fields); a 4-byte load at `off`.
  auto loadAt = [](int64_t off) {
    Unit u;
    SonBuilder b(u, "f", 1);
    MemAccess bytes;
    bytes.alias = u.aliasClass("S");
    bytes.size = 1;
    MemAccess field;
    field.alias = u.aliasClass("S.x");
    field.size = 4;
    Node* nw = b.g.make(Op::New, {b.fun, b.mem, b.con(16)}, nullptr, bytes.encode());
    nw->type = Type::tuple({Type::ctrl(), Type::mem(), Type::dataPtr(Type::kNonNull)});
    Node* c = b.g.make(Op::CProj, {nw}, Type::ctrl(), 0);
    Node* mem = b.g.make(Op::Proj, {nw}, Type::mem(), 1);
    Node* ptr = b.g.make(Op::Proj, {nw}, Type::dataPtr(Type::kNonNull), 2);
    Node* ld = b.load(c, mem, ptr, b.con(off), field.encode());
    b.ret(c, mem, ld);
    return evaluate(u, 0, {1}, opts());
  };
  CHECK(loadAt(12).returnValue == 0);
  CHECK(loadAt(20).returnValue == 0);
  CHECK_THROWS_AS(loadAt(10), InternalError);  // misaligned
  CHECK_THROWS_AS(loadAt(24), InternalError);  // past the fields
  CHECK_THROWS_AS(loadAt(4), InternalError);   // the header word
}

TEST_CASE("son/evaluator: hand-built calls to the print functions", "[son][evaluator]") {
  Unit u;
  SonBuilder b(u, "main", 1);
  Graph& g = b.g;
  int printI = addExtern(u, "__simplec_print_i64", 1);
  int printB = addExtern(u, "__simplec_print_bool", 1);
  int printS = addExtern(u, "__simplec_print_str", 2);
  int other = addExtern(u, "puts", 1);
  u.strings.push_back("hello, world");
  Node* str = g.con(Type::dataPtr(0));
  auto c1 = b.call(b.fun, b.mem, printI, {b.parm(0)});
  auto c2 = b.call(c1.ctrl, c1.mem, printB, {b.op(Op::LT, b.parm(0), b.con(0))});
  auto c3 = b.call(c2.ctrl, c2.mem, printS, {str, b.con(5)});
  SonBuilder::Branch br = b.branch(c3.ctrl, b.op(Op::EQ, b.parm(0), b.con(99)));
  auto c4 = b.call(br.t, c3.mem, other, {b.con(0)});
  Node* r = b.region({c4.ctrl, br.f});
  b.ret(r, b.phi(r, {c4.mem, c3.mem}, Type::mem()), b.con(0));
  EvalResult r1 = evaluate(u, 0, {-12}, opts());
  CHECK(r1.out == "-12truehello");
  CHECK(r1.complete());
  EvalResult r2 = evaluate(u, 0, {99}, opts());
  CHECK(r2.out == "99falsehello");
  CHECK(r2.unsupported.find("'puts'") != std::string::npos);
  CHECK(!r2.complete());
}

TEST_CASE("son/evaluator: evalDifference compares behaviours", "[son][evaluator]") {
  EvalResult a, b;
  a.out = b.out = "1\n2\n";
  CHECK(evalDifference(a, b) == "");
  b.exitStatus = 3;
  CHECK(evalDifference(a, b) == "exit status before 0, after 3");
  b = a;
  b.error = "t.smp:1:2: runtime error: division by zero";
  CHECK(evalDifference(a, b) == "runtime error before none, after 't.smp:1:2: runtime error: division by zero'");
  b = a;
  b.out = "1\n3\n";
  CHECK(evalDifference(a, b) == "stdout differs at byte 2: before \"2\\n\", after \"3\\n\"");
  b.out = "1\n2\n3";
  CHECK(evalDifference(a, b) == "stdout differs at byte 4: before \"\", after \"3\"");
  // A run cut short only has to agree on what it printed.
  b.stepLimitExceeded = true;
  CHECK(evalDifference(a, b) == "");
  b.out = "1\n";
  CHECK(evalDifference(a, b) == "");
  b.out = "2";
  CHECK(evalDifference(a, b) != "");
  b = a;
  b.unsupported = "the program calls the external function 'puts'";
  b.out = "zzz";
  CHECK(evalDifference(a, b) == "");
}

TEST_CASE("opt/pipeline: --check-passes evaluates after every pass", "[opt][pipeline][evaluator]") {
  const char* src = "int s = 0;\nfor (int i = 0; i < 10; i++) s += i * arg;\nsys.io.p(s);\nreturn s / (arg - 1);\n";
  for (int level : {0, 1, 2}) {
    Parsed p = parseText(src);
    REQUIRE(p.ok);
    PassOptions o;
    o.optLevel = level;
    o.checkPasses = true;
    o.checkFile = "t.smp";
    afterParse(*p.g, o);
    CHECK_NOTHROW(runPipeline(*p.g, o));  // argc 1: the division traps, the same way each time
  }
  // A graph the evaluator rejects is blamed on the stage that made it.
  Unit u;
  SonBuilder b(u, "main", 0);
  u.funs[0].isEntry = true;
  b.ret(b.fun, b.div(Op::Div, nullptr, b.con(1), b.con(0)));
  PassOptions o;
  o.optLevel = 0;
  o.checkPasses = true;
  try {
    runPipeline(u, o);
    FAIL("no internal error");
  } catch (InternalError& e) {
    CHECK(e.pass == "parse");
    CHECK(std::string(e.what()).find("--check-passes") != std::string::npos);
  }
}

TEST_CASE("son/evaluator: many merges feeding one sum", "[son][evaluator]") {
  // The same shape as eval_code's linear-size test: most regions stale
  // everything when entered, and the sum must still be right.
  Unit u;
  SonBuilder b(u, "f", 1);
  Node* ctrl = b.fun;
  Node* sum = b.con(0);
  for (int j = 0; j < 3000; j++) {
    SonBuilder::Branch br = b.branch(ctrl, b.op(Op::LT, b.con(j), b.parm(0)));
    Node* r = b.region({br.t, br.f});
    sum = b.add(sum, b.phi(r, {b.con(j), b.con(1)}));
    ctrl = r;
  }
  b.ret(ctrl, sum);
  for (int64_t x : {0, 1, 1500, 5000}) {
    int64_t want = 0;
    for (int64_t j = 0; j < 3000; j++) want += j < x ? j : 1;
    CHECK(evaluate(u, 0, {x}, opts()).returnValue == want);
  }
}
