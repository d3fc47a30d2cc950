#include "test/fuzz/libfuzzer/fuzz_compile.h"

#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>

#include "cmd/compile_to_object.h"
#include "son/type.h"

namespace simplec::fuzz {

namespace {

// The same stack as the driver's compiler thread (cmd/main.cpp).
constexpr size_t kCompilerStack = size_t(1) << 30;

struct Job {
  const std::string* text;
  const PassOptions* po;
  int status = -1;
};

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "simplec fuzz finding: %s: %s\n", what, detail.c_str());
  std::abort();
}

void* compileJob(void* p) {
  Job* j = static_cast<Job*>(p);
  // Diagnostics are expected on most inputs; printing them would only slow
  // the fuzzer down.
  static FILE* devNull = std::fopen("/dev/null", "w");
  DiagEngine diag(devNull);
  try {
    j->status = compileSourceToObject("fuzz.smp", *j->text, *j->po, diag).status;
  } catch (const InternalError& e) {
    finding("internal compiler error", "in pass '" + e.pass + "': " + e.what());
  } catch (const std::bad_alloc&) {
    finding("internal compiler error", "out of memory");
  } catch (const std::exception& e) {
    finding("internal compiler error", e.what());
  }
  return nullptr;
}

}  // namespace

int compileOrAbort(const std::string& text, const PassOptions& po) {
  // The types this compile interns are released after it (its graph is gone
  // by then), so that memory does not grow with the number of inputs.
  size_t types = Type::internedCount();
  Job job{&text, &po};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kCompilerStack);
  pthread_t th;
  if (pthread_create(&th, &attr, compileJob, &job) != 0) finding("harness", "cannot start the compiler thread");
  pthread_join(th, nullptr);
  pthread_attr_destroy(&attr);
  Type::releaseInternedSince(types);
  return job.status;
}

uint64_t inputHash(const uint8_t* data, size_t size) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

}  // namespace simplec::fuzz
