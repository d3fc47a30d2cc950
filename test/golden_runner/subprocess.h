// runProcess: run a program (no shell) with given stdin bytes, capture its
// stdout and stderr, and kill its whole process group at a deadline.
// Invariant: safe to call from many threads at once; every pipe is
// close-on-exec so one job's child never holds another job's pipes open.
#pragma once
#include <string>
#include <vector>

namespace simplec::golden {

struct ProcessResult {
  bool started = false;    // false: could not spawn; `error` says why
  std::string error;
  bool timedOut = false;   // killed at the deadline
  bool signaled = false;   // terminated by signal `signal`
  int signal = 0;
  int exitCode = -1;       // valid when started && !signaled
  std::string out, err;    // captured bytes, at most `outputCap` of each
  bool truncated = false;  // some output beyond outputCap was discarded

  bool exitedWith(int code) const { return started && !timedOut && !signaled && exitCode == code; }
  // "exit status 3", "killed by signal 11 (Segmentation fault)", "timed out after 10 s"...
  std::string describeStatus(double timeoutSeconds) const;
};

// argv[0] is looked up in PATH unless it contains a '/'. `stdinData` null
// means stdin is /dev/null. The child gets our environment with `env`
// ("KEY=VALUE" entries) replacing or adding variables, its own process
// group, default signal dispositions and an empty signal mask.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string* stdinData,
                         double timeoutSeconds, size_t outputCap = 16u << 20,
                         const std::vector<std::string>& env = {});

// The runner must ignore SIGPIPE so that a child which stops reading its
// stdin cannot kill it; call once at start-up, before any thread starts.
void ignoreSigpipe();

}  // namespace simplec::golden
