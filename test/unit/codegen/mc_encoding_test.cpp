// Encoding tests for the MC emitter: each MIR instruction is lowered and
// assembled through encodeFunctionForTest, and the .text bytes are compared
// with what `llvm-mc-19 -triple=x86_64 -show-encoding` and GNU as produce
// for the AT&T text in the first column (both agree on every case here).
#include <catch2/catch.hpp>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/x86_64/elf_reader.h"
#include "codegen/x86_64/emitter.h"
#include "lexer/diag.h"

using namespace simplec;
using namespace simplec::mir;
using simplec::x86_64::encodeFunctionForTest;
using Bytes = std::vector<uint8_t>;

namespace {

MInst I(MOp op, std::vector<Opnd> ops, uint8_t size = 8, Cond cc = Cond::E) {
  MInst mi(op, std::move(ops));
  mi.size = size;
  mi.cc = cc;
  return mi;
}
Opnd R(int r) { return Opnd::preg(r); }
Opnd X(int n) { return Opnd::preg(XMM0 + n); }
Opnd Imm(int64_t v) { return Opnd::imm64(v); }
Opnd M(int base, int64_t disp) { return Opnd::memP(base, disp); }
Opnd MX(int base, int index, uint8_t scale, int64_t disp) {
  Opnd o = Opnd::memP(base, disp);
  o.index = index;
  o.scale = scale;
  return o;
}
Opnd B(int b) { return Opnd::block(b); }

MFunction fn(std::vector<std::vector<MInst>> blocks) {
  MFunction f;
  f.name = "f";
  for (auto& insts : blocks) {
    MBlock b;
    b.insts = std::move(insts);
    f.blocks.push_back(std::move(b));
  }
  return f;
}

Bytes enc(std::vector<MInst> insts) { return encodeFunctionForTest(fn({std::move(insts)})); }

struct Case {
  const char* att;  // what llvm-mc / GNU as encode to `bytes`
  MInst inst;
  Bytes bytes;
};

// clang-format off
const std::vector<Case>& cases() {
  static const std::vector<Case> kCases = {
    {"movq %rbx, %rax", I(MOp::Mov, {R(RAX), R(RBX)}),
     {0x48, 0x89, 0xd8}},
    {"movl $5, %eax", I(MOp::Mov, {R(RAX), Imm(5)}),
     {0xb8, 0x05, 0x00, 0x00, 0x00}},
    {"movl $4294967295, %r9d", I(MOp::Mov, {R(R9), Imm(0xffffffffLL)}),
     {0x41, 0xb9, 0xff, 0xff, 0xff, 0xff}},
    {"movq $-5, %rax", I(MOp::Mov, {R(RAX), Imm(-5)}),
     {0x48, 0xc7, 0xc0, 0xfb, 0xff, 0xff, 0xff}},
    {"movabsq $4886718345, %rax", I(MOp::Mov, {R(RAX), Imm(0x123456789LL)}),
     {0x48, 0xb8, 0x89, 0x67, 0x45, 0x23, 0x01, 0x00, 0x00, 0x00}},
    {"movabsq $-9223372036854775808, %r15", I(MOp::Mov, {R(R15), Imm(INT64_MIN)}),
     {0x49, 0xbf, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80}},
    {"movq $-2147483648, %rdx", I(MOp::Mov, {R(RDX), Imm(INT32_MIN)}),
     {0x48, 0xc7, 0xc2, 0x00, 0x00, 0x00, 0x80}},
    {"addq $12, %rax", I(MOp::Add, {R(RAX), Imm(12)}),
     {0x48, 0x83, 0xc0, 0x0c}},
    {"addq $1000, %rax", I(MOp::Add, {R(RAX), Imm(1000)}),
     {0x48, 0x05, 0xe8, 0x03, 0x00, 0x00}},
    {"addq $1000, %rcx", I(MOp::Add, {R(RCX), Imm(1000)}),
     {0x48, 0x81, 0xc1, 0xe8, 0x03, 0x00, 0x00}},
    {"subq %rcx, %r12", I(MOp::Sub, {R(R12), R(RCX)}),
     {0x49, 0x29, 0xcc}},
    {"andq 8(%rbp), %rdx", I(MOp::And, {R(RDX), M(RBP, 8)}),
     {0x48, 0x23, 0x55, 0x08}},
    {"orq $-128, %r8", I(MOp::Or, {R(R8), Imm(-128)}),
     {0x49, 0x83, 0xc8, 0x80}},
    {"xorq $128, %r8", I(MOp::Xor, {R(R8), Imm(128)}),
     {0x49, 0x81, 0xf0, 0x80, 0x00, 0x00, 0x00}},
    {"imulq $7, %rcx, %rcx", I(MOp::Imul, {R(RCX), Imm(7)}),
     {0x48, 0x6b, 0xc9, 0x07}},
    {"imulq $1000, %rax, %rax", I(MOp::Imul, {R(RAX), Imm(1000)}),
     {0x48, 0x69, 0xc0, 0xe8, 0x03, 0x00, 0x00}},
    {"imulq $10, %rdx, %rax", I(MOp::Imul, {R(RAX), R(RDX), Imm(10)}),
     {0x48, 0x6b, 0xc2, 0x0a}},
    {"imulq $1000003, %rdx, %rax", I(MOp::Imul, {R(RAX), R(RDX), Imm(1000003)}),
     {0x48, 0x69, 0xc2, 0x43, 0x42, 0x0f, 0x00}},
    {"imulq $10, %r9, %r13", I(MOp::Imul, {R(R13), R(R9), Imm(10)}),
     {0x4d, 0x6b, 0xe9, 0x0a}},
    {"imulq %rcx, %rax", I(MOp::Imul, {R(RAX), R(RCX)}),
     {0x48, 0x0f, 0xaf, 0xc1}},
    {"imulq -16(%rbp), %r10", I(MOp::Imul, {R(R10), M(RBP, -16)}),
     {0x4c, 0x0f, 0xaf, 0x55, 0xf0}},
    {"cmpq %rcx, %rax", I(MOp::Cmp, {R(RAX), R(RCX)}),
     {0x48, 0x39, 0xc8}},
    {"cmpq $-1, %rcx", I(MOp::Cmp, {R(RCX), Imm(-1)}),
     {0x48, 0x83, 0xf9, 0xff}},
    {"cmpq $1000, %rax", I(MOp::Cmp, {R(RAX), Imm(1000)}),
     {0x48, 0x3d, 0xe8, 0x03, 0x00, 0x00}},
    {"cmpq $1000, %rdx", I(MOp::Cmp, {R(RDX), Imm(1000)}),
     {0x48, 0x81, 0xfa, 0xe8, 0x03, 0x00, 0x00}},
    {"cmpq (%rdi), %rax", I(MOp::Cmp, {R(RAX), M(RDI, 0)}),
     {0x48, 0x3b, 0x07}},
    {"testq %rax, %rax", I(MOp::Test, {R(RAX), R(RAX)}),
     {0x48, 0x85, 0xc0}},
    {"testq $3, %rax", I(MOp::Test, {R(RAX), Imm(3)}),
     {0x48, 0xa9, 0x03, 0x00, 0x00, 0x00}},
    {"testq $3, %rdx", I(MOp::Test, {R(RDX), Imm(3)}),
     {0x48, 0xf7, 0xc2, 0x03, 0x00, 0x00, 0x00}},
    {"setl %al; movzbl %al, %eax", I(MOp::Setcc, {R(RAX)}, 8, Cond::L),
     {0x0f, 0x9c, 0xc0, 0x0f, 0xb6, 0xc0}},
    {"setne %sil; movzbl %sil, %esi", I(MOp::Setcc, {R(RSI)}, 8, Cond::NE),
     {0x40, 0x0f, 0x95, 0xc6, 0x40, 0x0f, 0xb6, 0xf6}},
    {"setg %r9b; movzbl %r9b, %r9d", I(MOp::Setcc, {R(R9)}, 8, Cond::G),
     {0x41, 0x0f, 0x9f, 0xc1, 0x45, 0x0f, 0xb6, 0xc9}},
    {"cmovlq %rcx, %rax", I(MOp::Cmov, {R(RAX), R(RCX)}, 8, Cond::L),
     {0x48, 0x0f, 0x4c, 0xc1}},
    {"cmovaeq %r14, %r13", I(MOp::Cmov, {R(R13), R(R14)}, 8, Cond::AE),
     {0x4d, 0x0f, 0x43, 0xee}},
    {"shlq %cl, %rax", I(MOp::Shl, {R(RAX), R(RCX)}),
     {0x48, 0xd3, 0xe0}},
    {"sarq $3, %rdx", I(MOp::Sar, {R(RDX), Imm(3)}),
     {0x48, 0xc1, 0xfa, 0x03}},
    {"shrq %rdx", I(MOp::Shr, {R(RDX), Imm(1)}),
     {0x48, 0xd1, 0xea}},
    {"shlq %rbx", I(MOp::Shl, {R(RBX), Imm(65)}),
     {0x48, 0xd1, 0xe3}},
    {"sarq %cl, %r8", I(MOp::Sar, {R(R8), R(RCX)}),
     {0x49, 0xd3, 0xf8}},
    {"shrq %cl, %r15", I(MOp::Shr, {R(R15), R(RCX)}),
     {0x49, 0xd3, 0xef}},
    {"negq %rax", I(MOp::Neg, {R(RAX)}),
     {0x48, 0xf7, 0xd8}},
    {"notq %r11", I(MOp::Not, {R(R11)}),
     {0x49, 0xf7, 0xd3}},
    {"pushq %rbp", I(MOp::Push, {R(RBP)}),
     {0x55}},
    {"pushq %r12", I(MOp::Push, {R(R12)}),
     {0x41, 0x54}},
    {"popq %r12", I(MOp::Pop, {R(R12)}),
     {0x41, 0x5c}},
    {"popq %rbp", I(MOp::Pop, {R(RBP)}),
     {0x5d}},
    {"retq", I(MOp::Ret, {}),
     {0xc3}},
    {"callq *%rax", I(MOp::Call, {R(RAX)}),
     {0xff, 0xd0}},
    {"callq *%r11", I(MOp::Call, {R(R11)}),
     {0x41, 0xff, 0xd3}},
    {"leaq 16(%rbx,%rcx,8), %rax", I(MOp::Lea, {R(RAX), MX(RBX, RCX, 8, 16)}),
     {0x48, 0x8d, 0x44, 0xcb, 0x10}},
    {"leaq -8(%rbp), %rsp", I(MOp::Lea, {R(RSP), M(RBP, -8)}),
     {0x48, 0x8d, 0x65, 0xf8}},
    {"movq %rax, -8(%rbp,%rcx,8)", I(MOp::Mov, {MX(RBP, RCX, 8, -8), R(RAX)}),
     {0x48, 0x89, 0x44, 0xcd, 0xf8}},
    {"movl %eax, 4(%rbx)", I(MOp::Mov, {M(RBX, 4), R(RAX)}, 4),
     {0x89, 0x43, 0x04}},
    {"movw %ax, 4(%rbx)", I(MOp::Mov, {M(RBX, 4), R(RAX)}, 2),
     {0x66, 0x89, 0x43, 0x04}},
    {"movb %sil, 4(%rbx)", I(MOp::Mov, {M(RBX, 4), R(RSI)}, 1),
     {0x40, 0x88, 0x73, 0x04}},
    {"movq -24(%rbp), %r13", I(MOp::Mov, {R(R13), M(RBP, -24)}),
     {0x4c, 0x8b, 0x6d, 0xe8}},
    {"movq (%r13), %rax", I(MOp::Mov, {R(RAX), M(R13, 0)}),
     {0x49, 0x8b, 0x45, 0x00}},
    {"movq (%rsp), %rax", I(MOp::Mov, {R(RAX), M(RSP, 0)}),
     {0x48, 0x8b, 0x04, 0x24}},
    {"movq (%r12,%r13,2), %rax", I(MOp::Mov, {R(RAX), MX(R12, R13, 2, 0)}),
     {0x4b, 0x8b, 0x04, 0x6c}},
    {"movq 4096, %rax", I(MOp::Mov, {R(RAX), M(-1, 0x1000)}),
     {0x48, 0x8b, 0x04, 0x25, 0x00, 0x10, 0x00, 0x00}},
    {"movq $-3, 8(%rsp)", I(MOp::Mov, {M(RSP, 8), Imm(-3)}),
     {0x48, 0xc7, 0x44, 0x24, 0x08, 0xfd, 0xff, 0xff, 0xff}},
    {"movl $7, 8(%rsp)", I(MOp::Mov, {M(RSP, 8), Imm(7)}, 4),
     {0xc7, 0x44, 0x24, 0x08, 0x07, 0x00, 0x00, 0x00}},
    {"movw $7, 8(%rsp)", I(MOp::Mov, {M(RSP, 8), Imm(7)}, 2),
     {0x66, 0xc7, 0x44, 0x24, 0x08, 0x07, 0x00}},
    {"movb $-1, 8(%rsp)", I(MOp::Mov, {M(RSP, 8), Imm(255)}, 1),
     {0xc6, 0x44, 0x24, 0x08, 0xff}},
    {"movzbl (%rdi), %eax", I(MOp::MovZX, {R(RAX), M(RDI, 0)}, 1),
     {0x0f, 0xb6, 0x07}},
    {"movzwl 2(%rdi), %ecx", I(MOp::MovZX, {R(RCX), M(RDI, 2)}, 2),
     {0x0f, 0xb7, 0x4f, 0x02}},
    {"movl (%rdi), %r8d", I(MOp::MovZX, {R(R8), M(RDI, 0)}, 4),
     {0x44, 0x8b, 0x07}},
    {"movsbq (%rdi), %rax", I(MOp::MovSX, {R(RAX), M(RDI, 0)}, 1),
     {0x48, 0x0f, 0xbe, 0x07}},
    {"movswq (%rdi), %rax", I(MOp::MovSX, {R(RAX), M(RDI, 0)}, 2),
     {0x48, 0x0f, 0xbf, 0x07}},
    {"movslq 4(%rdi,%rsi,4), %r9", I(MOp::MovSX, {R(R9), MX(RDI, RSI, 4, 4)}, 4),
     {0x4c, 0x63, 0x4c, 0xb7, 0x04}},
    {"movzbl %dil, %eax", I(MOp::MovZX, {R(RAX), R(RDI)}, 1),
     {0x40, 0x0f, 0xb6, 0xc7}},
    {"movzwl %r10w, %eax", I(MOp::MovZX, {R(RAX), R(R10)}, 2),
     {0x41, 0x0f, 0xb7, 0xc2}},
    {"movl %ecx, %eax", I(MOp::MovZX, {R(RAX), R(RCX)}, 4),
     {0x89, 0xc8}},
    {"movsbq %sil, %rdx", I(MOp::MovSX, {R(RDX), R(RSI)}, 1),
     {0x48, 0x0f, 0xbe, 0xd6}},
    {"movswq %ax, %rax", I(MOp::MovSX, {R(RAX), R(RAX)}, 2),
     {0x48, 0x0f, 0xbf, 0xc0}},
    {"movslq %eax, %r11", I(MOp::MovSX, {R(R11), R(RAX)}, 4),
     {0x4c, 0x63, 0xd8}},
    {"movsd (%rax), %xmm0", I(MOp::Mov, {X(0), M(RAX, 0)}),
     {0xf2, 0x0f, 0x10, 0x00}},
    {"movsd %xmm1, -8(%rbp)", I(MOp::Mov, {M(RBP, -8), X(1)}),
     {0xf2, 0x0f, 0x11, 0x4d, 0xf8}},
    {"movaps %xmm1, %xmm9", I(MOp::Mov, {X(9), X(1)}),
     {0x44, 0x0f, 0x28, 0xc9}},
    {"movq %xmm0, %rax", I(MOp::Mov, {R(RAX), X(0)}),
     {0x66, 0x48, 0x0f, 0x7e, 0xc0}},
    {"movq %rax, %xmm15", I(MOp::Mov, {X(15), R(RAX)}),
     {0x66, 0x4c, 0x0f, 0x6e, 0xf8}},
    {"movss 4(%rax), %xmm2", I(MOp::Mov, {X(2), M(RAX, 4)}, 4),
     {0xf3, 0x0f, 0x10, 0x50, 0x04}},
    {"movss %xmm2, 4(%rax)", I(MOp::Mov, {M(RAX, 4), X(2)}, 4),
     {0xf3, 0x0f, 0x11, 0x50, 0x04}},
    // SSE2 scalar doubles.
    {"addsd %xmm1, %xmm0", I(MOp::FAdd, {X(0), X(1)}), {0xf2, 0x0f, 0x58, 0xc1}},
    {"subsd %xmm9, %xmm2", I(MOp::FSub, {X(2), X(9)}), {0xf2, 0x41, 0x0f, 0x5c, 0xd1}},
    {"mulsd %xmm3, %xmm12", I(MOp::FMul, {X(12), X(3)}), {0xf2, 0x44, 0x0f, 0x59, 0xe3}},
    {"divsd %xmm15, %xmm14", I(MOp::FDiv, {X(14), X(15)}), {0xf2, 0x45, 0x0f, 0x5e, 0xf7}},
    {"minsd %xmm1, %xmm0", I(MOp::FMin, {X(0), X(1)}), {0xf2, 0x0f, 0x5d, 0xc1}},
    {"maxsd %xmm1, %xmm0", I(MOp::FMax, {X(0), X(1)}), {0xf2, 0x0f, 0x5f, 0xc1}},
    {"addsd 8(%rax), %xmm3", I(MOp::FAdd, {X(3), M(RAX, 8)}), {0xf2, 0x0f, 0x58, 0x58, 0x08}},
    {"andpd (%rcx), %xmm1", I(MOp::FAnd, {X(1), M(RCX, 0)}), {0x66, 0x0f, 0x54, 0x09}},
    {"xorpd 16(%rdx), %xmm8", I(MOp::FXor, {X(8), M(RDX, 16)}), {0x66, 0x44, 0x0f, 0x57, 0x42, 0x10}},
    {"sqrtsd %xmm1, %xmm0", I(MOp::FSqrt, {X(0), X(1)}), {0xf2, 0x0f, 0x51, 0xc1}},
    {"ucomisd %xmm1, %xmm0", I(MOp::Ucomisd, {X(0), X(1)}), {0x66, 0x0f, 0x2e, 0xc1}},
    {"ucomisd (%rax), %xmm9", I(MOp::Ucomisd, {X(9), M(RAX, 0)}), {0x66, 0x44, 0x0f, 0x2e, 0x08}},
    {"cvtsi2sd %rdi, %xmm0", I(MOp::CvtSI2SD, {X(0), R(RDI)}), {0xf2, 0x48, 0x0f, 0x2a, 0xc7}},
    {"cvtsi2sd %r10, %xmm11", I(MOp::CvtSI2SD, {X(11), R(R10)}), {0xf2, 0x4d, 0x0f, 0x2a, 0xda}},
    {"cvttsd2si %xmm0, %rax", I(MOp::CvtTSD2SI, {R(RAX), X(0)}), {0xf2, 0x48, 0x0f, 0x2c, 0xc0}},
    {"cvttsd2si %xmm13, %r9", I(MOp::CvtTSD2SI, {R(R9), X(13)}), {0xf2, 0x4d, 0x0f, 0x2c, 0xcd}},
    {"cvtsd2ss %xmm5, %xmm5; cvtss2sd %xmm5, %xmm5", I(MOp::RoundF32, {X(5)}),
     {0xf2, 0x0f, 0x5a, 0xed, 0xf3, 0x0f, 0x5a, 0xed}},
    {"setp %al; movzbl %al, %eax", I(MOp::Setcc, {R(RAX)}, 8, Cond::P), {0x0f, 0x9a, 0xc0, 0x0f, 0xb6, 0xc0}},
    {"setnp %cl; movzbl %cl, %ecx", I(MOp::Setcc, {R(RCX)}, 8, Cond::NP), {0x0f, 0x9b, 0xc1, 0x0f, 0xb6, 0xc9}},
    {"cmovpq %rcx, %rax", I(MOp::Cmov, {R(RAX), R(RCX)}, 8, Cond::P), {0x48, 0x0f, 0x4a, 0xc1}},
    // SSE2 packed doubles (opt/vectorize.h): a Mov of 16 bytes is movupd.
    {"movupd 8(%rax,%rcx,8), %xmm2", I(MOp::Mov, {X(2), MX(RAX, RCX, 8, 8)}, 16), {0x66, 0x0f, 0x10, 0x54, 0xc8, 0x08}},
    {"movupd %xmm9, -16(%rbp)", I(MOp::Mov, {M(RBP, -16), X(9)}, 16), {0x66, 0x44, 0x0f, 0x11, 0x4d, 0xf0}},
    {"addpd %xmm1, %xmm0", I(MOp::VAdd, {X(0), X(1)}), {0x66, 0x0f, 0x58, 0xc1}},
    {"subpd %xmm9, %xmm2", I(MOp::VSub, {X(2), X(9)}), {0x66, 0x41, 0x0f, 0x5c, 0xd1}},
    {"mulpd %xmm3, %xmm12", I(MOp::VMul, {X(12), X(3)}), {0x66, 0x44, 0x0f, 0x59, 0xe3}},
    {"divpd %xmm15, %xmm14", I(MOp::VDiv, {X(14), X(15)}), {0x66, 0x45, 0x0f, 0x5e, 0xf7}},
    {"unpcklpd %xmm5, %xmm5", I(MOp::VSplat, {X(5)}), {0x66, 0x0f, 0x14, 0xed}},
    {"minpd %xmm1, %xmm0", I(MOp::VMin, {X(0), X(1)}), {0x66, 0x0f, 0x5d, 0xc1}},
    {"maxpd %xmm9, %xmm2", I(MOp::VMax, {X(2), X(9)}), {0x66, 0x41, 0x0f, 0x5f, 0xd1}},
    {"sqrtpd %xmm3, %xmm12", I(MOp::VSqrt, {X(12), X(3)}), {0x66, 0x44, 0x0f, 0x51, 0xe3}},
  };
  return kCases;
}
// clang-format on

}  // namespace

TEST_CASE("mc: single instructions encode as llvm-mc and GNU as do", "[codegen][mc]") {
  for (const Case& c : cases()) {
    INFO(c.att);
    CHECK(enc({c.inst}) == c.bytes);
  }
}

TEST_CASE("mc: a whole table of instructions encodes as their concatenation", "[codegen][mc]") {
  std::vector<MInst> all;
  Bytes expected;
  for (const Case& c : cases()) {
    all.push_back(c.inst);
    expected.insert(expected.end(), c.bytes.begin(), c.bytes.end());
  }
  CHECK(enc(all) == expected);
}

TEST_CASE("mc: moves that change nothing are dropped", "[codegen][mc]") {
  CHECK(enc({I(MOp::Mov, {R(RAX), R(RAX)})}).empty());
  CHECK(enc({I(MOp::Mov, {X(3), X(3)})}).empty());
  CHECK(enc({I(MOp::MovZX, {R(R12), R(R12)}, 8)}).empty());
  // A 64-bit "extension" is a plain move.
  CHECK(enc({I(MOp::MovSX, {R(RAX), R(RBX)}, 8)}) == Bytes{0x48, 0x89, 0xd8});
}

TEST_CASE("mc: immediates of narrow stores are truncated to the store width", "[codegen][mc]") {
  // movb $-1, 8(%rsp) / movw $-1, 8(%rsp) / movl $-1, 8(%rsp)
  CHECK(enc({I(MOp::Mov, {M(RSP, 8), Imm(-1)}, 1)}) == Bytes{0xc6, 0x44, 0x24, 0x08, 0xff});
  CHECK(enc({I(MOp::Mov, {M(RSP, 8), Imm(0x1ffff)}, 2)}) ==
        Bytes{0x66, 0xc7, 0x44, 0x24, 0x08, 0xff, 0xff});
  CHECK(enc({I(MOp::Mov, {M(RSP, 8), Imm(0xffffffffLL)}, 4)}) ==
        Bytes{0xc7, 0x44, 0x24, 0x08, 0xff, 0xff, 0xff, 0xff});
}

TEST_CASE("mc: SDivRem expands to the INT64_MIN / -1 safe sequence", "[codegen][mc]") {
  // cmpq $-1, %rcx ; jne 1f ; negq %rax ; xorl %edx, %edx ; jmp 2f
  // 1: cqto ; idivq %rcx
  // 2:
  CHECK(enc({I(MOp::SDivRem, {R(RCX)})}) == Bytes{0x48, 0x83, 0xf9, 0xff, 0x75, 0x07, 0x48, 0xf7,
                                                  0xd8, 0x31, 0xd2, 0xeb, 0x05, 0x48, 0x99, 0x48,
                                                  0xf7, 0xf9});
  // Two in a row get distinct labels: the second one's jumps stay local.
  Bytes one = enc({I(MOp::SDivRem, {R(R8)})});
  Bytes two = enc({I(MOp::SDivRem, {R(R8)}), I(MOp::SDivRem, {R(R8)})});
  Bytes twice = one;
  twice.insert(twice.end(), one.begin(), one.end());
  CHECK(two == twice);
}

TEST_CASE("mc: near jumps, far jumps (relaxed) and fall-through", "[codegen][mc]") {
  SECTION("short forward and backward") {
    // .LBB0_0: cmpq %rsi, %rdi ; jl .LBB0_2
    // .LBB0_1: jmp .LBB0_0
    // .LBB0_2: retq
    MFunction f = fn({{I(MOp::Cmp, {R(RDI), R(RSI)}), I(MOp::Jcc, {B(2)}, 8, Cond::L)},
                      {I(MOp::Jmp, {B(0)})},
                      {I(MOp::Ret, {})}});
    CHECK(encodeFunctionForTest(f) == Bytes{0x48, 0x39, 0xf7, 0x7c, 0x02, 0xeb, 0xf9, 0xc3});
  }
  SECTION("a block more than 127 bytes away") {
    // .LBB0_0: cmpq %rsi, %rdi ; jl .LBB0_2          (0f 8c rel32)
    // .LBB0_1: 13 x movabsq $0x100000000, %rax ; jmp .LBB0_0   (e9 rel32)
    // .LBB0_2: jge .LBB0_3 ; (jmp .LBB0_3 falls through)
    // .LBB0_3: retq
    std::vector<MInst> big;
    for (int i = 0; i < 13; ++i) big.push_back(I(MOp::Mov, {R(RAX), Imm(0x100000000LL)}));
    big.push_back(I(MOp::Jmp, {B(0)}));
    MFunction f = fn({{I(MOp::Cmp, {R(RDI), R(RSI)}), I(MOp::Jcc, {B(2)}, 8, Cond::L)},
                      big,
                      {I(MOp::Jcc, {B(3)}, 8, Cond::GE), I(MOp::Jmp, {B(3)})},
                      {I(MOp::Ret, {})}});
    Bytes expected = {0x48, 0x39, 0xf7, 0x0f, 0x8c, 0x87, 0x00, 0x00, 0x00};
    for (int i = 0; i < 13; ++i)
      expected.insert(expected.end(), {0x48, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00});
    expected.insert(expected.end(), {0xe9, 0x70, 0xff, 0xff, 0xff, 0x7d, 0x00, 0xc3});
    CHECK(encodeFunctionForTest(f) == expected);
  }
  SECTION("a jump to the next block is kept when it is not the block's last instruction") {
    // jmp .LBB0_1 ; retq ; .LBB0_1: retq
    MFunction f = fn({{I(MOp::Jmp, {B(1)}), I(MOp::Ret, {})}, {I(MOp::Ret, {})}});
    CHECK(encodeFunctionForTest(f) == Bytes{0xeb, 0x01, 0xc3, 0xc3});
  }
  SECTION("every condition code") {
    const std::pair<Cond, uint8_t> kCc[] = {
        {Cond::E, 0x74},  {Cond::NE, 0x75}, {Cond::L, 0x7c},  {Cond::LE, 0x7e}, {Cond::G, 0x7f},
        {Cond::GE, 0x7d}, {Cond::B, 0x72},  {Cond::BE, 0x76}, {Cond::A, 0x77},  {Cond::AE, 0x73}};
    for (auto [cc, opcode] : kCc) {
      // jCC .LBB0_0 (a backward jump to itself: rel8 = -2)
      MFunction f = fn({{I(MOp::Jcc, {B(0)}, 8, cc)}});
      CHECK(encodeFunctionForTest(f) == Bytes{opcode, 0xfe});
    }
  }
}

TEST_CASE("mc: symbols, PLT calls, GOT loads and rip-relative data", "[codegen][mc]") {
  // f:  leaq .Lstr0(%rip), %rax           R_X86_64_PC32 .rodata-4
  //     movq puts@GOTPCREL(%rip), %rcx    R_X86_64_REX_GOTPCRELX puts-4
  //     callq puts@PLT                    R_X86_64_PLT32 puts-4
  //     callq g                           (local: resolved, no relocation)
  //     callq h                           R_X86_64_PLT32 h-4 (global, preemptible)
  //     movq .Lstr0+8(%rip), %rdx         R_X86_64_PC32 .rodata+4
  //     movq $7, .Lstr0+2(%rip)           R_X86_64_PC32 .rodata-6
  //     retq
  // g:  retq (local)      h: retq (global)
  MModule m;
  m.sourceName = "t.smp";
  m.externs = {"puts"};
  m.rodata.push_back({".Lstr0", std::string("hello, world\0", 13), 1});
  MFunction f = fn(
      {{I(MOp::Lea, {R(RAX), Opnd::memSym(".Lstr0")}), I(MOp::Lea, {R(RCX), Opnd::memSym("puts")}),
        I(MOp::Call, {Opnd::symbol("puts")}), I(MOp::Call, {Opnd::symbol("g")}),
        I(MOp::Call, {Opnd::symbol("h")}), I(MOp::Mov, {R(RDX), Opnd::memSym(".Lstr0", 8)}),
        I(MOp::Mov, {Opnd::memSym(".Lstr0", 2), Imm(7)}), I(MOp::Ret, {})}});
  f.global = true;
  MFunction g = fn({{I(MOp::Ret, {})}});
  g.name = "g";
  MFunction h = g;
  h.name = "h";
  h.global = true;
  m.funcs = {f, g, h};

  std::vector<uint8_t> obj;
  std::string err;
  REQUIRE(x86_64::writeObjectToMemory(m, &obj, &err));
  x86_64::ElfObject elf;
  REQUIRE(x86_64::readElf(obj, &elf, &err));
  const x86_64::ElfSection* text = elf.section(".text");
  REQUIRE(text);
  Bytes expectedF = {0x48, 0x8d, 0x05, 0, 0, 0,    0,    0x48, 0x8b, 0x0d, 0, 0,
                     0,    0,    0xe8, 0, 0, 0,    0,    0xe8, 0x18, 0,    0, 0,
                     0xe8, 0,    0,    0, 0, 0x48, 0x8b, 0x15, 0,    0,    0, 0,
                     0x48, 0xc7, 0x05, 0, 0, 0,    0,    7,    0,    0,    0, 0xc3};
  REQUIRE(text->bytes.size() == 0x41);  // f, padding to 16, g at 0x30, h at 0x40
  CHECK(Bytes(text->bytes.begin(), text->bytes.begin() + expectedF.size()) == expectedF);
  CHECK(text->bytes[0x30] == 0xc3);
  CHECK(text->bytes[0x40] == 0xc3);

  struct Rel {
    uint64_t off;
    uint32_t type;
    const char* sym;
    int64_t addend;
  };
  const Rel kRelocs[] = {{3, 2, ".rodata", -4}, {10, 42, "puts", -4},  {15, 4, "puts", -4},
                         {25, 4, "h", -4},      {32, 2, ".rodata", 4}, {39, 2, ".rodata", -6}};
  REQUIRE(text->relocs.size() == std::size(kRelocs));
  for (size_t i = 0; i < text->relocs.size(); ++i) {
    INFO("relocation " << i);
    CHECK(text->relocs[i].offset == kRelocs[i].off);
    CHECK(text->relocs[i].type == kRelocs[i].type);  // 2 PC32, 4 PLT32, 42 REX_GOTPCRELX
    CHECK(text->relocs[i].symbol == kRelocs[i].sym);
    CHECK(text->relocs[i].addend == kRelocs[i].addend);
  }
}

TEST_CASE("mc: Lea of an external symbol plus offset adds the offset after the GOT load",
          "[codegen][mc]") {
  // movq ext@GOTPCREL(%rip), %rbx ; leaq 24(%rbx), %rbx
  MFunction f = fn({{I(MOp::Lea, {R(RBX), Opnd::memSym("ext", 24)})}});
  CHECK(encodeFunctionForTest(f) == Bytes{0x48, 0x8b, 0x1d, 0, 0, 0, 0, 0x48, 0x8d, 0x5b, 0x18});
}

TEST_CASE("mc: operands that must not reach the emitter are internal errors", "[codegen][mc]") {
  auto bad = [](MInst mi) { return fn({{std::move(mi)}}); };
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Mov, {Opnd::vreg(3), R(RAX)}))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Mov, {R(RAX), Opnd::slot(0)}))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Mov, {R(RAX), Opnd::inArg(1)}))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Mov, {R(RAX), Opnd::memV(2, 0)}))),
                  InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::ParMove, {R(RAX), R(RBX)}))), InternalError);
  // Immediates isel must have put in a register first.
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Add, {R(RAX), Imm(1LL << 31)}))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Cmp, {R(RAX), Imm(INT64_MIN)}))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Mov, {M(RAX, 0), Imm(1LL << 40)}))),
                  InternalError);
  // Malformed shapes.
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Shl, {R(RAX), R(RDX)}))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Add, {R(RAX)}))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Jmp, {B(7)}))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Mov, {R(RAX), MX(RAX, RSP, 1, 0)}))),
                  InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Mov, {R(RAX), MX(RAX, RBX, 3, 0)}))),
                  InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Mov, {R(RAX), M(RBX, 1LL << 33)}))),
                  InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Mov, {R(RAX), M(RBX, 0)}, 3))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::SDivRem, {R(RDX)}))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Push, {X(1)}))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Call, {Imm(5)}))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::Call, {Opnd::symbol("")}))), InternalError);
  // Jump tables: an address whose jump went away, two jumps of one table, a
  // base in r11 (the jump's index), a number past the function's blocks.
  auto table = [](int64_t number, Opnd base) {
    return I(MOp::JmpTable, {R(RDI), Imm(0), Imm(number), base, B(0), B(0)});
  };
  CHECK_THROWS_AS(encodeFunctionForTest(bad(I(MOp::TableAddr, {R(R10), Imm(0)}))), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(fn({{table(0, Opnd()), table(0, Opnd())}})), InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(fn({{I(MOp::TableAddr, {R(R11), Imm(0)}), table(0, R(R11))}})),
                  InternalError);
  CHECK_THROWS_AS(encodeFunctionForTest(bad(table(5, Opnd()))), InternalError);
  // The message names the pass and the function.
  try {
    encodeFunctionForTest(bad(I(MOp::Mov, {Opnd::vreg(3), R(RAX)})));
    FAIL("no exception");
  } catch (const InternalError& e) {
    CHECK(e.pass == "emit");
    CHECK(std::string(e.what()).find("function 'f'") != std::string::npos);
    CHECK(std::string(e.what()).find("virtual register") != std::string::npos);
  }
}
