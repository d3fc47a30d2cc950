/* Float to text for sys.io.p, in the format of Python's repr(): the shortest
 * decimal that reads back as the same value (same f32 for f32), fixed
 * notation for exponents in [-4, 16), otherwise "1.5e+16"/"1e-05".
 * Invariant: for finite v, strtod (strtof) of the result equals v exactly.
 * Uses snprintf/strtod, so it is not async-signal-safe (never needed there). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rt_internal.h"

/* A decimal m * 10^(e - digits + 1): `digits` significant digits in m, the
 * first of which has weight 10^e. */
typedef struct {
  uint64_t m;
  int digits;
  int e;
} Decimal;

static uint64_t pow10u(int n) {
  uint64_t r = 1;
  while (n-- > 0) r *= 10;
  return r;
}

static int readsBack(Decimal d, double v, int isF32) {
  char buf[48];
  snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)d.m, d.e - d.digits + 1);
  if (isF32) return strtof(buf, NULL) == (float)v;
  return strtod(buf, NULL) == v;
}

/* The shortest decimal that reads back as v (v finite and > 0); among equally
 * short ones the nearest, as repr() does. The correctly rounded p-digit value
 * is tried first; if it misses (possible where the rounding interval is
 * lopsided, at powers of two) only its two p-digit neighbours can hit. */
static Decimal shortest(double v, int isF32) {
  int maxDigits = isF32 ? 9 : 17;
  Decimal d = {0, 1, 0};
  for (int p = 1; p <= maxDigits; p++) {
    char buf[48];
    snprintf(buf, sizeof buf, "%.*e", p - 1, v);
    /* buf is "D.DDDDe+XX" (or "De+XX" when p == 1). */
    uint64_t m = 0;
    const char* s = buf;
    for (; *s != 'e' && *s != '\0'; s++)
      if (*s >= '0' && *s <= '9') m = m * 10 + (uint64_t)(*s - '0');
    int e = *s == 'e' ? atoi(s + 1) : 0;
    d.m = m;
    d.digits = p;
    d.e = e;
    if (readsBack(d, v, isF32) || p == maxDigits) return d;
    Decimal up = d, down = d;
    up.m = m + 1;
    if (up.m == pow10u(p)) {
      up.m = pow10u(p - 1);
      up.e++;
    }
    down.m = m - 1;
    if (down.m < pow10u(p - 1)) {
      down.m = pow10u(p) - 1;
      down.e--;
    }
    if (readsBack(up, v, isF32)) return up;
    if (down.m != 0 && readsBack(down, v, isF32)) return down;
  }
  return d;
}

static size_t formatFloat(double v, int isF32, char out[40]) {
  size_t n = 0;
  if (isnan(v)) {
    memcpy(out, "nan", 3);
    return 3;
  }
  if (signbit(v)) out[n++] = '-';
  if (isinf(v)) {
    memcpy(out + n, "inf", 3);
    return n + 3;
  }
  if (v == 0) {
    memcpy(out + n, "0.0", 3);
    return n + 3;
  }
  Decimal d = shortest(fabs(v), isF32);
  char digits[24];
  int nd = 0;
  for (uint64_t m = d.m; m != 0; m /= 10) digits[nd++] = (char)('0' + m % 10);
  /* digits[] is reversed; drop trailing zeros of the significand. */
  int lo = 0;
  while (lo < nd - 1 && digits[lo] == '0') lo++;
  char sig[24] = {0};
  int ns = 0;
  for (int i = nd - 1; i >= lo; i--) sig[ns++] = digits[i];
  int e = d.e;
  if (e >= -4 && e < 16) {
    if (e >= 0) {
      for (int i = 0; i <= e; i++) out[n++] = i < ns ? sig[i] : '0';
      out[n++] = '.';
      if (ns > e + 1) {
        for (int i = e + 1; i < ns; i++) out[n++] = sig[i];
      } else {
        out[n++] = '0';
      }
    } else {
      out[n++] = '0';
      out[n++] = '.';
      for (int i = 0; i < -e - 1; i++) out[n++] = '0';
      for (int i = 0; i < ns; i++) out[n++] = sig[i];
    }
    return n;
  }
  out[n++] = sig[0];
  if (ns > 1) {
    out[n++] = '.';
    for (int i = 1; i < ns; i++) out[n++] = sig[i];
  }
  out[n++] = 'e';
  out[n++] = e < 0 ? '-' : '+';
  int ae = e < 0 ? -e : e;
  if (ae < 10) out[n++] = '0';
  char tmp[24];
  size_t k = __simplec_format_i64(ae, tmp);
  memcpy(out + n, tmp, k);
  return n + k;
}

size_t __simplec_format_f64(double v, char out[40]) { return formatFloat(v, 0, out); }

size_t __simplec_format_f32(float v, char out[40]) { return formatFloat((double)v, 1, out); }

/* Matches son/float_fold.cpp (the compiler's constant folding and evaluator). */
static double roundToInteger(double a, int up) {
  if (!(fabs(a) < 4503599627370496.0)) return a; /* 2^52 */
  double t = (double)(int64_t)a;                  /* toward zero */
  if (!up && t > a) t -= 1.0;
  if (up && t < a) t += 1.0;
  return copysign(t, a);
}

double __simplec_floor(double v) { return roundToInteger(v, 0); }

double __simplec_ceil(double v) { return roundToInteger(v, 1); }
