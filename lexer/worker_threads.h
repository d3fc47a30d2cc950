// Threads for the compiler's parallel work (optimizing and generating code,
// -j N), set up as the compile thread is: a large reserved stack, and an
// alternate signal stack so that the crash handler still runs after a stack overflow.
#pragma once
#include <pthread.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace simplec {

// Gives the calling thread its own alternate signal stack (each thread
// needs one), or takes it away again before the thread ends.
void installAltStack();
void removeAltStack();

// The number of processors this process may run on (at least 1): -j's default.
int availableCores();

// Runs body(0) .. body(n - 1) on up to n new threads, from construction
// until join() (or destruction). When the system refuses a thread, fewer
// run (started() says how many): the caller must be able to do the work
// without them. `body` must not throw.
class WorkerThreads {
 public:
  WorkerThreads(int n, std::function<void(int)> body);
  ~WorkerThreads() { join(); }
  WorkerThreads(const WorkerThreads&) = delete;
  WorkerThreads& operator=(const WorkerThreads&) = delete;
  int started() const { return int(threads_.size()); }
  void join();

 private:
  struct Job {
    const std::function<void(int)>* body;
    int index;
  };
  static void* run(void* job);
  std::function<void(int)> body_;
  std::vector<Job> jobs_;
  std::vector<pthread_t> threads_;
};

// Runs work(k, t) once for each k in [0, n), on the caller's thread and up
// to jobs - 1 workers; t (below jobs) names the thread, for state of its
// own. Items are taken in order as threads come free. An exception thrown
// by work(k) is rethrown once all are done: the one of the smallest k, so
// that the error reported does not depend on the threads. The workers'
// work counters (lexer/work_counters.h) are added to the caller's.
void parallelFor(size_t n, int jobs, const std::function<void(size_t k, int t)>& work);

}  // namespace simplec
