// Worker threads with the compile thread's set-up (see worker_threads.h).
#include "lexer/worker_threads.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <exception>

#include "lexer/work_counters.h"

namespace simplec {

namespace {

// As the compile thread's (cmd/main.cpp), and only reserved (untouched
// pages cost no memory): the optimizer's passes recurse over long chains of
// nodes, and an overflow here would be a crash where the compile thread's
// stack would have sufficed.
constexpr size_t kStackBytes = size_t(1) << 30;

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

void parallelFor(size_t n, int jobs, const std::function<void(size_t k, int t)>& work) {
  std::vector<std::exception_ptr> errors(n);
  std::atomic<size_t> next{0};
  auto drain = [&](int t) {
    for (size_t k; (k = next.fetch_add(1, std::memory_order_relaxed)) < n;) {
      try {
        work(k, t);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    }
  };
  int workers = int(std::min(size_t(std::max(jobs, 1) - 1), n > 0 ? n - 1 : 0));
  std::vector<WorkCounters> counts(static_cast<size_t>(workers));
  {
    WorkerThreads threads(workers, [&](int w) {
      drain(w + 1);
      counts[size_t(w)] = workCounters();
    });
    drain(0);
    threads.join();
  }
  for (const WorkCounters& c : counts) workCounters().add(c);
  for (std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace simplec
