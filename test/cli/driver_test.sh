#!/usr/bin/env bash
# What gcc/clang users type from habit (TOOL.md, "everything else ... behaves
# as in gcc"): linker options in order, C and assembly inputs, objects
# recognised by content, '-' for standard input and output, -O and -g
# spellings, the last repeated option winning, -MMD/-MP/-MQ and -MD when
# linking, -v/-###/-dumpversion, @file, error messages with suggestions,
# --run's argv[0], -o and cleanup on signals, unused linker inputs.
# Usage: driver_test.sh PATH/TO/simplec
set -u
SIMPLEC=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null; rm -rf "$WORK"' EXIT
cd "$WORK"
pass=0 fail=0
check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" == "$3" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $1"; echo "  expected: $2"; echo "  actual:   $3"; fi
}
contains() {  # contains NAME NEEDLE HAYSTACK
  if [[ $3 == *"$2"* ]]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $1"; echo "  expected to contain: $2"; echo "  actual: $3"; fi
}
cp "$HERE/prog.smp" "$HERE/lib_math.smp" "$HERE/lib_seq.smp" "$HERE/c_interop.smp" "$HERE/c_helpers.c" \
   "$HERE/main.c" "$HERE/sum_array.smp" .

# --- -l, -L, -Wl, -Xlinker go to the link, in command-line order
mkdir libs && cc -c c_helpers.c -o libs/helpers.o && ar rcs libs/libhelp.a libs/helpers.o
"$SIMPLEC" c_interop.smp -L libs -lhelp -o interop; check "-L DIR -lNAME links" 0 $?
check "-L DIR -lNAME program" "255 -32767 -2147483648 [C 7] after" "$(./interop)"
"$SIMPLEC" c_interop.smp -Llibs -l help -o interop2; check "-LDIR -l NAME links" 0 $?
# An archive before the object that needs it is not searched again (as gcc).
"$SIMPLEC" -Llibs -lhelp c_interop.smp -o wrong_order 2>/dev/null; check "-l before its user fails as in gcc" 1 $?
"$SIMPLEC" prog.smp -Wl,-Map,prog.map -o prog; check "-Wl, status" 0 $?
grep -q __simplec_argv prog.map; check "-Wl,-Map,FILE reached the linker" 0 $?
"$SIMPLEC" prog.smp -Xlinker -Map -Xlinker x.map -o prog; check "-Xlinker status" 0 $?
[ -s x.map ]; check "-Xlinker -Map -Xlinker FILE reached the linker" 0 $?
"$SIMPLEC" -v c_interop.smp -Llibs -lhelp -Wl,-z,now -o interop 2>err.txt
contains "-v: cc line in order" " -Llibs -lhelp -Wl,-z,now " "$(grep '^ cc -o interop ' err.txt)"
"$SIMPLEC" prog.smp -lm -lm -o x; check "-lm accepted" 0 $?

# --- C and assembly sources compiled by cc; objects and archives by content
"$SIMPLEC" lib_math.smp lib_seq.smp main.c -o linked; check ".c input status" 0 $?
check ".c input program" "144 12 385" "$(./linked)"
cc -S c_helpers.c -o helpers.s && cp helpers.s helpers_cpp.S
"$SIMPLEC" c_interop.smp helpers.s -o from_s; check ".s input" "255 -32767 -2147483648 [C 7] after" "$(./from_s)"
"$SIMPLEC" c_interop.smp helpers_cpp.S -o from_S; check ".S input" "255 -32767 -2147483648 [C 7] after" "$(./from_S)"
cp libs/helpers.o helpers.bin && cp libs/libhelp.a helpers.lib
"$SIMPLEC" c_interop.smp helpers.bin -o elf; check "ELF object by content" "[C 7]" "$(./elf | grep -o '\[C 7\]')"
"$SIMPLEC" c_interop.smp helpers.lib -o arch; check "archive by content" "[C 7]" "$(./arch | grep -o '\[C 7\]')"
cp prog.smp prog.txt
"$SIMPLEC" prog.txt -o p 2>err.txt; check "unknown suffix status" 1 $?
check "unknown suffix message" "simplec: error: 'prog.txt': unknown file type (a Simple source is named *.smp, or follows '-x smp')" "$(cat err.txt)"
"$SIMPLEC" -x smp prog.txt -o p; check "-x smp" 0 $?
./p a > /dev/null; check "-x smp program" 2 $?
cp main.c main_c.txt
"$SIMPLEC" lib_math.smp lib_seq.smp -x c main_c.txt -o linked2 && check "-x c" "144 12 385" "$(./linked2)"
"$SIMPLEC" -c main.c -o main_c.o; check "-c a .c file" 0 $?
check "-c a .c file: ELF" "ELF" "$(head -c 4 main_c.o | tail -c 3)"
"$SIMPLEC" -S main.c; check "-S a .c file" 0 $?
grep -q 'call.*square' main.s; check "-S a .c file: assembly" 0 $?
printf 'int broken(\n' > broken.c
"$SIMPLEC" broken.c prog.smp -o b 2>err.txt; check "a .c that does not compile: status" 1 $?
contains "a .c that does not compile: message" "simplec: error: cc failed to compile 'broken.c'" "$(cat err.txt)"
"$SIMPLEC" --emit=ir main.c 2>err.txt; check "--emit on C: status" 2 $?

# --- '-' reads the source from standard input
"$SIMPLEC" - -o from_stdin < prog.smp; check "- as input" 0 $?
./from_stdin a b > /dev/null; check "- as input: program" 3 $?
"$SIMPLEC" -x smp - -o from_stdin2 < prog.smp; check "-x smp -" 0 $?
printf 'return x;\n' | "$SIMPLEC" - -o bad 2>err.txt; check "<stdin> error status" 1 $?
check "<stdin> in diagnostics" "<stdin>:1:8: error: undefined name 'x'" "$(head -1 err.txt)"
printf 'int z = arg - 1;\nreturn 7 / z;\n' | "$SIMPLEC" --run - 2>err.txt; check "<stdin> runtime error status" 101 $?
check "<stdin> in runtime errors" "<stdin>:2:10: runtime error: division by zero" "$(head -1 err.txt)"
check "<stdin> in the call chain" "  at main (<stdin>:2:10)" "$(sed -n 2p err.txt)"
printf 'return 4;\n' | "$SIMPLEC" --interpret -; check "--interpret -" 4 $?

# --- '-o -' and '-MF -' write to standard output
"$SIMPLEC" -S prog.smp -o - > stdout.s; check "-S -o - status" 0 $?
[ ! -e ./- ]; check "-S -o - writes no file named '-'" 0 $?
cc -c stdout.s -o stdout.o && "$SIMPLEC" stdout.o -o from_stdout_s; check "-S -o - assembles" 0 $?
"$SIMPLEC" -c prog.smp -o - > stdout.o; check "-c -o - status" 0 $?
"$SIMPLEC" -c prog.smp -o ref.o && cmp -s stdout.o ref.o; check "-c -o - is the object" 0 $?
out=$("$SIMPLEC" -c -MD -MF - prog.smp -o p.o); check "-MF - status" 0 $?
check "-MF - writes to stdout" "p.o: prog.smp" "$out"
[ ! -e ./- ]; check "-MF - writes no file named '-'" 0 $?

# --- -O spellings; the last -O and -o win
ir() { "$SIMPLEC" "$@" --emit=ir sum_array.smp; }
check "-O3 is -O2" "$(ir -O2)" "$(ir -O3)"
check "-Os is -O2" "$(ir -O2)" "$(ir -Os)"
check "-Og is -O1" "$(ir -O1)" "$(ir -Og)"
check "-O is -O1" "$(ir -O1)" "$(ir -O)"
check "-O2 -O0: the last wins" 1 "$(ir -O2 -O0 | grep -c BoundsCheck)"
check "-O0 -O3: the last wins" 0 "$(ir -O0 -O3 | grep -c BoundsCheck)"
"$SIMPLEC" -O8 prog.smp 2>err.txt; check "-O8 status" 2 $?
check "-O8 message" "simplec: error: invalid optimization level '-O8' (one of -O0, -O1, -O2, -O3, -Os, -Og, -O)" "$(cat err.txt)"
# --- -j N: code generation on N threads, the same output for every N
# (many functions, float constants and a runtime error, so that each thread
# records some of them; -g, whose facts each function carries)
{
  echo "struct P { int x; flt y; };"
  for i in $(seq 0 59); do
    echo "val g$i = { int a -> P p = new P { x = a * $i; y = flt(a) * $i.25; }; int[] v = new int[4];"
    echo "  for (int k = 0; k < 4; k++) v[k] = p.x + k; return v[a & 3] + int(p.y * 1.5) + ($i > 0 ? g$((i / 2))(a) : 0); };"
  done
  echo "int s = 0;"
  for i in $(seq 0 59); do echo "s = s + g$i(arg);"; done
  echo 'sys.io.p(s); sys.io.p("\n"); return 100 / (s - s);'
} > many_funs.smp
for level in -O0 -O2 "-O2 -g"; do
  # shellcheck disable=SC2086
  "$SIMPLEC" $level -c -j1 many_funs.smp -o j1.o; check "-j1 $level status" 0 $?
  for j in -j2 -j7 "-j 3"; do
    # shellcheck disable=SC2086
    "$SIMPLEC" $level -c $j many_funs.smp -o jn.o; check "$j $level status" 0 $?
    cmp -s j1.o jn.o; check "$j $level: the same object as -j1" 0 $?
  done
  # shellcheck disable=SC2086
  "$SIMPLEC" $level -S -j1 many_funs.smp -o j1.s && "$SIMPLEC" $level -S -j4 many_funs.smp -o j4.s
  cmp -s j1.s j4.s; check "-S -j4 $level: the same assembly as -j1" 0 $?
done
"$SIMPLEC" -j3 many_funs.smp -o many_funs; ./many_funs > many.out 2>&1
check "-j3 program: division by zero, exit 101" 101 $?
check "-j3 program output" "$("$SIMPLEC" --interpret many_funs.smp 2>&1)" "$(cat many.out)"
for bad in -j0 -jx -j-1 "-j 1000"; do
  # shellcheck disable=SC2086
  "$SIMPLEC" $bad prog.smp 2>err.txt; check "$bad status" 2 $?
  contains "$bad message" "simplec: error: invalid number of threads" "$(cat err.txt)"
done
"$SIMPLEC" prog.smp -j 2>err.txt; check "-j without N status" 2 $?
check "-j without N message" "simplec: error: missing argument to '-j'" "$(cat err.txt)"
"$SIMPLEC" prog.smp -o first -o second; check "-o a -o b status" 0 $?
[ -x second ] && [ ! -e first ]; check "-o a -o b: the last wins" 0 $?

# --- dependency files: -MMD, -MP, -MQ, and -MD when linking
"$SIMPLEC" -MD prog.smp -o linkdep; check "-MD when linking status" 0 $?
check "-MD when linking writes OUT.d" "linkdep: prog.smp" "$(cat linkdep.d 2>/dev/null)"
"$SIMPLEC" -MD -MP lib_math.smp lib_seq.smp main.c -o all.exe; check "-MD -MP, several sources" 0 $?
check "-MD -MP, several sources: text" "all.exe: lib_math.smp lib_seq.smp main.c|lib_seq.smp:|main.c:" "$(tr '\n' '|' < all.d | sed 's/|$//')"
"$SIMPLEC" -MD prog.smp; check "-MD without -o" "a.out: prog.smp" "$(cat a.d 2>/dev/null)"
"$SIMPLEC" -c -MMD prog.smp -o mmd.o; check "-MMD" "mmd.o: prog.smp" "$(cat mmd.d 2>/dev/null)"
"$SIMPLEC" -c -MD -MQ 'a$b c' -MT 'x$y' prog.smp -o mq.o; check "-MQ quotes, -MT does not" 'a$$b\ c x$y: prog.smp' "$(cat mq.d)"
"$SIMPLEC" -c -MD -MP prog.smp -o mp.o; check "-MP adds no rule for the source itself" "mp.o: prog.smp" "$(cat mp.d)"
mkdir inc && printf '#define N 3\n' > inc/n.h && printf '#include "inc/n.h"\nint n(void) { return N; }\n' > usen.c
"$SIMPLEC" -c -MD -MP usen.c; check "-MD -MP on a .c (cc writes it)" "inc/n.h:" "$(grep '^inc/n.h:' usen.d)"
"$SIMPLEC" -c -MD -MF no/such/dir/x.d prog.smp -o nodir.o 2>err.txt; check "unwritable -MF status" 1 $?
check "unwritable -MF message" "simplec: error: cannot write 'no/such/dir/x.d'" "$(cat err.txt)"
cp prog.smp 'sp ace.smp'
"$SIMPLEC" -c -MD 'sp ace.smp'; check "names with spaces are quoted" 'sp\ ace.o: sp\ ace.smp' "$(cat 'sp ace.d')"

# --- -g levels as gcc spells them
for g in -g -g1 -g2 -g3 -ggdb; do
  "$SIMPLEC" $g -c prog.smp -o dbg.o && readelf -S dbg.o | grep -q '\.debug_line'
  check "$g writes line tables" 0 $?
done
for g in -g0 "-g3 -g0"; do
  "$SIMPLEC" $g -c prog.smp -o nodbg.o && readelf -S nodbg.o | grep -q '\.debug_'
  check "$g writes no debug sections" 1 $?
done
"$SIMPLEC" -g5 prog.smp 2>/dev/null; check "-g5 status" 2 $?

# --- -v, -###, -dumpversion, @file
"$SIMPLEC" -v prog.smp -o verbose 2>err.txt; check "-v status" 0 $?
check "-v: version first" "simplec version $("$SIMPLEC" -dumpversion)" "$(head -1 err.txt)"
contains "-v: the compile step" " simplec -c -O2 prog.smp -o " "$(cat err.txt)"
check "-v: the cc link line" 1 "$(grep -c '^ cc -o verbose /.*/simplec-.*\.o .*libsimplec_rt\.a -Wl,-u,__simplec_argv -lm$' err.txt)"
[ -x verbose ]; check "-v still builds" 0 $?
"$SIMPLEC" '-###' prog.smp -lm -o dry 2>err.txt; check "-### status" 0 $?
[ ! -e dry ]; check "-### runs nothing" 0 $?
check "-### quotes the cc line" 1 "$(grep -c '^ "cc" "-o" "dry" ".*\.o" "-lm" ".*libsimplec_rt\.a"' err.txt)"
"$SIMPLEC" -v 2>err.txt; check "-v alone status" 0 $?
check "-v alone" "simplec version $("$SIMPLEC" -dumpversion)" "$(cat err.txt)"
check "-dumpversion" "simplec $("$SIMPLEC" -dumpversion)" "$("$SIMPLEC" --version)"
printf -- "-o 'rsp out'\n-O0 \"prog.smp\"\n" > args.rsp
"$SIMPLEC" @args.rsp; check "@file status" 0 $?
./'rsp out' x > /dev/null; check "@file: quoted output name" 2 $?
printf -- "@args.rsp -c" > outer.rsp && printf -- "-o rsp.o" > obj.rsp
"$SIMPLEC" @outer.rsp @obj.rsp; check "@file names another @file" 0 $?
[ -f rsp.o ]; check "@file inside @file, then the last -o wins" 0 $?
printf -- "@self.rsp" > self.rsp
"$SIMPLEC" @self.rsp 2>err.txt; check "@file including itself status" 2 $?

# --- command-line errors: "simplec: error:", status 2, suggestions
"$SIMPLEC" --emti=asm prog.smp 2>err.txt; check "misspelt option status" 2 $?
check "misspelt option message" "simplec: error: unrecognized command-line option '--emti=asm'; did you mean '--emit'?" "$(cat err.txt)"
"$SIMPLEC" --interpert prog.smp 2>err.txt
check "misspelt --interpret" "simplec: error: unrecognized command-line option '--interpert'; did you mean '--interpret'?" "$(cat err.txt)"
"$SIMPLEC" prog.smp -o 2>err.txt; check "missing argument status" 2 $?
check "missing argument message" "simplec: error: missing argument to '-o'" "$(cat err.txt)"
"$SIMPLEC" --emit=bin prog.smp 2>err.txt; check "bad --emit status" 2 $?
contains "bad --emit message" "simplec: error: invalid argument 'bin' to '--emit'" "$(cat err.txt)"
"$SIMPLEC" 2>err.txt; check "no inputs status" 2 $?
check "no inputs message" "simplec: error: no input files" "$(cat err.txt)"

# --- --run: argv[0] is the source's stem; -o keeps the executable
printf 'u8[~]?[~] args = sys.args;\nsys.io.p(args[0]);\nreturn 0;\n' > argv0.smp
check "--run argv[0]" "argv0" "$("$SIMPLEC" --run argv0.smp)"
"$SIMPLEC" --run argv0.smp -o kept > /dev/null; check "--run -o status" 0 $?
check "--run -o keeps the executable" "./kept" "$(./kept)"
mkdir tmp
TMPDIR=$WORK/tmp "$SIMPLEC" --run prog.smp -- a > /dev/null; check "--run status" 2 $?
check "--run leaves no temporary files" "" "$(ls tmp)"

# --- --run on SIGTERM and SIGHUP: passed on to the program, whose death
# simplec shares; the temporary executable is removed. The program blocks
# reading a fifo that this script holds open (closing it ends the program
# even if simplec left it behind).
printf 'u8[] t = sys.io.stdin();\nreturn t#;\n' > reader.smp
mkfifo in.fifo
runningChild() {  # the pid of the --run program whose parent is $1 (no ps here)
  local stat cpid ppid
  for stat in /proc/[0-9]*/stat; do
    read -r cpid _ _ ppid _ 2>/dev/null < "$stat" || continue
    [ "$ppid" == "$1" ] && [[ $(readlink "/proc/$cpid/exe" 2>/dev/null) == */tmp/simplec-*.exe ]] && echo "$cpid"
  done
}
for sig in TERM HUP; do
  TMPDIR=$WORK/tmp "$SIMPLEC" --run reader.smp < in.fifo > /dev/null 2>&1 &
  pid=$!
  exec 3> in.fifo
  child=
  for _ in $(seq 300); do child=$(runningChild $pid); [ -n "$child" ] && break; sleep 0.1; done
  test -n "$child"; check "--run SIG$sig: the program runs" 0 $?
  kill -$sig $pid
  wait $pid 2>/dev/null; rc=$?
  kill -0 "$child" 2>/dev/null; alive=$?
  exec 3>&-
  check "--run killed by SIG$sig: status" $((128 + $(kill -l $sig))) $rc
  check "--run killed by SIG$sig: the program got it too" 1 $alive
  check "--run killed by SIG$sig: no temporary files" "" "$(ls tmp)"
done
# The program's own status when it survives: EOF on the fifo ends it.
TMPDIR=$WORK/tmp "$SIMPLEC" --run reader.smp < in.fifo > /dev/null 2>&1 &
pid=$!
exec 3> in.fifo
printf 'abcde' >&3
exec 3>&-
wait $pid; check "--run returns the program's status" 5 $?

# --- -c with objects: linker input unused, as gcc warns
"$SIMPLEC" -c prog.smp libs/helpers.o -o p.o 2>err.txt; check "-c with an object status" 0 $?
check "-c with an object warns" "simplec: warning: libs/helpers.o: linker input file unused because linking not done" "$(cat err.txt)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
