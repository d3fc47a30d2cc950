// Worker threads with the compile thread's set-up (see worker_threads.h).
#include "codegen/worker_threads.h"

#include <sched.h>

#include <csignal>

namespace simplec {

namespace {

// Generous, and only reserved (untouched pages cost no memory): code
// generation is not known to recurse deeply, but an overflow here would be
// a crash where the compile thread's 1 GiB would have sufficed.
constexpr size_t kStackBytes = size_t(256) << 20;

}  // namespace

void installAltStack() {
  static thread_local char altStack[64 * 1024];
  stack_t ss{};
  ss.ss_sp = altStack;
  ss.ss_size = sizeof altStack;
  sigaltstack(&ss, nullptr);
}

void removeAltStack() {
  // Before the thread's storage goes away (AddressSanitizer checks that
  // nothing still points at it).
  stack_t off{};
  off.ss_flags = SS_DISABLE;
  sigaltstack(&off, nullptr);
}

int availableCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return 1;
}

WorkerThreads::WorkerThreads(int n, std::function<void(int)> body) : body_(std::move(body)) {
  jobs_.resize(size_t(n > 0 ? n : 0));  // before any thread sees an element
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kStackBytes);
  for (int i = 0; i < n; i++) {
    jobs_[size_t(i)] = {&body_, i};
    pthread_t th;
    if (pthread_create(&th, &attr, run, &jobs_[size_t(i)]) == 0) threads_.push_back(th);
  }
  pthread_attr_destroy(&attr);
}

void WorkerThreads::join() {
  for (pthread_t th : threads_) pthread_join(th, nullptr);
  threads_.clear();
}

void* WorkerThreads::run(void* p) {
  installAltStack();
  Job* j = static_cast<Job*>(p);
  (*j->body)(j->index);
  removeAltStack();
  return nullptr;
}

}  // namespace simplec
