// Child processes (cc, the program of --run) and temporary files. A
// temporary file is removed when simplec ends, also when SIGINT, SIGTERM or
// SIGHUP stops it; while a child runs, those signals go on to the child
// (unless the terminal already sent them to it) and simplec waits for it,
// so a program run by --run decides how to react and its status stays
// simplec's.
#pragma once
#include <string>
#include <vector>

namespace simplec {

// Installs the SIGINT/SIGTERM/SIGHUP handler described above.
void installSignalCleanup();

// Creates an empty temporary file "$TMPDIR/simplec-XXXXXX<suffix>" (TMPDIR
// defaults to /tmp) and registers it for removal; "" on failure.
std::string makeTempFile(const std::string& suffix);

// Removes every registered temporary file. Async-signal-safe (the crash
// handler calls it too).
void removeTempFiles();

struct ProcessStatus {
  bool started = false;
  int exitCode = 0;  // when it exited
  int signal = 0;    // when a signal killed it
  // The status a shell would show: exitCode, or 128 + signal.
  int shellStatus() const { return signal ? 128 + signal : exitCode; }
};

// Runs the program at `path` (searched in PATH when it has no '/') with
// argv (argv[0] included) and waits for it.
ProcessStatus runProcess(const std::string& path, const std::vector<std::string>& argv);

// Ends simplec the way its child ended: a child killed by SIGINT, SIGTERM
// or SIGHUP kills simplec with the same signal (after removing the
// temporary files), so that a shell loop sees the interrupt; otherwise
// returns st.shellStatus(), the status to exit with.
int exitLikeChild(const ProcessStatus& st);

}  // namespace simplec
