// End-to-end tests for the MC emitter: objects written by writeObject link
// with the system `cc` into PIE executables that run and give the expected
// results; assembly from writeAssembly assembles with `cc -c`; the ELF
// symbols and sections are right; and output is deterministic.
#include <elf.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/x86_64/elf_reader.h"
#include "codegen/x86_64/emitter.h"

using namespace simplec;
using namespace simplec::mir;
namespace fs = std::filesystem;

namespace {

MInst I(MOp op, std::vector<Opnd> ops, uint8_t size = 8, Cond cc = Cond::E) {
  MInst mi(op, std::move(ops));
  mi.size = size;
  mi.cc = cc;
  return mi;
}
Opnd R(int r) { return Opnd::preg(r); }
Opnd Imm(int64_t v) { return Opnd::imm64(v); }

MFunction func(std::string name, bool global, std::vector<std::vector<MInst>> blocks) {
  MFunction f;
  f.name = std::move(name);
  f.global = global;
  for (auto& insts : blocks) {
    MBlock b;
    b.insts = std::move(insts);
    f.blocks.push_back(std::move(b));
  }
  return f;
}

// A scratch directory per test run, removed at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("simplec_mc_test_" + std::to_string(getpid()) + "_" + std::to_string(counter()++));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

// Runs a shell command; returns its exit status (-1 if it did not exit).
int run(const std::string& cmd) {
  int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// main: movl $42, %eax ; retq
MModule returns42() {
  MModule m;
  m.sourceName = "answer.smp";
  m.funcs.push_back(func("main", true, {{I(MOp::Mov, {R(RAX), Imm(42)}), I(MOp::Ret, {})}}));
  return m;
}

// main calls puts(.Lmsg) through the PLT, then computes, through a local
// helper and the SDivRem expansion, INT64_MIN / -1 == INT64_MIN and
// INT64_MIN % -1 == 0 and returns 7 when both hold.
MModule helloAndDivide() {
  MModule m;
  m.sourceName = "hello.smp";
  m.externs = {"puts"};
  m.rodata.push_back({".Lmsg", std::string("hello from simplec\0", 19), 1});
  // check(rdi = dividend, rsi = divisor) -> rax = (q == MIN && r == 0) ? 7 : 1
  MFunction check =
      func("check", false,
           {{I(MOp::Mov, {R(RAX), R(RDI)}), I(MOp::Mov, {R(RCX), R(RSI)}),
             I(MOp::SDivRem, {R(RCX)}), I(MOp::Mov, {R(R8), Imm(INT64_MIN)}),
             I(MOp::Cmp, {R(RAX), R(R8)}), I(MOp::Jcc, {Opnd::block(2)}, 8, Cond::NE),
             I(MOp::Test, {R(RDX), R(RDX)}), I(MOp::Jcc, {Opnd::block(2)}, 8, Cond::NE)},
            {I(MOp::Mov, {R(RAX), Imm(7)}), I(MOp::Ret, {})},
            {I(MOp::Mov, {R(RAX), Imm(1)}), I(MOp::Ret, {})}});
  MFunction main =
      func("main", true,
           {{I(MOp::Push, {R(RBX)}),  // keeps rsp 16-byte aligned at the call
             I(MOp::Lea, {R(RDI), Opnd::memSym(".Lmsg")}), I(MOp::Call, {Opnd::symbol("puts")}),
             I(MOp::Mov, {R(RDI), Imm(INT64_MIN)}), I(MOp::Mov, {R(RSI), Imm(-1)}),
             I(MOp::Call, {Opnd::symbol("check")}), I(MOp::Pop, {R(RBX)}), I(MOp::Ret, {})}});
  m.funcs = {main, check};
  return m;
}

bool haveCc() { return run("cc --version >/dev/null 2>&1") == 0; }

}  // namespace

TEST_CASE("mc e2e: main returning 42 links with cc and runs", "[codegen][mc][e2e]") {
  if (!haveCc()) FAIL("no system cc");
  TempDir dir;
  std::string err;
  REQUIRE(x86_64::writeObject(returns42(), dir / "a.o", &err));
  REQUIRE(run("cc -o " + (dir / "a.out") + " " + (dir / "a.o")) == 0);
  CHECK(run(dir / "a.out") == 42);
}

TEST_CASE("mc e2e: PLT call to puts with a .rodata string, and MIN / -1", "[codegen][mc][e2e]") {
  if (!haveCc()) FAIL("no system cc");
  TempDir dir;
  std::string err;
  REQUIRE(x86_64::writeObject(helloAndDivide(), dir / "h.o", &err));
  // Default Debian gcc links PIE: a non-PIC reference would fail to link.
  REQUIRE(run("cc -pie -o " + (dir / "h") + " " + (dir / "h.o")) == 0);
  CHECK(run((dir / "h") + " > " + (dir / "out.txt")) == 7);
  CHECK(readFile(dir / "out.txt") == "hello from simplec\n");
}

TEST_CASE("mc e2e: address of an external function through the GOT", "[codegen][mc][e2e]") {
  if (!haveCc()) FAIL("no system cc");
  // main: leaq abs via GOT into rax ; mov $-9, edi ; call *rax ; ret  => abs(-9) == 9
  MModule m;
  m.externs = {"abs"};
  m.funcs.push_back(func("main", true,
                         {{I(MOp::Push, {R(RBX)}), I(MOp::Lea, {R(RAX), Opnd::memSym("abs")}),
                           I(MOp::Mov, {R(RDI), Imm(-9)}), I(MOp::Call, {R(RAX)}),
                           I(MOp::Pop, {R(RBX)}), I(MOp::Ret, {})}}));
  TempDir dir;
  std::string err;
  REQUIRE(x86_64::writeObject(m, dir / "g.o", &err));
  REQUIRE(run("cc -o " + (dir / "g") + " " + (dir / "g.o")) == 0);
  CHECK(run(dir / "g") == 9);
}

// Small leaf functions, each one MIR idiom, called from a C harness that
// compares them with C's own arithmetic over many inputs.
MModule semanticsModule() {
  MModule m;
  auto leaf = [&](const char* name, std::vector<MInst> body) {
    body.push_back(I(MOp::Ret, {}));
    m.funcs.push_back(func(name, true, {body}));
  };
  leaf("mc_div",
       {I(MOp::Mov, {R(RAX), R(RDI)}), I(MOp::Mov, {R(RCX), R(RSI)}), I(MOp::SDivRem, {R(RCX)})});
  leaf("mc_rem", {I(MOp::Mov, {R(RAX), R(RDI)}), I(MOp::Mov, {R(R9), R(RSI)}),
                  I(MOp::SDivRem, {R(R9)}), I(MOp::Mov, {R(RAX), R(RDX)})});
  leaf("mc_lt", {I(MOp::Cmp, {R(RDI), R(RSI)}), I(MOp::Setcc, {R(RAX)}, 8, Cond::L)});
  leaf("mc_below", {I(MOp::Cmp, {R(RDI), R(RSI)}), I(MOp::Setcc, {R(R10)}, 8, Cond::B),
                    I(MOp::Mov, {R(RAX), R(R10)})});
  leaf("mc_sar", {I(MOp::Mov, {R(RAX), R(RDI)}), I(MOp::Mov, {R(RCX), R(RSI)}),
                  I(MOp::Sar, {R(RAX), R(RCX)})});
  leaf("mc_shr", {I(MOp::Mov, {R(RAX), R(RDI)}), I(MOp::Mov, {R(RCX), R(RSI)}),
                  I(MOp::Shr, {R(RAX), R(RCX)})});
  leaf("mc_shl3", {I(MOp::Mov, {R(RAX), R(RDI)}), I(MOp::Shl, {R(RAX), Imm(3)})});
  leaf("mc_max", {I(MOp::Mov, {R(RAX), R(RDI)}), I(MOp::Cmp, {R(RDI), R(RSI)}),
                  I(MOp::Cmov, {R(RAX), R(RSI)}, 8, Cond::L)});
  leaf("mc_mul_m7", {I(MOp::Mov, {R(RAX), R(RDI)}), I(MOp::Imul, {R(RAX), Imm(-7)})});
  leaf("mc_big", {I(MOp::Mov, {R(RAX), Imm(0x123456789abcdefLL)}), I(MOp::Xor, {R(RAX), Imm(-1)})});
  // Loads: p[1] as i8, ((u16*)p)[1], ((i32*)p)[i]
  Opnd idx = Opnd::memP(RDI, 0);
  idx.index = RSI;
  idx.scale = 4;
  leaf("mc_ld_s8", {I(MOp::MovSX, {R(RAX), Opnd::memP(RDI, 1)}, 1)});
  leaf("mc_ld_u16", {I(MOp::MovZX, {R(RAX), Opnd::memP(RDI, 2)}, 2)});
  leaf("mc_ld_s32", {I(MOp::MovSX, {R(RAX), idx}, 4)});
  leaf("mc_ld_u32", {I(MOp::MovZX, {R(RAX), idx}, 4)});
  // Stores: p[1] = (u8)v ; ((u16*)p)[1] = 0xBEEF
  leaf("mc_st8", {I(MOp::Mov, {Opnd::memP(RDI, 1), R(RSI)}, 1)});
  leaf("mc_st16", {I(MOp::Mov, {Opnd::memP(RDI, 2), Imm(0xBEEF)}, 2)});
  // Jump tables: pick(x) is 10 + (x + 2) for x in -2..2 but -1 and 100
  // otherwise; pick0(_, x) is 20 + x for x in 0..3, 99 otherwise.
  auto retImm = [](int64_t v) { return std::vector<MInst>{I(MOp::Mov, {R(RAX), Imm(v)}), I(MOp::Ret, {})}; };
  MInst pick(MOp::JmpTable, {R(RDI), Imm(-2), Imm(0), Opnd(), Opnd::block(1), Opnd::block(2), Opnd::block(1),
                             Opnd::block(3), Opnd::block(4), Opnd::block(5)});
  m.funcs.push_back(func("mc_pick", true, {{pick}, retImm(100), retImm(10), retImm(12), retImm(13), retImm(14)}));
  MInst pick0(MOp::JmpTable, {R(RSI), Imm(0), Imm(0), Opnd(), Opnd::block(1), Opnd::block(2), Opnd::block(3),
                              Opnd::block(4), Opnd::block(5)});
  m.funcs.push_back(func("mc_pick0", true, {{pick0}, retImm(99), retImm(20), retImm(21), retImm(22), retImm(23)}));
  // pickb(x) is 50 + x for x in 1..3, 50 otherwise: its table's address is
  // loaded in another block ahead of the jump (table number 3), into r8.
  MInst pickb(MOp::JmpTable, {R(RDI), Imm(1), Imm(3), R(R8), Opnd::block(2), Opnd::block(3), Opnd::block(4),
                              Opnd::block(5)});
  m.funcs.push_back(func("mc_pickb", true,
                         {{I(MOp::TableAddr, {R(R8), Imm(3)}), I(MOp::Jmp, {Opnd::block(1)})}, {pickb}, retImm(50),
                          retImm(51), retImm(52), retImm(53)}));
  return m;
}

constexpr const char* kHarness = R"(
#include <stdint.h>
#include <stdio.h>
#include <string.h>
int64_t mc_div(int64_t, int64_t), mc_rem(int64_t, int64_t), mc_lt(int64_t, int64_t);
int64_t mc_below(int64_t, int64_t), mc_sar(int64_t, int64_t), mc_shr(int64_t, int64_t);
int64_t mc_shl3(int64_t), mc_max(int64_t, int64_t), mc_mul_m7(int64_t), mc_big(void);
int64_t mc_ld_s8(void*), mc_ld_u16(void*), mc_ld_s32(void*, int64_t), mc_ld_u32(void*, int64_t);
void mc_st8(void*, int64_t), mc_st16(void*);
int64_t mc_pick(int64_t), mc_pick0(int64_t, int64_t), mc_pickb(int64_t);
static int bad;
#define EXPECT(e) do { if (!(e)) { printf("failed: %s\n", #e); bad++; } } while (0)
int main(void) {
  const int64_t v[] = {0, 1, -1, 2, -2, 7, -7, 100, -100, 12345678901LL, -12345678901LL,
                       INT64_MAX, INT64_MIN, INT64_MIN + 1};
  int n = sizeof v / sizeof v[0];
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      int64_t a = v[i], b = v[j];
      if (b != 0) {
        int64_t q = (b == -1) ? (int64_t)(0 - (uint64_t)a) : a / b;
        int64_t r = (b == -1) ? 0 : a % b;
        EXPECT(mc_div(a, b) == q);
        EXPECT(mc_rem(a, b) == r);
      }
      EXPECT(mc_lt(a, b) == (a < b));
      EXPECT(mc_below(a, b) == ((uint64_t)a < (uint64_t)b));
      EXPECT(mc_max(a, b) == (a < b ? b : a));
    }
    for (int s = 0; s < 64; s++) {
      EXPECT(mc_sar(v[i], s) == (v[i] >> s));
      EXPECT(mc_shr(v[i], s) == (int64_t)((uint64_t)v[i] >> s));
    }
    EXPECT(mc_shl3(v[i]) == (int64_t)((uint64_t)v[i] << 3));
    EXPECT(mc_mul_m7(v[i]) == (int64_t)((uint64_t)v[i] * (uint64_t)-7));
    EXPECT(mc_pick(v[i]) == (v[i] >= -2 && v[i] <= 2 && v[i] != -1 ? 12 + v[i] : 100));
    EXPECT(mc_pick0(v[i], v[i]) == (v[i] >= 0 && v[i] <= 3 ? 20 + v[i] : 99));
    EXPECT(mc_pickb(v[i]) == (v[i] >= 1 && v[i] <= 3 ? 50 + v[i] : 50));
  }
  for (int64_t x = -5; x <= 5; x++) {
    EXPECT(mc_pick(x) == (x >= -2 && x <= 2 && x != -1 ? 12 + x : 100));
    EXPECT(mc_pick0(0, x) == (x >= 0 && x <= 3 ? 20 + x : 99));
    EXPECT(mc_pickb(x) == (x >= 1 && x <= 3 ? 50 + x : 50));
  }
  EXPECT(mc_pick(4294967296LL - 2) == 100);
  EXPECT(mc_pick0(0, 4294967296LL) == 99);
  EXPECT(mc_big() == ~0x123456789abcdefLL);
  unsigned char buf[16];
  for (int i = 0; i < 16; i++) buf[i] = (unsigned char)(0xF0 + i);
  EXPECT(mc_ld_s8(buf) == (int8_t)0xF1);
  EXPECT(mc_ld_u16(buf) == (0xF3 << 8 | 0xF2));
  int32_t w[3] = {5, -6, 7};
  EXPECT(mc_ld_s32(w, 1) == -6);
  EXPECT(mc_ld_u32(w, 1) == 0xFFFFFFFALL);
  mc_st8(buf, 0x1234);
  EXPECT(buf[1] == 0x34 && buf[0] == 0xF0 && buf[2] == 0xF2);
  mc_st16(buf);
  EXPECT(buf[2] == 0xEF && buf[3] == 0xBE && buf[4] == 0xF4);
  printf("%d bad\n", bad);
  return bad != 0;
}
)";

TEST_CASE("mc e2e: lowered idioms agree with C arithmetic", "[codegen][mc][e2e]") {
  if (!haveCc()) FAIL("no system cc");
  TempDir dir;
  std::string err;
  SECTION("an object") { REQUIRE(x86_64::writeObject(semanticsModule(), dir / "sem.o", &err)); }
  SECTION("assembly text, assembled by cc") {
    std::string text;
    REQUIRE(x86_64::writeAssembly(semanticsModule(), &text, &err));
    std::ofstream(dir / "sem.s") << text;
    REQUIRE(run("cc -c -o " + (dir / "sem.o") + " " + (dir / "sem.s")) == 0);
  }
  {
    std::ofstream out(dir / "harness.c");
    out << kHarness;
  }
  REQUIRE(run("cc -O1 -o " + (dir / "sem") + " " + (dir / "harness.c") + " " + (dir / "sem.o")) ==
          0);
  int status = run((dir / "sem") + " > " + (dir / "out.txt"));
  INFO(readFile(dir / "out.txt"));
  CHECK(status == 0);
  CHECK(readFile(dir / "out.txt") == "0 bad\n");
}

TEST_CASE("mc e2e: writeAssembly output assembles with cc -c and links", "[codegen][mc][e2e]") {
  if (!haveCc()) FAIL("no system cc");
  std::string text, err;
  REQUIRE(x86_64::writeAssembly(helloAndDivide(), &text, &err));
  CHECK(text.find("puts@PLT") != std::string::npos);
  CHECK(text.find(".Lmsg(%rip)") != std::string::npos);
  CHECK(text.find(".note.GNU-stack") != std::string::npos);
  CHECK(text.find(".globl\tmain") != std::string::npos);
  CHECK(text.find(".type\tcheck,@function") != std::string::npos);
  CHECK(text.find("idivq\t%rcx") != std::string::npos);
  TempDir dir;
  {
    std::ofstream out(dir / "h.s");
    out << text;
  }
  REQUIRE(run("cc -c -o " + (dir / "h.o") + " " + (dir / "h.s")) == 0);
  REQUIRE(run("cc -o " + (dir / "h") + " " + (dir / "h.o")) == 0);
  CHECK(run((dir / "h") + " > " + (dir / "out.txt")) == 7);
  CHECK(readFile(dir / "out.txt") == "hello from simplec\n");
}

TEST_CASE("mc: the object's symbols, sections and file symbol", "[codegen][mc]") {
  std::vector<uint8_t> bytes;
  std::string err;
  REQUIRE(x86_64::writeObjectToMemory(helloAndDivide(), &bytes, &err));
  x86_64::ElfObject elf;
  REQUIRE(x86_64::readElf(bytes, &elf, &err));

  const x86_64::ElfSymbol* main = elf.symbol("main");
  REQUIRE(main);
  CHECK(main->bind == STB_GLOBAL);
  CHECK(main->type == STT_FUNC);
  CHECK(main->value == 0);
  CHECK(main->size > 0);
  const x86_64::ElfSymbol* check = elf.symbol("check");
  REQUIRE(check);
  CHECK(check->bind == STB_LOCAL);
  CHECK(check->type == STT_FUNC);
  CHECK(check->value % 16 == 0);
  CHECK(check->value >= main->size);
  const x86_64::ElfSymbol* puts = elf.symbol("puts");
  REQUIRE(puts);
  CHECK(puts->bind == STB_GLOBAL);
  CHECK(puts->shndx == SHN_UNDEF);
  const x86_64::ElfSymbol* file = elf.symbol("hello.smp");
  REQUIRE(file);
  CHECK(file->type == STT_FILE);
  CHECK(elf.symbol(".Lmsg") == nullptr);  // local labels stay out of the table
  CHECK(elf.symbol(".LBB1_0") == nullptr);

  const x86_64::ElfSection* text = elf.section(".text");
  REQUIRE(text);
  CHECK(text->align == 16);
  CHECK((text->flags & SHF_EXECINSTR) != 0);
  const x86_64::ElfSection* rodata = elf.section(".rodata");
  REQUIRE(rodata);
  CHECK(std::string(rodata->bytes.begin(), rodata->bytes.end()) ==
        std::string("hello from simplec\0", 19));
  const x86_64::ElfSection* note = elf.section(".note.GNU-stack");
  REQUIRE(note);
  CHECK((note->flags & SHF_EXECINSTR) == 0);
}

TEST_CASE("mc: rodata alignment and non-local data labels", "[codegen][mc]") {
  MModule m;
  m.rodata.push_back({".La", "x", 1});
  m.rodata.push_back({"table", std::string(16, '\x01'), 8});
  std::vector<uint8_t> bytes;
  std::string err;
  REQUIRE(x86_64::writeObjectToMemory(m, &bytes, &err));
  x86_64::ElfObject elf;
  REQUIRE(x86_64::readElf(bytes, &elf, &err));
  const x86_64::ElfSection* rodata = elf.section(".rodata");
  REQUIRE(rodata);
  CHECK(rodata->align == 8);
  REQUIRE(rodata->bytes.size() == 24);
  CHECK(rodata->bytes[0] == 'x');
  CHECK(rodata->bytes[8] == 1);
  const x86_64::ElfSymbol* table = elf.symbol("table");
  REQUIRE(table);
  CHECK(table->value == 8);
  CHECK(table->size == 16);
  CHECK(table->type == STT_OBJECT);
  CHECK(table->bind == STB_LOCAL);
}

TEST_CASE("mc: with longJumps (-O0) every jump is in its long form; without, near ones are short", "[codegen][mc]") {
  // check's three `jne` (two of its own, one of the division's lowering)
  // go a few bytes forward: 2 bytes each (0x75 rel8) when the assembler
  // relaxes at the end, 6 (0x0f 0x85 rel32) with longJumps, which leaves it
  // no relaxing to do.
  auto text = [](bool longJumps) {
    MModule m = helloAndDivide();
    m.longJumps = longJumps;
    std::vector<uint8_t> bytes;
    std::string err;
    x86_64::ElfObject elf;
    REQUIRE(x86_64::writeObjectToMemory(m, &bytes, &err));
    REQUIRE(x86_64::readElf(bytes, &elf, &err));
    return elf.section(".text")->bytes;
  };
  auto count = [](const std::vector<uint8_t>& b, std::vector<uint8_t> seq) {
    int n = 0;
    for (size_t i = 0; i + seq.size() <= b.size(); i++) n += std::equal(seq.begin(), seq.end(), b.begin() + long(i));
    return n;
  };
  std::vector<uint8_t> relaxed = text(false), wide = text(true);
  // (Functions are aligned, so the sizes differ by the padding too.)
  CHECK(wide.size() > relaxed.size());
  CHECK(count(relaxed, {0x0f, 0x85}) == 0);
  CHECK(count(wide, {0x0f, 0x85}) == 3);
}

TEST_CASE("mc: output is deterministic", "[codegen][mc]") {
  std::vector<uint8_t> a, b;
  std::string err, sa, sb;
  REQUIRE(x86_64::writeObjectToMemory(helloAndDivide(), &a, &err));
  REQUIRE(x86_64::writeObjectToMemory(helloAndDivide(), &b, &err));
  CHECK(a == b);
  REQUIRE(x86_64::writeAssembly(helloAndDivide(), &sa, &err));
  REQUIRE(x86_64::writeAssembly(helloAndDivide(), &sb, &err));
  CHECK(sa == sb);
}

// The driver writes each function as soon as it is lowered; data that isel
// makes on the way (float constants) joins the module after the functions
// that load it.
TEST_CASE("mc: a module streamed function by function gives the whole module's bytes", "[codegen][mc]") {
  MModule whole = helloAndDivide();
  std::vector<uint8_t> expected;
  std::string err;
  REQUIRE(x86_64::writeObjectToMemory(whole, &expected, &err));
  for (auto form : {x86_64::ModuleWriter::Form::Object, x86_64::ModuleWriter::Form::Assembly}) {
    MModule header = whole;
    header.funcs.clear();
    header.rodata.clear();  // .Lmsg arrives after the function that loads it
    x86_64::ModuleWriter w(header, form);
    std::vector<std::string> names;
    for (const MFunction& f : whole.funcs) names.push_back(f.name);
    REQUIRE(w.begin(names, &err));
    for (const MFunction& f : whole.funcs) {
      MFunction copy = f;
      REQUIRE(w.addFunction(copy, &err));
      copy.blocks.clear();  // the writer keeps nothing of it
    }
    header.rodata = whole.rodata;
    REQUIRE(w.finish(&err));
    if (form == x86_64::ModuleWriter::Form::Object) {
      CHECK(w.takeObject() == expected);
    } else {
      std::string text;
      REQUIRE(x86_64::writeAssembly(whole, &text, &err));
      CHECK(w.takeAssembly() == text);
    }
  }
  SECTION("a local label no data item defines is reported at the end") {
    MModule header = whole;
    header.funcs.clear();
    header.rodata.clear();
    x86_64::ModuleWriter w(header, x86_64::ModuleWriter::Form::Object);
    REQUIRE(w.begin({"main", "check"}, &err));
    for (const MFunction& f : whole.funcs) REQUIRE(w.addFunction(f, &err));
    CHECK_FALSE(w.finish(&err));
    CHECK(err.find("'.Lmsg'") != std::string::npos);
  }
}

TEST_CASE("mc: module-level errors are reported, not thrown", "[codegen][mc]") {
  std::string err;
  std::vector<uint8_t> bytes;
  SECTION("a function defined twice") {
    MModule m = returns42();
    m.funcs.push_back(m.funcs[0]);
    CHECK_FALSE(x86_64::writeObjectToMemory(m, &bytes, &err));
    CHECK(err.find("'main' is defined twice") != std::string::npos);
  }
  SECTION("a data label equal to a function name") {
    MModule m = returns42();
    m.rodata.push_back({"main", "x", 1});
    CHECK_FALSE(x86_64::writeObjectToMemory(m, &bytes, &err));
  }
  SECTION("an empty function name") {
    MModule m = returns42();
    m.funcs[0].name = "";
    std::string text;
    CHECK_FALSE(x86_64::writeAssembly(m, &text, &err));
  }
  SECTION("a bad alignment") {
    MModule m;
    m.rodata.push_back({".Lx", "x", 3});
    CHECK_FALSE(x86_64::writeObjectToMemory(m, &bytes, &err));
    CHECK(err.find("alignment") != std::string::npos);
  }
  SECTION("a reference to an undefined local label") {
    MModule m = returns42();
    m.funcs[0].blocks[0].insts.insert(m.funcs[0].blocks[0].insts.begin(),
                                      I(MOp::Lea, {R(RAX), Opnd::memSym(".Lnowhere")}));
    CHECK_FALSE(x86_64::writeObjectToMemory(m, &bytes, &err));
    CHECK(err.find("'.Lnowhere'") != std::string::npos);
    std::string text;
    CHECK_FALSE(x86_64::writeAssembly(m, &text, &err));
  }
  SECTION("an unwritable path") {
    CHECK_FALSE(x86_64::writeObject(returns42(), "/nonexistent-dir/x/y.o", &err));
    CHECK(err.find("/nonexistent-dir/x/y.o") != std::string::npos);
  }
}

TEST_CASE("mc: -g line tables for instructions with source lines", "[codegen][mc]") {
  MModule m = helloAndDivide();
  uint32_t line = 1;
  for (MFunction& f : m.funcs)
    for (MBlock& b : f.blocks)
      for (MInst& mi : b.insts) mi.line = line++;
  std::vector<uint8_t> plain, bytes;
  std::string err;
  REQUIRE(x86_64::writeObjectToMemory(m, &plain, &err));
  m.debugLines = true;
  m.compDir = "/src";
  REQUIRE(x86_64::writeObjectToMemory(m, &bytes, &err));
  x86_64::ElfObject elf, elfPlain;
  REQUIRE(x86_64::readElf(bytes, &elf, &err));
  REQUIRE(x86_64::readElf(plain, &elfPlain, &err));
  CHECK(elfPlain.section(".debug_line") == nullptr);
  const x86_64::ElfSection* lines = elf.section(".debug_line");
  REQUIRE(lines);
  REQUIRE(elf.section(".debug_info"));
  // The line program's addresses are relocated against .text.
  bool toText = false;
  for (const x86_64::ElfReloc& r : lines->relocs) toText |= r.symbol == ".text";
  CHECK(toText);
  // The code itself is the same with and without -g.
  CHECK(elf.section(".text")->bytes == elfPlain.section(".text")->bytes);
  std::string text;
  REQUIRE(x86_64::writeAssembly(m, &text, &err));
  CHECK(text.find("\t.file\t1 \"hello.smp\"") != std::string::npos);
  CHECK(text.find("\t.loc\t1 1 0") != std::string::npos);
}
