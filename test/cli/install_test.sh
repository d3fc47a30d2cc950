#!/usr/bin/env bash
# `cmake --install` (README.md, "Installing"): installs the build into a
# temporary prefix, checks what is there, moves the prefix elsewhere and
# uses the moved copy: compiles and runs a program, runs simplec-golden on
# golden files, finds the runtime through --runtime-dir, SIMPLEC_RUNTIME_DIR
# and a symlink to the binary. Checks that man renders both man pages
# without warnings (groff where man is missing; skipped, saying so, where
# neither is), that they and the bash completion cover every option of
# `--help`, and what the completion offers.
# Usage: install_test.sh CMAKE BUILD_DIR
set -u
CMAKE=$1
BUILD=$(realpath "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/test_lib.sh"  # WORK (the current directory), pass, fail, check
contains() {  # contains NAME NEEDLE HAYSTACK
  if [[ $3 == *"$2"* ]]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $1"; echo "  expected to contain: $2"; echo "  actual: $3"; fi
}

# --- install, then move the prefix
"$CMAKE" --install "$BUILD" --prefix "$WORK/prefix" > install.log 2>&1
check "cmake --install" 0 $?
for f in bin/simplec bin/simplec-golden lib/simplec/libsimplec_rt.a \
         share/man/man1/simplec.1 share/man/man1/simplec-golden.1 \
         share/bash-completion/completions/simplec share/bash-completion/completions/simplec-golden \
         share/vim/vimfiles/syntax/simple.vim share/vim/vimfiles/ftdetect/simple.vim \
         share/simplec/vscode/package.json share/simplec/vscode/language-configuration.json \
         share/simplec/vscode/syntaxes/simple.tmLanguage.json; do
  [ -f "prefix/$f" ]; check "installed $f" 0 $?
done
[ -x prefix/bin/simplec ] && [ -x prefix/bin/simplec-golden ]; check "installed programs are executable" 0 $?
mkdir -p moved/to
mv prefix moved/to/copy
P=$WORK/moved/to/copy
export PATH=/usr/bin:/bin  # no simplec from the build tree or elsewhere

# --- the moved copy compiles, links and runs
cat > prog.smp <<'EOF'
val square = { int x -> x * x; };
sys.io.p("hello ");
sys.io.p(square(arg + 1));
return arg + 40;
EOF
"$P/bin/simplec" prog.smp -o prog; check "moved simplec links" 0 $?
out=$(./prog x y); rc=$?
check "moved build runs" "hello 16" "$out"
check "moved build exit status" 43 $rc
out=$("$P/bin/simplec" --run prog.smp -- a 2>&1); rc=$?
check "moved simplec --run" "hello 9" "$out"
check "moved simplec --run status" 42 $rc
"$P/bin/simplec" -c prog.smp -o prog.o && "$P/bin/simplec" prog.o -o prog2 && ./prog2 > /dev/null
check "moved simplec links an object" 41 $?

# --- simplec-golden from the moved copy, with the simplec beside it
mkdir golden
cat > golden/ok.smp <<'EOF'
// ARGS: a b
// EXPECT-STDOUT: 3
// EXPECT-EXIT: 3
sys.io.p(arg);
return arg;
EOF
cat > golden/div.smp <<'EOF'
// EXPECT-RUNTIME-ERROR: division by zero
int z = 0;
return 1 / z;
EOF
out=$("$P/bin/simplec-golden" golden 2>&1); rc=$?
check "simplec-golden passes" "4 passed, 0 failed" "$(tail -n 1 <<< "$out")"
check "simplec-golden status" 0 $rc
cat > golden/bad.smp <<'EOF'
// EXPECT-STDOUT: 2
sys.io.p(1);
EOF
out=$("$P/bin/simplec-golden" --opt -O1 golden/bad.smp 2>&1); rc=$?
check "simplec-golden reports a failure" "0 passed, 1 failed" "$(tail -n 1 <<< "$out")"
check "simplec-golden failure status" 1 $rc
out=$("$P/bin/simplec-golden" 2>&1); rc=$?
contains "simplec-golden usage names it" "usage: simplec-golden" "$out"
check "simplec-golden usage status" 2 $rc

# --- where the runtime is found
mv "$P/lib/simplec" "$WORK/rt"
out=$("$P/bin/simplec" prog.smp -o none 2>&1); rc=$?
check "no runtime: status" 1 $rc
contains "no runtime: message" "simplec: error: cannot find the runtime library libsimplec_rt.a" "$out"
SIMPLEC_RUNTIME_DIR=$WORK/rt "$P/bin/simplec" prog.smp -o prog3 && ./prog3 > /dev/null
check "SIMPLEC_RUNTIME_DIR" 41 $?
"$P/bin/simplec" --runtime-dir "$WORK/rt" prog.smp -o prog4 && ./prog4 > /dev/null
check "--runtime-dir" 41 $?
"$P/bin/simplec" --runtime-dir="$WORK/rt" prog.smp -o prog4b; check "--runtime-dir=DIR" 0 $?
out=$(SIMPLEC_RUNTIME_DIR=$WORK/rt "$P/bin/simplec" --runtime-dir "$WORK/nowhere" prog.smp -o none 2>&1); rc=$?
check "--runtime-dir overrides SIMPLEC_RUNTIME_DIR" 1 $rc
contains "--runtime-dir named in the error" "$WORK/nowhere' (from --runtime-dir)" "$out"
mv "$WORK/rt" "$P/lib/simplec"
out=$(SIMPLEC_RUNTIME_DIR=$WORK/nowhere "$P/bin/simplec" prog.smp -o none 2>&1); rc=$?
check "a SIMPLEC_RUNTIME_DIR without the runtime is an error" 1 $rc
contains "SIMPLEC_RUNTIME_DIR named in the error" "(from SIMPLEC_RUNTIME_DIR)" "$out"
mkdir links && ln -s "$P/bin/simplec" links/simplec
links/simplec prog.smp -o prog5 && ./prog5 > /dev/null
check "a symlink to simplec finds the runtime" 41 $?
SIMPLEC_RUNTIME_DIR= "$P/bin/simplec" prog.smp -o prog6; check "an empty SIMPLEC_RUNTIME_DIR is ignored" 0 $?

# --- man pages render without warnings
MAN1=$P/share/man/man1
if command -v man > /dev/null; then
  for page in simplec simplec-golden; do
    err=$(MANWIDTH=80 man --warnings -l "$MAN1/$page.1" 2>&1 > "$page.txt")
    check "man -l $page.1: no warnings" "" "$err"
    [ -s "$page.txt" ]; check "man -l $page.1 renders" 0 $?
  done
  check "man -M finds simplec(1)" "$MAN1/simplec.1" "$(man -M "$P/share/man" -w simplec 2>&1)"
elif command -v groff > /dev/null; then
  for page in simplec simplec-golden; do
    err=$(groff -man -Tutf8 -ww -z "$MAN1/$page.1" 2>&1)
    check "groff $page.1: no warnings" "" "$err"
  done
else
  echo "SKIP: neither man nor groff is installed: the man pages were not rendered"
fi

# --- the man pages and the completion cover every option of --help
# Every option name that a --help text lists, one line per option (aliases
# on one line, e.g. "-h --help"); of "-Wl,ARG" just "-Wl".
help_options() {
  grep -oE '^\s+-[^ ]+' | sed -E 's/^\s+//; s/,/ /g; s/[:=\[].*//; s/ [^-][^ ]*//g'
}
man_text() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$1"; }
# offered PROG FUNC WORD...: the completion's answers for PROG WORD... <TAB>
offered() {
  local prog=$1 fn=$2
  shift 2
  bash -c 'source "$1"; shift; fn=$1; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); "$fn"; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$P/share/bash-completion/completions/$prog" "$fn" "$prog" "$@" | sort | tr '\n' ' '
}
covered() {  # covered NAME MANPAGE OFFERED < lines of option aliases
  local line opt any
  while read -r line; do
    [ -z "$line" ] && continue
    any=no
    for opt in $line; do
      grep -qE -- "(^|[^-A-Za-z0-9])$opt([^-A-Za-z]|$)" <<< "$2" || { fail=$((fail + 1)); echo "FAIL: $1: the man page does not describe $opt"; }
      for w in $3; do [[ $w == "$opt"* ]] && any=yes; done
    done
    if [ $any == yes ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1: the completion does not offer $line"; fi
  done
}
simplec_help=$("$P/bin/simplec" --help)
n=$(help_options <<< "$simplec_help" | wc -l)
[ "$n" -ge 15 ]; check "simplec --help lists options ($n)" 0 $?
covered simplec "$(man_text "$MAN1/simplec.1")" "$(offered simplec _simplec -)" < <(help_options <<< "$simplec_help")
golden_help=$("$P/bin/simplec-golden" --help)
covered simplec-golden "$(man_text "$MAN1/simplec-golden.1")" "$(offered simplec-golden _simplec_golden -)" \
  < <(grep -oE '(^|[^-A-Za-z0-9])--?[a-z][-a-z]*' <<< "$golden_help" | sed -E 's/^[^-]//' | sort -u)

# --- what the completion offers
mkdir comp && cd comp && touch a.smp b.o c.a d.so e.c notes.txt && mkdir sub
check "complete inputs" "a.smp b.o c.a d.so e.c sub " "$(offered simplec _simplec "")"
check "complete -o FILE" "a.smp b.o c.a d.so e.c notes.txt sub " "$(offered simplec _simplec -o "")"
check "complete -x" "smp " "$(offered simplec _simplec -x s)"
check "complete -L DIR" "sub " "$(offered simplec _simplec -L "")"
check "complete --emit=" "asm dot html ir mir sched tokens " "$(offered simplec _simplec --emit = "")"
check "complete --emit=s" "sched " "$(offered simplec _simplec --emit = s)"
check "complete --color" "always auto never " "$(offered simplec _simplec --color "")"
check "complete --em" "--emit= " "$(offered simplec _simplec --em)"
check "complete after --" "a.smp b.o c.a d.so e.c notes.txt sub " "$(offered simplec _simplec --run a.smp -- "")"
check "complete simplec-golden inputs" "a.smp sub " "$(offered simplec-golden _simplec_golden "")"
cd ..
# The pass names offered for --dump-after are all accepted.
for p in $(offered simplec _simplec --dump-after = ""); do
  "$P/bin/simplec" --dump-after="$p" --emit=ir prog.smp > /dev/null 2>&1
  check "--dump-after=$p (offered by the completion) is accepted" 0 $?
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
