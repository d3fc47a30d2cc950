// Test helper: an interpreter for integer MIR, before register allocation
// (virtual registers, Slot and InArg operands) and after allocation and frame
// lowering (physical registers, rbp/rsp-relative memory), so both versions
// of a function can be run on the same inputs and compared.
// Invariant: a Call clobbers every caller-saved register and the memory
// below rsp with garbage, so values wrongly kept there are caught.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "codegen/mir.h"

namespace simplec::test {

struct InterpCallee {
  int stackArgs = 0;  // arguments read from [rsp + 8k] at the call
  // Result from all arguments (registers first, then stack); nullptr means
  // a fixed mix of the name and the arguments.
  std::function<int64_t(const std::vector<int64_t>&)> fn;
};

struct InterpConfig {
  bool lowered = false;            // run a function after lowerFrame
  std::vector<int64_t> args;       // first six in rdi..r9, the rest on the stack
  std::vector<int64_t> heap;       // initial words of the heap buffer
  uint64_t seed = 1;               // garbage values
  int64_t maxSteps = 2000000;
  std::map<std::string, InterpCallee> callees;
};

struct InterpResult {
  bool ok = false;
  std::string error;               // why the run failed
  int64_t ret = 0;                 // rax at Ret
  std::vector<std::string> calls;  // "name(a, b) = r" for every call, in order
  std::vector<int64_t> heap;       // final words of the heap buffer
  int64_t steps = 0;
  int64_t frameAccesses = 0;       // executed instructions with an rbp-relative operand
};

// Address of the heap buffer (pass it as an argument to give code a pointer);
// it holds kHeapWords 8-byte words.
constexpr int64_t kHeapAddr = 0x10000;
constexpr int kHeapWords = 512;

// After lowering (cfg.lowered) it also checks that rsp is 16-byte aligned at
// calls and that Ret restores rsp, rbp and the callee-saved registers.
InterpResult runMir(const mir::MFunction& f, const InterpConfig& cfg);

}  // namespace simplec::test
