/* Buffered standard output for sys.io.p, written with write(2) directly.
 * We keep our own buffer instead of stdio so that the stack-overflow signal
 * handler can write it out with async-signal-safe calls only.
 * Invariant: outBuf[outStart, outLen) holds bytes accepted but not yet
 * written; outLen grows only after the bytes it covers are stored, so a
 * signal arriving at any point sees a consistent (possibly shorter) buffer. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runtime/rt_internal.h"
#include "runtime/simplec_rt.h"

enum { kOutCap = 1 << 16 };

static char outBuf[kOutCap];
static volatile size_t outStart; /* first byte not yet written */
static volatile size_t outLen;   /* end of buffered bytes */

/* Writes all of [p, p+n) to fd, retrying partial writes and EINTR. Gives up
 * silently on any other error (a closed pipe must not hang the program). */
void __simplec_write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (w == 0) return;
    p += (size_t)w;
    n -= (size_t)w;
  }
}

void __simplec_flush_own(void) {
  /* Advance outStart after each chunk so that a signal handler flushing in
   * the middle of this loop does not write the same bytes twice. */
  while (outStart < outLen) {
    size_t start = outStart;
    ssize_t w = write(1, outBuf + start, outLen - start);
    if (w < 0) {
      if (errno == EINTR) continue;
      break; /* unwritable stdout: drop the buffer */
    }
    if (w == 0) break;
    outStart = start + (size_t)w;
  }
  atomic_signal_fence(memory_order_seq_cst);
  outLen = 0;
  atomic_signal_fence(memory_order_seq_cst);
  outStart = 0;
}

/* What C code printed through stdio since our last flush came before what
 * sys.io.p buffered since then (C is only called right after a flush). */
void __simplec_flush(void) {
  fflush(stdout);
  __simplec_flush_own();
}

/* 1 when stdout is a terminal: output is then written line by line, as
 * stdio does, so a person watching sees each line when it is printed. */
static int lineBuffered = -1;

static void append(const char* p, size_t n) {
  if (n > kOutCap - outLen) __simplec_flush();
  if (n >= kOutCap) {
    __simplec_write_all(1, p, n);
    return;
  }
  memcpy(outBuf + outLen, p, n);
  atomic_signal_fence(memory_order_release);
  outLen = outLen + n;
  if (lineBuffered < 0) {
    int saved = errno; /* isatty sets ENOTTY; the program may be reading errno */
    lineBuffered = isatty(1);
    errno = saved;
  }
  if (lineBuffered && memchr(p, '\n', n) != NULL) __simplec_flush();
}

/* Formats v in decimal into the end of buf[0, 24); returns the start. */
static char* formatI64(int64_t v, char* end) {
  /* Negate in unsigned arithmetic: well defined even for INT64_MIN. */
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  char* p = end;
  do {
    *--p = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (v < 0) *--p = '-';
  return p;
}

size_t __simplec_format_i64(int64_t v, char out[24]) {
  char tmp[24];
  char* start = formatI64(v, tmp + sizeof tmp);
  size_t n = (size_t)(tmp + sizeof tmp - start);
  memcpy(out, start, n);
  return n;
}

void __simplec_print_i64(int64_t v) {
  char tmp[24];
  char* start = formatI64(v, tmp + sizeof tmp);
  append(start, (size_t)(tmp + sizeof tmp - start));
}

void __simplec_print_bool(int64_t v) {
  if (v != 0)
    append("true", 4);
  else
    append("false", 5);
}

void __simplec_print_str(const uint8_t* p, int64_t len) {
  if (p == NULL || len <= 0) return;
  append((const char*)p, (size_t)len);
}

void __simplec_print_ary(const int64_t* ary) {
  if (ary == NULL) {
    append("null", 4);
    return;
  }
  if (ary[0] > 0) append((const char*)(ary + 1), (size_t)ary[0]);
}

void __simplec_print_f64(double v) {
  char tmp[40];
  size_t n = __simplec_format_f64(v, tmp);
  append(tmp, n);
}

void __simplec_print_f32(float v) {
  char tmp[40];
  size_t n = __simplec_format_f32(v, tmp);
  append(tmp, n);
}

/* An f32 as compiled code holds it: widened to a double. */
void __simplec_print_f32d(double v) { __simplec_print_f32((float)v); }

/* Runs when main returns or exit() is called; _exit bypasses it, which is
 * why __simplec_rt_error flushes explicitly. */
__attribute__((destructor)) static void flushAtExit(void) { __simplec_flush(); }
