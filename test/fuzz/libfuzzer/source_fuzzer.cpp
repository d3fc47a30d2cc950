// simplec_source_fuzzer: libFuzzer over the whole compiler. The input is a
// Simple source; a hash of it picks the optimization level, so every input
// is compiled at one fixed level and mutations explore all three. The graph
// is verified after every pass. Seed corpus: the golden tests
// (test/fuzz/README.md, "Coverage-guided fuzzing").
#include <cstddef>
#include <cstdint>
#include <string>

#include "sched/schedule_verify.h"
#include "test/fuzz/libfuzzer/fuzz_compile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simplec;
  PassOptions po;
  po.optLevel = int(fuzz::inputHash(data, size) % 3);
  po.verifyEach = true;
  po.checkSchedules = verifySchedules;
  fuzz::compileOrAbort(std::string(reinterpret_cast<const char*>(data), size), po);
  return 0;
}
