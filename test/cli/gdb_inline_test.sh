#!/usr/bin/env bash
# -g and inlining (docs/debugging.md): a function inlined at -O2 keeps a
# frame of its own in gdb (DW_TAG_inlined_subroutine). Stopped in its body
# (test/cli/gdb/inline.smp), by line or by name, `bt` shows the inlined
# callee, the inlined call it sits in, then the real frames, with the same
# functions and lines as at -O0 where nothing is inlined. The DWARF passes
# llvm-dwarfdump --verify.
# Usage: gdb_inline_test.sh PATH/TO/simplec
set -u
SIMPLEC=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/test_lib.sh"  # WORK (the current directory), pass, fail, check
gdbrun() {  # gdbrun BINARY COMMAND...
  local bin=$1; shift
  local args=()
  for c in "$@"; do args+=(-ex "$c"); done
  gdb -nx -batch -ex 'set pagination off' -ex 'set confirm off' -ex 'set width 0' "${args[@]}" "$bin" 2>&1 </dev/null
}
# A backtrace's frames as "function:line", one line: "twice:6 scale:10 ...".
frames() {
  grep -E '^#[0-9]+ ' | sed -E 's/^#[0-9]+ +(0x[0-9a-f]+ in )?([^ ]+) .* at [^ ]*:([0-9]+)$/\2:\3/' | tr '\n' ' ' |
    sed 's/ $//'
}

command -v gdb >/dev/null; check "gdb is installed (setup.sh)" 0 $?
DWARFDUMP=$(command -v llvm-dwarfdump-19 || command -v llvm-dwarfdump)
test -n "$DWARFDUMP"; check "llvm-dwarfdump is installed" 0 $?

cp "$HERE/gdb/inline.smp" inline.smp
line() { grep -n "// $1\$" inline.smp | cut -d: -f1; }
WANT="twice:$(line IN-TWICE) scale:$(line CALL-TWICE) work:$(line CALL-SCALE) main:$(line CALL-WORK)"

# At -O2 `twice` and `scale` really are inlined: no call to them is left.
"$SIMPLEC" -O2 -S inline.smp -o inline.s; check "compile -S -O2" 0 $?
check "twice and scale inlined at -O2" 0 "$(grep -cE 'call.*\b(twice|scale)\b' inline.s)"

for O in -O0 -O2; do
  "$SIMPLEC" $O -g inline.smp -o inline$O; check "compile $O -g" 0 $?
  ./inline$O >/dev/null; check "inline$O exit status" 0 $?

  out=$(gdbrun inline$O "break inline.smp:$(line IN-TWICE)" 'run' 'bt')
  check "bt from a line of twice $O" "$WANT" "$(frames <<<"$out")"
  check "no ?? frames $O" "" "$(grep -F '??' <<<"$out")"

  # (At -O0 `break twice` may stop at the line of twice's declaration, where
  # the parameters are copied: the innermost line is not compared.)
  out=$(gdbrun inline$O 'break twice' 'run' 'bt')
  check "bt from break twice $O" "twice ${WANT#* }" "$(frames <<<"$out" | sed -E 's/^twice:[0-9]+/twice/')"

  # twice's v (x * 5 + 1) is folded into v - 7 at -O2: no code computes
  # it, so it is <optimized out>, never another value.
  out=$(gdbrun inline$O "break inline.smp:$(line IN-TWICE)" 'run' 'info args')
  want="v = 6"
  [ $O == -O2 ] && want="v = <optimized out>"
  check "info args in twice $O" 1 "$(grep -cxF "$want" <<<"$out")"

  # A parameter of an inlined copy is where its argument is: scale's v
  # (x * 5) in work's registers at -O2; at -O0 scale's own v may be gone.
  out=$(gdbrun inline$O "break inline.smp:$(line IN-TWICE)" 'run' 'up' 'info args')
  if [ $O == -O2 ]; then
    check "info args in inlined scale $O" 1 "$(grep -cxF 'v = 5' <<<"$out")"
  else
    check "info args in scale $O" 1 "$(grep -cxE 'v = (5|<optimized out>)' <<<"$out")"
  fi

  # `up` selects the frame twice was called from: scale's, inlined or not.
  out=$(gdbrun inline$O "break inline.smp:$(line IN-TWICE)" 'run' 'up' 'up')
  check "up, up $O" "scale:$(line CALL-TWICE) work:$(line CALL-SCALE)" "$(frames <<<"$out")"
done

# The inlined calls nest: twice's inside scale's, inside work.
"$SIMPLEC" -O2 -g -c inline.smp -o inline.o; check "compile -c -O2 -g" 0 $?
"$DWARFDUMP" --debug-info inline.o >info.txt 2>&1
# Subprograms and inlined subroutines as "depth:name" (dwarfdump indents a
# DIE two columns per level; the unit's DIE is at column 13).
nesting=$(awk '/DW_TAG_(subprogram|inlined_subroutine)/ { depth = (index($0, "DW_TAG") - 13) / 2; named = 0; next }
  /DW_TAG_/ { named = 1; next }
  !named && /DW_AT_(name|abstract_origin)/ { match($0, /"[^"]*"/); printf "%d:%s ", depth, substr($0, RSTART + 1, RLENGTH - 2); named = 1 }' info.txt)
check "inlined subroutines in work" 1 "$(grep -cE '(^| )1:work 2:scale 3:twice ' <<<"$nesting")"
"$DWARFDUMP" --verify inline.o >verify.txt 2>&1; check "dwarfdump --verify" 0 $?
# Library code inlined into user code has no frame of its own.
check "no inlined sys library frames" 0 "$(grep -c '"sys\.' info.txt)"

echo "gdb_inline_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
