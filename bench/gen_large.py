#!/usr/bin/env python3
"""Generator of large, realistic Simple programs with line-for-line C twins.

Used by bench/compile_speed.py to measure compile speed on big inputs. Every
program prints one checksum, and its C twin prints the same one, so the
compiled programs can be checked against each other.

    python3 bench/gen_large.py SHAPE LINES OUTDIR

writes OUTDIR/SHAPE_LINES.smp and OUTDIR/SHAPE_LINES.c. LINES is the
approximate number of lines of the Simple program (the generator stops at
the first unit boundary past it). The output depends only on SHAPE and
LINES: a fixed pseudo-random generator (not Python's `random`, whose
algorithms may change between versions) is seeded from the shape's name.

Shapes:
  funcs   many functions (10-40 lines each) with structs (int and flt fields,
          initializers, constructor blocks, compound updates), int and flt
          arrays, for/while loops, if/else, calls to earlier functions, mixed
          int/flt arithmetic with int(x)/flt(i); `val main` calls them all
  script  one huge script-form main: straight-line code, ifs and loops over
          a pool of local variables and arrays
  ifs     thousands of variables, each tested by an if (script form)
  allocs  one function with thousands of allocations (structs and arrays)
          whose fields and elements are used
  calls   thousands of call sites of one small function (script form)

How the programs stay free of undefined behaviour in C, and equal in both
languages:
  * "small" integers (C `long`) always hold |v| < 2^21: every assignment is
    reduced with `% 1000003` or masked, so sums of a few products of two of
    them never overflow 64 bits;
  * hash accumulators wrap (Simple `int`, C `uint64_t`); they are only
    multiplied, added, xor-ed, shifted with `>>>` (C `>>` on unsigned) and
    masked back into small integers;
  * divisors are `1 + (x & 7)`-like or constants, indices are masked to the
    array's (power-of-two) length or taken `% a#` of a non-negative value;
  * floats stay below 4096 in magnitude (every update is a contraction or a
    bounded term), use only exactly representable constants, and are
    converted to integers as `int(x * 16.0)` (C `(long)(x * 16.0)`), which
    truncates the same way in both languages;
  * `<<` is never applied to a value that may be negative;
  * every binary operation is fully parenthesized (Simple and C give `&`,
    `|`, `^` and `&&`/`||` different precedences);
  * the programs read `arg` (argc) so that no compiler folds them away.
"""
import os
import sys
import zlib

SHAPES = ("funcs", "script", "ifs", "allocs", "calls")
M = 1000003          # reduction modulus for small integers (< 2^20)
FNV = "1099511628211"

C_PRELUDE = [
    "#include <stdio.h>",
    "#include <stdlib.h>",
    "#include <stdint.h>",
    "#include <math.h>",
    "#define LEN(a) (((long *)(a))[-1])",
    "static long *new_iarr(long n) { long *p = calloc(n + 1, sizeof(long)); p[0] = n; return p + 1; }",
    "static double *new_farr(long n) { long *p = calloc(n + 1, sizeof(long)); p[0] = n; return (double *)(p + 1); }",
]


class Rng:
    """xorshift64*: deterministic on every Python version."""

    def __init__(self, seed):
        self.x = (seed * 0x9E3779B97F4A7C15 + 0x1234567) & 0xFFFFFFFFFFFFFFFF or 1

    def next(self):
        x = self.x
        x ^= (x >> 12)
        x ^= (x << 25) & 0xFFFFFFFFFFFFFFFF
        x ^= (x >> 27)
        self.x = x
        return ((x * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF) >> 11

    def below(self, n):
        return self.next() % n

    def range(self, lo, hi):
        """An integer in [lo, hi]."""
        return lo + self.below(hi - lo + 1)

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def chance(self, p):
        return self.below(1000000) < p * 1000000


class E:
    """An expression in both languages."""
    __slots__ = ("s", "c")

    def __init__(self, s, c=None):
        self.s = s
        self.c = s if c is None else c


def bin_(op, x, y):
    return E("(%s %s %s)" % (x.s, op, y.s), "(%s %s %s)" % (x.c, op, y.c))


def lit(n):
    return E(str(n))


def red(x):
    return bin_("%", x, lit(M))


def to_int(x):
    return E("int(%s)" % x.s, "(long)(%s)" % x.c)


def to_flt(x):
    return E("flt(%s)" % x.s, "(double)(%s)" % x.c)


def hsmall(h, mask="0xFFFFF"):
    """A hash accumulator masked into a small integer."""
    return E("(%s & %s)" % (h, mask), "(long)(%s & %s)" % (h, mask))


FLT_C = ["0.5", "0.25", "0.375", "0.125", "0.625", "0.75"]


class Out:
    """The two programs, line by line."""

    def __init__(self):
        self.smp = []
        self.c = list(C_PRELUDE)
        self.ind = 0

    def emit(self, s, c=None):
        pad = "    " * self.ind
        self.smp.append(pad + s)
        self.c.append(pad + (s if c is None else c))

    def lines(self):
        return len(self.smp)


class StructDef:
    def __init__(self, name, fields):
        self.name = name
        self.fields = fields        # [(name, 'i'|'f', initializer or None)]

    def ints(self):
        return [f for f, k, _ in self.fields if k == "i"]

    def flts(self):
        return [f for f, k, _ in self.fields if k == "f"]

    def declare(self, out):
        parts_s, parts_c = [], []
        for f, k, init in self.fields:
            ts, tc = ("int", "long") if k == "i" else ("flt", "double")
            parts_s.append("%s %s%s;" % (ts, f, "" if init is None else " = " + init))
            parts_c.append("%s %s;" % (tc, f))
        out.emit("struct %s { %s };" % (self.name, " ".join(parts_s)),
                 "typedef struct %s { %s } %s;" % (self.name, " ".join(parts_c), self.name))

    def c_constructor(self):
        inits = "".join(" p->%s = %s;" % (f, init) for f, _, init in self.fields if init is not None)
        return ("static %s *new_%s(void) { %s *p = calloc(1, sizeof(%s));%s return p; }"
                % (self.name, self.name, self.name, self.name, inits))


class Ctx:
    """What a statement may read and write at a point of a function body."""

    def __init__(self, rng, out):
        self.rng = rng
        self.out = out
        self.ints = []      # readable small ints (names)
        self.ivars = []     # assignable small int locals
        self.flts = []      # readable flt names
        self.fvars = []     # assignable flt locals
        self.iarrs = []     # (name, length or None)
        self.farrs = []
        self.objs = []      # (name, StructDef)
        self.hashes = []    # wrapping accumulators
        self.loop_depth = 0
        self.nest = 0
        self.counter = 0

    def fresh(self, prefix):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def mark(self):
        return (len(self.ints), len(self.ivars), len(self.flts), len(self.fvars),
                len(self.iarrs), len(self.farrs), len(self.objs), len(self.hashes))

    def restore(self, m):
        (a, b, c, d, e, f, g, h) = m
        del self.ints[a:], self.ivars[b:], self.flts[c:], self.fvars[d:]
        del self.iarrs[e:], self.farrs[f:], self.objs[g:], self.hashes[h:]

    # ---- expressions -------------------------------------------------
    def elem_index(self, name, length, e):
        if length is not None:
            return bin_("&", e, lit(length - 1))
        return E("((%s & 0xFFFF) %% %s#)" % (e.s, name), "((%s & 0xFFFF) %% LEN(%s))" % (e.c, name))

    def int_atom(self, simple=False):
        r = self.rng
        k = r.below(100)
        if k < 45 or simple:
            if self.ints:
                return E(r.choice(self.ints))
            return lit(r.range(1, 999))
        if k < 55:
            return lit(r.range(1, 999))
        if k < 67 and self.iarrs:
            name, length = r.choice(self.iarrs)
            idx = self.elem_index(name, length, self.int_atom(True))
            return E("%s[%s]" % (name, idx.s), "%s[%s]" % (name, idx.c))
        if k < 79:
            objs = [(o, sd) for o, sd in self.objs if sd.ints()]
            if objs:
                o, sd = r.choice(objs)
                f = r.choice(sd.ints())
                return E("%s.%s" % (o, f), "%s->%s" % (o, f))
        if k < 88 and self.flts:
            return to_int(bin_("*", E(r.choice(self.flts)), E(r.choice(["16.0", "8.0", "4.0"]))))
        if k < 94 and self.hashes:
            return hsmall(r.choice(self.hashes), r.choice(["0xFFFF", "0xFFFFF", "1023"]))
        if self.ints:
            return E(r.choice(self.ints))
        return lit(r.range(1, 999))

    def other_atom(self, a):
        """An int atom whose text differs from a's (x ^ x, x - x ... are not interesting)."""
        for _ in range(4):
            b = self.int_atom()
            if b.s != a.s:
                return b
        return lit(self.rng.range(1, 999))

    def int_term(self):
        r = self.rng
        a = self.int_atom()
        k = r.below(100)
        if k < 30:
            return a
        if k < 42:
            return bin_("*", a, self.other_atom(a))
        if k < 52:
            return bin_("*", a, lit(r.range(2, 97)))
        if k < 60:
            return bin_("/", a, bin_("+", lit(1), bin_("&", self.int_atom(), lit(7))))
        if k < 66:
            return bin_("%", a, bin_("+", lit(1), bin_("&", self.int_atom(), lit(15))))
        if k < 74:
            return bin_("^", a, self.other_atom(a))
        if k < 80:
            return bin_("&", a, lit(r.choice([255, 1023, 0xFFFF, 0x7FF])))
        if k < 85:
            return bin_(">>", a, lit(r.range(1, 5)))
        if k < 89:
            return bin_("<<", bin_("&", a, lit(0xFFF)), lit(r.range(1, 6)))
        if k < 93:
            return bin_("|", a, lit(r.range(1, 63)))
        if k < 97:
            return bin_("/", a, lit(r.range(2, 9)))
        return self._ternary(self.cond(), a, self.other_atom(a))

    def _ternary(self, c, a, b):
        return E("(%s ? %s : %s)" % (c.s, a.s, b.s), "(%s ? %s : %s)" % (c.c, a.c, b.c))

    def int_expr(self):
        e = self.int_term()
        for _ in range(self.rng.below(3)):
            e = bin_(self.rng.choice(["+", "-", "+"]), e, self.int_term())
        return e

    def flt_atom(self):
        r = self.rng
        k = r.below(100)
        if k < 45 and self.flts:
            return E(r.choice(self.flts))
        if k < 55:
            return E(r.choice(["0.5", "1.5", "2.25", "0.125", "3.0", "12.5"]))
        if k < 65 and self.farrs:
            name, length = r.choice(self.farrs)
            idx = self.elem_index(name, length, self.int_atom(True))
            return E("%s[%s]" % (name, idx.s), "%s[%s]" % (name, idx.c))
        if k < 78:
            objs = [(o, sd) for o, sd in self.objs if sd.flts()]
            if objs:
                o, sd = r.choice(objs)
                f = r.choice(sd.flts())
                return E("%s.%s" % (o, f), "%s->%s" % (o, f))
        if k < 90:
            return to_flt(bin_("&", self.int_atom(), lit(1023)))
        if k < 100 and self.ints:
            return to_flt(bin_("%", E(r.choice(self.ints)), lit(4096)))
        return to_flt(bin_("&", self.int_atom(), lit(255)))

    def flt_expr(self):
        """A float expression of magnitude <= 4096 (operands are <= 4096)."""
        r = self.rng
        a, b = self.flt_atom(), self.flt_atom()
        k = r.below(100)
        if k < 35:
            c1 = r.choice(["0.5", "0.25", "0.375", "0.125"])
            c2 = r.choice(["0.5", "0.25", "0.375", "0.125"])
            return bin_("+", bin_("*", a, E(c1)), bin_("*", b, E(c2)))
        if k < 50:
            return bin_("/", a, bin_("+", E("1.0"), bin_("*", b, b)))
        if k < 60:
            sq = bin_("+", bin_("*", a, a), bin_("*", b, b))
            return bin_("*", E("sys.math.sqrt(%s)" % sq.s, "sqrt(%s)" % sq.c), E("0.5"))
        if k < 72:
            return bin_("*", bin_("-", a, b), E("0.5"))
        if k < 82:
            return bin_("+", bin_("*", a, E("0.75")), E("0.5"))
        if k < 90:
            return self._ternary(self.cond(), a, b)
        if k < 95:
            return E("sys.math.abs(%s)" % a.s, "fabs(%s)" % a.c)
        return a

    def cond(self, allow_logic=True):
        r = self.rng
        k = r.below(100)
        if allow_logic and k < 12:
            op = r.choice(["&&", "||"])
            return bin_(op, self.cond(False), self.cond(False))
        if k < 55:
            op = r.choice(["<", "<=", ">", ">=", "!=", "=="])
            lhs = self.int_atom()
            rhs = self.other_atom(lhs) if r.chance(0.5) else lit(r.range(0, 1000000))
            return bin_(op, lhs, rhs)
        if k < 75:
            return bin_("==", bin_("&", self.int_atom(), lit(r.choice([1, 3, 7]))), lit(r.range(0, 1)))
        if k < 90 and (self.flts or self.objs or self.farrs):
            return bin_(r.choice(["<", ">"]), self.flt_atom(), self.flt_atom())
        return bin_(">", self.int_atom(), lit(r.range(0, 500000)))

    # ---- statements ----------------------------------------------------
    def stmt_assign_int(self):
        if not self.ivars:
            return self.decl_int()
        v = self.rng.choice(self.ivars)
        if self.rng.chance(0.3):
            e = red(bin_(self.rng.choice(["+", "-", "^"]), E(v), self.int_term()))
        else:
            e = red(self.int_expr())
        self.out.emit("%s = %s;" % (v, e.s), "%s = %s;" % (v, e.c))

    def decl_int(self, name=None):
        name = name or self.fresh("t")
        e = red(self.int_expr())
        self.out.emit("int %s = %s;" % (name, e.s), "long %s = %s;" % (name, e.c))
        self.ints.append(name)
        self.ivars.append(name)
        return name

    def decl_flt(self, name=None):
        name = name or self.fresh("x")
        e = self.flt_expr()
        self.out.emit("flt %s = %s;" % (name, e.s), "double %s = %s;" % (name, e.c))
        self.flts.append(name)
        self.fvars.append(name)
        return name

    def stmt_assign_flt(self):
        if not self.fvars:
            return self.decl_flt()
        v = self.rng.choice(self.fvars)
        e = self.flt_expr()
        self.out.emit("%s = %s;" % (v, e.s), "%s = %s;" % (v, e.c))

    def stmt_field(self):
        r = self.rng
        if not self.objs:
            return self.stmt_assign_int()
        o, sd = r.choice(self.objs)
        names = [(f, "i") for f in sd.ints()] + [(f, "f") for f in sd.flts()]
        f, kind = r.choice(names)
        fs, fc = "%s.%s" % (o, f), "%s->%s" % (o, f)
        if kind == "i":
            k = r.below(9)
            t = self.int_term()
            if k == 0:
                s, c = "%s += %s; %s %%= %d;" % (fs, t.s, fs, M), "%s += %s; %s %%= %d;" % (fc, t.c, fc, M)
            elif k == 1:
                s, c = "%s -= %s; %s %%= %d;" % (fs, t.s, fs, M), "%s -= %s; %s %%= %d;" % (fc, t.c, fc, M)
            elif k == 2:
                s, c = "%s ^= (%s & 0xFFFF);" % (fs, t.s), "%s ^= (%s & 0xFFFF);" % (fc, t.c)
            elif k == 3:
                n = r.range(2, 9)
                s, c = "%s *= %d; %s %%= %d;" % (fs, n, fs, M), "%s *= %d; %s %%= %d;" % (fc, n, fc, M)
            elif k == 4:
                n = r.range(2, 5)
                s, c = "%s /= %d;" % (fs, n), "%s /= %d;" % (fc, n)
            elif k == 5:
                s, c = "%s >>= 1;" % fs, "%s >>= 1;" % fc
            elif k == 6:
                s, c = "%s |= (%s & 255);" % (fs, t.s), "%s |= (%s & 255);" % (fc, t.c)
            elif k == 7:
                s, c = "%s++;" % fs, "%s++;" % fc
            else:
                e = red(self.int_expr())
                s, c = "%s = %s;" % (fs, e.s), "%s = %s;" % (fc, e.c)
        else:
            k = r.below(5)
            if k == 0:
                s, c = "%s *= 0.5;" % fs, "%s *= 0.5;" % fc
            elif k == 1:
                t = self.int_atom()
                s = "%s += flt(%s & 255); %s *= 0.5;" % (fs, t.s, fs)
                c = "%s += (double)(%s & 255); %s *= 0.5;" % (fc, t.c, fc)
            elif k == 2:
                a = self.flt_atom()
                s = "%s -= %s * 0.25; %s *= 0.75;" % (fs, a.s, fs)
                c = "%s -= %s * 0.25; %s *= 0.75;" % (fc, a.c, fc)
            else:
                e = self.flt_expr()
                s, c = "%s = %s;" % (fs, e.s), "%s = %s;" % (fc, e.c)
        self.out.emit(s, c)

    def stmt_elem(self):
        r = self.rng
        if self.farrs and r.chance(0.3):
            name, length = r.choice(self.farrs)
            idx = self.elem_index(name, length, self.int_atom())
            e = self.flt_expr()
            self.out.emit("%s[%s] = %s;" % (name, idx.s, e.s), "%s[%s] = %s;" % (name, idx.c, e.c))
            return
        if not self.iarrs:
            return self.stmt_assign_int()
        name, length = r.choice(self.iarrs)
        idx = self.elem_index(name, length, self.int_atom())
        if r.chance(0.3):
            t = bin_("&", self.int_term(), lit(0xFFFF))
            self.out.emit("%s[%s] += %s; %s[%s] %%= %d;" % (name, idx.s, t.s, name, idx.s, M),
                          "%s[%s] += %s; %s[%s] %%= %d;" % (name, idx.c, t.c, name, idx.c, M))
        else:
            e = red(self.int_expr())
            self.out.emit("%s[%s] = %s;" % (name, idx.s, e.s), "%s[%s] = %s;" % (name, idx.c, e.c))

    def stmt_hash(self):
        if not self.hashes:
            return self.stmt_assign_int()
        h = self.rng.choice(self.hashes)
        k = self.rng.below(3)
        if k == 0:
            t = self.int_term()
            self.out.emit("%s = (%s * %s) ^ %s;" % (h, h, FNV, t.s), "%s = (%s * %s) ^ %s;" % (h, h, FNV, t.c))
        elif k == 1:
            n = self.rng.range(13, 33)
            self.out.emit("%s = %s ^ (%s >>> %d);" % (h, h, h, n), "%s = %s ^ (%s >> %d);" % (h, h, h, n))
        else:
            t = self.int_atom()
            self.out.emit("%s = %s + %s;" % (h, h, t.s), "%s = %s + %s;" % (h, h, t.c))

    def block(self, nstmts):
        m = self.mark()
        self.out.ind += 1
        self.nest += 1
        for _ in range(nstmts):
            self.stmt()
        self.nest -= 1
        self.out.ind -= 1
        self.restore(m)

    def stmt_if(self):
        c = self.cond()
        self.out.emit("if (%s) {" % c.s, "if (%s) {" % c.c)
        self.block(self.rng.range(1, 3))
        if self.rng.chance(0.5):
            self.out.emit("} else {")
            self.block(self.rng.range(1, 3))
        self.out.emit("}")

    def stmt_for(self):
        r = self.rng
        i = "i%d" % self.loop_depth
        arrs = [(n, l, "i") for n, l in self.iarrs] + [(n, l, "f") for n, l in self.farrs]
        if self.loop_depth == 0 and arrs and r.chance(0.7):
            name, length, kind = r.choice(arrs)
            self.out.emit("for (int %s = 0; %s < %s#; %s++) {" % (i, i, name, i),
                          "for (long %s = 0; %s < LEN(%s); %s++) {" % (i, i, name, i))
            body_elem = (name, kind)
        else:
            n = r.range(2, 12) if self.loop_depth == 0 else r.range(2, 4)
            self.out.emit("for (int %s = 0; %s < %d; %s++) {" % (i, i, n, i),
                          "for (long %s = 0; %s < %d; %s++) {" % (i, i, n, i))
            body_elem = None
        m = self.mark()
        self.out.ind += 1
        self.nest += 1
        self.loop_depth += 1
        self.ints.append(i)
        if body_elem:
            name, kind = body_elem
            if kind == "i":
                e = red(bin_("+", E("%s[%s]" % (name, i)), self.int_term()))
                self.out.emit("%s[%s] = %s;" % (name, i, e.s), "%s[%s] = %s;" % (name, i, e.c))
            else:
                e = bin_("+", bin_("*", E("%s[%s]" % (name, i)), E("0.5")),
                         bin_("*", self.flt_atom(), E("0.25")))
                self.out.emit("%s[%s] = %s;" % (name, i, e.s), "%s[%s] = %s;" % (name, i, e.c))
        if r.chance(0.15):
            c = self.cond(False)
            kw = r.choice(["break", "continue"])
            self.out.emit("if (%s) %s;" % (c.s, kw), "if (%s) %s;" % (c.c, kw))
        for _ in range(r.range(1, 3)):
            self.stmt()
        self.loop_depth -= 1
        self.nest -= 1
        self.out.ind -= 1
        self.restore(m)
        self.out.emit("}")

    def stmt_while(self):
        r = self.rng
        k = self.fresh("k")
        n = r.range(2, 9)
        self.out.emit("int %s = 0;" % k, "long %s = 0;" % k)
        self.out.emit("while (%s < %d) {" % (k, n))
        m = self.mark()
        self.out.ind += 1
        self.nest += 1
        self.loop_depth += 1
        # No `continue` in while loops: it would skip the increment.
        self.ints.append(k)
        for _ in range(r.range(1, 3)):
            self.stmt()
        self.out.emit("%s++;" % k)
        self.loop_depth -= 1
        self.nest -= 1
        self.out.ind -= 1
        self.restore(m)
        self.out.emit("}")

    def stmt_shrink(self):
        """while (t > 100) t = t / 3 + 1: a data-dependent loop that ends."""
        if not self.ivars:
            return self.stmt_assign_int()
        v = self.rng.choice(self.ivars)
        lim = self.rng.range(10, 5000)
        self.out.emit("while (%s > %d) {" % (v, lim))
        self.out.ind += 1
        self.out.emit("%s = (%s / %d) + 1;" % (v, v, self.rng.range(2, 5)))
        self.out.ind -= 1
        self.out.emit("}")

    def stmt(self):
        r = self.rng
        k = r.below(100)
        deep = self.nest >= 3
        if k < 22:
            return self.stmt_assign_int()
        if k < 32:
            return self.stmt_assign_flt()
        if k < 44:
            return self.stmt_field()
        if k < 54:
            return self.stmt_elem()
        if k < 62:
            return self.stmt_hash()
        if k < 66 and self.nest > 0:
            return self.decl_int()
        if deep:
            return self.stmt_assign_int()
        if k < 80:
            return self.stmt_if()
        if k < 88 and self.loop_depth < 2:
            return self.stmt_for()
        if k < 93 and self.loop_depth < 2:
            return self.stmt_while()
        if k < 96:
            return self.stmt_shrink()
        return self.stmt_assign_int()


def make_structs(rng, n, prefix="S"):
    structs = []
    for si in range(n):
        fields = []
        for fi in range(rng.range(2, 6)):
            kind = "i" if rng.chance(0.6) else "f"
            name = ("fi%d" if kind == "i" else "ff%d") % fi
            init = None
            if rng.chance(0.3):
                init = str(rng.range(1, 99)) if kind == "i" else rng.choice(["0.5", "1.5", "0.25", "2.0"])
            fields.append((name, kind, init))
        if not any(k == "i" for _, k, _ in fields):
            fields[0] = ("fi0", "i", None)
        structs.append(StructDef("%s%d" % (prefix, si), fields))
    return structs


def new_object(ctx, name, sd):
    """`S o = new S { f = ...; };` on one line (a C helper runs the field initializers)."""
    r = ctx.rng
    sets_s, sets_c = [], []
    done = []
    for f, kind, _ in sd.fields:
        if not r.chance(0.7):
            continue
        if kind == "i":
            if done and r.chance(0.4):
                # Inside the block the new object's fields are named bare
                # (they shadow outer names); C names them through the pointer.
                g = r.choice(done)
                e = red(bin_("+", E(g, "%s->%s" % (name, g)), ctx.int_term()))
            else:
                e = red(ctx.int_expr())
            done.append(f)
        else:
            e = ctx.flt_expr()
        sets_s.append("%s = %s;" % (f, e.s))
        sets_c.append("%s->%s = %s;" % (name, f, e.c))
    if sets_s:
        s = "%s %s = new %s { %s };" % (sd.name, name, sd.name, " ".join(sets_s))
    else:
        s = "%s %s = new %s;" % (sd.name, name, sd.name)
    c = "%s *%s = new_%s();%s" % (sd.name, name, sd.name, "".join(" " + x for x in sets_c))
    ctx.out.emit(s, c)
    ctx.objs.append((name, sd))


# ---------------------------------------------------------------------------
# Shapes


def gen_funcs(rng, target):
    out = Out()
    structs = make_structs(rng, 12)
    out.emit("// funcs: many functions with structs, arrays, loops and calls (generated by bench/gen_large.py)",
             "/* C twin of the generated Simple program (bench/gen_large.py) */")
    for sd in structs:
        sd.declare(out)
    for sd in structs:
        out.c.append(sd.c_constructor())
    funcs = []          # (name, kind, struct or None)
    kinds = ["ii", "ii", "if", "so", "ar", "fl"]
    main_reserve = 30
    while out.lines() + main_reserve + len(funcs) < target or len(funcs) < 3:
        name = "fn%d" % len(funcs)
        kind = rng.choice(kinds)
        sd = rng.choice(structs) if kind == "so" else None
        gen_function(rng, out, name, kind, sd, funcs, structs)
        funcs.append((name, kind, sd))
    # main: calls every function and folds the results into a checksum.
    out.emit("val main = { int arg ->", "int main(int argc, char **argv) {")
    out.ind += 1
    out.c.append("    long arg = argc;")
    ctx = Ctx(rng, out)
    out.emit("int seed = ((arg * 7) + 3);", "long seed = ((arg * 7) + 3);")
    out.emit("int depth = (arg + 1);", "long depth = (arg + 1);")
    out.emit("int sum = 0;", "uint64_t sum = 0;")
    ctx.ints += ["seed", "depth"]
    ctx.hashes.append("sum")
    out.emit("int[] mv = new int[16];", "long *mv = new_iarr(16);")
    out.emit("flt[] mw = new flt[8];", "double *mw = new_farr(8);")
    ctx.iarrs.append(("mv", 16))
    ctx.farrs.append(("mw", 8))
    out.emit("flt mx = 0.5;", "double mx = 0.5;")
    ctx.flts.append("mx")
    ctx.fvars.append("mx")
    for i, sd in enumerate(structs):
        new_object(ctx, "m%d" % i, sd)
    for name, kind, sd in funcs:
        args = call_args(ctx, kind, sd, "depth", {"mv": "mv"}, {sd.name: "m%d" % structs.index(sd)} if sd else {})
        call = E("%s(%s)" % (name, ", ".join(a.s for a in args)), "%s(%s)" % (name, ", ".join(a.c for a in args)))
        if kind == "fl":
            call = to_int(bin_("*", call, E("1000.0")))
        out.emit("sum = (sum * 1000003) + %s;" % call.s, "sum = (sum * 1000003) + %s;" % call.c)
        if rng.chance(0.1):
            ctx.stmt_field()
    out.emit("sys.io.p(sum);", "printf(\"%ld\\n\", (long)sum);")
    out.emit("sys.io.p(\"\\n\");", "")
    out.emit("return 0;")
    out.ind -= 1
    out.emit("};", "}")
    return out


def call_args(ctx, kind, sd, depth, arrs, objs):
    """Arguments for a call of a function of `kind`; `objs` maps struct names to objects in scope."""
    a = red(ctx.int_expr()) if ctx.rng.chance(0.5) else ctx.int_atom()
    d = E(depth)
    if kind == "ii":
        return [a, ctx.int_atom(), d]
    if kind == "if":
        return [a, ctx.flt_atom(), d]
    if kind == "so":
        return [E(objs[sd.name]), a, d]
    if kind == "ar":
        return [E(arrs["mv"] if "mv" in arrs else arrs["v"]), a, d]
    return [ctx.flt_atom(), a, d]


def gen_function(rng, out, name, kind, sd, funcs, structs):
    ctx = Ctx(rng, out)
    length = rng.range(10, 40)
    start = out.lines()
    params = {
        "ii": ("int a, int b, int d", "long a, long b, long d"),
        "if": ("int a, flt c, int d", "long a, double c, long d"),
        "so": ("%s p, int a, int d" % (sd.name if sd else ""), "%s *p, long a, long d" % (sd.name if sd else "")),
        "ar": ("int[] arr, int a, int d", "long *arr, long a, long d"),
        "fl": ("flt c, int a, int d", "double c, long a, long d"),
    }[kind]
    ret_c = "double" if kind == "fl" else "long"
    out.emit("val %s = { %s ->" % (name, params[0]), "static %s %s(%s) {" % (ret_c, name, params[1]))
    out.ind += 1
    ctx.ints += ["a"]
    ctx.ivars += ["a"]
    if kind == "ii":
        ctx.ints.append("b")
        ctx.ivars.append("b")
    if kind in ("if", "fl"):
        ctx.flts.append("c")
        ctx.fvars.append("c")
    if kind == "so":
        ctx.objs.append(("p", sd))
    if kind == "ar":
        ctx.iarrs.append(("arr", None))
    # d is read only by the calls (it bounds the depth of the call tree).
    out.emit("int h = %s;" % ("(a * 31)" if kind != "ii" else "((a * 31) + b)"),
             "uint64_t h = %s;" % ("(a * 31)" if kind != "ii" else "((a * 31) + b)"))
    ctx.hashes.append("h")
    for _ in range(rng.range(1, 3)):
        ctx.decl_int()
    ctx.decl_flt()
    objs = {}
    if kind == "so":
        objs[sd.name] = "p"
    for _ in range(rng.range(1, 2)):
        osd = rng.choice(structs)
        oname = ctx.fresh("o")
        new_object(ctx, oname, osd)
        objs.setdefault(osd.name, oname)
    vlen = rng.choice([8, 16, 32])
    out.emit("int[] v = new int[%d];" % vlen, "long *v = new_iarr(%d);" % vlen)
    ctx.iarrs.append(("v", vlen))
    if rng.chance(0.6):
        out.emit("flt[] w = new flt[8];", "double *w = new_farr(8);")
        ctx.farrs.append(("w", 8))
    # Body.
    while out.lines() - start < length - 8:
        ctx.stmt()
    # Calls to earlier functions, bounded by d.
    cands = [f for f in funcs[-60:] if f[1] != "so" or f[2].name in objs]
    if cands:
        out.emit("if (d > 0) {")
        out.ind += 1
        for _ in range(rng.range(1, 3)):
            fname, fkind, fsd = rng.choice(cands)
            args = call_args(ctx, fkind, fsd, "(d - 1)", {"v": "v"}, objs)
            call = E("%s(%s)" % (fname, ", ".join(a.s for a in args)),
                     "%s(%s)" % (fname, ", ".join(a.c for a in args)))
            if fkind == "fl":
                if ctx.fvars and rng.chance(0.5):
                    x = rng.choice(ctx.fvars)
                    e = bin_("*", call, E("0.5"))
                    out.emit("%s = %s;" % (x, e.s), "%s = %s;" % (x, e.c))
                    continue
                call = to_int(bin_("*", call, E("8.0")))
            t = rng.choice(ctx.ivars)
            e = red(bin_("+", E(t), call))
            out.emit("%s = %s;" % (t, e.s), "%s = %s;" % (t, e.c))
        out.ind -= 1
        out.emit("}")
    ctx.stmt_hash()
    if kind == "fl":
        e = ctx.flt_expr()
    else:
        e = red(bin_("^", hsmall("h"), ctx.int_term()))
    out.emit("return %s;" % e.s, "return %s;" % e.c)
    out.ind -= 1
    out.emit("};", "}")


def script_prologue(out, title):
    out.emit("// %s (generated by bench/gen_large.py)" % title,
             "/* C twin of the generated Simple program (bench/gen_large.py) */")


def script_main_open(out):
    """The C side of a script-form main (the Simple side is the top level)."""
    out.c.append("int main(int argc, char **argv) {")
    out.c.append("    long arg = argc;")


def gen_script(rng, target):
    out = Out()
    script_prologue(out, "script: one huge script-form main")
    structs = make_structs(rng, 3, "R")
    for sd in structs:
        sd.declare(out)
    for sd in structs:
        out.c.append(sd.c_constructor())
    script_main_open(out)
    out.ind = 0
    ctx = Ctx(rng, out)
    # In C the body is indented; keep Simple's top level at column 0.
    out.emit("int sum = arg;", "    uint64_t sum = arg;")
    ctx.hashes.append("sum")
    c_indent = "    "
    pool = []
    for i in range(48):
        n = "v%d" % i
        e = red(bin_("+", bin_("*", E("arg"), lit(rng.range(2, 999))), lit(rng.range(0, 99999))))
        out.emit("int %s = %s;" % (n, e.s), c_indent + "long %s = %s;" % (n, e.c))
        pool.append(n)
    ctx.ints += pool
    ctx.ivars += pool
    for i in range(8):
        n = "y%d" % i
        lit_ = rng.choice(["0.5", "1.5", "2.25", "0.125"])
        out.emit("flt %s = %s;" % (n, lit_), c_indent + "double %s = %s;" % (n, lit_))
        ctx.flts.append(n)
        ctx.fvars.append(n)
    for n, ln in (("ia", 64), ("ib", 16)):
        out.emit("int[] %s = new int[%d];" % (n, ln), c_indent + "long *%s = new_iarr(%d);" % (n, ln))
        ctx.iarrs.append((n, ln))
    out.emit("flt[] fa = new flt[32];", c_indent + "double *fa = new_farr(32);")
    ctx.farrs.append(("fa", 32))
    for i, sd in enumerate(structs):
        out_before = len(out.c)
        new_object(ctx, "r%d" % i, sd)
        out.c[out_before] = c_indent + out.c[out_before]
    # The body: the C side is indented one more level than the Simple side.
    body_start = len(out.c)
    tail = 14 + len(pool) // 4
    while out.lines() < target - tail:
        ctx.stmt()
    for i in range(body_start, len(out.c)):
        out.c[i] = c_indent + out.c[i]
    out.ind = 1
    fold_and_print(ctx, out, pool, ["ia", "ib"], ["fa"], [("r%d" % i, sd) for i, sd in enumerate(structs)],
                   script=True)
    return out


def fold_and_print(ctx, out, ints, iarrs, farrs, objs, script):
    """Folds everything into the hash `sum`, prints it, returns 0 (and closes C's main)."""
    def emit(s, c):
        if script:
            out.smp.append(s)
            out.c.append("    " + c)
        else:
            out.emit(s, c)
    for k in range(0, len(ints), 4):
        grp = ints[k:k + 4]
        emit(" ".join("sum = (sum * %s) + %s;" % (FNV, v) for v in grp),
             " ".join("sum = (sum * %s) + %s;" % (FNV, v) for v in grp))
    for a in iarrs:
        emit("for (int i = 0; i < %s#; i++) sum = (sum * 31) + %s[i];" % (a, a),
             "for (long i = 0; i < LEN(%s); i++) sum = (sum * 31) + %s[i];" % (a, a))
    for a in farrs:
        emit("for (int i = 0; i < %s#; i++) sum = (sum * 31) + int(%s[i] * 1000.0);" % (a, a),
             "for (long i = 0; i < LEN(%s); i++) sum = (sum * 31) + (long)(%s[i] * 1000.0);" % (a, a))
    for v in ctx.flts:
        emit("sum = (sum * 31) + int(%s * 1000.0);" % v, "sum = (sum * 31) + (long)(%s * 1000.0);" % v)
    for o, sd in objs:
        for f in sd.ints():
            emit("sum = (sum * 31) + %s.%s;" % (o, f), "sum = (sum * 31) + %s->%s;" % (o, f))
        for f in sd.flts():
            emit("sum = (sum * 31) + int(%s.%s * 1000.0);" % (o, f),
                 "sum = (sum * 31) + (long)(%s->%s * 1000.0);" % (o, f))
    emit("sys.io.p(sum);", "printf(\"%ld\\n\", (long)sum);")
    emit("sys.io.p(\"\\n\");", "")
    emit("return 0;", "return 0;")
    out.c.append("}")


def gen_ifs(rng, target):
    out = Out()
    script_prologue(out, "ifs: thousands of variables, each tested by an if")
    script_main_open(out)
    ci = "    "
    out.smp.append("int s = arg;")
    out.c.append(ci + "long s = arg;")
    out.smp.append("int v0 = ((arg * 7) + 3);")
    out.c.append(ci + "long v0 = ((arg * 7) + 3);")
    out.smp.append("int v1 = ((arg * 13) + 5);")
    out.c.append(ci + "long v1 = ((arg * 13) + 5);")
    n = 2
    ctx = Ctx(rng, out)
    while len(out.smp) < target - 3:
        window = ["v%d" % j for j in range(max(0, n - 8), n)]
        ctx.ints = window
        # v_n from a few recent ones.
        a, b = E(rng.choice(window)), E(rng.choice(window))
        k = rng.below(6)
        if k == 0:
            e = bin_("+", bin_("*", a, lit(rng.range(3, 97))), lit(rng.range(1, 9999)))
        elif k == 1:
            e = bin_("+", bin_("^", a, b), bin_("*", b, lit(rng.range(3, 31))))
        elif k == 2:
            e = bin_("-", bin_("*", a, b), bin_("/", a, bin_("+", lit(1), bin_("&", b, lit(7)))))
        elif k == 3:
            e = bin_("+", bin_("+", a, b), E(rng.choice(window)))
        elif k == 4:
            e = bin_("+", bin_("%", a, bin_("+", lit(1), bin_("&", b, lit(15)))), lit(rng.range(1, 99999)))
        else:
            e = bin_("+", bin_("*", bin_("&", a, lit(0xFFFF)), lit(rng.range(3, 999))), b)
        e = red(e)
        v = "v%d" % n
        out.smp.append("int %s = %s;" % (v, e.s))
        out.c.append(ci + "long %s = %s;" % (v, e.c))
        kc = rng.below(10)
        if kc < 4:
            c = bin_(">", E(v), lit(rng.range(0, 1000000)))
        elif kc < 6:
            c = bin_("==", bin_("&", E(v), lit(7)), lit(rng.range(0, 7)))
        elif kc < 8:
            c = bin_(rng.choice(["<", ">="]), E(v), E(rng.choice(window)))
        else:
            c = bin_("||", bin_("<", E(v), lit(rng.range(0, 300000))),
                     bin_(">", E(v), lit(rng.range(600000, 1000000))))
        ka = rng.below(10)
        if ka < 5:
            out.smp.append("if (%s) s = s + %s;" % (c.s, v))
            out.c.append(ci + "if (%s) s = s + %s;" % (c.c, v))
        elif ka < 8:
            out.smp.append("if (%s) { s = s + %s; } else { s = s - (%s & 255); }" % (c.s, v, v))
            out.c.append(ci + "if (%s) { s = s + %s; } else { s = s - (%s & 255); }" % (c.c, v, v))
        else:
            w = rng.choice(window)
            out.smp.append("if (%s) {" % c.s)
            out.c.append(ci + "if (%s) {" % c.c)
            out.smp.append("    s = s + (%s ^ %s);" % (v, w))
            out.c.append(ci + "    s = s + (%s ^ %s);" % (v, w))
            out.smp.append("    if (%s > %s) s = s + 1;" % (w, v))
            out.c.append(ci + "    if (%s > %s) s = s + 1;" % (w, v))
            out.smp.append("}")
            out.c.append(ci + "}")
        n += 1
    out.smp.append("sys.io.p(s);")
    out.c.append(ci + "printf(\"%ld\\n\", s);")
    out.smp.append("sys.io.p(\"\\n\");")
    out.c.append("")
    out.smp.append("return 0;")
    out.c.append(ci + "return 0;")
    out.c.append("}")
    return out


def gen_allocs(rng, target):
    out = Out()
    script_prologue(out, "allocs: one function with thousands of allocations")
    node = StructDef("Node", [("nv", "i", None), ("nw", "f", "0.5")])
    pair = StructDef("Pair", [("pa", "i", None), ("pb", "i", "7")])
    vec = StructDef("Vec", [("vx", "f", None), ("vy", "f", "1.5"), ("vn", "i", None)])
    out.emit("struct Node { int nv; flt nw = 0.5; Node? next; };",
             "typedef struct Node { long nv; double nw; struct Node *next; } Node;")
    pair.declare(out)
    vec.declare(out)
    for sd in (node, pair, vec):
        out.c.append(sd.c_constructor())
    out.emit("val build = { int seed ->", "static long build(long seed) {")
    out.ind = 1
    ctx = Ctx(rng, out)
    out.emit("int s = (seed & 0xFFFFF);", "long s = (seed & 0xFFFFF);")
    out.emit("flt fs = 0.5;", "double fs = 0.5;")
    out.emit("int u = ((seed * 7) % 1000003);", "long u = ((seed * 7) % 1000003);")
    ctx.ivars += ["s", "u"]
    ctx.flts.append("fs")
    ctx.fvars.append("fs")
    nodes, arrays = [], []
    window = 12
    tail = 16
    while out.lines() < target - tail:
        ctx.ints = ["s", "u"]
        ctx.objs = [(nm, sd) for nm, sd in ctx.objs[-window:]]
        ctx.iarrs = arrays[-4:]
        k = rng.below(100)
        if k < 35 or not nodes:
            nm = ctx.fresh("n")
            v = red(ctx.int_expr())
            w = ctx.flt_expr()
            parts_s = ["nv = %s;" % v.s, "nw = (nw * 0.5) + (%s * 0.25);" % w.s]
            parts_c = ["%s->nv = %s;" % (nm, v.c), "%s->nw = (%s->nw * 0.5) + (%s * 0.25);" % (nm, nm, w.c)]
            if nodes and rng.chance(0.85):
                prev = rng.choice(nodes[-3:])
                parts_s.append("next = %s;" % prev)
                parts_c.append("%s->next = %s;" % (nm, prev))
            out.emit("Node %s = new Node { %s };" % (nm, " ".join(parts_s)),
                     "Node *%s = new_Node(); %s" % (nm, " ".join(parts_c)))
            nodes.append(nm)
            ctx.objs.append((nm, node))
        elif k < 50:
            nm = ctx.fresh("p")
            sd = rng.choice([pair, vec])
            new_object(ctx, nm, sd)
        elif k < 62:
            nm = ctx.fresh("a")
            out.emit("int[] %s = new int[(1 + (s & 7))];" % nm, "long *%s = new_iarr((1 + (s & 7)));" % nm)
            e = red(ctx.int_expr())
            out.emit("%s[0] = %s;" % (nm, e.s), "%s[0] = %s;" % (nm, e.c))
            i = ctx.elem_index(nm, None, ctx.int_atom())
            e = red(ctx.int_expr())
            out.emit("%s[%s] = %s;" % (nm, i.s, e.s), "%s[%s] = %s;" % (nm, i.c, e.c))
            out.emit("s = ((s + %s[(%s# - 1)]) & 0xFFFFF);" % (nm, nm),
                     "s = ((s + %s[(LEN(%s) - 1)]) & 0xFFFFF);" % (nm, nm))
            arrays.append((nm, None))
        elif k < 68:
            nm = ctx.fresh("g")
            out.emit("flt[] %s = new flt[4];" % nm, "double *%s = new_farr(4);" % nm)
            e = ctx.flt_expr()
            j = rng.range(0, 3)
            out.emit("%s[%d] = %s;" % (nm, j, e.s), "%s[%d] = %s;" % (nm, j, e.c))
            out.emit("fs = (fs * 0.5) + (%s[%d] * 0.25);" % (nm, j), "fs = (fs * 0.5) + (%s[%d] * 0.25);" % (nm, j))
        elif k < 74:
            out.emit("for (int i = 0; i < %d; i++) {" % rng.range(2, 4), None)
            out.c[-1] = out.c[-1].replace("int i", "long i")
            out.ind += 1
            out.emit("Pair q = new Pair { pa = i; pb = (s & 255); };", "Pair *q = new_Pair(); q->pa = i; q->pb = (s & 255);")
            out.emit("s = ((s + (q.pa * q.pb)) & 0xFFFFF);", "s = ((s + (q->pa * q->pb)) & 0xFFFFF);")
            out.ind -= 1
            out.emit("}")
        elif k < 88:
            ctx.stmt_field()
        elif k < 96:
            v = rng.choice(["s", "u"])
            e = bin_("&", ctx.int_expr(), lit(0xFFFFF))
            out.emit("%s = %s;" % (v, e.s), "%s = %s;" % (v, e.c))
        else:
            ctx.stmt_assign_flt()
    last = nodes[-1]
    out.emit("Node? it = %s;" % last, "Node *it = %s;" % last)
    out.emit("while (it) {")
    out.emit("    s = (((s * 31) + it.nv) + int(it.nw * 16.0)) & 0xFFFFF;",
             "    s = (((s * 31) + it->nv) + (long)(it->nw * 16.0)) & 0xFFFFF;")
    out.emit("    it = it.next;", "    it = it->next;")
    out.emit("}")
    out.emit("return ((s + u) + int(fs * 16.0));", "return ((s + u) + (long)(fs * 16.0));")
    out.ind = 0
    out.emit("};", "}")
    script_main_open(out)
    out.smp.append("int r = build((arg * 12345));")
    out.c.append("    long r = build((arg * 12345));")
    out.smp.append("sys.io.p(r);")
    out.c.append("    printf(\"%ld\\n\", r);")
    out.smp.append("sys.io.p(\"\\n\");")
    out.c.append("")
    out.smp.append("return 0;")
    out.c.append("    return 0;")
    out.c.append("}")
    return out


def gen_calls(rng, target):
    out = Out()
    script_prologue(out, "calls: thousands of call sites of one small function")
    out.emit("val mix = { int a, int b ->", "static long mix(long a, long b) {")
    out.emit("    int r = (((a * 31) + (b ^ 21845)) % 1000003);", "    long r = (((a * 31) + (b ^ 21845)) % 1000003);")
    out.emit("    if (r < 0) r = (0 - r);")
    out.emit("    return r;")
    out.emit("};", "}")
    script_main_open(out)
    ci = "    "
    names = ["s%d" % i for i in range(8)]
    for i, n in enumerate(names):
        out.smp.append("int %s = ((arg * %d) + %d);" % (n, i + 3, i * 17 + 1))
        out.c.append(ci + "long %s = ((arg * %d) + %d);" % (n, i + 3, i * 17 + 1))
    while len(out.smp) < target - 8:
        a, b, c = rng.choice(names), rng.choice(names), rng.choice(names)
        k = rng.below(10)
        if k < 4:
            s = "%s = mix(%s, %s);" % (a, b, c)
            cc = s
        elif k < 6:
            s = "%s = mix(%s, %d);" % (a, b, rng.range(0, 9999))
            cc = s
        elif k < 8:
            s = "%s = ((mix(%s, %s) + mix(%s, %d)) %% 1000003);" % (a, b, c, a, rng.range(0, 99))
            cc = s
        elif k < 9:
            s = "if (%s > %s) { %s = mix(%s, (%s & 255)); } else { %s = mix(%s, %s); }" % (b, c, a, a, b, a, c, b)
            cc = s
        else:
            s = "%s = mix(mix(%s, %s), %s);" % (a, b, c, a)
            cc = s
        out.smp.append(s)
        out.c.append(ci + cc)
    out.smp.append("int sum = 0;")
    out.c.append(ci + "uint64_t sum = 0;")
    out.smp.append(" ".join("sum = (sum * 31) + %s;" % n for n in names))
    out.c.append(ci + " ".join("sum = (sum * 31) + %s;" % n for n in names))
    out.smp.append("sys.io.p(sum);")
    out.c.append(ci + "printf(\"%ld\\n\", (long)sum);")
    out.smp.append("sys.io.p(\"\\n\");")
    out.c.append("")
    out.smp.append("return 0;")
    out.c.append(ci + "return 0;")
    out.c.append("}")
    return out


GENERATORS = {"funcs": gen_funcs, "script": gen_script, "ifs": gen_ifs, "allocs": gen_allocs, "calls": gen_calls}


def generate(shape, lines):
    """Returns (simple_source, c_source) of the program of `shape` with about `lines` lines."""
    if shape not in GENERATORS:
        raise ValueError("unknown shape %r (one of %s)" % (shape, ", ".join(SHAPES)))
    rng = Rng(zlib.crc32(shape.encode()))
    out = GENERATORS[shape](rng, max(int(lines), 50))
    return "\n".join(out.smp) + "\n", "\n".join(out.c) + "\n"


def write(shape, lines, outdir):
    """Writes OUTDIR/SHAPE_LINES.smp and .c; returns their paths and the Simple line count."""
    smp, c = generate(shape, lines)
    os.makedirs(outdir, exist_ok=True)
    base = os.path.join(outdir, "%s_%d" % (shape, lines))
    with open(base + ".smp", "w") as f:
        f.write(smp)
    with open(base + ".c", "w") as f:
        f.write(c)
    return base + ".smp", base + ".c", smp.count("\n")


def main(argv):
    if len(argv) != 4 or argv[1] not in SHAPES or not argv[2].isdigit():
        sys.exit("usage: gen_large.py SHAPE LINES OUTDIR   (SHAPE: %s)" % " ".join(SHAPES))
    smp, c, n = write(argv[1], int(argv[2]), argv[3])
    print("%s (%d lines) and %s" % (smp, n, c))


if __name__ == "__main__":
    main(sys.argv)
