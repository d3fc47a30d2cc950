// simplec_generator_fuzzer: the structure-aware mode. The fuzzer's bytes are
// not a program: they seed the random program generator (test/fuzz) and pick
// its size options and the optimization level, so every input is a valid,
// terminating program that reaches deep into the optimizer. Each one is
// compiled with the graph verified and, as --check-passes does, evaluated
// after parsing and after every pass: a pass that changes what the program
// prints, returns or reports is a finding too.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "sched/schedule_verify.h"
#include "test/fuzz/libfuzzer/fuzz_compile.h"
#include "test/fuzz/program_generator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simplec;
  // The first 8 bytes are the seed, as they come, so that libFuzzer's
  // comparisons and mutations steer it; the rest shape the program.
  uint64_t seed = 0;
  std::memcpy(&seed, data, size < 8 ? size : 8);
  uint64_t shape = fuzz::inputHash(data, size);
  fuzz::GeneratorOptions go;
  go.maxFunctions = int(shape % 7);
  go.maxBlockStatements = 3 + int(shape / 7 % 8);
  go.maxStatementDepth = 1 + int(shape / 56 % 5);
  go.maxExprDepth = 1 + int(shape / 280 % 5);
  PassOptions po;
  po.optLevel = int(shape / 1400 % 3);
  po.verifyEach = true;
  po.checkSchedules = verifySchedules;
  po.checkPasses = true;
  po.checkArgc = 1 + int64_t(shape / 4200 % 3);
  po.checkFile = "fuzz.smp";
  std::string program = fuzz::generateProgram(seed, go);
  if (fuzz::compileOrAbort(program, po) != 0) {
    // The generator promises valid programs: a diagnostic is a finding.
    std::fprintf(stderr, "simplec fuzz finding: a generated program (seed %llu) does not compile\n%s\n",
                 (unsigned long long)seed, program.c_str());
    std::abort();
  }
  return 0;
}
