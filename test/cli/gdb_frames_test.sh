#!/usr/bin/env bash
# gdb over compiled programs (issue 14, part 1): call frame information lets
# `bt`, `up` and `finish` work from simplec code, from C code it calls (libc)
# and from the runtime, at -O0 and -O2; backtraces end at main with no `??`
# frames; a runtime error stops under the debugger with its whole chain.
# Usage: gdb_frames_test.sh PATH/TO/simplec
set -u
SIMPLEC=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
if ! command -v gdb > /dev/null; then
  echo "gdb_frames_test: gdb not installed (setup.sh installs it)"
  exit 1
fi
. "$HERE/test_lib.sh"  # WORK (the current directory), pass, fail, check
# The function names of a backtrace's frames, one line: "inner middle outer main".
frames() { grep -E '^#[0-9]+ ' | sed -E 's/^#[0-9]+ +(0x[0-9a-f]+ in )?([^ ]+) .*/\2/' | tr '\n' ' ' | sed 's/ $//'; }
rungdb() { gdb -nx -batch "$@" 2>&1; }

cp "$HERE/gdb_frames.smp" prog.smp
LINE_LABS=$(grep -n 'labs(x - 50)' prog.smp | cut -d: -f1)
for o in -O0 -O2; do
  "$SIMPLEC" $o -g prog.smp -o prog; check "compile $o" 0 $?

  out=$(rungdb -ex 'break inner' -ex 'run' -ex 'bt' ./prog)
  check "bt from a function breakpoint $o" "inner middle outer main" "$(frames <<< "$out")"
  check "no ?? frames $o" "" "$(grep -F '??' <<< "$out")"

  out=$(rungdb -ex "break prog.smp:$LINE_LABS" -ex 'run' -ex 'bt' ./prog)
  check "bt from a line breakpoint $o" "inner middle outer main" "$(frames <<< "$out")"
  grep -q "prog.smp:$LINE_LABS" <<< "$out"; check "line breakpoint hit $o" 0 $?

  out=$(rungdb -ex 'break labs' -ex 'run' -ex 'bt' -ex 'finish' -ex 'bt' ./prog)
  # (finish prints where it stopped without a frame number: only the bts count.)
  check "bt from C code, then finish $o" "labs inner middle outer main inner middle outer main" "$(frames <<< "$out")"

  out=$(rungdb -ex 'break __simplec_print_i64' -ex 'run' -ex 'bt' ./prog)
  check "bt from the runtime $o" "__simplec_print_i64 inner middle outer main" "$(frames <<< "$out")"

  # bt after finish, then the frame `up` selects.
  out=$(rungdb -ex 'break inner' -ex 'run' -ex 'finish' -ex 'bt' -ex 'up' ./prog)
  check "finish returns to the caller, up $o" "middle outer main outer" "$(frames <<< "$out")"

  # A runtime error stops under the debugger (SIGTRAP) where it happened.
  out=$(rungdb -ex 'run' -ex 'bt' --args ./prog a b)
  grep -q 'SIGTRAP' <<< "$out"; check "runtime error stops $o" 0 $?
  check "bt from a runtime error $o" "__simplec_rt_error inner middle outer main" "$(frames <<< "$out")"
  check "no ?? frames at the error $o" "" "$(grep -F '??' <<< "$out")"
  out=$(rungdb -ex 'break simplec_runtime_error' -ex 'run' -ex 'bt' --args ./prog a b)
  check "breakpoint symbol $o" "simplec_runtime_error __simplec_rt_error inner middle outer main" "$(frames <<< "$out")"
  # Continuing after the stop exits as without a debugger.
  out=$(rungdb -ex 'run' -ex 'continue' --args ./prog a b)
  grep -q 'exited with code 0145' <<< "$out"; check "exit status 101 after continue $o" 0 $?
done

# The call frame information is well formed.
"$SIMPLEC" -c -O2 prog.smp -o prog.o
out=$(llvm-dwarfdump-19 --eh-frame prog.o 2>&1); check "eh-frame dump status" 0 $?
check "one FDE per function" "$(nm prog.o | grep -c ' [Tt] ')" "$(grep -c ' FDE ' <<< "$out")"
llvm-dwarfdump-19 --verify prog.o > verify.txt 2>&1; check "dwarfdump --verify" 0 $?

echo "gdb_frames_test: $pass passed, $fail failed"
[ $fail -eq 0 ]
