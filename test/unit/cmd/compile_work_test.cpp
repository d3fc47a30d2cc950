// Compile cost is linear in program size: the whole compiler (parse,
// -O0/-O2 pipeline, gcm, isel, register allocation, encoding) on generated
// programs of the shapes that once made it quadratic, at two sizes four
// times apart. The work counters (lexer/work_counters.h) must grow about
// four times, never sixteen. Counts, not timings: the test means the same
// on any machine.
#include <catch2/catch.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cmd/compile_to_object.h"
#include "lexer/work_counters.h"

using namespace simplec;

namespace {

// n small functions with a loop, an array, a struct and calls to earlier
// ones, and a main calling each.
std::string manyFunctions(int n) {
  std::string s = "struct P { int x; flt y; };\n";
  for (int i = 0; i < n; i++) {
    std::string f = "fn" + std::to_string(i);
    s += "val " + f + " = { int a, int b ->\n";
    s += "  int[] v = new int[8];\n  int t = 0;\n";
    s += "  for (int k = 0; k < 8; k++) { v[k] = a * k + b; t = t + v[k] % 7; }\n";
    s += "  P p = new P { x = t; y = flt(a) * 0.5; };\n";
    if (i > 0) s += "  if (t > 5) t = t + fn" + std::to_string(i / 2) + "(a & 7, b);\n";
    s += "  return t + p.x + int(p.y);\n};\n";
  }
  s += "int sum = 0;\n";
  for (int i = 0; i < n; i++) s += "sum = sum + fn" + std::to_string(i) + "(arg, " + std::to_string(i % 9) + ");\n";
  return s + "return sum & 127;\n";
}

// One script body: n variables, each tested by an if, some loops between.
std::string ifsAndLoops(int n) {
  std::string s = "int s = arg;\n";
  for (int i = 0; i < n; i++) {
    std::string v = "v" + std::to_string(i);
    std::string prev = i ? "v" + std::to_string(i - 1) : "arg";
    s += "int " + v + " = (" + prev + " * 7 + " + std::to_string(i) + ") % 1009;\n";
    s += "if (" + v + " > 500) { s = s + " + v + "; } else { s = s - (" + v + " & 15); }\n";
    if (i % 10 == 0) s += "for (int k = 0; k < 3; k++) s = s + k * " + v + ";\n";
  }
  return s + "return s & 127;\n";
}

// One function with n allocations whose fields and elements are used.
std::string manyAllocations(int n) {
  std::string s = "struct N { int v; N? next; };\nval build = { int seed ->\n  int s = seed;\n  N? last = null;\n";
  for (int i = 0; i < n; i++) {
    std::string k = std::to_string(i);
    s += "  N n" + k + " = new N { v = s + " + k + "; next = last; };\n";
    s += "  int[] a" + k + " = new int[4];\n";
    s += "  a" + k + "[s & 3] = n" + k + ".v;\n";
    s += "  s = (s + a" + k + "[(s + 1) & 3] + n" + k + ".v) % 100003;\n";
    s += "  last = n" + k + ";\n";
  }
  return s + "  return s;\n};\nreturn build(arg) & 127;\n";
}

// One function with n allocations, each followed by a read of the first
// object's field: a load looks up the memory chain past every allocation
// made since, so following it all the way would cost n^2/2 steps.
std::string fieldReadFarAway(int n) {
  std::string s = "struct N { int v; };\nval build = { int seed ->\n  int s = seed;\n";
  for (int i = 0; i < n; i++) {
    std::string k = std::to_string(i);
    s += "  N o" + k + " = new N { v = s + " + k + "; }; s = (s + o0.v + o" + k + ".v) % 100003;\n";
  }
  return s + "  return s;\n};\nreturn build(arg) & 127;\n";
}

// n call sites of one small function.
std::string manyCalls(int n) {
  std::string s = "val mix = { int a, int b -> int r = (a * 31 + b) % 1000003; if (r < 0) r = -r; return r; };\n";
  s += "int x = arg;\nint y = 1;\n";
  for (int i = 0; i < n; i++)
    s += i % 3 ? "x = mix(x, " + std::to_string(i) + ");\n" : "y = mix(y, x) + mix(x, y);\n";
  return s + "return (x + y) & 127;\n";
}

// A script that reads n float constants (they need registers) in the arms
// of n ifs, then reads them again in n more: one register per constant
// would be live across the whole script.
std::string constantsReadTwice(int n) {
  std::string s = "flt f = flt(arg);\nint t = arg;\n";
  auto constant = [](int i) { return std::to_string(1 + i) + ".25"; };
  for (int i = 0; i < n; i++)
    s += "if (t > " + std::to_string(i) + ") f = f * " + constant(i) + "; else t = t + 1;\n";
  for (int i = 0; i < n; i++)
    s += "if (t < " + std::to_string(i) + ") f = f + " + constant(i) + "; else t = t - 1;\n";
  return s + "return (t + int(f)) & 127;\n";
}

// bench/gen_large.py's `ifs` shape: each variable mixes the two before it
// (values of arg alone, which GCM places late, next to their test), then
// an if tests it. A code-motion rule that pulls such expressions up to
// where their inputs could first be computed keeps them all alive from the
// entry on (an early version of GCM's last-use rule took 5.8 GB at 50k
// lines of that shape).
std::string mixedVariables(int n) {
  std::string s = "int s = arg;\nint v0 = arg * 7 + 3;\nint v1 = arg * 13 + 5;\n";
  for (int i = 2; i < n; i++) {
    std::string v = "v" + std::to_string(i), a = "v" + std::to_string(i - 2), b = "v" + std::to_string(i - 1);
    s += "int " + v + " = ((" + a + " ^ " + b + ") + (" + b + " * " + std::to_string(i % 29 + 2) + ")) % 1000003;\n";
    s += "if (" + v + " > " + std::to_string(i * 7919 % 1000003) + ") s = s + " + v + "; else s = s - (" + v +
         " & 255);\n";
  }
  return s + "return s & 127;\n";
}

// n struct types, and n functions whose loops call a function and then
// store to a field of their own struct. A call takes all memory, and all
// memory must cost what the function touched, not every alias class of
// the program (each such loop once made a memory Phi per class).
std::string manyStructTypes(int n) {
  std::string s = "val g = { int k -> k * 3 + 1; };\n";
  for (int i = 0; i < n; i++) s += "struct S" + std::to_string(i) + " { int a; int b; flt c; };\n";
  for (int i = 0; i < n; i++) {
    std::string k = std::to_string(i);
    s += "val h" + k + " = { int x ->\n  S" + k + " o = new S" + k + ";\n  int t = 0;\n";
    s += "  for (int j = 0; j < x; j++) { t = t + g(j); o.a = o.a + t; }\n  return o.a + t;\n};\n";
  }
  // Each result is stored at once (a sum of them all would keep each live
  // to the end: GCM places the additions late).
  s += "int[] r = new int[8];\n";
  for (int i = 0; i < n; i++) s += "r[" + std::to_string(i % 8) + "] = h" + std::to_string(i) + "(arg);\n";
  return s + "return r[arg & 7] & 127;\n";
}

// n functions, each calling the one before it once: inlined bottom-up, each
// copy would hold the whole chain below it.
std::string callChain(int n) {
  std::string s = "val c0 = { int x -> return x * 7 + 1; };\n";
  for (int i = 1; i < n; i++)
    s += "val c" + std::to_string(i) + " = { int x -> int y = x * " + std::to_string(i % 9 + 2) + " + c" +
         std::to_string(i - 1) + "(x + 1); return y - x / 3; };\n";
  return s + "return c" + std::to_string(n - 1) + "(arg) & 127;\n";
}

// n loops one after another, each summing into its own variable, and the
// sum of those: computed at the end (as late as its use allows), each
// loop's result stayed alive across every later loop.
std::string loopResultsSummed(int n) {
  std::string s = "int sum = 0;\n";
  for (int i = 0; i < n; i++) {
    std::string t = "t" + std::to_string(i);
    s += "int " + t + " = 0;\nfor (int j = 0; j < arg; j++) " + t + " = " + t + " + j * " + std::to_string(i % 7 + 2) +
         ";\nsum = sum + " + t + ";\n";
  }
  return s + "return sum & 127;\n";
}

WorkCounters workFor(const std::string& src, int level) {
  FILE* sink = std::tmpfile();
  DiagEngine diag(sink);
  PassOptions po;
  po.optLevel = level;
  workCounters() = WorkCounters{};
  CompileResult r = compileSourceToObject("gen.smp", src, po, diag);
  std::string errors(4096, '\0');
  std::rewind(sink);
  errors.resize(std::fread(errors.data(), 1, errors.size(), sink));
  std::fclose(sink);
  INFO(errors << r.message);
  REQUIRE(r.status == 0);
  return workCounters();
}

std::string describe(const WorkCounters& w) {
  std::string s;
  w.forEach([&](const char* name, uint64_t v) { s += std::string(s.empty() ? "" : ", ") + name + " " + std::to_string(v); });
  return s;
}

void checkLinear(const std::function<std::string(int)>& shape, int n) {
  for (int level : {0, 2}) {
    WorkCounters a = workFor(shape(n), level), b = workFor(shape(4 * n), level);
    INFO("-O" << level << " at n = " << n << ": " << describe(a) << "\n  at 4n: " << describe(b));
    // Linear growth gives 4 (a little more: larger numbers, more names);
    // quadratic growth would give 16. Each counter on its own (one
    // quadratic part may hide in a large linear total), when it counts
    // enough to mean something.
    CHECK(double(b.total()) / double(a.total()) < 6.0);
    std::vector<std::pair<const char*, uint64_t>> small, large;
    a.forEach([&](const char* name, uint64_t v) { small.push_back({name, v}); });
    b.forEach([&](const char* name, uint64_t v) { large.push_back({name, v}); });
    for (size_t i = 0; i < small.size(); i++) {
      if (large[i].second < 2000) continue;
      INFO(small[i].first);
      CHECK(double(large[i].second) / double(std::max<uint64_t>(small[i].second, 1)) < 6.0);
    }
  }
}

}  // namespace

TEST_CASE("compile work grows linearly: many functions", "[cmd][work]") { checkLinear(manyFunctions, 60); }
TEST_CASE("compile work grows linearly: variables each tested by an if", "[cmd][work]") { checkLinear(ifsAndLoops, 300); }
TEST_CASE("compile work grows linearly: one function with many allocations", "[cmd][work]") {
  checkLinear(manyAllocations, 100);
}
TEST_CASE("compile work grows linearly: a field read far from its allocation", "[cmd][work][peephole]") {
  checkLinear(fieldReadFarAway, 1000);
}
TEST_CASE("compile work grows linearly: many call sites of one function", "[cmd][work]") { checkLinear(manyCalls, 300); }
TEST_CASE("compile work grows linearly: variables mixing earlier ones, each tested", "[cmd][work][gcm]") {
  checkLinear(mixedVariables, 300);
}
TEST_CASE("compile work grows linearly: constants read far apart", "[cmd][work][isel]") {
  checkLinear(constantsReadTwice, 100);
}

TEST_CASE("compile work grows linearly: many struct types, loops with calls", "[cmd][work][parser]") {
  checkLinear(manyStructTypes, 60);
}

TEST_CASE("compile work grows linearly: a chain of functions each called once", "[cmd][work][inline]") {
  checkLinear(callChain, 240);
}

TEST_CASE("compile work grows linearly: results of many loops summed", "[cmd][work][gcm]") {
  checkLinear(loopResultsSummed, 100);
}

TEST_CASE("parser scopes are held per function, not for the whole file", "[cmd][work][parser]") {
  // Each function makes its scopes (a dozen here) and frees them at its
  // end; main, which calls every function, makes only its own few.
  WorkCounters a = workFor(manyFunctions(40), 0), b = workFor(manyFunctions(400), 0);
  INFO("at 40 functions " << a.scopesHeldPeak << ", at 400: " << b.scopesHeldPeak);
  CHECK(a.scopesHeldPeak > 0);
  CHECK(b.scopesHeldPeak == a.scopesHeldPeak);
}

TEST_CASE("parser scopes are held as deep as the code nests, not one per if", "[cmd][work][parser]") {
  // One function of many ifs and loops: each if's arms and each loop's
  // scopes go when it ends (they used to wait for the function's end:
  // 107k scopes, 57 MB, for 100k lines of ifs).
  WorkCounters a = workFor(ifsAndLoops(50), 0), b = workFor(ifsAndLoops(500), 0);
  INFO("at 50 ifs " << a.scopesHeldPeak << ", at 500: " << b.scopesHeldPeak);
  CHECK(a.scopesHeldPeak > 0);
  CHECK(b.scopesHeldPeak == a.scopesHeldPeak);
}

TEST_CASE("main spread over the node storage by inlining is packed before code generation", "[cmd][work]") {
  // main's nodes (and at -O2 its copies of the inlined functions) fill the
  // holes the other functions left all over the pool; the small functions
  // stay where they are.
  for (int level : {0, 2}) {
    INFO("-O" << level);
    CHECK(workFor(manyFunctions(800), level).graphsPacked == 1);
  }
}

TEST_CASE("at -O2 the optimizer's holes in the node storage are filled before code generation", "[cmd][work]") {
  // Inlining and the peepholes free nodes of every function, all over the
  // pool: the emptiest chunks' nodes move into the others' holes.
  WorkCounters w = workFor(manyFunctions(800), 2);
  CHECK(w.poolChunksFreed > 0);
}
