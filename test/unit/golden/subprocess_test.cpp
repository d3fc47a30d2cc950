// Tests for test/golden_runner/subprocess: exit statuses, signals, stdin
// feeding, large outputs on both pipes, timeouts that kill the whole process
// group, output caps, and a missing program. Uses /bin/sh and standard tools.
#include "test/golden_runner/subprocess.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>

using namespace simplec::golden;

namespace {
ProcessResult sh(const std::string& script, const std::string* in = nullptr, double timeout = 10) {
  return runProcess({"/bin/sh", "-c", script}, in, timeout);
}
}  // namespace

TEST_CASE("runProcess captures stdout, stderr and the exit status", "[golden_runner]") {
  ignoreSigpipe();
  ProcessResult r = sh("printf 'out\\n'; printf 'err' >&2; exit 3");
  CHECK(r.started);
  CHECK(r.exitedWith(3));
  CHECK(r.out == "out\n");
  CHECK(r.err == "err");
  CHECK(r.describeStatus(10) == "exit status 3");
}

TEST_CASE("runProcess passes arguments without a shell", "[golden_runner]") {
  ProcessResult r = runProcess({"printf", "%s|", "a b", "$HOME", "'q'", ";"}, nullptr, 10);
  CHECK(r.exitedWith(0));
  CHECK(r.out == "a b|$HOME|'q'|;|");
}

TEST_CASE("runProcess sets extra environment variables", "[golden_runner]") {
  ProcessResult r = runProcess({"/bin/sh", "-c", "printf '%s|%s' \"$TMPDIR\" \"$GOLDEN_X\"; env | grep -c '^TMPDIR='"},
                               nullptr, 10, 1 << 20, {"TMPDIR=/some/dir", "GOLDEN_X=a=b"});
  CHECK(r.exitedWith(0));
  CHECK(r.out == "/some/dir|a=b1\n");  // replaced, not duplicated
  CHECK(sh("printf %s \"$PATH\"").out.size() > 0);  // the rest is inherited
}

TEST_CASE("runProcess feeds stdin, or /dev/null without data", "[golden_runner]") {
  std::string in = "line 1\nline 2";
  CHECK(sh("cat", &in).out == in);
  CHECK(sh("cat").out.empty());
  // Much more than a pipe buffer in both directions at once.
  std::string big(3 << 20, 'x');
  ProcessResult r = sh("cat; cat /dev/zero | head -c 2000000 >&2", &big);
  CHECK(r.exitedWith(0));
  CHECK(r.out == big);
  CHECK(r.err.size() == 2000000);
}

TEST_CASE("runProcess survives a child that ignores its stdin", "[golden_runner]") {
  std::string big(1 << 20, 'y');
  ProcessResult r = sh("exec 0<&-; echo done", &big);
  CHECK(r.exitedWith(0));
  CHECK(r.out == "done\n");
}

TEST_CASE("runProcess reports signals", "[golden_runner]") {
  ProcessResult r = sh("kill -SEGV $$");
  CHECK(r.signaled);
  CHECK(r.signal == SIGSEGV);
  CHECK_FALSE(r.exitedWith(0));
  CHECK(r.describeStatus(10).find("killed by signal 11") == 0);
  // SIGPIPE is back to its default in the child even though we ignore it.
  // (With SIGPIPE ignored, `yes` would complain about EPIPE on stderr.)
  ProcessResult p = sh("yes | head -c 10 >/dev/null");
  CHECK(p.exitedWith(0));
  CHECK(p.err.empty());
}

TEST_CASE("runProcess kills the process group at the deadline", "[golden_runner]") {
  auto start = std::chrono::steady_clock::now();
  // The grandchild `sleep` holds the pipes open; it must be killed too.
  ProcessResult r = sh("echo started; sleep 30 & sleep 30", nullptr, 0.5);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(r.timedOut);
  CHECK(r.out == "started\n");
  CHECK(secs < 2.0);  // well before the drain grace period after a kill ends
  CHECK(r.describeStatus(0.5) == "timed out after 0.5 s");
}

TEST_CASE("runProcess caps captured output", "[golden_runner]") {
  ProcessResult r = runProcess({"/bin/sh", "-c", "head -c 100000 /dev/zero"}, nullptr, 10, 1000);
  CHECK(r.exitedWith(0));
  CHECK(r.out.size() == 1000);
  CHECK(r.truncated);
}

TEST_CASE("runProcess reports a program that does not exist", "[golden_runner]") {
  ProcessResult r = runProcess({"/nonexistent/simplec-golden-test"}, nullptr, 10);
  CHECK_FALSE(r.started);
  CHECK_FALSE(r.exitedWith(0));
  CHECK(r.describeStatus(10).find("could not start") == 0);
  CHECK_FALSE(runProcess({}, nullptr, 10).started);
}
