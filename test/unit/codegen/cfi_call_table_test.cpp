// Call frame information and the call-site table in the emitter's output:
// a framed function gets CFA rules for its prologue and each epilogue (with
// the state restored for code after an early return), and a call with a
// chain gets an entry in simplec_calls.
#include <catch2/catch.hpp>
#include <string>

#include "codegen/frame.h"
#include "codegen/x86_64/elf_reader.h"
#include "codegen/x86_64/emitter.h"

using namespace simplec;
using namespace simplec::mir;

namespace {

// f(x): if (x == 0) return 0; return g(x) through a call with a chain; two
// epilogues, one callee-saved register.
MModule framedModule() {
  MFunction f;
  f.name = "f";
  f.global = true;
  f.usedCalleeSaved = {RBX};
  f.numSlots = 1;
  MBlock b0, b1, b2;
  b0.insts.push_back(MInst(MOp::Test, {Opnd::preg(RDI), Opnd::preg(RDI)}));
  MInst j(MOp::Jcc, {Opnd::block(2)});
  j.cc = Cond::E;
  b0.insts.push_back(j);
  b0.succs = {1, 2};
  MInst call(MOp::Call, {Opnd::symbol("g")});
  call.argRegs = {RDI};
  call.chain = 0;
  b1.insts.push_back(call);
  b1.insts.push_back(MInst(MOp::Ret));
  b2.insts.push_back(MInst(MOp::Mov, {Opnd::preg(RAX), Opnd::imm64(0)}));
  b2.insts.push_back(MInst(MOp::Ret));
  f.blocks = {b0, b1, b2};
  CallChain c;
  c.frames.push_back({"f", kMainFile, 3, 7});
  c.reachesEntry = false;
  f.callChains.push_back(c);
  lowerFrame(f);
  MModule m;
  m.sourceName = "t.smp";
  m.fileLabels[kMainFile] = ".Lfile0";
  m.rodata.push_back({".Lfile0", std::string("t.smp\0", 6), 1});
  m.funcs.push_back(std::move(f));
  m.externs.push_back("g");
  return m;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) n++;
  return n;
}

}  // namespace

TEST_CASE("cfi: prologue and epilogue rules of a framed function", "[codegen][mc][cfi]") {
  std::string text, err;
  REQUIRE(x86_64::writeAssembly(framedModule(), &text, &err));
  CHECK(count(text, ".cfi_startproc") == 1);
  CHECK(count(text, ".cfi_endproc") == 1);
  CHECK(count(text, ".cfi_def_cfa_offset 16") == 1);
  CHECK(count(text, ".cfi_offset %rbp, -16") == 1);
  CHECK(count(text, ".cfi_def_cfa_register %rbp") == 1);
  CHECK(count(text, ".cfi_offset %rbx, -24") == 1);
  // Each of the two epilogues: remember, CFA back to rsp+8 after pop rbp,
  // restore after the ret.
  CHECK(count(text, ".cfi_remember_state") == 2);
  CHECK(count(text, ".cfi_def_cfa %rsp, 8") == 2);
  CHECK(count(text, ".cfi_restore_state") == 2);
}

TEST_CASE("call table: one entry per call with a chain", "[codegen][mc][trace]") {
  std::vector<uint8_t> bytes;
  std::string err;
  REQUIRE(x86_64::writeObjectToMemory(framedModule(), &bytes, &err));
  x86_64::ElfObject elf;
  REQUIRE(x86_64::readElf(bytes, &elf, &err));
  const x86_64::ElfSection* calls = elf.section("simplec_calls");
  REQUIRE(calls);
  CHECK(calls->bytes.size() == 8);  // one entry: return address, record
  REQUIRE(elf.section(".eh_frame"));
  // Without a chain, no table.
  MModule m = framedModule();
  for (MBlock& b : m.funcs[0].blocks)
    for (MInst& mi : b.insts) mi.chain = -1;
  REQUIRE(x86_64::writeObjectToMemory(m, &bytes, &err));
  REQUIRE(x86_64::readElf(bytes, &elf, &err));
  CHECK(elf.section("simplec_calls") == nullptr);
}
