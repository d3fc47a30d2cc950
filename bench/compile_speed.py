#!/usr/bin/env python3
"""Compile-speed benchmark: simplec against gcc on large generated programs.

bench/gen_large.py writes big, realistic Simple programs of five shapes
(funcs, script, ifs, allocs, calls), each with a line-for-line C twin that
prints the same checksum. For every shape and size this script

  * compiles the Simple program with simplec -O0, -O1, -O2 and -O2 -j1 and the C twin
    with gcc -O0 and gcc -O2 (and tcc, if installed), compile only (`-c`),
    measuring wall time (the best of --repeats compiles, and of more while
    they add up to less than --min-time seconds: a compile of a fraction of a
    second is noisy on a small machine, and the growth from the smallest size
    divides by it) and peak resident memory
    (GNU time's %M when /usr/bin/time exists, else the rusage that wait4
    returns for the compiler process and its children);
  * links the objects, runs the gcc binary and every simplec binary and
    checks that they print the same checksum (a mismatch is reported loudly
    and makes the exit status 1);
  * prints a table (seconds, lines per second, peak RSS; simplec's speed
    relative to gcc -O0 and gcc -O2) and the growth of each compiler's time
    from the smallest to the largest size;
  * writes docs/benchmarks-compile.md and docs/benchmarks-compile.svg (a
    log-log plot of lines against seconds, one panel per shape), unless
    --no-write is given.

A compile that fails, runs out of the memory limit or times out is reported
in the table; a compiler that timed out or ran out of memory on a shape is
not run on the larger sizes of that shape. Exit status: 1 if a checksum
differs, a program does not run, or simplec rejects a generated program
(timeouts and the memory limit are measurements, not failures).

    python3 bench/compile_speed.py [--sizes 10000,50000,100000]
        [--shapes funcs,script,ifs,allocs,calls] [--simplec build/cmd/simplec]
        [--out DIR] [--repeats 1] [--min-time 2] [--timeout 300] [--mem-limit MB] [--no-write]
    python3 bench/compile_speed.py --replot DIR/results.json   # render a run kept with --out again
"""
import argparse
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gen_large  # noqa: E402
from machine import cpu_model  # noqa: E402

GNU_TIME = "/usr/bin/time"
COLORS = {"simplec -O0": "#f4a582", "simplec -O1": "#d6604d", "simplec -O2": "#b2182b",
          "simplec -O2 -j1": "#67001f", "gcc -O0": "#878787", "gcc -O2": "#2166ac", "tcc": "#1b7837"}


class Result:
    """One compile: seconds (best of the repeats) and peak RSS in KiB, or why it has none."""

    def __init__(self, seconds=None, rss_kb=None, status="ok", detail="", elapsed=None, message=""):
        self.seconds = seconds
        self.rss_kb = rss_kb
        self.status = status    # ok, timeout, memory, failed, skipped
        self.detail = detail    # short: "status 70", "after 300 s", "timed out at 50000 lines"
        self.elapsed = elapsed  # seconds until a failed compile ended
        self.message = message  # the compiler's first line of error output

    def ok(self):
        return self.status == "ok"

    def describe(self):
        if self.status == "failed" and "internal compiler error" in self.message:
            return "internal compiler error"
        return {"timeout": "timed out", "memory": "out of memory (limit)",
                "failed": "failed", "skipped": "skipped"}.get(self.status, self.status)

    def to_json(self):
        return dict(self.__dict__)

    @staticmethod
    def from_json(d):
        r = Result()
        r.__dict__.update(d)
        return r


def mem_limit_default():
    """Three quarters of the physical memory, in MiB (a runaway compile must not take the machine)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 3 // 4 // 1024
    except OSError:
        pass
    return 16384


def run_measured(argv, timeout, mem_mb, workdir):
    """Runs argv once: (seconds, rss_kb or None, exit status or None on timeout, stderr text)."""
    errpath = os.path.join(workdir, "stderr.txt")
    timepath = os.path.join(workdir, "time.txt")
    use_time = os.path.exists(GNU_TIME)
    full = [GNU_TIME, "-f", "%M", "-o", timepath] + argv if use_time else argv
    limit = mem_mb * 1024 * 1024 if mem_mb else None

    def child_setup():
        if limit:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    with open(errpath, "wb") as err:
        start = time.perf_counter()
        p = subprocess.Popen(full, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                             start_new_session=True, preexec_fn=child_setup)
        timed_out = []

        def kill():
            timed_out.append(True)
            try:
                os.killpg(p.pid, signal.SIGKILL)   # the process group we created: the compiler and its children
            except ProcessLookupError:
                pass
        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(p.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
        p.returncode = os.waitstatus_to_exitcode(status)
    with open(errpath, "rb") as f:
        stderr = f.read(20000).decode(errors="replace")
    rss = None
    if use_time:
        try:
            with open(timepath) as f:
                lines = [x.strip() for x in f.read().splitlines() if x.strip()]
            if lines and lines[-1].isdigit():
                rss = int(lines[-1])
        except OSError:
            pass
    else:
        rss = usage.ru_maxrss   # KiB on Linux; includes the children the compiler waited for
    if timed_out:
        return seconds, rss, None, stderr
    return seconds, rss, p.returncode, stderr


def classify_failure(status, stderr):
    text = stderr.lower()
    if any(s in text for s in ("bad_alloc", "out of memory", "cannot allocate memory", "memory exhausted")):
        return "memory"
    if status is not None and status < 0 and -status in (signal.SIGKILL, signal.SIGSEGV, signal.SIGABRT) \
            and not text.strip():
        return "memory"   # most likely the address-space limit (no message)
    return "failed"


MAX_REPEATS = 15   # --min-time adds compiles up to this many


def measure(argv, repeats, timeout, mem_mb, workdir, min_time=0.0):
    best = None
    count, spent = 0, 0.0
    while count < repeats or (spent < min_time and count < MAX_REPEATS):
        seconds, rss, status, stderr = run_measured(argv, timeout, mem_mb, workdir)
        count += 1
        spent += seconds or 0.0
        if status is None:
            return Result(None, rss, "timeout", "after %g s" % timeout, elapsed=seconds)
        if status != 0:
            first = next((x for x in stderr.splitlines() if x.strip() and not x.startswith("Command ")), "")
            first = first.replace(workdir + os.sep, "")
            return Result(None, rss, classify_failure(status, stderr), "status %d" % status, seconds, first[:300])
        if best is None or seconds < best.seconds:
            best = Result(seconds, rss)
        elif rss and best.rss_kb:
            best.rss_kb = max(best.rss_kb, rss)
    return best


def compilers(simplec):
    """(label, kind, flags): kind 'smp' compiles the Simple program, 'c' the C twin."""
    # simplec optimizes and generates code on one thread per processor by default (-j);
    # "-O2 -j1" shows what one thread does.
    out = [("simplec -O0", "smp", ["-O0"]), ("simplec -O1", "smp", ["-O1"]), ("simplec -O2", "smp", ["-O2"]),
           ("simplec -O2 -j1", "smp", ["-O2", "-j1"]), ("gcc -O0", "c", ["-O0"]), ("gcc -O2", "c", ["-O2"])]
    if shutil.which("tcc"):
        out.append(("tcc", "c", []))
    return out


def compile_argv(label, kind, flags, simplec, smp, c, obj):
    if kind == "smp":
        return [simplec] + flags + ["-c", smp, "-o", obj]
    cc = "tcc" if label == "tcc" else "gcc"
    return [cc] + flags + ["-w", "-c", c, "-o", obj]


def run_program(exe, timeout=60):
    try:
        p = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out"
    return p.returncode, (p.stdout + p.stderr).decode(errors="replace").strip()


def check_outputs(case, simplec, work, problems):
    """Links the objects and compares the checksums of the simplec binaries with the gcc one."""
    ref_label = next((l for l in ("gcc -O2", "gcc -O0") if case.results.get(l) and case.results[l].ok()), None)
    if ref_label is None:
        case.check = "not checked: gcc did not compile the C twin"
        return
    ref_exe = case.objs[ref_label][:-2]
    link = subprocess.run(["gcc", case.objs[ref_label], "-o", ref_exe, "-lm"], stderr=subprocess.PIPE)
    if link.returncode != 0:
        case.check = "not checked: the C twin does not link"
        problems.append("%s %d: the C twin does not link" % (case.shape, case.lines))
        return
    rc, want = run_program(ref_exe)
    if rc != 0:
        case.check = "C twin failed (%s): %s" % (rc, want[:100])
        problems.append("%s %d: %s" % (case.shape, case.lines, case.check))
        return
    case.checksum = want
    checked, bad = [], []
    for label, res in case.results.items():
        if not label.startswith("simplec") or not res.ok():
            continue
        exe = case.objs[label][:-2]
        link = subprocess.run([simplec, case.objs[label], "-o", exe], stderr=subprocess.PIPE)
        if link.returncode != 0:
            bad.append("%s does not link: %s" % (label, link.stderr.decode(errors="replace").strip()[:160]))
            continue
        rc, got = run_program(exe)
        if rc != 0 or got != want:
            bad.append("%s printed %r (status %s), %s printed %r" % (label, got[:80], rc, ref_label, want))
        else:
            checked.append(label.replace("simplec ", ""))
    if bad:
        case.check = "MISMATCH: " + "; ".join(bad)
        for b in bad:
            problems.append("%s %d: CHECKSUM MISMATCH: %s" % (case.shape, case.lines, b))
    elif checked:
        case.check = "simplec %s = %s: %s" % ("/".join(checked), ref_label, want)
    else:
        case.check = "not checked: simplec compiled nothing"


class Case:
    def __init__(self, shape, requested, lines, smp="", c=""):
        self.shape, self.requested, self.lines, self.smp, self.c = shape, requested, lines, smp, c
        self.results = {}   # label -> Result
        self.objs = {}      # label -> object path
        self.check = ""
        self.checksum = None

    def to_json(self):
        return {"shape": self.shape, "requested": self.requested, "lines": self.lines, "check": self.check,
                "checksum": self.checksum, "results": {k: r.to_json() for k, r in self.results.items()}}

    @staticmethod
    def from_json(d):
        c = Case(d["shape"], d["requested"], d["lines"])
        c.check, c.checksum = d.get("check", ""), d.get("checksum")
        c.results = {k: Result.from_json(v) for k, v in d["results"].items()}
        return c


def fmt_rate(lines, seconds):
    if not seconds:
        return "-"
    r = lines / seconds
    return "%.0fk" % (r / 1000) if r >= 10000 else ("%.1fk" % (r / 1000) if r >= 1000 else "%.0f" % r)


def fmt_secs(s):
    return "%.3f" % s if s < 10 else "%.1f" % s


def table(cases, labels):
    """Markdown rows: one per shape, size and compiler."""
    out = ["| shape | lines | compiler | seconds | lines/s | peak RSS MB | simplec speed vs gcc -O0 | vs gcc -O2 |",
           "|---|---:|---|---:|---:|---:|---:|---:|"]
    for case in cases:
        g0, g2 = case.results.get("gcc -O0"), case.results.get("gcc -O2")
        for label in labels:
            r = case.results.get(label)
            if r is None:
                continue
            rss = "%.0f" % (r.rss_kb / 1024) if r.rss_kb else "-"
            if r.ok():
                secs, rate = fmt_secs(r.seconds), fmt_rate(case.lines, r.seconds)
            else:
                secs, rate = r.describe() + (" (%s)" % r.detail if r.detail else ""), "-"
                if r.status == "memory" and r.elapsed:
                    secs += " after %s s" % fmt_secs(r.elapsed)
                rss = ">" + rss if r.status in ("timeout", "memory") and rss != "-" else rss
            v0 = v2 = ""
            if label.startswith("simplec") and r.ok():
                v0 = "%.2fx" % (g0.seconds / r.seconds) if g0 and g0.ok() else "-"
                v2 = "%.2fx" % (g2.seconds / r.seconds) if g2 and g2.ok() else "-"
            out.append("| %s | %d | %s | %s | %s | %s | %s | %s |"
                       % (case.shape, case.lines, label, secs.replace("|", "\\|"), rate, rss, v0, v2))
    return out


def growth_table(cases, labels, shapes, timeout):
    """Rows of t(largest size) / t(smallest size) per shape and compiler."""
    sizes = sorted({c.requested for c in cases})
    if len(sizes) < 2:
        return [], None
    lo, hi = sizes[0], sizes[-1]
    out = ["| shape | lines | " + " | ".join(labels) + " |", "|---|---|" + "---:|" * len(labels)]
    for shape in shapes:
        a = next((c for c in cases if c.shape == shape and c.requested == lo), None)
        b = next((c for c in cases if c.shape == shape and c.requested == hi), None)
        if not a or not b:
            continue
        row = []
        for label in labels:
            ra, rb = a.results.get(label), b.results.get(label)
            if ra and rb and ra.ok() and rb.ok() and ra.seconds > 0:
                row.append("%.1f" % (rb.seconds / ra.seconds))
            elif ra and ra.ok() and rb and (rb.status == "timeout" or
                                             (rb.status == "skipped" and "timed out" in rb.detail)):
                row.append("> %.0f" % (timeout / ra.seconds))
            else:
                row.append("-")
        out.append("| %s | %d → %d | %s |" % (shape, a.lines, b.lines, " | ".join(row)))
    return out, (lo, hi)


def svg_plot(cases, labels, shapes, timeout):
    """Log-log panels (one per shape): lines against compile seconds, one series per compiler."""
    pts = [(c.lines, r.seconds) for c in cases for r in c.results.values() if r.ok() and r.seconds > 0]
    if not pts:
        return None
    xs = [c.lines for c in cases]
    ymin = min(p[1] for p in pts)
    ymax = max([p[1] for p in pts] + ([timeout] if any(
        r.status == "timeout" for c in cases for r in c.results.values()) else []) +
        [r.elapsed for c in cases for r in c.results.values() if r.status == "memory" and r.elapsed])
    x0, x1 = math.log10(min(xs)) - 0.1, math.log10(max(xs)) + 0.1
    if x1 - x0 < 0.5:
        x0, x1 = x0 - 0.25, x1 + 0.25
    y0, y1 = math.floor(math.log10(ymin)), math.ceil(math.log10(ymax))
    if y1 == y0:
        y1 += 1
    pw, ph, ml, mt, gap = 300, 220, 58, 34, 30
    cols = 3
    cells = len(shapes) + 1
    rows = (cells + cols - 1) // cols
    width = cols * (pw + ml + gap) + 10
    height = rows * (ph + mt + 50) + 30
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">'
           % (width, height), '<rect width="100%" height="100%" fill="white"/>',
           '<text x="10" y="18" font-size="14">Compile time (-c, wall seconds) against program size, log-log; '
           'the dashed line has slope 1 (linear)</text>']
    for si, shape in enumerate(shapes):
        ox = (si % cols) * (pw + ml + gap) + ml
        oy = (si // cols) * (ph + mt + 50) + mt + 14

        def px(v):
            return ox + (math.log10(v) - x0) / (x1 - x0) * pw

        def py(v):
            return oy + ph - (math.log10(v) - y0) / (y1 - y0) * ph
        out.append('<text x="%d" y="%d" font-size="13" font-weight="bold">%s</text>' % (ox, oy - 6, shape))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#000"/>' % (ox, oy, pw, ph))
        for e in range(y0, y1 + 1):
            for m in (1, 2, 5):
                v = m * 10 ** e
                if not (10 ** y0 <= v <= 10 ** y1):
                    continue
                y = py(v)
                out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s"/>'
                           % (ox, y, ox + pw, y, "#ccc" if m == 1 else "#eee"))
                if m == 1 or y1 - y0 <= 2:
                    out.append('<text x="%d" y="%.1f" text-anchor="end">%gs</text>' % (ox - 4, y + 4, v))
        e = math.floor(x0)
        while e <= x1:
            for m in (1, 2, 5):
                v = m * 10 ** e
                if x0 <= math.log10(v) <= x1:
                    x = px(v)
                    out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>' % (x, oy, x, oy + ph))
                    out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                               % (x, oy + ph + 14, "%gk" % (v / 1000) if v >= 1000 else "%g" % v))
            e += 1
        out.append('<text x="%d" y="%d" text-anchor="middle" fill="#555">lines</text>'
                   % (ox + pw / 2, oy + ph + 28))
        # Slope-1 guide through the panel's centre.
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        d = min(x1 - x0, y1 - y0) / 2
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999" stroke-dasharray="4 3"/>'
                   % (px(10 ** (cx - d)), py(10 ** (cy - d)), px(10 ** (cx + d)), py(10 ** (cy + d))))
        sc = sorted((c for c in cases if c.shape == shape), key=lambda c: c.lines)
        for label in labels:
            col = COLORS.get(label, "#000")
            line = [(c.lines, c.results[label].seconds) for c in sc
                    if label in c.results and c.results[label].ok()]
            if len(line) > 1:
                out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                           % (col, " ".join("%.1f,%.1f" % (px(a), py(b)) for a, b in line)))
            for a, b in line:
                out.append('<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"><title>%s %s %d lines: %.3f s</title>'
                           '</circle>' % (px(a), py(b), col, shape, label, a, b))
            # Compiles that did not finish: an open circle at the timeout (a lower bound), a cross for
            # the memory limit (at the time it was hit, else at the top); shifted apart per compiler.
            shift = (labels.index(label) - (len(labels) - 1) / 2) * 5
            for c in sc:
                r = c.results.get(label)
                if not r or r.status not in ("timeout", "memory"):
                    continue
                x = px(c.lines) + shift
                if r.status == "timeout":
                    y = py(min(max(timeout, 10 ** y0), 10 ** y1))
                    out.append('<circle cx="%.1f" cy="%.1f" r="4" fill="white" stroke="%s" stroke-width="2">'
                               '<title>%s %s %d lines: timed out after %g s</title></circle>'
                               % (x, y, col, shape, label, c.lines, timeout))
                else:
                    y = py(min(max(r.elapsed, 10 ** y0), 10 ** y1)) if r.elapsed else oy + 6
                    out.append('<path d="M%.1f %.1fl8 8m0 -8l-8 8" stroke="%s" stroke-width="2">'
                               '<title>%s %s %d lines: out of memory</title></path>'
                               % (x - 4, y - 4, col, shape, label, c.lines))
    # Legend in the last cell.
    li = len(shapes)
    lx = (li % cols) * (pw + ml + gap) + ml
    ly = (li // cols) * (ph + mt + 50) + mt + 24
    for label in labels:
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>'
                   '<circle cx="%d" cy="%d" r="3.5" fill="%s"/><text x="%d" y="%d">%s</text>'
                   % (lx, ly, lx + 24, ly, COLORS.get(label, "#000"), lx + 12, ly, COLORS.get(label, "#000"),
                      lx + 32, ly + 4, label))
        ly += 20
    out.append('<circle cx="%d" cy="%d" r="4" fill="white" stroke="#000" stroke-width="2"/>'
               '<text x="%d" y="%d">timed out (drawn at the timeout)</text>' % (lx + 12, ly, lx + 32, ly + 4))
    ly += 20
    out.append('<path d="M%d %dl8 8m0 -8l-8 8" stroke="#000" stroke-width="2"/>'
               '<text x="%d" y="%d">out of memory (when it was hit, else at the top)</text>'
               % (lx + 8, ly - 4, lx + 32, ly + 4))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def tool_version(argv):
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        return p.stdout.decode(errors="replace").splitlines()[0].strip()
    except (OSError, IndexError):
        return "unknown"


def render(meta, cases):
    """The Markdown report."""
    labels, shapes = meta["labels"], meta["shapes"]
    md = ["# Compile speed", "",
          "Generated by `%s` on %s, in %.0f s." % (meta["command"], meta["date"], meta["elapsed"]),
          "Each program is generated by `bench/gen_large.py` (deterministic) with a line-for-line C twin;",
          "compile only (`-c`), wall time (best of %d%s), %s; timeout %g s, address-space limit %s."
          % (meta["repeats"], (", and of up to %d while they took less than %g s together"
                               % (meta.get("max_repeats", MAX_REPEATS), meta["min_time"]))
             if meta.get("min_time") else "", meta["rss_note"], meta["timeout"],
             ("%d MiB" % meta["mem_limit"]) if meta["mem_limit"] else "none"),
          "Lines are those of the Simple program (the C twin has the same statements, line for line).",
          "simplec runs its per-function optimization passes and generates code on one thread per processor "
          "(its default `-j`, %d threads here; parsing and the whole-program passes use one), except in the "
          "`-O2 -j1` rows; gcc and tcc use one thread." % meta["cpus"],
          "simplec: `%s` (%s, sources at commit %s); gcc: %s; %d CPUs (%s); load average at the end: %s."
          % (meta["simplec"], meta["simplec_version"], meta["commit"], meta["gcc_version"], meta["cpus"],
             meta.get("cpu_model", "processor not recorded"), meta["load"])]
    md += meta.get("notes", [])
    md += ["", "The shapes:", "",
           "- `funcs`: many functions (10-40 lines) with structs, int/flt arrays, loops, ifs, calls of earlier",
           "  functions and int/flt conversions; `main` calls them all.",
           "- `script`: one huge script-form main: straight-line code, ifs and loops over locals and arrays.",
           "- `ifs`: thousands of variables, each tested by an `if` (script form).",
           "- `allocs`: one function with thousands of allocations (`new S`, `new int[k]`) whose fields and",
           "  elements are used.",
           "- `calls`: thousands of call sites of one small function.",
           "", "\"simplec speed vs gcc\" is simplec's lines/s divided by gcc's (above 1: simplec compiles faster).",
           "A compiler that timed out or ran out of memory on a shape is not run on its larger sizes (\"skipped\").",
           ""]
    md += table(cases, labels)
    grow, span = growth_table(cases, labels, shapes, meta["timeout"])
    if grow:
        md += ["", "## Growth", "",
               "Compile time at %d lines divided by compile time at %d lines (%.0f would be linear;"
               % (span[1], span[0], span[1] / span[0]),
               "\"> x\": the larger compile timed out, so the growth is at least x)."]
        if meta.get("min_time"):
            md += ["With --min-time the small compiles are repeated more often than the large ones, and",
                   "the best of more runs is lower: on a noisy machine the growth is overstated, not understated."]
        md += [""] + grow
    md += ["", "## Checks", "",
           "The simplec binaries (every level that compiled) and the gcc binary (-O2, else -O0) print:", ""]
    for case in cases:
        md.append("- %s %d lines: %s" % (case.shape, case.lines, case.check))
    if meta["problems"]:
        md += ["", "## Problems", ""] + ["- " + p for p in meta["problems"]]
    if meta.get("missing"):
        md += ["", "Not installed, so not measured: %s." % ", ".join(meta["missing"])]
    md += ["", "![compile time against lines](benchmarks-compile.svg)", ""]
    return "\n".join(md) + "\n"


def write_docs(meta, cases, docs):
    os.makedirs(docs, exist_ok=True)
    with open(os.path.join(docs, "benchmarks-compile.md"), "w") as f:
        f.write(render(meta, cases))
    svg = svg_plot(cases, meta["labels"], meta["shapes"], meta["timeout"])
    if svg:
        with open(os.path.join(docs, "benchmarks-compile.svg"), "w") as f:
            f.write(svg)
    print("wrote %s and %s" % (os.path.join(docs, "benchmarks-compile.md"),
                               os.path.join(docs, "benchmarks-compile.svg")), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,50000,100000", help="comma-separated line counts")
    ap.add_argument("--shapes", default=",".join(gen_large.SHAPES), help="comma-separated shapes")
    ap.add_argument("--simplec", default=os.path.join(ROOT, "build", "cmd", "simplec"))
    ap.add_argument("--out", help="directory for the generated programs, objects and results.json "
                    "(default: a temporary one)")
    ap.add_argument("--repeats", type=int, default=1, help="compiles per measurement; the fastest counts")
    ap.add_argument("--min-time", type=float, default=2.0,
                    help="repeat a compile (up to %d times) until the repeats took this many seconds "
                    "(default 2; 0: exactly --repeats)" % MAX_REPEATS)
    ap.add_argument("--timeout", type=float, default=300, help="seconds allowed per compile (default 300)")
    ap.add_argument("--mem-limit", type=int, default=mem_limit_default(),
                    help="address-space limit per compile in MiB (default: 3/4 of RAM; 0: none)")
    ap.add_argument("--no-write", action="store_true", help="do not write docs/benchmarks-compile.{md,svg}")
    ap.add_argument("--docs", default=os.path.join(ROOT, "docs"), help="where the .md and .svg go")
    ap.add_argument("--replot", metavar="JSON", help="measure nothing: render the results.json of an earlier run")
    a = ap.parse_args()
    if a.replot:
        with open(a.replot) as f:
            data = json.load(f)
        meta, cases = data["meta"], [Case.from_json(c) for c in data["cases"]]
        print(render(meta, cases))
        if not a.no_write:
            write_docs(meta, cases, a.docs)
        sys.exit(1 if meta["problems"] else 0)
    simplec = os.path.abspath(a.simplec)
    if not os.path.exists(simplec):
        sys.exit("compile_speed: no simplec at %s (build it, or pass --simplec)" % simplec)
    if not shutil.which("gcc"):
        sys.exit("compile_speed: gcc is needed for the C twins")
    sizes = [int(s) for s in a.sizes.split(",") if s.strip()]
    shapes = [s.strip() for s in a.shapes.split(",") if s.strip()]
    for s in shapes:
        if s not in gen_large.SHAPES:
            sys.exit("compile_speed: unknown shape %r (one of %s)" % (s, ", ".join(gen_large.SHAPES)))
    comps = compilers(simplec)
    labels = [c[0] for c in comps]
    rss_note = ("peak RSS from GNU time (%s -f %%M)" % GNU_TIME if os.path.exists(GNU_TIME) else
                "%s is not installed: peak RSS is the ru_maxrss that wait4 reports for the compiler "
                "process (and the children it waited for)" % GNU_TIME)
    if not os.path.exists(GNU_TIME):
        print("compile_speed: " + rss_note, file=sys.stderr)
    tmp = None
    if a.out:
        work = os.path.abspath(a.out)
        os.makedirs(work, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="simplec-compile-speed-")
        work = tmp.name
    commit = tool_version(["git", "-C", ROOT, "describe", "--always", "--dirty"])   # before the hour-long run
    cases, problems = [], []
    given_up = {}   # (shape, label) -> why larger sizes are skipped
    t_start = time.time()
    try:
        for shape in shapes:
            for size in sorted(sizes):
                smp, c, lines = gen_large.write(shape, size, work)
                case = Case(shape, size, lines, smp, c)
                cases.append(case)
                for label, kind, flags in comps:
                    if (shape, label) in given_up:
                        case.results[label] = Result(None, None, "skipped", given_up[(shape, label)])
                        continue
                    obj = os.path.join(work, "%s_%d.%s.o" % (shape, size, label.replace(" ", "").replace("-", "")))
                    case.objs[label] = obj
                    print("%-7s %7d lines  %-16s" % (shape, lines, label), end="", file=sys.stderr, flush=True)
                    r = measure(compile_argv(label, kind, flags, simplec, smp, c, obj), a.repeats, a.timeout,
                                a.mem_limit, work, a.min_time)
                    case.results[label] = r
                    if r.ok():
                        print(" %8.3f s  %6.0f MB" % (r.seconds, (r.rss_kb or 0) / 1024), file=sys.stderr)
                    else:
                        print(" %s (%s) %s" % (r.describe(), r.detail, r.message), file=sys.stderr)
                        if r.status in ("timeout", "memory"):
                            given_up[(shape, label)] = "%s at %d lines" % (r.describe(), size)
                        elif label.startswith("simplec"):
                            problems.append("%s %d lines: %s: %s (%s)" % (shape, lines, label, r.message, r.detail))
                check_outputs(case, simplec, work, problems)
                print("        check: %s" % case.check, file=sys.stderr)
    finally:
        elapsed = time.time() - t_start
        if tmp:
            tmp.cleanup()
    meta = {
        "command": "python3 bench/compile_speed.py" + "".join(" " + x for x in sys.argv[1:]),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "elapsed": elapsed,
        "repeats": a.repeats, "min_time": a.min_time, "max_repeats": MAX_REPEATS,
        "rss_note": rss_note, "timeout": a.timeout, "mem_limit": a.mem_limit,
        "simplec": os.path.relpath(simplec, ROOT) if simplec.startswith(ROOT + os.sep) else simplec,
        "simplec_version": tool_version([simplec, "--version"]),
        "commit": commit,
        "gcc_version": tool_version(["gcc", "--version"]), "cpus": os.cpu_count() or 0, "cpu_model": cpu_model(),
        "load": " ".join("%.1f" % x for x in os.getloadavg()), "labels": labels, "shapes": shapes,
        "problems": problems, "missing": [] if shutil.which("tcc") else ["tcc"], "notes": [],
    }
    if a.out:
        with open(os.path.join(work, "results.json"), "w") as f:
            json.dump({"meta": meta, "cases": [c.to_json() for c in cases]}, f, indent=1)
    print(render(meta, cases))
    if problems:
        print("compile_speed: PROBLEMS:\n  " + "\n  ".join(problems), file=sys.stderr)
    if not a.no_write:
        write_docs(meta, cases, a.docs)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
