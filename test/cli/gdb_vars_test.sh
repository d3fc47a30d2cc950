#!/usr/bin/env bash
# -g variables (docs/debugging.md): gdb in batch mode stops in a program
# (test/cli/gdb/vars.smp) at -O0 and -O2 and prints parameters, locals,
# struct fields, array elements and lengths, null references, bools and
# floats; at -O2 a variable may be <optimized out>, never another value.
# Then llvm-dwarfdump --verify on every golden program compiled with -g at
# -O0 and -O2, and -g must leave .text byte-identical.
# Usage: gdb_vars_test.sh PATH/TO/simplec
set -u
SIMPLEC=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
GOLDEN=$(cd "$HERE/../golden" && pwd)
. "$HERE/test_lib.sh"  # WORK (the current directory), pass, fail, check
# has NAME LINE OUTPUT: OUTPUT has LINE as a whole line.
has() {
  if grep -qxF -- "$2" <<<"$3"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $1: no line '$2' in:"; sed 's/^/  | /' <<<"$3"; fi
}
# shows NAME LEVEL WANT OUTPUT: at -O0 OUTPUT has WANT; at -O2 it has WANT
# or the same variable <optimized out> (never another value).
shows() {
  if [ "$2" == -O0 ]; then has "$1 $2" "$3" "$4"; return; fi
  local other="${3%% = *} = <optimized out>"
  if grep -qxF -- "$3" <<<"$4" || grep -qxF -- "$other" <<<"$4"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $1 $2: neither '$3' nor '$other' in:"; sed 's/^/  | /' <<<"$4"; fi
}
gdbrun() {  # gdbrun BINARY COMMAND...
  local bin=$1; shift
  local args=()
  for c in "$@"; do args+=(-ex "$c"); done
  gdb -nx -batch -ex 'set pagination off' -ex 'set confirm off' -ex 'set width 0' "${args[@]}" "$bin" 2>&1 </dev/null |
    sed 's/^\$[0-9]* = /= /'
}

command -v gdb >/dev/null; check "gdb is installed (setup.sh)" 0 $?
DWARFDUMP=$(command -v llvm-dwarfdump-19 || command -v llvm-dwarfdump)
test -n "$DWARFDUMP"; check "llvm-dwarfdump is installed" 0 $?

SRC="$HERE/gdb/vars.smp"
LINE=$(grep -n '// BREAK' "$SRC" | cut -d: -f1)
for O in -O0 -O2; do
  "$SIMPLEC" $O -g "$SRC" -o vars$O; check "compile vars.smp $O -g" 0 $?
  ./vars$O >/dev/null; check "vars$O exit status" 17 $?

  # Stopped on entry of the outer call: the parameters.
  out=$(gdbrun vars$O 'break visit' 'run' 'info args' 'print p.next.v' 'print p.seen' 'print p.w' 'print p.x' \
    'print p.tiny' 'print a.len' 'print a.data[3]' 'print *a' 'print none' 'print p.next.next' 'print *p.next')
  shows "info args at entry" $O "scale = 2.5" "$out"
  shows "info args at entry" $O "deep = true" "$out"
  shows "info args at entry" $O "small = -5" "$out"
  shows "info args at entry" $O "tag = 200 '\\310'" "$out"
  shows "info args at entry" $O "none = 0x0" "$out"
  shows "info args at entry" $O "depth = 1" "$out"
  has "p.next.v $O" "= 7" "$out"
  has "p.seen $O" "= true" "$out"
  has "p.w (f32 field) $O" "= 1.5" "$out"
  has "p.x (flt field) $O" "= 2.25" "$out"
  has "p.tiny (i16 field) $O" "= -300" "$out"
  has "a.len $O" "= 4" "$out"
  has "a.data[3] $O" "= 40" "$out"
  has "*a $O" "= {len = 4, data = {10, 20, 30, 40}}" "$out"
  has "print none $O" "= (struct Cell *) 0x0" "$out"
  has "null field $O" "= (struct Cell *) 0x0" "$out"
  has "*p.next $O" "= {v = 7, next = 0x0, seen = false, w = 0, x = 0, tiny = 0}" "$out"

  # Stopped at a line, in the inner call (the first to get there).
  out=$(gdbrun vars$O "break vars.smp:$LINE" 'run' 'info args' 'info locals' 'bt')
  shows "info args at line $LINE" $O "scale = 5" "$out"
  shows "info args at line $LINE" $O "deep = false" "$out"
  shows "info args at line $LINE" $O "depth = 0" "$out"
  shows "info locals at line $LINE" $O "n = 4" "$out"
  shows "info locals at line $LINE" $O "half = 2.5" "$out"
  shows "info locals at line $LINE" $O "sub = 0" "$out"
  has "info locals at line $LINE: total $O" "total = 182" "$out"
  check "bt: two frames of visit $O" 2 "$(grep -c '^#[0-9].* visit (' <<<"$out")"
  check "bt: reaches main $O" 1 "$(grep -c '^#[0-9].* in main (' <<<"$out")"
  # In the outer frame, after the inner call returned.
  out=$(gdbrun vars$O "break vars.smp:$LINE" 'run' 'continue' 'print total' 'print sub' 'print p.v')
  has "outer total $O" "= 288" "$out"
  shows "outer sub" $O "sub = 107" "$(sed 's/^= /sub = /' <<<"$out")"
  has "outer p.v $O" "= 3" "$out"
done

# Reassigned variables (test/cli/gdb/reassign.smp): the value they hold at
# that point of the source, at -O0 always where the code has it; never an
# older or a newer one.
RSRC="$HERE/gdb/reassign.smp"
at() { grep -n "// BREAK $1\$" "$RSRC" | cut -d: -f1; }
# value NAME LEVEL WANT OUTPUT: as shows, with -O0 held to WANT too.
value() { shows "$@"; }
# known NAME LEVEL WANT OUTPUT: WANT or <optimized out>, at any level.
known() { shows "$1" -O2 "$3" "$4"; }
for O in -O0 -O2; do
  "$SIMPLEC" $O -g "$RSRC" -o reassign$O; check "compile reassign.smp $O -g" 0 $?
  # A loop counter and an accumulator, on the 1st, 2nd and 4th iteration,
  # then after the loop.
  out=$(gdbrun reassign$O "break reassign.smp:$(at loop)" 'run' 'p i' 'p s' 'continue' 'p i' 'p s' 'continue' \
    'continue' 'p i' 'p s' 'delete' "break reassign.smp:$(at after)" 'continue' 'p s' 'p i' 'p last' \
    "break reassign.smp:$(at ret)" 'continue' 'p t' | sed -n 's/^= /v = /p')
  value "loop counter, 1st iteration" $O "v = 0" "$(sed -n 1p <<<"$out")"
  known "accumulator, 1st iteration" $O "v = 4" "$(sed -n 2p <<<"$out")"
  value "loop counter, 2nd iteration" $O "v = 1" "$(sed -n 3p <<<"$out")"
  known "accumulator, 2nd iteration" $O "v = 24" "$(sed -n 4p <<<"$out")"
  value "loop counter, 4th iteration" $O "v = 3" "$(sed -n 5p <<<"$out")"
  known "accumulator, 4th iteration" $O "v = 61" "$(sed -n 6p <<<"$out")"
  value "accumulator after the loop" $O "v = 61" "$(sed -n 7p <<<"$out")"
  value "loop counter after the loop" $O "v = 4" "$(sed -n 8p <<<"$out")"
  known "last match after the loop" $O "v = 3" "$(sed -n 9p <<<"$out")"
  known "t after t = t + note(t)" $O "v = 244" "$(sed -n 10p <<<"$out")"
  # Assigned in one arm only: the other arm keeps the old value, even where
  # the new one is computed anyway (y = a * b below it).
  out=$(gdbrun reassign$O "break reassign.smp:$(at pick)" 'run' 'p x' 'continue' 'p x' | sed -n 's/^= /v = /p')
  value "x where the arm did not assign it" $O "v = 0" "$(sed -n 1p <<<"$out")"
  value "x where the arm assigned it" $O "v = 12" "$(sed -n 2p <<<"$out")"
  # In the caller's frame, during a call made after the assignments (the
  # third call of note, from pick(2, 6, true)).
  out=$(gdbrun reassign$O "break reassign.smp:$(at note)" 'ignore 1 2' 'run' 'up' 'p k' 'p y' 'p x' | sed -n 's/^= /v = /p')
  value "k = k * 3 in the caller" $O "v = 39" "$(sed -n 1p <<<"$out")"
  value "y in the caller" $O "v = 12" "$(sed -n 2p <<<"$out")"
  value "x in the caller" $O "v = 12" "$(sed -n 3p <<<"$out")"
  # A merge folded into one arm binds nothing: at note(13), c is still the
  # loop's last value (54, never computed at -O2), not yet d (51). Calls
  # of note before: 7, then 4 in folded's loop.
  out=$(gdbrun reassign$O "break reassign.smp:$(at note)" 'ignore 1 11' 'run' 'up' 'p c' 'p d')
  check "the 12th call of note is note(13) $O" 1 "$(grep -c 'note(13);' <<<"$out")"
  out=$(sed -n 's/^= /v = /p' <<<"$out")
  known "c before the folded arm's assignment" $O "v = 54" "$(sed -n 1p <<<"$out")"
  known "d in folded" $O "v = 51" "$(sed -n 2p <<<"$out")"
  # Two loops' `i`, each in its own block: the one of the loop that runs
  # (calls 4 and 6 of note).
  out=$(gdbrun reassign$O "break reassign.smp:$(at note)" 'ignore 1 3' 'run' 'up' 'p i' 'continue' 'continue' 'up' \
    'p i' 'info locals' | sed 's/^= /v = /')
  value "i of the first loop" $O "v = 0" "$(grep '^v = ' <<<"$out" | sed -n 1p)"
  value "i of the second loop" $O "v = 10" "$(grep '^v = ' <<<"$out" | sed -n 2p)"
  check "info locals in the second loop lists one i $O" 1 "$(grep -c '^i = ' <<<"$out")"
  # A for loop's counter where -O2 runs the step before the rest of the
  # body: this iteration's value (or <optimized out>), never the next one.
  out=$(gdbrun reassign$O "break reassign.smp:$(at step)" 'run' 'p j' 'continue' 'p j' | sed -n 's/^= /v = /p')
  value "for counter before the step runs, 1st iteration" $O "v = 1" "$(sed -n 1p <<<"$out")"
  value "for counter before the step runs, 2nd iteration" $O "v = 2" "$(sed -n 2p <<<"$out")"
done

# At -O0 every parameter and local of vars.smp has a location at the line.
out=$(gdbrun vars-O0 "break vars.smp:$LINE" 'run' 'info args' 'info locals')
check "no <optimized out> at -O0" 0 "$(grep -c 'optimized out' <<<"$out")"

# -g changes no instruction.
for f in "$SRC" "$GOLDEN/programs/"*.smp; do
  "$SIMPLEC" -O2 -c "$f" -o plain.o 2>/dev/null || continue
  "$SIMPLEC" -O2 -g -c "$f" -o debug.o
  objcopy -O binary --only-section=.text plain.o plain.text && objcopy -O binary --only-section=.text debug.o debug.text
  cmp -s plain.text debug.text; check "-g keeps .text of $(basename "$f")" 0 $?
done

# DWARF that llvm-dwarfdump accepts, for every golden program that compiles.
n=0
for O in -O0 -O2; do
  for f in "$GOLDEN"/*/*.smp; do
    "$SIMPLEC" $O -g -c "$f" -o g.o 2>/dev/null || continue
    n=$((n + 1))
    if ! "$DWARFDUMP" --verify g.o >verify.txt 2>&1; then
      fail=$((fail + 1)); echo "FAIL: llvm-dwarfdump --verify $O $f"; sed 's/^/  | /' verify.txt | head -20
    else
      pass=$((pass + 1))
    fi
  done
done
test "$n" -gt 400; check "golden objects verified (more than 400)" 0 $?

echo "gdb_vars_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
