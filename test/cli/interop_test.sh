#!/usr/bin/env bash
# C interop and output safety of compiled programs (issue 14, parts 3-5):
# variadic C callees get al, NULL from a C function declared non-null is a
# runtime error, stdio and sys.io.p output keep program order, buffered
# output survives SIGTERM/SIGINT and is written line by line on a terminal,
# SIMPLEC_TRAP=1 aborts at a runtime error.
# Usage: interop_test.sh PATH/TO/simplec
set -u
SIMPLEC=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/test_lib.sh"  # WORK (the current directory), pass, fail, check

cc -c "$HERE/c_trace_helpers.c" -o helpers.o
cp "$HERE/c_floats.smp" "$HERE/c_null.smp" .
for o in -O0 -O2; do
  # printf's output (stdio's buffer) and sys.io.p's (ours) in program order.
  "$SIMPLEC" $o c_floats.smp helpers.o -o floats; check "link floats $o" 0 $?
  check "printf with floats $o" "[1.50 2.25 -0.12] 2 " "$(./floats)"

  "$SIMPLEC" $o c_null.smp helpers.o -o null; check "link null $o" 0 $?
  ./null > out.txt 2> err.txt; check "null result status $o" 101 $?
  check "null result output $o" "true" "$(cat out.txt)"
  check "null result error $o" \
    "c_null.smp:6:32: runtime error: a C function declared to return a non-null reference returned null|  at get (c_null.smp:6:32)|  at main (c_null.smp:9:10)" \
    "$(tr '\n' '|' < err.txt | sed 's/|$//')"
done

# Output buffered by sys.io.p is written when SIGTERM or SIGINT stops the
# program (the status still says which signal).
printf 'sys.io.p("started\\n");\nint i = 0;\nwhile (i >= 0) i = (i + 1) & 1023;\nreturn i;\n' > spin.smp
"$SIMPLEC" spin.smp -o spin; check "compile spin" 0 $?
# Job control on: a background job of a script would start with SIGINT ignored.
set -m
for sig in TERM INT; do
  ./spin > out.txt &
  pid=$!
  sleep 0.3
  kill -$sig $pid
  wait $pid
  st=$?
  check "SIG$sig status" $((128 + $(kill -l $sig))) $st
  check "SIG$sig output kept" "started" "$(cat out.txt)"
done
set +m

# On a terminal, each line is written when it is complete.
if command -v python3 > /dev/null; then
  got=$(python3 - ./spin <<'PY'
import os, pty, select, signal, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1]])
out = b""
end = time.time() + 3
while time.time() < end and b"\n" not in out:
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            out += os.read(fd, 100)
        except OSError:
            break
os.kill(pid, signal.SIGKILL)
os.waitpid(pid, 0)
print(out.decode().strip())
PY
)
  check "line by line on a terminal" "started" "$got"
fi

# SIMPLEC_TRAP=1: a runtime error abort()s (a core dump when enabled) after
# printing the message; the breakpoint symbol is there for debuggers.
printf 'val f = { int x -> 10 / x; };\nreturn f(arg - 1);\n' > div.smp
"$SIMPLEC" div.smp -o div; check "compile div" 0 $?
./div 2> err.txt; check "runtime error status" 101 $?
(ulimit -c 0; SIMPLEC_TRAP=1 ./div 2> err.txt); check "SIMPLEC_TRAP=1 aborts" 134 $?
check "SIMPLEC_TRAP=1 message" "div.smp:1:23: runtime error: division by zero" "$(head -1 err.txt)"
nm div | grep -q ' T simplec_runtime_error$'; check "breakpoint symbol" 0 $?

echo "interop_test: $pass passed, $fail failed"
[ $fail -eq 0 ]
