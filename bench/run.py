#!/usr/bin/env python3
"""Benchmark runner: simplec -O2 against C compilers on the same programs.

Every bench/simple/NAME.smp has a C twin bench/c/NAME.c and a Rust twin
bench/rust/NAME.rs printing the same output. This script compiles each
program with simplec -O2, the C twin with gcc -O2, gcc -O0, clang -O2 and tcc
and the Rust twin with rustc -O (those installed), checks that every binary
prints what the gcc -O2 one prints, then runs the binaries round-robin (every
binary once per round, so that machine noise hits all of them alike) and
reports per program the median runtime of each as a ratio of gcc -O2, the
compile-time ratios (compile only: `-c`, or `--emit=obj` for rustc; no
linking), and the geometric means. It writes docs/benchmarks.md and
docs/benchmarks.svg.

A Simple program that simplec cannot compile yet is reported as
"skipped: does not compile" and left out of the means; the run still succeeds.
This is a measurement, not a test: it is not part of ctest.

    python3 bench/run.py [--simplec build/cmd/simplec] [--rustc PATH] [--runs 5] [NAME...]
"""
import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine import cpu_model  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")

# (label, compiler, flags) for the C twins; the first is the reference.
C_COMPILERS = [
    ("gcc -O2", "gcc", ["-O2"]),
    ("gcc -O0", "gcc", ["-O0"]),
    ("clang -O2", "clang", ["-O2"]),
    ("tcc", "tcc", []),
]
REFERENCE = "gcc -O2"
SIMPLEC = "simplec -O2"
RUSTC = "rustc -O"


def find_rustc(path):
    """rustc from --rustc, else PATH, else rustup's default place; None if absent."""
    if path:
        return path if os.path.exists(path) else None
    found = shutil.which("rustc")
    if found:
        return found
    home = os.path.join(os.path.expanduser("~"), ".cargo", "bin", "rustc")
    return home if os.path.exists(home) else None


def timed(argv, cwd=None):
    """Runs argv; returns (seconds of wall time, exit status, stdout, stderr)."""
    start = time.perf_counter()
    p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return time.perf_counter() - start, p.returncode, p.stdout, p.stderr


def best_compile_time(argv, repeats):
    """The fastest of `repeats` compiles (compile time is noisy under load)."""
    best = None
    for _ in range(repeats):
        t, rc, _, err = timed(argv)
        if rc != 0:
            return None, err.decode(errors="replace")
        best = t if best is None else min(best, t)
    return best, ""


def version(simplec):
    p = subprocess.run([simplec, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return p.stdout.decode(errors="replace").strip() or "unknown version"


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


class Program:
    def __init__(self, name):
        self.name = name
        self.smp = os.path.join(BENCH, "simple", name + ".smp")
        self.c = os.path.join(BENCH, "c", name + ".c")
        self.rs = os.path.join(BENCH, "rust", name + ".rs")
        self.exes = {}          # label -> executable path
        self.compile_time = {}  # label -> seconds
        self.times = {}         # label -> [seconds per run]
        self.skipped = None     # why simplec's version is not measured
        self.problems = []      # wrong output, crashes


def build_rust(prog, rustc, work, repeats):
    """The Rust twin: timed as `--emit=obj` (no linking), then built to run."""
    if not os.path.exists(prog.rs):
        prog.problems.append("no Rust twin")
        return
    obj = os.path.join(work, prog.name + ".rustc.o")
    exe = os.path.join(work, prog.name + ".rustc")
    ct, err = best_compile_time([rustc, "-O", "--emit=obj", prog.rs, "-o", obj], repeats)
    if ct is None:
        prog.problems.append("rustc does not compile the Rust twin: %s" % err.strip()[:200])
        return
    full = subprocess.run([rustc, "-O", prog.rs, "-o", exe], stderr=subprocess.PIPE)
    if full.returncode != 0:
        prog.problems.append("rustc cannot build the Rust twin")
        return
    prog.compile_time[RUSTC] = ct
    prog.exes[RUSTC] = exe


def build(prog, simplec, compilers, rustc, work, repeats):
    # The C twins: the reference output comes from gcc -O2.
    for label, cc, flags in compilers:
        obj = os.path.join(work, prog.name + "." + label.replace(" ", "") + ".o")
        exe = obj[:-2]
        ct, err = best_compile_time([cc] + flags + ["-w", "-c", prog.c, "-o", obj], repeats)
        if ct is None:
            prog.problems.append("%s does not compile the C twin: %s" % (label, err.strip()[:200]))
            continue
        link = subprocess.run([cc, obj, "-o", exe, "-lm"], stderr=subprocess.PIPE)
        if link.returncode != 0:
            prog.problems.append("%s cannot link the C twin" % label)
            continue
        prog.compile_time[label] = ct
        prog.exes[label] = exe
    if rustc:
        build_rust(prog, rustc, work, repeats)
    obj = os.path.join(work, prog.name + ".simplec.o")
    ct, err = best_compile_time([simplec, "-O2", "-c", prog.smp, "-o", obj], repeats)
    if ct is None:
        first = err.strip().splitlines()[0] if err.strip() else "no message"
        first = first.replace(prog.smp, os.path.relpath(prog.smp, ROOT))
        prog.skipped = "does not compile (%s)" % first
        return
    exe = os.path.join(work, prog.name + ".simplec")
    link = subprocess.run([simplec, obj, "-o", exe], stderr=subprocess.PIPE)
    if link.returncode != 0:
        prog.skipped = "does not link: " + link.stderr.decode(errors="replace").strip()[:200]
        return
    prog.compile_time[SIMPLEC] = ct
    prog.exes[SIMPLEC] = exe


def check_outputs(prog):
    """Runs every binary once; drops those whose output differs from gcc -O2's."""
    if REFERENCE not in prog.exes:
        prog.problems.append("no reference binary (gcc -O2)")
        prog.exes = {}
        return
    _, rc, want, _ = timed([prog.exes[REFERENCE]])
    for label, exe in list(prog.exes.items()):
        _, rc2, got, err = timed([exe])
        if rc2 != rc or got != want:
            prog.problems.append("%s: wrong output or status (%d; want %d): %r"
                                 % (label, rc2, rc, (got + err)[:120]))
            del prog.exes[label]
            if label == SIMPLEC:
                prog.skipped = "wrong output"


def measure(programs, runs):
    for r in range(runs):
        for prog in programs:
            for label, exe in prog.exes.items():
                t, _, _, _ = timed([exe])
                prog.times.setdefault(label, []).append(t)
        print("  round %d/%d done" % (r + 1, runs), file=sys.stderr)


def ratio(prog, label, what):
    table = prog.compile_time if what == "compile" else {
        k: statistics.median(v) for k, v in prog.times.items()}
    if label not in table or REFERENCE not in table or table[REFERENCE] <= 0:
        return None
    return table[label] / table[REFERENCE]


def fmt(x, digits=2):
    return "-" if x is None else ("%.*f" % (digits, x))


def report(programs, labels, runs, simplec, rustc):
    lines = []
    lines.append("# Benchmarks")
    lines.append("")
    lines.append("Generated by `python3 bench/run.py` on %s (%d runs each, round-robin; median)."
                 % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), runs))
    lines.append("Runtime and compile time (`-c`, or `--emit=obj` for rustc; no linking) as ratios of gcc -O2;"
                 " lower is better.")
    lines.append("The programs and their C and Rust twins are in `bench/`. simplec: `%s` (%s); %s;"
                 " load average at the end: %s."
                 % (os.path.relpath(simplec, ROOT) if simplec.startswith(ROOT) else simplec, version(simplec),
                    cpu_model(), " ".join("%.1f" % x for x in os.getloadavg())))
    if rustc:
        lines.append("rustc: %s (the Rust twins in `bench/rust/`, `rustc -O`)." % version(rustc))
    lines.append("")
    head = ["program", "gcc -O2 time"] + ["%s run" % l for l in labels if l != REFERENCE] + \
           ["%s compile" % l for l in labels if l != REFERENCE] + ["notes"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    means = {("run", l): [] for l in labels}
    means.update({("compile", l): [] for l in labels})
    for prog in programs:
        ref = prog.times.get(REFERENCE)
        row = [prog.name, "%.3f s" % statistics.median(ref) if ref else "-"]
        for what in ("run", "compile"):
            for l in labels:
                if l == REFERENCE:
                    continue
                x = ratio(prog, l, what)
                if l == SIMPLEC and prog.skipped:
                    row.append("skipped")
                    continue
                if x is not None:
                    means[(what, l)].append(x)
                row.append(fmt(x))
        notes = []
        if prog.skipped:
            notes.append("skipped: " + prog.skipped)
        notes += prog.problems
        row.append("; ".join(notes).replace("|", "\\|"))
        lines.append("| " + " | ".join(row) + " |")
    measured = [p.name for p in programs if not p.skipped]
    row = ["**geomean**", ""]
    for what in ("run", "compile"):
        for l in labels:
            if l == REFERENCE:
                continue
            row.append("**%s**" % fmt(geomean(means[(what, l)])))
    row.append("simplec over %d of %d programs: %s" % (len(measured), len(programs), ", ".join(measured)))
    lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    lines.append("The geomean of every C compiler is over all programs, rustc's over the programs")
    lines.append("with a Rust twin, simplec's only over the programs it compiles (a column would")
    lines.append("otherwise mix different sets).")
    return "\n".join(lines) + "\n", means


def svg_chart(programs, labels):
    """A grouped bar chart of runtime ratios to gcc -O2 (log scale)."""
    series = [l for l in labels if l != REFERENCE]
    colors = {"simplec -O2": "#d62728", "gcc -O0": "#7f7f7f", "clang -O2": "#1f77b4", "tcc": "#2ca02c",
              "rustc -O": "#ff7f0e"}
    rows = [p for p in programs if p.times]
    w_label, bar_h, gap = 110, 10, 8
    group_h = bar_h * len(series) + gap
    width, lo, hi = 720, math.log10(0.25), math.log10(16)
    plot_w = width - w_label - 20
    height = 40 + group_h * len(rows) + 30 + 18 * len(series)

    def xpos(v):
        v = min(max(math.log10(v), lo), hi)
        return w_label + (v - lo) / (hi - lo) * plot_w

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">'
           % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="16" font-size="13">Runtime relative to gcc -O2 (log scale, lower is better)</text>'
           % w_label]
    for tick in (0.25, 0.5, 1, 2, 4, 8, 16):
        x = xpos(tick)
        out.append('<line x1="%.1f" y1="24" x2="%.1f" y2="%d" stroke="%s"/>'
                   % (x, x, 30 + group_h * len(rows), "#000" if tick == 1 else "#ddd"))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%gx</text>' % (x, 44 + group_h * len(rows), tick))
    y = 30
    for prog in rows:
        out.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (w_label - 6, y + group_h / 2, prog.name))
        for i, l in enumerate(series):
            x = ratio(prog, l, "run")
            by = y + i * bar_h
            if x is None:
                if l == SIMPLEC:
                    out.append('<text x="%d" y="%d" fill="%s">skipped</text>'
                               % (w_label + 4, by + bar_h - 1, colors.get(l, "#000")))
                continue
            x0, x1 = xpos(1), xpos(x)
            out.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s %s: %.2fx</title></rect>'
                       % (min(x0, x1), by, max(abs(x1 - x0), 1), bar_h - 1, colors.get(l, "#000"), prog.name, l, x))
        y += group_h
    ly = y + 30
    for l in series:
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>'
                   % (w_label, ly - 9, colors.get(l, "#000"), w_label + 14, ly, l))
        ly += 18
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--simplec", default=os.path.join(ROOT, "build", "cmd", "simplec"))
    ap.add_argument("--rustc", default=None, help="rustc to use (default: PATH, then ~/.cargo/bin/rustc)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs of every binary (default 5)")
    ap.add_argument("--compile-repeats", type=int, default=3, help="compiles timed per program (best counts)")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs"), help="where benchmarks.md/.svg go")
    ap.add_argument("names", nargs="*", help="programs to run (default: all)")
    a = ap.parse_args()
    if not os.path.exists(a.simplec):
        sys.exit("bench: no simplec at %s (build it, or pass --simplec)" % a.simplec)
    names = a.names or sorted(f[:-4] for f in os.listdir(os.path.join(BENCH, "simple")) if f.endswith(".smp"))
    compilers = [c for c in C_COMPILERS if shutil.which(c[1])]
    missing = [c[0] for c in C_COMPILERS if not shutil.which(c[1])]
    rustc = find_rustc(a.rustc)
    labels = [REFERENCE, SIMPLEC] + [c[0] for c in compilers if c[0] != REFERENCE]
    if rustc:
        labels.append(RUSTC)
    else:
        missing.append(RUSTC)
        print("bench: rustc not installed, skipping the Rust twins", file=sys.stderr)
    programs = [Program(n) for n in names]
    with tempfile.TemporaryDirectory(prefix="simplec-bench-") as work:
        for prog in programs:
            print("building %s" % prog.name, file=sys.stderr)
            build(prog, a.simplec, compilers, rustc, work, a.compile_repeats)
            check_outputs(prog)
        measure(programs, a.runs)
    md, _ = report(programs, labels, a.runs, a.simplec, rustc)
    if missing:
        md += "\nNot installed, so not measured: %s.\n" % ", ".join(missing)
    md += ("\nCompile speed on large generated programs (10k to 100k lines, five shapes, against gcc and tcc)"
           " is in [benchmarks-compile.md](benchmarks-compile.md), made by `python3 bench/compile_speed.py`.\n")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "benchmarks.md"), "w") as f:
        f.write(md)
    with open(os.path.join(a.out, "benchmarks.svg"), "w") as f:
        f.write(svg_chart(programs, labels))
    print(md)
    print("wrote %s and %s" % (os.path.join(a.out, "benchmarks.md"), os.path.join(a.out, "benchmarks.svg")))


if __name__ == "__main__":
    main()
