#!/usr/bin/env bash
# Command-line behaviour of simplec (TOOL.md): separate compilation and
# linking with C, --run, -S, Make dependency files, exit statuses, determinism,
# and what -O2 leaves of a bounds-checked loop.
# Usage: cli_test.sh PATH/TO/simplec
set -u
SIMPLEC=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/test_lib.sh"  # WORK (the current directory), pass, fail, check

# Two library objects and a C file, linked by simplec.
"$SIMPLEC" -c "$HERE/lib_math.smp" -o lib_math.o; check "-c lib_math" 0 $?
"$SIMPLEC" -c "$HERE/lib_seq.smp"; check "-c lib_seq (default output name)" 0 $?
[ -f lib_seq.o ]; check "default object name" 0 $?
cc -c "$HERE/main.c" -o main.o
"$SIMPLEC" lib_math.o lib_seq.o main.o -o linked; check "link objects" 0 $?
check "C calls Simple" "144 12 385" "$(./linked)"

# Simple calls C: narrow results and arguments, output order with fd 1.
cc -c "$HERE/c_helpers.c" -o c_helpers.o
"$SIMPLEC" "$HERE/c_interop.smp" c_helpers.o -o interop; check "link with C" 0 $?
check "Simple calls C" "255 -32767 -2147483648 [C 7] after" "$(./interop)"
# C calls Simple with junk in the upper bits of narrow arguments.
"$SIMPLEC" -c "$HERE/lib_narrow.smp" -o lib_narrow.o && cc -c "$HERE/main_narrow.c" -o main_narrow.o
"$SIMPLEC" lib_narrow.o main_narrow.o -o narrow; check "link narrow library" 0 $?
check "C calls Simple with narrow arguments" "260 -1" "$(./narrow)"

# --run passes arguments and returns the program's status.
out=$("$SIMPLEC" --run "$HERE/prog.smp" -- one two 2>&1); rc=$?
check "--run output" "args: 3" "$out"
check "--run status" 3 $rc

# -S writes assembly that cc assembles; the result links and runs.
"$SIMPLEC" -S "$HERE/prog.smp" -o prog.s; check "-S" 0 $?
cc -c prog.s -o prog_s.o; check "assemble -S output" 0 $?
"$SIMPLEC" prog_s.o -o prog_s; check "link assembled object" 0 $?
./prog_s x >/dev/null; check "run assembled program" 2 $?

# A library alone has nothing to run: a diagnostic, not a linker error.
"$SIMPLEC" "$HERE/lib_math.smp" -o nolink 2>err.txt; check "library alone status" 1 $?
grep -q "no entry point" err.txt; check "library alone message" 0 $?

# -g: DWARF line tables, in objects and in -S output assembled by cc.
# (-O0: at -O2 f is inlined into main and has no symbol of its own.)
"$SIMPLEC" -O0 -g -c "$HERE/debug_lines.smp" -o dbg.o; check "-g -c" 0 $?
readelf -S dbg.o | grep -q '\.debug_line'; check "-g writes .debug_line" 0 $?
readelf -S dbg.o | grep -q '\.debug_info'; check "-g writes .debug_info" 0 $?
faddr=$(nm dbg.o | awk '$3 == "f" { print $1 }')
test -n "$faddr"; check "-O0 keeps f" 0 $?
check "function f starts on line 3" "debug_lines.smp:3" "$(addr2line -e dbg.o "0x$faddr" | sed 's|.*/||')"
"$SIMPLEC" dbg.o -o dbg && check "-g program runs" 14 "$(./dbg)"
"$SIMPLEC" -g -S "$HERE/debug_lines.smp" -o dbg.s && grep -q '^\s*\.loc\s1 5 ' dbg.s; check "-g -S has .loc for line 5" 0 $?
cc -c dbg.s -o dbg_s.o && readelf -S dbg_s.o | grep -q '\.debug_line'; check "-g -S assembles with lines" 0 $?
"$SIMPLEC" -c "$HERE/debug_lines.smp" -o nodbg.o
readelf -S nodbg.o | grep -q '\.debug_'; check "no -g, no debug sections" 1 $?

# A script's main returns what its returns give (a double, or nothing) to a
# C caller; only an executable needs an integer exit status.
"$SIMPLEC" -c "$HERE/script_float.smp" -o sf.o; check "-c a script returning flt" 0 $?
"$SIMPLEC" -c "$HERE/script_void.smp" -o sv.o; check "-c a script returning nothing" 0 $?
objcopy --redefine-sym main=float_main sf.o && objcopy --redefine-sym main=void_main sv.o
cc -c "$HERE/main_result.c" -o main_result.o
"$SIMPLEC" sf.o sv.o main_result.o -o results; check "link script objects with C" 0 $?
out=$(./results)
check "C calls a flt main" "0.5 5.1875" "$(grep -v main <<< "$out")"
check "C calls a void main" "main ran with 7" "$(grep main <<< "$out")"
"$SIMPLEC" "$HERE/script_float.smp" -o sf 2>err.txt; check "flt main as an executable" 1 $?
grep -q "script_float.smp:5:8: error: an executable's 'main' must return an integer exit status" err.txt
check "flt main as an executable: message" 0 $?
"$SIMPLEC" --run "$HERE/script_void.smp" -- a > out.txt; check "void main exits 0" 0 $?
check "void main output" "main ran with 2" "$(cat out.txt)"

# A library's top-level `var f = { ... }` functions are C symbols too.
for o in -O0 -O2; do
  "$SIMPLEC" $o -c "$HERE/lib_var.smp" -o lib_var.o && cc "$HERE/main_var.c" lib_var.o -o var_lib
  check "C calls var-bound functions ($o)" "8 5 50" "$(./var_lib)"
done

# Deterministic output.
"$SIMPLEC" -c "$HERE/lib_seq.smp" -o again.o
cmp -s lib_seq.o again.o; check "byte-identical objects" 0 $?
# The same executable whatever the order of the sources on the command line.
"$SIMPLEC" "$HERE/multi_main.smp" "$HERE/lib_math.smp" "$HERE/lib_seq.smp" -o multi1; check "three sources" 0 $?
check "three sources run" "541" "$(./multi1)"
"$SIMPLEC" "$HERE/lib_seq.smp" "$HERE/multi_main.smp" "$HERE/lib_math.smp" -o multi2
cmp -s multi1 multi2; check "sources in another order: same executable" 0 $?

# Make with dependency files, in parallel.
cp "$HERE/prog.smp" . && cp "$HERE/Makefile.test" Makefile
make -s -j4 SIMPLEC="$SIMPLEC" prog >/dev/null 2>&1; check "make -j" 0 $?
check "dependency file" "prog.o: prog.smp" "$(cat prog.d 2>/dev/null)"
"$SIMPLEC" -c -MD -MF custom.d -MT custom-target "$HERE/prog.smp" -o p.o
check "-MF/-MT" "custom-target: $HERE/prog.smp" "$(cat custom.d 2>/dev/null)"

# Bounds-check elimination (-O2): a loop up to a# keeps no check, the length
# is loaded once before the loop and the element inside it; -O0 checks.
sched=$("$SIMPLEC" --emit=sched "$HERE/sum_array.smp")
check "no bounds check in a loop up to a#" 0 "$(grep -c BoundsCheck <<< "$sched")"
depthOf() {  # the loop depth of the block that holds the line matching $1
  awk -v pat="$1" '/^B[0-9]/{match($0, /depth [0-9]+/); d=substr($0, RSTART, RLENGTH)} $0 ~ pat {print d}' <<< "$sched"
}
check "length loaded before the loop" "depth 0" "$(depthOf 'Load i64 @0 ')"
check "element loaded in the loop" "depth 1" "$(depthOf 'Load i64 @1 ')"
check "-O0 keeps the check" 1 "$("$SIMPLEC" -O0 --emit=ir "$HERE/sum_array.smp" | grep -c BoundsCheck)"

# Exit statuses: bad input 1, bad command line 2.
printf 'return x;\n' > bad.smp
"$SIMPLEC" bad.smp -o bad 2>err.txt; check "error status" 1 $?
check "diagnostic" "bad.smp:1:8: error: undefined name 'x'" "$(head -1 err.txt)"
"$SIMPLEC" missing.smp -o m 2>/dev/null; check "missing file status" 1 $?
"$SIMPLEC" --no-such-option prog.smp 2>/dev/null; check "bad option status" 2 $?
"$SIMPLEC" -O7 prog.smp 2>/dev/null; check "bad -O status" 2 $?
"$SIMPLEC" --version | grep -q '^simplec '; check "--version" 0 $?

# Warnings (-Wparentheses is on by default) do not change the exit status;
# -w and -Wno-parentheses silence them, -Werror makes them errors (status 1).
printf 'int a = arg;\nreturn a && 0 || 3;\n' > warn.smp
"$SIMPLEC" warn.smp -o warn 2>err.txt; check "warning status" 0 $?
check "warning text" "warn.smp:2:15: warning: '&&' and '||' mixed without parentheses: 'a && b || c' groups as 'a && (b || c)' [-Wparentheses]" "$(head -1 err.txt)"
check "warning caret" "              ^" "$(sed -n 3p err.txt)"
./warn; check "a && (b || c)" 3 $?
"$SIMPLEC" -w warn.smp -o warn 2>err.txt; check "-w status" 0 $?
check "-w prints nothing" "" "$(cat err.txt)"
"$SIMPLEC" -Wno-parentheses warn.smp -o warn 2>err.txt; check "-Wno-parentheses prints nothing" "" "$(cat err.txt)"
"$SIMPLEC" -Wno-parentheses -Wparentheses -c warn.smp -o warn.o 2>err.txt; check "last -W wins" 1 "$(grep -c warning: err.txt)"
"$SIMPLEC" -Werror warn.smp -o werr 2>err.txt; check "-Werror status" 1 $?
check "-Werror text" "warn.smp:2:15: error: '&&' and '||' mixed without parentheses: 'a && b || c' groups as 'a && (b || c)' [-Werror=parentheses]" "$(head -1 err.txt)"
[ ! -e werr ]; check "-Werror writes no output" 0 $?
"$SIMPLEC" -Werror -Wno-error=parentheses warn.smp -o warn 2>/dev/null; check "-Wno-error=parentheses status" 0 $?
"$SIMPLEC" -w -Werror warn.smp -o warn 2>/dev/null; check "-w -Werror status" 0 $?
"$SIMPLEC" -Wall -Wextra -Wsuch-warning warn.smp -o warn 2>err.txt; check "unknown -W status" 0 $?
check "unknown -W message" "simplec: warning: unknown warning option '-Wsuch-warning'" "$(head -1 err.txt)"
"$SIMPLEC" -Wa,-x warn.smp -o warn 2>/dev/null; check "-Wa, status" 2 $?
# -Wunreachable-code (on by default): once per block, at the first statement
# after a return, break or continue; later top-level functions are not code.
printf 'val f = { int x -> while (x < 9) { x++; continue; x--; x--; } return x; return 1.5; };\nreturn f(arg);\nreturn 2;\nval g = { -> 1; };\n' > dead.smp
"$SIMPLEC" dead.smp -o dead 2>err.txt; check "unreachable-code status" 0 $?
check "unreachable-code positions" "dead.smp:1:51: dead.smp:1:73: dead.smp:3:1:" "$(grep -o '^dead.smp:[0-9]*:[0-9]*:' err.txt | tr '\n' ' ' | sed 's/ $//')"
check "unreachable-code text" "dead.smp:1:51: warning: code will never be executed [-Wunreachable-code]" "$(head -1 err.txt)"
./dead; check "unreachable returns do not count" 9 $?
"$SIMPLEC" -Wno-unreachable-code dead.smp -o dead 2>err.txt; check "-Wno-unreachable-code" "" "$(cat err.txt)"

# Runtime errors and stack overflows name the right file: an error inside the
# embedded sys library is reported at the program's call into it.
printf 'sys.io.p("a");\nu8[] d = new u8[2];\nsys.ary.copy(d, 0, "hello", 0, 5);\nreturn 0;\n' > libcopy.smp
for o in -O0 -O2; do
  "$SIMPLEC" $o libcopy.smp -o libcopy && ./libcopy > out.txt 2> err.txt
  check "library runtime error status $o" 101 $?
  check "library runtime error $o" "a|libcopy.smp:3:13: runtime error: index 2 out of bounds for length 2|  at main (libcopy.smp:3:13)" "$(cat out.txt)|$(tr '\n' '|' < err.txt | sed 's/|$//')"
done
printf 'val f = { int n ->\n  return f(n + 1) + 1;\n};\nreturn f(0);\n' > deep.smp
"$SIMPLEC" deep.smp -o deep && ./deep 2> err.txt
check "stack overflow status" 101 $?
check "stack overflow position" "deep.smp:1:9: runtime error: stack overflow" "$(head -1 err.txt)"

# Worklist orders (--seed) that once left an If without an arm.
for sd in 3 6; do
  "$SIMPLEC" -O2 --seed $sd "$HERE/seeded_shl_range.smp" -o seeded
  check "-O2 --seed $sd compiles" 0 $?
  check "-O2 --seed $sd output" "2 1 1 7 1 " "$(./seeded x1)"
done

# A worklist order that once merged a memory Phi with an int Phi (gvn).
"$SIMPLEC" -O1 --seed 899153 --verify-each "$HERE/seeded_dead_region_phis.smp" -o seeded2
check "-O1 --seed 899153 compiles" 0 $?
check "-O1 --seed 899153 output" "3 22 14 2 0 2 0 false " "$(./seeded2 x1 x2 | tail -1)"

# Types made from a loop Phi's declared type are widened when the Phi folds.
for lv in 0 1 2; do
  "$SIMPLEC" -O$lv --verify-each -c "$HERE/loop_phi_declared_type.smp" -o lp.o
  check "-O$lv --verify-each: loop Phi with a declared type" 0 $?
done

# Size limit: a source over 256 MiB is refused before it is read (the file
# is sparse: no disk space and no time are spent on it).
truncate -s 300M huge.smp
"$SIMPLEC" -c huge.smp -o huge.o 2>err.txt; check "huge source status" 1 $?
check "huge source message" "huge.smp: error: source file too large (limit 256 MiB)" "$(head -1 err.txt)"
rm -f huge.smp

# A stack overflow shows the call chain from the call that did not fit,
# natively (the signal handler walks the frames) and in the evaluator.
for lv in 0 2; do
  "$SIMPLEC" -O$lv "$HERE/stack_overflow_chain.smp" -o so 2>/dev/null
  ./so 2>so.txt; rc_so=$?
  "$SIMPLEC" -O$lv --interpret "$HERE/stack_overflow_chain.smp" 2>si.txt; rc_si=$?
  for run in so si; do
    rc_var=rc_$run
    check "-O$lv $run: stack overflow status" 101 "${!rc_var}"
    check "-O$lv $run: stack overflow message" "stack_overflow_chain.smp:3:13: runtime error: stack overflow" \
      "$(head -1 $run.txt | sed 's|.*/||')"
    check "-O$lv $run: chain starts at the call" "  at depth (stack_overflow_chain.smp:4:19)" \
      "$(sed -n 2p $run.txt | sed 's|(.*/|(|')"
    check "-O$lv $run: chain ends counting the rest" 1 "$(tail -1 $run.txt | grep -cE '^  \.\.\. [0-9]+ more frames$')"
  done
done

# A program big enough that at -O2 main's graph is spread over the node
# storage and packed before code generation (Unit::packSpreadGraphs, "graphs
# packed"), after the emptiest chunks' nodes moved into the holes of others
# (Unit::defragmentNodes, "node chunks freed"): the compiled program still
# prints what its C twin prints.
python3 "$HERE/../../bench/gen_large.py" funcs 8000 gen >/dev/null; check "generate a large program" 0 $?
cc -O0 gen/funcs_8000.c -o gen_c -lm; check "compile the C twin" 0 $?
"$SIMPLEC" -O2 -w --time-passes gen/funcs_8000.smp -o gen_2 2>passes.txt; check "-O2 large program" 0 $?
check "-O2 large program: main packed" 1 "$(grep -cE '^  graphs packed +1$' passes.txt)"
check "-O2 large program: node storage defragmented" 1 "$(grep -cE '^  node chunks freed +[1-9][0-9]*$' passes.txt)"
"$SIMPLEC" -O0 -w gen/funcs_8000.smp -o gen_0; check "-O0 large program" 0 $?
for lv in 0 2; do check "-O$lv large program: output" "$(./gen_c)" "$(./gen_$lv)"; done
# A second thread costs no memory of its own to speak of: the threads share
# one malloc heap. With an arena per thread, the worker's arena kept the
# large blocks it freed: 10 MB more at 50k lines (107 against 96 MB), less
# and less reliably so in smaller programs.
python3 "$HERE/../../bench/gen_large.py" funcs 50000 gen >/dev/null
peak_kb() {
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
rss_j1=$(peak_kb "$SIMPLEC" -O2 -w -j1 -c gen/funcs_50000.smp -o gen_j1.o)
rss_j2=$(peak_kb "$SIMPLEC" -O2 -w -j2 -c gen/funcs_50000.smp -o gen_j2.o)
check "-j2 peak memory within 3 MB of -j1's ($rss_j2 against $rss_j1 KB)" 1 "$([ "$rss_j2" -le $((rss_j1 + 3072)) ] && echo 1)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
