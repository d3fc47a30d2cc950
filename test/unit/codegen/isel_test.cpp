// Tests for codegen/isel.h through the -O2 pipeline: what instruction
// selection makes of small functions, read from the MIR printer before
// register allocation (virtual registers) or after it.
#include <catch2/catch.hpp>

#include "test/unit/codegen/program_mir.h"

using namespace simplec;

namespace {

// The MIR text of function `fun` of `src` after the -O2 pipeline.
std::string mirOf(const std::string& src, const std::string& fun, bool allocate = false) {
  return mir::print(test::programMir(src, fun, allocate));
}

}  // namespace

TEST_CASE("codegen/isel: a constant only a Cast's bound uses takes no register", "[codegen][isel]") {
  // After `if (n < 7)` both arms carry Casts with bound 7; the compare takes 7
  // as an immediate, so nothing reads a register holding it.
  std::string text = mirOf(
      "val f = { int n -> if (n < 7) return n * 3; return f(n - 7) - 1; };\n"
      "val main = { int arg -> return f(arg) + f(arg + 9); };",
      "f");
  INFO(text);
  CHECK(text.find("cmp") != std::string::npos);
  CHECK(text.find(", 7\n") == text.find(", 7\n", text.find("cmp")));  // only the compare names 7
}

// Library functions (no main): exported, so they stay as written.
TEST_CASE("codegen/isel: a load used once is folded into its arithmetic or compare", "[codegen][isel]") {
  std::string add = mirOf("val f = { int[] a, int i -> return a[i] + i * 3; };", "f");
  INFO(add);
  CHECK(add.find("add v") != std::string::npos);
  CHECK(add.find(", [v", add.find("add v")) < add.find('\n', add.find("add v")));  // the add reads memory
  std::string cmp = mirOf("val f = { int[] a, int i, int x -> if (x < a[i]) return 1; return 2; };", "f");
  INFO(cmp);
  size_t second = cmp.find("cmp v", cmp.find("cmp v") + 1);  // after the bounds check's
  REQUIRE(second != std::string::npos);
  CHECK(cmp.find(", [v", second) < cmp.find('\n', second));
  std::string fl = mirOf("val f = { flt[] a, int i, flt x -> return x * a[i]; };", "f");
  INFO(fl);
  CHECK(fl.find("mulsd v") != std::string::npos);
  CHECK(fl.find(", [v", fl.find("mulsd v")) < fl.find('\n', fl.find("mulsd v")));
}

TEST_CASE("codegen/isel: a load is not folded across a store or a call, nor when used twice", "[codegen][isel]") {
  // The element is read before the store to a[0] (which may be the same
  // element): the add after the store must use the value read before it.
  std::string st = mirOf("val f = { int[] a, int i -> int x = a[i]; a[0] = 5; return x + i; };", "f");
  INFO(st);
  CHECK(st.find("add v") == std::string::npos);
  std::string call = mirOf("val g = { int[] a -> a[0] = 1; return 0; };\n"
                           "val f = { int[] a, int i -> int x = a[i]; g(a); return x * i; };", "f");
  INFO(call);
  CHECK(call.find("imul v") != std::string::npos);
  CHECK(call.find(", [v", call.find("imul v")) > call.find('\n', call.find("imul v")));
  std::string twice = mirOf("val f = { int[] a, int i -> int x = a[i]; return (x + i) * (x - i); };", "f");
  INFO(twice);
  CHECK(twice.find(", [v") != std::string::npos);  // the load itself
  CHECK(twice.find("sub v") != std::string::npos);
  CHECK(twice.find(", [v", twice.find("sub v")) > twice.find('\n', twice.find("sub v")));
}

TEST_CASE("codegen/isel: of two loads feeding one instruction only one is folded", "[codegen][isel]") {
  // Both operands are single-use loads of the same block; an instruction
  // reads at most one memory operand, the other load stays a mov.
  std::string text = mirOf("val f = { flt[] a, flt[] b, int i -> return a[i] * b[i]; };", "f");
  INFO(text);
  size_t mul = text.find("mulsd v");
  REQUIRE(mul != std::string::npos);
  std::string line = text.substr(mul, text.find('\n', mul) - mul);
  CHECK(line.find(", [v") != std::string::npos);
  // The multiply's register operand is a copy of the other load's register,
  // which a mov from memory defines (not a register nothing defines).
  std::string reg = line.substr(6, line.find(',') - 6);
  CHECK(text.find("mov " + reg + ", v") != std::string::npos);
  std::string copied = text.substr(text.find("mov " + reg + ", v") + 6 + reg.size());
  copied = copied.substr(0, copied.find('\n'));
  CHECK(text.find("mov " + copied + ", [v") != std::string::npos);
}

TEST_CASE("codegen/isel: a branch on x & k tests x; x * 3, 5, 9 are one lea", "[codegen][isel]") {
  std::string text = mirOf("val f = { int x -> if (x & 8) return x * 3; return x * 9 + x * 5; };", "f");
  INFO(text);
  CHECK(text.find("test v0, 8") != std::string::npos);
  CHECK(text.find("and v") == std::string::npos);
  CHECK(text.find("imul") == std::string::npos);
  CHECK(text.find("*2]") != std::string::npos);
  CHECK(text.find("*4]") != std::string::npos);
  CHECK(text.find("*8]") != std::string::npos);
}

TEST_CASE("codegen/isel: constant load and store offsets take no register", "[codegen][isel]") {
  // Field offsets (8, 16) are displacements of the memory operands only.
  std::string text = mirOf("struct P { int x; int y; };\n"
                           "val f = { P p -> p.y = p.x + 5; return p.x * 7; };", "f");
  INFO(text);
  CHECK(text.find(", 8\n") == std::string::npos);
  CHECK(text.find(", 16\n") == std::string::npos);
  CHECK(text.find("+ 16]") != std::string::npos);
}

TEST_CASE("codegen/isel: division by a constant multiplies or shifts, a variable divides", "[codegen][isel]") {
  std::string text = mirOf("val f = { int x -> return x / 10 + x % 7 + x / -16 + x % 4294967297; };", "f");
  INFO(text);
  CHECK(text.find("sdivrem") == std::string::npos);
  CHECK(text.find("smulhi") != std::string::npos);
  CHECK(text.find("sar v") != std::string::npos);
  CHECK(text.find("mov rax, 7378697629483820647") != std::string::npos);  // the magic of 10
  std::string var = mirOf("val g = { int x, int d -> if (d == 0) return 0; return x / d; };", "g");
  INFO(var);
  CHECK(var.find("sdivrem") != std::string::npos);
  CHECK(var.find("smulhi") == std::string::npos);
}

TEST_CASE("codegen/isel: a branch on float equality is ucomisd and two jumps", "[codegen][isel]") {
  // (A store in one arm keeps the branch from becoming a select.)
  for (const char* src : {"val f = { flt x, flt y, int[] a -> if (x == y) a[0] = 5; return 2; };",
                          "val f = { flt x, flt y, int[] a -> if (x != y) a[0] = 5; return 2; };",
                          "val f = { flt x, flt y, int[] a -> if (!(x == y)) a[0] = 5; return 2; };"}) {
    std::string text = mirOf(src, "f");
    INFO(text);
    CHECK(text.find("ucomisd") != std::string::npos);
    CHECK(text.find("set") == std::string::npos);  // no 0/1 values
    CHECK(text.find("jne b") != std::string::npos);
    CHECK(text.find("jp b") != std::string::npos);
  }
  // A select keeps the 0/1 value: cmov has one condition.
  std::string sel = mirOf("val f = { flt x, flt y, int a, int b -> return x == y ? a : b; };", "f");
  INFO(sel);
  CHECK(sel.find("set") != std::string::npos);
}

TEST_CASE("codegen/isel: a dividend never negative skips the rounding toward zero", "[codegen][isel]") {
  // The quotient of a signed division by a multiply gets 1 added when it is
  // negative (shr 63, add); of x & 65535 it never is.
  std::string any = mirOf("val f = { int x -> return x / 10; };", "f");
  INFO(any);
  CHECK(any.find("shr v") != std::string::npos);
  std::string masked = mirOf("val f = { int x -> return (x & 65535) / 10; };", "f");
  INFO(masked);
  CHECK(masked.find("smulhi") != std::string::npos);
  CHECK(masked.find("shr v") == std::string::npos);
  // By a power of two: a mask, a shift.
  std::string pow2 = mirOf("val f = { int x -> return (x & 65535) % 8 + (x & 65535) / 16; };", "f");
  INFO(pow2);
  CHECK(pow2.find(", 7\n") != std::string::npos);  // and v, 7
  CHECK(pow2.find(", 4\n") != std::string::npos);  // sar v, 4
  CHECK(pow2.find(", 63\n") == std::string::npos);  // no sign of the dividend
  CHECK(pow2.find("imul") == std::string::npos);
  // By a negative divisor the quotient is negative.
  std::string negative = mirOf("val f = { int x -> return (x & 65535) / -10; };", "f");
  INFO(negative);
  CHECK(negative.find("shr v") != std::string::npos);
}

TEST_CASE("codegen/isel: a quotient of known sign adds 1 or nothing, without its sign bit", "[codegen][isel]") {
  // Never 0 and of the divisor's opposite sign: the quotient is negative,
  // so the rounding toward zero always adds 1.
  for (const char* src : {"val f = { int x -> return (-(x & 65535) - 1) / 10; };",
                          "val f = { int x -> return ((x & 65535) + 1) / -10; };"}) {
    std::string text = mirOf(src, "f");
    INFO(text);
    CHECK(text.find("smulhi") != std::string::npos);
    CHECK(text.find("shr v") == std::string::npos);
    CHECK(text.find(", 1\n") != std::string::npos);  // add v, 1
  }
  // Of the divisor's sign (or 0): nothing to add.
  std::string same = mirOf("val f = { int x -> return -(x & 65535) / -10; };", "f");
  INFO(same);
  CHECK(same.find("smulhi") != std::string::npos);
  CHECK(same.find("shr v") == std::string::npos);
  // A loop's test narrows its value: y = q after `q != 0` with q <= 0 is
  // below 0 (strbuild's digit loop).
  std::string loop = mirOf(
      "val f = { int x -> int y = -(x & 65535); int q = y / 10; int s = 0;"
      " while (q != 0) { y = q; q = y / 10; s = s + q * 10 - y; } return s; };",
      "f");
  INFO(loop);
  size_t first = loop.find("shr v");
  CHECK(first != std::string::npos);  // the first division: y may be 0
  CHECK(loop.find("shr v", first + 1) == std::string::npos);
}

TEST_CASE("codegen/isel: a branch or select on !x tests x with the opposite condition", "[codegen][isel]") {
  // No 0/1 of the negation (or of the compare under it) is made.
  std::string bools = mirOf("val f = { bool[] c, int i -> if (!c[i]) return 1; return 2; };", "f");
  INFO(bools);
  CHECK(bools.find("set") == std::string::npos);
  CHECK(bools.find("test v") != std::string::npos);
  std::string cmps = mirOf("val f = { int a, int b, int x -> return !(a < b) ? x : 7; };", "f");
  INFO(cmps);
  CHECK(cmps.find("set") == std::string::npos);
  CHECK(cmps.find("cmovge") != std::string::npos);  // !(a < b): a >= b
  std::string flts = mirOf("val f = { flt a, flt b -> if (!(a < b)) return 1; return 2; };", "f");
  INFO(flts);
  CHECK(flts.find("set") == std::string::npos);
  CHECK(flts.find("ucomisd") != std::string::npos);
}

TEST_CASE("codegen/isel: (a + b) + k is one three-part lea unless a + b is used again", "[codegen][isel]") {
  std::string one = mirOf("val f = { int a, int b -> return (a * b) * (a + b + 7); };", "f");
  INFO(one);
  CHECK(one.find("lea") != std::string::npos);
  CHECK(one.find("*1 + 7]") != std::string::npos);  // [va + vb*1 + 7]
  CHECK(one.find("lea", one.find("lea") + 1) == std::string::npos);  // the only lea
  std::string two = mirOf("val f = { int a, int b -> int s = a + b; return s * (s + 7); };", "f");
  INFO(two);
  CHECK(two.find("*1 + 7]") == std::string::npos);
}

TEST_CASE("codegen/isel: a Cast is its input's vreg, not a copy", "[codegen][isel]") {
  // k < len narrows k for the loads; the exit test after the loop reads k
  // itself. As a copy the Cast kept both alive, one mov per step.
  std::string text = mirOf(
      "val count = { u8[] text, int pos, int len ->\n"
      "  int found = 0;\n"
      "  for (int i = 0; i + len <= text#; i++) {\n"
      "    int k = 0;\n"
      "    while (k < len && text[i + k] == text[pos + k]) k++;\n"
      "    if (k == len) found++;\n"
      "  }\n"
      "  return found;\n"
      "};",
      "count");
  INFO(text);
  size_t at = 0;
  int copies = 0;
  while ((at = text.find("  mov v", at)) != std::string::npos) {
    size_t eol = text.find('\n', at);
    // mov vA, vB, but not the first half of a two-address cmov
    bool copy = text.find(", v", at) < eol && text.find('[', at) > eol;
    copies += copy && text.compare(eol + 1, 6, "  cmov") != 0;
    at = eol;
  }
  CHECK(copies == 0);
}

TEST_CASE("codegen/isel: null is an immediate 0, never a register", "[codegen][isel]") {
  std::string text = mirOf("val f = { int[]? p, int[]? q -> if (!p) return 1; if (q == null) return 2; return 3; };", "f");
  INFO(text);
  CHECK(text.find(", 0\n") != std::string::npos);           // compared with 0 directly
  CHECK(text.find("xor v") == std::string::npos);           // no register made 0
  size_t at = 0;
  while ((at = text.find("  mov v", at)) != std::string::npos) {
    size_t eol = text.find('\n', at);
    CHECK(text.substr(at, eol - at).find(", 0") == std::string::npos);
    at = eol;
  }
}

TEST_CASE("codegen/isel: a[j - 1] is a displacement of a[j]'s address", "[codegen][isel]") {
  // (j - 1) << 3 + 8 is [a + j*8 + 0]: no register for j - 1, and the
  // shifts need none either. (j + 1 is the next counter value: it has a
  // register anyway, and a[j + 1] reads through it.)
  std::string text = mirOf("val f = { int[] a, int[] b, int n -> if (n > 100) return f(a, b, n - 1);\n"
                           "  for (int j = 1; j < n; j++) b[j] = a[j - 1] + a[j] + a[j + 1]; return 0; };\n"
                           "var a = new int[10]; var b = new int[10]; f(a, b, 9); f(b, a, 9); return 0;",
                           "f");
  INFO(text);
  CHECK(text.find("*8]") != std::string::npos);
  CHECK(text.find("shl") == std::string::npos);
}

TEST_CASE("codegen/isel: an else-if chain's tests are laid out one after another", "[codegen][isel]") {
  // A test that fails falls through to the next one (sched/cfg.cpp's
  // layout), and only the matching one jumps, to its arm laid out later.
  std::string text = mirOf("val f = { int[] a, int op -> if (op > 100) return f(a, op - 1);\n"
                           "  if (op == 1) a[0] = 5; else if (op == 2) a[1] = 6; else if (op == 3) a[2] = 7;\n"
                           "  else a[3] = 8; return 0; };\n"
                           "var a = new int[4]; f(a, arg); f(a, arg + 1); return 0;",
                           "f");
  INFO(text);
  size_t one = text.find(", 1\n  j"), two = text.find(", 2\n  j"), three = text.find(", 3\n  j");
  REQUIRE(one != std::string::npos);
  REQUIRE(two != std::string::npos);
  REQUIRE(three != std::string::npos);
  CHECK(one < two);
  CHECK(two < three);
  // Each test's block is followed by the next test's: one block label
  // between them, no arm.
  for (auto [from, to] : {std::pair<size_t, size_t>{one, two}, {two, three}}) {
    std::string between = text.substr(from, to - from);
    INFO(between);
    size_t labels = 0;
    for (size_t at = between.find(":  succs"); at != std::string::npos; at = between.find(":  succs", at + 1)) labels++;
    CHECK(labels == 1);
    CHECK(between.find("mov [") == std::string::npos);
  }
}

TEST_CASE("codegen/isel: a constant is made where it is read, before the loop that reads it", "[codegen][isel]") {
  // 2.5 is read in the entry, in a loop and after it: three loads of it,
  // one of them before the loop and none inside. (Made once where GCM put
  // it, at the entry, it lived through the whole function.)
  std::string text = mirOf("val f = { flt x, int n ->\n"
                           "  flt s = x * 2.5;\n"
                           "  if (n > 3) s = s + 1.0; else s = s - 1.0;\n"
                           "  for (int i = 0; i < n; i++) s = s * 2.5;\n"
                           "  return s + 2.5; };",
                           "f");
  INFO(text);
  const std::string load = "[rip + .Lflt.4004000000000000]";
  size_t loads = 0, inLoop = 0;
  bool loopBlock = false;
  size_t lineStart = 0;
  while (lineStart < text.size()) {
    size_t end = text.find('\n', lineStart);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(lineStart, end - lineStart);
    if (!line.empty() && line[0] == 'b') loopBlock = line.find("loop depth") != std::string::npos;
    if (line.find(load) != std::string::npos) {
      loads++;
      if (loopBlock) inLoop++;
    }
    lineStart = end + 1;
  }
  CHECK(loads == 3);
  CHECK(inLoop == 0);
}

TEST_CASE("codegen/isel: x > 3 compares x with an immediate 3", "[codegen][isel]") {
  // The graph has 3 < x; comparing the other way round needs no register for 3.
  std::string text = mirOf("val f = { int x -> if (x > 3) return 1; return 2; };", "f");
  INFO(text);
  CHECK(text.find("cmp v0, 3") != std::string::npos);
  CHECK(text.find("mov v1, 3") == std::string::npos);
}

TEST_CASE("codegen/isel: a value a bounds check reports may live in rdi-rcx", "[codegen][isel]") {
  // A dispatch loop whose stack indices and register number are read by
  // bounds-check stubs, and a step count that lives across the calls after
  // it. The stubs set r8/r9 from those values before rdi-rcx, so the values
  // can take rdi-rcx and the count keeps a callee-saved register. (With
  // the index moves last, the indices held every callee-saved register and
  // the count went to a stack slot, stored and loaded on every step.)
  const std::string src =
      "val out = { int x -> sys.io.p(x); return 0; };\n"
      "val run = { int[] code ->\n"
      "  int[] stack = new int[16]; int[] regs = new int[4];\n"
      "  int sp = 0; int pc = 0; int steps = 0;\n"
      "  while (1) {\n"
      "    int op = code[pc]; int arg = code[pc + 1]; pc += 2; steps++;\n"
      "    if (op == 0) break;\n"
      "    else if (op == 1) { stack[sp] = arg; sp++; }\n"
      "    else if (op == 2) { stack[sp] = regs[arg]; sp++; }\n"
      "    else if (op == 3) { sp--; regs[arg] = stack[sp]; }\n"
      "    else if (op == 4) { sp--; stack[sp - 1] = stack[sp - 1] + stack[sp]; }\n"
      "    else if (op == 5) { sp--; stack[sp - 1] = stack[sp - 1] * stack[sp]; }\n"
      "    else if (op == 8) { sp -= 2; if (stack[sp] < stack[sp + 1]) pc = arg; }\n"
      "  }\n"
      "  out(regs[1]); out(regs[0]);\n"
      "  return steps; };";
  mir::MFunction f = test::programMir(src, "run", true);
  std::string text = mir::print(f);
  INFO(text);
  CHECK(f.numSlots == 0);
}
