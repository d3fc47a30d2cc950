/* The C part of the sys library (the rest is Simple, runtime/sys.smp):
 * standard input as an array, the program's arguments as arrays, and
 * writing a byte array to a file descriptor in program order with what
 * sys.io.p buffered. Arrays are made by __simplec_new_array (length word,
 * then the elements) and never freed. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/rt_internal.h"
#include "runtime/simplec_rt.h"

/* Where an allocation failure inside the library is reported. */
static const char kWhere[] = "sys";

void* __simplec_stdin(void) {
  size_t cap = 1 << 16, len = 0;
  char* tmp = malloc(cap);
  if (tmp == NULL) __simplec_rt_error(SIMPLEC_ERR_OOM, kWhere, 0, 0, 0, 0);
  for (;;) {
    if (len == cap) {
      char* bigger = cap > SIZE_MAX / 2 ? NULL : realloc(tmp, cap * 2);
      if (bigger == NULL) __simplec_rt_error(SIMPLEC_ERR_OOM, kWhere, 0, 0, 0, 0);
      tmp = bigger;
      cap *= 2;
    }
    ssize_t n = read(0, tmp + len, cap - len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break; /* end of input, or an error: what was read so far */
    len += (size_t)n;
  }
  int64_t* ary = __simplec_new_array((int64_t)len, 1, kWhere, 0, 0);
  if (len) memcpy(ary + 1, tmp, len);
  free(tmp);
  return ary;
}

void* __simplec_args(void) {
  static int64_t* args;
  if (args != NULL) return args;
  int64_t n = __simplec_argv != NULL && __simplec_argc > 0 ? __simplec_argc : 0;
  args = __simplec_new_array(n, 8, kWhere, 0, 0);
  for (int64_t i = 0; i < n; i++) {
    const char* s = __simplec_argv[i] != NULL ? __simplec_argv[i] : "";
    int64_t len = (int64_t)strlen(s);
    int64_t* a = __simplec_new_array(len, 1, kWhere, 0, 0);
    memcpy(a + 1, s, (size_t)len);
    args[1 + i] = (int64_t)(intptr_t)a;
  }
  return args;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

void __simplec_prefault(void* p, size_t n) {
  uintptr_t page = 4096, lo = ((uintptr_t)p + page - 1) & ~(page - 1), hi = ((uintptr_t)p + n) & ~(page - 1);
  if (hi > lo) (void)madvise((void*)lo, hi - lo, MADV_POPULATE_WRITE);
}

/* Copies of 256 KiB and more prefault their destination: a growing buffer
 * (sys.aryu8's doubling) copies into an array just mapped, and the faults
 * one page at a time cost more than the copy (strbuild: 95 -> 89 ms). */
enum { kPrefaultCopy = 1 << 18 };

int64_t __simplec_copy_bytes(int64_t* dst, int64_t doff, const int64_t* src, int64_t soff, int64_t len) {
  char* to = (char*)(dst + 1) + doff;
  if (len >= kPrefaultCopy) __simplec_prefault(to, (size_t)len);
  memmove(to, (const char*)(src + 1) + soff, (size_t)len);
  return 0;
}

int64_t __simplec_write_ary(int64_t fd, const int64_t* ary, int64_t len) {
  if (ary == NULL) return 0;
  if (len > ary[0]) len = ary[0];
  if (len <= 0) return 0;
  __simplec_flush();
  const char* p = (const char*)(ary + 1);
  int64_t done = 0;
  while (done < len) {
    ssize_t n = write((int)fd, p + done, (size_t)(len - done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return done ? done : -1;
    done += n;
  }
  return done;
}
