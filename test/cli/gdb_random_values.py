#!/usr/bin/env python3
"""-g never shows a wrong value (docs/debugging.md), checked on random
programs: each is a function whose four int variables are assigned again and
again in ifs and loops (with breaks), calling a probe function that is never
inlined; sometimes the variables are printed after a call, which keeps them
alive. This script runs the same statements itself, so it knows every
variable's value at every call. gdb stops in the probe at each call, goes up
and prints the variables: at -O0 and -O2 each must be that value or
<optimized out>.

Usage: gdb_random_values.py --simplec PATH [--seed N] [--count N]
Exit status 1 on any wrong value or failure; prints how many values were
shown and how many were <optimized out>."""
import argparse, os, random, re, shutil, subprocess, sys, tempfile

def wrap(x):
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >> 63 else x

def gen(rng):
    vars_ = ["a", "b", "c", "d"]
    site = [0]
    def expr():
        v = rng.choice(vars_); w = rng.choice(vars_); k = rng.randint(-5, 9)
        return rng.choice([("add", v, k), ("m3", v, w), ("var", w), ("k", k), ("xor", v, w), ("and", v, w)])
    def stmts(depth, n):
        out = []
        for _ in range(n):
            r = rng.random()
            if r < 0.35:
                out.append(("set", rng.choice(vars_), expr()))
            elif r < 0.55:
                site[0] += 1
                out.append(("probe", site[0], rng.random() < 0.4))
            elif r < 0.7 and depth < 3:
                out.append(("if", rng.choice(vars_), rng.randint(-3, 20), stmts(depth + 1, rng.randint(1, 3)),
                            stmts(depth + 1, rng.randint(1, 3)) if rng.random() < 0.5 else None))
            elif r < 0.85 and depth < 3:
                brk = (rng.choice(vars_), rng.randint(0, 30)) if rng.random() < 0.3 else None
                out.append(("for", depth, rng.randint(1, 4), rng.choice(vars_), rng.choice(vars_),
                            stmts(depth + 1, rng.randint(1, 3)), brk))
            else:
                out.append(("inc", rng.choice(vars_), rng.randint(1, 5)))
        return out
    inits = [rng.randint(0, 9) for _ in vars_]
    body = stmts(0, rng.randint(4, 9))
    site[0] += 1
    body.append(("probe", site[0], False))
    return vars_, inits, body

def esrc(e):
    t = e[0]
    if t == "add": return f"{e[1]} + {e[2]}"
    if t == "m3": return f"{e[1]} * 3 - {e[2]}"
    if t == "var": return e[1]
    if t == "k": return str(e[1])
    if t == "xor": return f"{e[1]} ^ {e[2]}"
    return f"({e[1]} & 15) + {e[2]}"

def eval_e(e, env):
    t = e[0]
    if t == "add": return wrap(env[e[1]] + e[2])
    if t == "m3": return wrap(env[e[1]] * 3 - env[e[2]])
    if t == "var": return env[e[1]]
    if t == "k": return e[1]
    if t == "xor": return wrap(env[e[1]] ^ env[e[2]])
    return wrap((env[e[1]] & 15) + env[e[2]])

def source(vars_, inits, body):
    lines = ["val probe = { int s ->", "    if (s > 1000000) return probe(s - 1);", "    return s;", "};",
             "val work = { int seed ->", "    if (seed > 1000000) return work(seed - 1);"]
    for v, k in zip(vars_, inits):
        lines.append(f"    int {v} = seed + {k};")
    def emit(ss, ind):
        for st in ss:
            t = st[0]
            if t == "set": lines.append(ind + f"{st[1]} = {esrc(st[2])};")
            elif t == "inc": lines.append(ind + f"{st[1]} += {st[2]};")
            elif t == "probe":
                lines.append(ind + f"probe({st[1]});")
                if st[2]:  # keep the variables alive past this call
                    lines.append(ind + "".join(f"sys.io.p({v}); " for v in vars_) + 'sys.io.p("\\n");')
            elif t == "if":
                lines.append(ind + f"if ({st[1]} > {st[2]}) {{")
                emit(st[3], ind + "    ")
                if st[4] is not None:
                    lines.append(ind + "} else {")
                    emit(st[4], ind + "    ")
                lines.append(ind + "}")
            elif t == "for":
                i = f"i{st[1]}"
                lines.append(ind + f"for (int {i} = 0; {i} < {st[2]}; {i}++) {{")
                lines.append(ind + f"    {st[3]} = {st[4]} + {i};")
                emit(st[5], ind + "    ")
                if st[6]: lines.append(ind + f"    if ({st[6][0]} > {st[6][1]}) break;")
                lines.append(ind + "}")
    emit(body, "    ")
    lines += ["    return a + b + c + d;", "};", 'sys.io.p(work(arg)); sys.io.p("\\n");', "return 0;"]
    return "\n".join(lines) + "\n"

class Brk(Exception): pass

def simulate(vars_, inits, body, seed):
    env = {v: seed + k for v, k in zip(vars_, inits)}
    hits = []
    def run(ss):
        for st in ss:
            t = st[0]
            if t == "set": env[st[1]] = eval_e(st[2], env)
            elif t == "inc": env[st[1]] = wrap(env[st[1]] + st[2])
            elif t == "probe": hits.append([str(env[v]) for v in vars_])
            elif t == "if":
                if env[st[1]] > st[2]: run(st[3])
                elif st[4] is not None: run(st[4])
            elif t == "for":
                for i in range(st[2]):
                    env[st[3]] = wrap(env[st[4]] + i)
                    run(st[5])
                    if st[6] and env[st[6][0]] > st[6][1]: break
    run(body)
    return hits

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--simplec", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=12)
    opts = ap.parse_args()
    SIMPLEC, SEED, COUNT = opts.simplec, opts.seed, opts.count
    bad = 0
    checked = shown = 0
    work = tempfile.mkdtemp()
    for n in range(COUNT):
        rng = random.Random(SEED + n)
        vars_, inits, body = gen(rng)
        src = source(vars_, inits, body)
        truth = simulate(vars_, inits, body, 1)  # `arg` is 1 when the program gets no arguments
        path = os.path.join(work, f"p{n}.smp")
        open(path, "w").write(src)
        for O in ["-O0", "-O2"]:
            exe = os.path.join(work, f"p{n}{O}")
            r = subprocess.run([SIMPLEC, O, "-g", "-w", path, "-o", exe], capture_output=True, text=True)
            if r.returncode != 0:
                print("compile failed", n, O, r.stderr[:300]); bad += 1; continue
            cmds = ["set pagination off", "set confirm off", "break probe", "run"]
            for _ in truth:
                cmds += ["up"] + [f"print {v}" for v in vars_] + ["continue"]
            args = ["gdb", "-nx", "-batch"]
            for c in cmds:
                args += ["-ex", c]
            g = subprocess.run(args + [exe], capture_output=True, text=True, timeout=120).stdout
            vals = re.findall(r"^\$\d+ = (.*)$", g, re.M)
            if len(vals) != len(truth) * len(vars_):
                print(f"p{n} {O}: {len(vals)} values for {len(truth)} hits"); bad += 1; continue
            for h, row in enumerate(truth):
                for k, v in enumerate(vars_):
                    got = vals[h * len(vars_) + k]
                    checked += 1
                    if got == "<optimized out>":
                        continue
                    shown += 1
                    if got != row[k]:
                        bad += 1
                        print(f"WRONG p{n} {O} hit {h + 1} {v}: gdb {got}, source {row[k]}  ({path})")
    if bad:
        print(f"programs kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    print(f"gdb_random_values: {COUNT} programs, {checked} values checked, {shown} shown, "
          f"{checked - shown} <optimized out>, {bad} problems")
    sys.exit(1 if bad else 0)

main()
