#!/usr/bin/env python3
"""Differential test of loop counters, their products and their tests.

Generates small programs whose loops step a counter i, add products i * k
(k a constant, a parameter or a value known only as a range), compare i
with a limit (<, <=, from either side, with &&) and compare the limit, the
counter or products of it again in the body, with breaks and continues.
Those are the loops strength reduction and linear-function test
replacement rewrite (opt/strength_reduce.h). Each program must print the
same at -O0, at -O2 and in the graph evaluator at -O2. The generator found
a miscompile of an early test replacement (the limit, narrowed in the loop
by the counter, compared again: 6 of the first 40 programs).

    loop_tests_differential.py --simplec PATH [--seed S] [--count N]
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile


def program(seed):
    r = random.Random(seed)
    funs = []
    for fi in range(4):
        k = r.choice(["7", "3", "11", "(m % 9 + 1)", "(m % 5 + 2)", "m", "-3", "(n % 4)"])
        lim = r.choice(["n % 500", "m", "n % 100 + 3", "40", "n", "(m + 7) % 300", "m % 1000"])
        init = r.choice(["0", "1", "-20", "n % 7"])
        test = r.choice(["i < q", "i <= q", "q > i", "q >= i", "i < q && t < 1000000000"])
        step = r.choice(["i++", "i += 2", "i += 3"])
        extras = [r.choice(["if (q < 30) t += 5;", "if (i < 17) t += 3;", "if (q > i) t ^= 1;",
                            "t += i;", "if (i * 2 > q) t -= 1;", "if (q < 50) t += 100;", "u = i;",
                            "if (t > 100000) break;", "if (i == 13) continue;", "t += i * " + k + ";"])
                  for _ in range(r.randint(0, 2))]
        funs.append(f"val f{fi} = {{ int n, int m -> int t = 0; int u = 0; int q = {lim};\n"
                    f"    for (int i = {init}; {test}; {step}) {{ t = t + i * {k}; {' '.join(extras)} }}\n"
                    f"    return t * 31 + u; }};")
    lines = ["val main = { int arg ->"]
    for a in [0, 1, 37, 450, 999, 12345, -77]:
        calls = [f"sys.io.p(f{fi}({a} + arg, {a * 3 + 1} - arg));" for fi in range(4)]
        lines.append("    " + ' sys.io.p(" "); '.join(calls) + ' sys.io.p("\\n");')
    lines.append("    return 0;\n};")
    return "\n".join(funs) + "\n" + "\n".join(lines) + "\n"


def run(argv, timeout=60):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--simplec", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=24)
    o = ap.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "loops.smp")
        for seed in range(o.seed, o.seed + o.count):
            with open(src, "w") as f:
                f.write(program(seed))
            outs = {}
            for level in ["-O0", "-O2"]:
                binary = os.path.join(d, "prog" + level)
                rc, _, err = run([o.simplec, level, "-w", src, "-o", binary])
                if rc != 0:
                    outs[level] = "compile failed: " + err
                    continue
                rc, out, err = run([binary])
                outs[level] = f"{rc}\n{out}{err}"
            rc, out, err = run([o.simplec, "-O2", "--interpret", src])
            outs["--interpret -O2"] = f"{rc}\n{out}{err}"
            if len(set(outs.values())) != 1:
                failures += 1
                print(f"seed {seed}: the runs differ")
                for level, out in outs.items():
                    print(f"  {level}: {out[:300]!r}")
    print(f"loop_tests_differential: {o.count} programs from seed {o.seed}, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
