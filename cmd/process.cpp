// Child processes and temporary files (process.h).
#include "cmd/process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace simplec {

namespace {

// The registered temporary files: a list only ever pushed to, so that the
// signal handler can walk it at any moment.
struct TempNode {
  char* path;
  TempNode* next;
};
std::atomic<TempNode*> gTemps{nullptr};

// The child being waited for (0: none); the handler passes signals on to it.
std::atomic<pid_t> gChild{0};

void onStopSignal(int sig, siginfo_t* info, void*) {
  pid_t child = gChild.load();
  if (child > 0) {
    // A signal from the terminal reached the child's process group already;
    // one sent with kill() to simplec alone is passed on.
    if (info->si_code == SI_USER || info->si_code == SI_QUEUE) kill(child, sig);
    return;
  }
  removeTempFiles();
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void installSignalCleanup() {
  struct sigaction sa {};
  sa.sa_sigaction = onStopSignal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    // A signal ignored by whoever started simplec (nohup) stays ignored.
    struct sigaction old {};
    sigaction(sig, nullptr, &old);
    if (old.sa_handler != SIG_IGN) sigaction(sig, &sa, nullptr);
  }
}

std::string makeTempFile(const std::string& suffix) {
  const char* tmp = getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/simplec-XXXXXX" + suffix;
  char* buf = strdup(templ.c_str());
  int fd = mkstemps(buf, int(suffix.size()));
  if (fd < 0) {
    free(buf);
    return "";
  }
  close(fd);
  auto* node = new TempNode{buf, gTemps.load()};
  while (!gTemps.compare_exchange_weak(node->next, node)) {
  }
  return buf;
}

void removeTempFiles() {
  for (TempNode* n = gTemps.load(); n; n = n->next) unlink(n->path);
}

ProcessStatus runProcess(const std::string& path, const std::vector<std::string>& argv) {
  ProcessStatus st;
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  pid_t pid;
  bool search = path.find('/') == std::string::npos;
  int rc = search ? posix_spawnp(&pid, path.c_str(), nullptr, nullptr, a.data(), environ)
                  : posix_spawn(&pid, path.c_str(), nullptr, nullptr, a.data(), environ);
  if (rc != 0) return st;
  st.started = true;
  gChild.store(pid);
  // Wait without reaping first, so that the handler never signals a pid
  // that has been reaped (and maybe reused).
  siginfo_t info{};
  while (waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  gChild.store(0);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) st.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) st.signal = WTERMSIG(status);
  return st;
}

int exitLikeChild(const ProcessStatus& st) {
  if (st.signal == SIGINT || st.signal == SIGTERM || st.signal == SIGHUP) {
    removeTempFiles();
    signal(st.signal, SIG_DFL);
    kill(getpid(), st.signal);
  }
  return st.shellStatus();
}

}  // namespace simplec
