// Child processes for the golden runner, via posix_spawnp (thread-safe, no
// shell) and a poll loop that feeds stdin and drains stdout/stderr together,
// so a child blocked on a full pipe can never deadlock us.
// Invariant: the child's process group is killed on timeout and reaped
// before runProcess returns; no fd opened here outlives the call.
#include "test/golden_runner/subprocess.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace simplec::golden {
namespace {

using Clock = std::chrono::steady_clock;

// After a kill, how long we keep draining pipes that something still holds.
constexpr auto kDrainAfterKill = std::chrono::seconds(2);

void closeFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// strerror is not guaranteed thread-safe; glibc's strerrordesc_np is.
std::string errorText(int err) {
  const char* d = strerrordesc_np(err);
  return d ? d : "error " + std::to_string(err);
}

}  // namespace

void ignoreSigpipe() { signal(SIGPIPE, SIG_IGN); }

std::string ProcessResult::describeStatus(double timeoutSeconds) const {
  if (!started) return "could not start: " + error;
  if (timedOut) {
    char buf[64];
    snprintf(buf, sizeof buf, "timed out after %g s", timeoutSeconds);
    return buf;
  }
  if (signaled) {
    const char* name = sigdescr_np(signal);  // thread-safe, unlike strsignal
    return "killed by signal " + std::to_string(signal) + " (" + (name ? name : "unknown") + ")";
  }
  return "exit status " + std::to_string(exitCode);
}

ProcessResult runProcess(const std::vector<std::string>& argv, const std::string* stdinData,
                         double timeoutSeconds, size_t outputCap,
                         const std::vector<std::string>& env) {
  ProcessResult r;
  if (argv.empty()) {
    r.error = "empty command";
    return r;
  }
  int inPipe[2] = {-1, -1}, outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1};
  auto closeAll = [&] {
    for (int* p : {inPipe, outPipe, errPipe}) {
      closeFd(p[0]);
      closeFd(p[1]);
    }
  };
  if ((stdinData && pipe2(inPipe, O_CLOEXEC) != 0) || pipe2(outPipe, O_CLOEXEC) != 0 ||
      pipe2(errPipe, O_CLOEXEC) != 0) {
    r.error = std::string("pipe: ") + errorText(errno);
    closeAll();
    return r;
  }

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (stdinData)
    posix_spawn_file_actions_adddup2(&fa, inPipe[0], 0);
  else
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, outPipe[1], 1);
  posix_spawn_file_actions_adddup2(&fa, errPipe[1], 2);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &all);  // undo our SIGPIPE ignore
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);

  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  // Our environment minus the variables `env` sets, then `env`.
  std::vector<char*> cenv;
  for (char** e = environ; e && *e; e++) {
    std::string_view var(*e);
    std::string_view name = var.substr(0, var.find('='));
    bool replaced = std::any_of(env.begin(), env.end(), [&](const std::string& x) {
      return x.size() > name.size() && x.compare(0, name.size(), name) == 0 && x[name.size()] == '=';
    });
    if (!replaced) cenv.push_back(*e);
  }
  for (const auto& x : env) cenv.push_back(const_cast<char*>(x.c_str()));
  cenv.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, cargv[0], &fa, &attr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    r.error = argv[0] + ": " + errorText(rc);
    closeAll();
    return r;
  }
  r.started = true;
  closeFd(inPipe[0]);
  closeFd(outPipe[1]);
  closeFd(errPipe[1]);
  if (inPipe[1] >= 0) fcntl(inPipe[1], F_SETFL, O_NONBLOCK);

  size_t inOff = 0;
  if (stdinData && stdinData->empty()) closeFd(inPipe[1]);
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(timeoutSeconds));
  bool killed = false;
  std::string* sinks[2] = {&r.out, &r.err};
  int* fds[2] = {&outPipe[0], &errPipe[0]};
  std::vector<char> buf(1 << 16);
  while (outPipe[0] >= 0 || errPipe[0] >= 0) {
    auto now = Clock::now();
    if (now >= deadline) {
      if (killed) break;  // something outside the group holds the pipes
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      killed = true;
      r.timedOut = true;
      closeFd(inPipe[1]);
      deadline = now + kDrainAfterKill;
    }
    pollfd pfds[3];
    int n = 0;
    int which[3];
    for (int i = 0; i < 2; i++) {
      if (*fds[i] >= 0) {
        pfds[n] = {*fds[i], POLLIN, 0};
        which[n++] = i;
      }
    }
    if (inPipe[1] >= 0) {
      pfds[n] = {inPipe[1], POLLOUT, 0};
      which[n++] = 2;
    }
    auto waitMs = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
    int pr = poll(pfds, n, static_cast<int>(std::min<long long>(waitMs, 1000)));
    if (pr < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int k = 0; k < n; k++) {
      if (pfds[k].revents == 0) continue;
      if (which[k] == 2) {
        ssize_t w = write(inPipe[1], stdinData->data() + inOff, stdinData->size() - inOff);
        if (w > 0) inOff += static_cast<size_t>(w);
        if ((w < 0 && errno != EAGAIN && errno != EINTR) || inOff == stdinData->size())
          closeFd(inPipe[1]);  // done, or the child closed its stdin (EPIPE)
        continue;
      }
      int i = which[k];
      ssize_t got = read(*fds[i], buf.data(), buf.size());
      if (got > 0) {
        size_t room = outputCap > sinks[i]->size() ? outputCap - sinks[i]->size() : 0;
        size_t take = std::min(room, static_cast<size_t>(got));
        sinks[i]->append(buf.data(), take);
        if (take < static_cast<size_t>(got)) r.truncated = true;
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        closeFd(*fds[i]);
      }
    }
  }
  closeAll();
  int status = 0;
  if (!killed) {
    // Pipes closed; the child has exited or is about to. Keep the deadline.
    for (;;) {
      pid_t w = waitpid(pid, &status, WNOHANG);
      if (w == pid || (w < 0 && errno != EINTR)) break;
      if (Clock::now() >= deadline) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        r.timedOut = true;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        break;
      }
      usleep(1000);
    }
  } else {
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (WIFSIGNALED(status)) {
    r.signaled = true;
    r.signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    r.exitCode = WEXITSTATUS(status);
  }
  return r;
}

}  // namespace simplec::golden
