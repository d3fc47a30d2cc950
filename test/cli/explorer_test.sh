#!/usr/bin/env bash
# --emit=html, the graph explorer page (docs/explorer.md): one
# self-contained HTML file, to -o FILE or stdout, the same bytes every run;
# it embeds the graph after parsing and after every pass that changed it
# (checked against --dump-after's texts), node ids map to source positions,
# the machine code carries source lines; bad input and an unwritable -o
# fail with status 1 and a message.
# Usage: explorer_test.sh PATH/TO/simplec
set -u
SIMPLEC=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
GOLDEN=$(cd "$HERE/../golden" && pwd)
. "$HERE/test_lib.sh"  # WORK (the current directory), pass, fail, check

PROG="$GOLDEN/programs/collatz_max.smp"
cp "$PROG" prog.smp

# The page's JSON data, for python3 (standard library only) to read.
data() {  # data PAGE PYTHON-EXPRESSION-OVER-d
  python3 - "$1" "$2" <<'EOF'
import json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<script type="application/json" id="explorer-data">(.*?)</script>', html, re.S)
d = json.loads(m.group(1))
def fun(name): return next(f for f in d["functions"] if f["name"] == name)
v = eval(sys.argv[2])
print(" ".join(map(str, v)) if isinstance(v, list) else v)
EOF
}

# --- writing the page
"$SIMPLEC" --emit=html -O2 prog.smp -o page.html >out.txt 2>err.txt
check "--emit=html -o exits 0" 0 $?
check "-o leaves stdout empty" "" "$(cat out.txt err.txt)"
check "a whole HTML document" "<!DOCTYPE html>" "$(head -c 15 page.html)"
check "it ends the document" "</html>" "$(tail -n 1 page.html)"
"$SIMPLEC" --emit=html -O2 prog.smp >stdout.html
check "--emit=html without -o writes to stdout" 0 $?
cmp -s page.html stdout.html; check "stdout and -o give the same page" 0 $?
"$SIMPLEC" --emit=html -O2 prog.smp -o - >dash.html
cmp -s page.html dash.html; check "-o - is stdout" 0 $?
"$SIMPLEC" --emit=html -O2 prog.smp -o again.html
cmp -s page.html again.html; check "the page is byte-identical run after run" 0 $?
(cd / && "$SIMPLEC" --emit=html -O2 "$WORK/prog.smp" -o "$WORK/elsewhere.html")
check "another directory" 0 $?

# Self-contained: no scripts, styles or images from anywhere else.
check "no external resources" 0 "$(grep -cE '(src|href)=' page.html)"
check "one data element" 1 "$(grep -c 'id="explorer-data"' page.html)"

# --- one graph per pass that changed the program
# The pipeline's passes at -O2, in order, as --time-passes lists them.
passes=$("$SIMPLEC" -O2 --time-passes -c prog.smp -o prog.o 2>&1 |
  awk '$1 == "parse" && !done {on = 1} $1 == "gcm" {on = 0; done = 1} on {print $1}')
check "the pipeline has passes" 1 "$([ "$(wc -w <<<"$passes")" -gt 10 ] && echo 1)"
dumpArgs=()
for p in $passes; do dumpArgs+=("--dump-after=$p"); done
# -g as the page's graphs have: variables named on values (no other change).
"$SIMPLEC" -O2 -g --emit=ir "${dumpArgs[@]}" prog.smp >dumps.txt
# The passes after which the printed graph differs from the one before.
changed=$(python3 - dumps.txt <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
parts = re.split(r"^// after (\S+)\n", text, flags=re.M)
prev = None
out = []
for name, body in zip(parts[1::2], parts[2::2]):
    if body != prev: out.append(name)
    prev = body
print(" ".join(out))
EOF
)
shown=$(data page.html 'd["passes"]')
check "the page starts with the parser's graph" parse "$(cut -d' ' -f1 <<<"$shown")"
for p in $changed; do
  grep -qw -- "$p" <<<"$shown"; check "pass '$p' changed the graph: the page has it" 0 $?
done
# ... and only passes that ran, in pipeline order, each with some function's graph.
check "page passes in pipeline order" "$shown" \
  "$(for p in $passes; do grep -qw -- "$p" <<<"$shown" && echo -n "$p "; done | sed 's/ $//')"
check "every pass shown holds a graph" "" \
  "$(data page.html '[p for i, p in enumerate(d["passes"]) if not any(v["pass"] == i for f in d["functions"] for v in f["versions"])]')"
check "main's graph at parse and after some passes" 1 \
  "$(data page.html '1 if len(fun("main")["versions"]) >= 3 else 0')"
check "functions inlined at their one call go with the inlining" "inline inline" \
  "$(data page.html '[d["passes"][fun(n)["versions"][-1]["pass"]] for n in ("chain", "peak") if fun(n)["versions"][-1]["removed"]]')"
"$SIMPLEC" --emit=html -O0 prog.smp -o o0.html
check "-O0 shows the parser's graph only" parse "$(data o0.html 'd["passes"]')"

# --- node ids and source positions
# `for (int n = 1; n < 30000; n++)` is line 27: its constant and comparison.
con=$(data page.html '[n["id"] for n in fun("main")["versions"][0]["nodes"] if n["label"] == "Con 30000"][0]')
check "Con 30000 is on line 27" "27:25" \
  "$(data page.html "[f'{n[\"line\"]}:{n[\"col\"]}' for n in fun('main')['versions'][0]['nodes'] if n['id'] == $con][0]")"
check "the comparison using it is on line 27" 27 \
  "$(data page.html "[n['line'] for n in fun('main')['versions'][0]['nodes'] if n['op'] == 'LT' and $con in n['in']][0]")"
# A node keeps its id from pass to pass (the loop's Loop node).
loop=$(data page.html '[n["id"] for n in fun("main")["versions"][0]["nodes"] if n["op"] == "Loop" and n["line"] == 27][0]')
check "the loop of line 27 keeps its id to the last pass" 1 \
  "$(data page.html "1 if any(n['id'] == $loop and n['line'] == 27 for n in fun('main')['versions'][-1]['nodes']) else 0")"
# chain's body, inlined into main, keeps chain's lines (8: `if ((n & 1) == 0) ...`).
check "inlined nodes keep their callee's line" 1 \
  "$(data page.html '1 if any(n["op"] == "And" and n["line"] == 8 for n in fun("main")["versions"][-1]["nodes"]) else 0')"
check "machine code lines carry source line 27" 1 "$(data page.html '1 if any(l == 27 for _, l in d["asm"]) else 0')"
check "the schedule names nodes of the last graph" "" \
  "$(data page.html '[s for b in d["schedules"][0]["blocks"] for s, _ in b["nodes"] if not any(n["id"] == s for n in d["functions"][d["schedules"][0]["function"]]["versions"][-1]["nodes"])]')"

# --- errors
printf 'int x = ;\n' >bad.smp
"$SIMPLEC" --emit=html bad.smp -o bad.html >out.txt 2>err.txt
check "bad input exits 1" 1 $?
check "bad input: a diagnostic" 1 "$(grep -c 'bad.smp:1:9: error' err.txt)"
check "bad input: no page" "no" "$([ -e bad.html ] && echo yes || echo no)"
"$SIMPLEC" --emit=html prog.smp -o no/such/dir/page.html 2>err.txt
check "unwritable -o exits 1" 1 $?
check "unwritable -o: the message" "simplec: error: cannot write 'no/such/dir/page.html'" "$(cat err.txt)"
"$SIMPLEC" --emit=html prog.smp prog.smp -o two.html 2>err.txt
check "-o with two sources exits 2" 2 $?
"$SIMPLEC" --help | grep -q 'tokens|ir|dot|sched|mir|asm|html'; check "--help lists html" 0 $?

echo "explorer_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
