/* Tests for the C runtime (runtime/simplec_rt.h), linked with it like a
 * compiled Simple program. The binary re-executes itself (/proc/self/exe)
 * with a scenario name; the parent captures the child's stdout, stderr and
 * exit status and compares them with what the runtime promises (exact text,
 * status 101 for runtime errors, stack overflow caught, order preserved). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/rt_internal.h"
#include "runtime/simplec_rt.h"

extern char** environ;

/* ---- child side: each scenario prints through the runtime ---- */

static void printC(const char* s) { __simplec_print_str((const uint8_t*)s, (int64_t)strlen(s)); }

static void childPrint(void) {
  const int64_t ints[] = {0, 1, -1, 42, -1234567890123LL, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    __simplec_print_i64(ints[i]);
    printC("\n");
  }
  const int64_t bools[] = {0, 1, 2, -1, INT64_MIN};
  for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++) {
    __simplec_print_bool(bools[i]);
    printC(" ");
  }
  printC("\n");
  __simplec_print_str((const uint8_t*)"abc\0def", 7); /* embedded NUL */
  __simplec_print_str((const uint8_t*)"zzz", 0);
  __simplec_print_str((const uint8_t*)"zzz", -5);
  __simplec_print_str(NULL, 3);
  printC("|\n");
}

/* Expected texts are Python's repr() of the same values. */
static void childFloat(void) {
  const double d[] = {0.0, -0.0, 1.0, 3.0, 0.1, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 1.5, 100.0,
                      1e15, 1e16, 1e22, 1e23, 1e-4, 1e-5, 1.2345e-7, -2.5e300, 123456789.125,
                      9007199254740993.0, 5e-324, DBL_MIN, DBL_MAX, 7.120236347223045e-307,
                      INFINITY, -INFINITY, NAN};
  for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
    __simplec_print_f64(d[i]);
    printC("\n");
  }
  const float f[] = {0.1f, 1.0f / 3, 16777216.0f, FLT_MAX, 1e-45f, 0.2f, 1e10f, FLT_MIN, -0.0f, 2.5f};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    __simplec_print_f32(f[i]);
    printC("\n");
  }
}

/* More than the 64 KiB buffer, in small pieces and as one big string. */
static void childBig(void) {
  for (int64_t i = 0; i < 100000; i++) {
    __simplec_print_i64(i);
    printC("\n");
  }
  size_t n = 300000;
  uint8_t* big = malloc(n);
  if (big == NULL) return;
  for (size_t i = 0; i < n; i++) big[i] = (uint8_t)('a' + i % 26);
  __simplec_print_str(big, (int64_t)n);
  free(big);
}

static void childOrder(void) {
  printC("a");
  __simplec_flush();
  if (write(1, "b", 1) != 1) return;
  printC("c");
  __simplec_flush();
  __simplec_flush(); /* flushing an empty buffer is harmless */
  if (write(1, "d", 1) != 1) return;
  printC("e\n");
}

static void childError(const char* kindText) {
  printC("before\n"); /* must be flushed before the message */
  int64_t kind = strtoll(kindText, NULL, 10);
  const char* file = kind == 7 ? NULL : "dir/prog.smp";
  __simplec_rt_error(kind, file, 12, 34, kind == 1 ? -3 : INT64_MIN, 7);
}

static void childArgs(void) {
  __simplec_print_i64(__simplec_argc);
  for (int64_t i = 0; i < __simplec_argc; i++) {
    printC("|");
    printC(__simplec_argv[i]);
  }
  printC(__simplec_argv[__simplec_argc] == NULL ? "|end\n" : "|bad\n");
}

static void childAlloc(const char* what) {
  if (strcmp(what, "ok") == 0) {
    for (int64_t size = 0; size < 5000; size += 37) {
      uint8_t* p = __simplec_alloc(size, "a.smp", 1, 1);
      int zero = 1;
      for (int64_t i = 0; i < size; i++) zero &= p[i] == 0;
      if (!zero || ((uintptr_t)p & 15) != 0) printC("bad block\n");
      if (size > 0) memset(p, 0xff, (size_t)size);
    }
    /* Arrays of 8 or more 8-byte elements: the elements 16-byte aligned
     * (movupd of two never straddles a cache line), the length word before. */
    for (int64_t len = 0; len < 40; len += 3) {
      int64_t* a = __simplec_new_array(len, 8, "a.smp", 1, 1);
      int zero = 1;
      for (int64_t i = 1; i <= len; i++) zero &= a[i] == 0;
      if (a[0] != len || !zero || (len >= 8 && ((uintptr_t)(a + 1) & 15) != 0)) printC("bad array\n");
      for (int64_t i = 1; i <= len; i++) a[i] = -1;
    }
    /* Small blocks over more than one of the allocator's 1 MiB blocks, and
     * sizes on both sides of those that get a mapping of their own: each
     * zeroed, aligned, and apart from the others (a value written into
     * each is read back after all are made). */
    enum { kSmall = 100000 };
    static uint8_t* small[kSmall];
    for (int i = 0; i < kSmall; i++) {
      small[i] = __simplec_alloc(24, "a.smp", 1, 1);
      if (((uintptr_t)small[i] & 15) != 0 || small[i][0] != 0 || small[i][23] != 0) printC("bad small block\n");
      memset(small[i], i & 0xff, 24);
    }
    for (int i = 0; i < kSmall; i++)
      if (small[i][0] != (i & 0xff) || small[i][23] != (i & 0xff)) printC("small blocks overlap\n");
    for (int64_t size = 200000; size < 1200000; size += 99991) {
      uint8_t* p = __simplec_alloc(size, "a.smp", 1, 1);
      int zero = 1;
      for (int64_t i = 0; i < size; i += 4093) zero &= p[i] == 0;
      if (!zero || p[size - 1] != 0 || ((uintptr_t)p & 15) != 0) printC("bad large block\n");
      memset(p, 0xff, (size_t)size);
    }
    printC("ok\n");
    return;
  }
  int64_t bytes = strcmp(what, "negative") == 0 ? -1 : INT64_MAX / 2;
  __simplec_alloc(bytes, "b.smp", 5, 6);
  printC("not reached\n");
}

static volatile int64_t sink;

/* Recursion the compiler cannot turn into a loop: the volatile frame data is
 * used after the call returns. `limit` is never reached in practice. */
__attribute__((noinline)) static int64_t recurse(int64_t n, int64_t limit, int print) {
  volatile char pad[64];
  pad[0] = (char)n;
  if (print) __simplec_print_i64(n & 1);
  if (n == limit) return 0;
  return recurse(n + 1, limit, print) + pad[0];
}

static void childStack(int print) {
  /* Keep the test fast and bounded even under `ulimit -s unlimited`. */
  struct rlimit rl = {8u << 20, 8u << 20};
  setrlimit(RLIMIT_STACK, &rl);
  printC("start\n");
  sink = recurse(0, INT64_MAX, print);
  printC("not reached\n");
}

/* A fault far from the stack is not a stack overflow: default SIGSEGV. */
static void childBadPointer(void) {
  printC("x");
  volatile char* page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return;
  page[8] = 1;
}

static void childExit(void) {
  printC("flushed by exit\n");
  exit(3);
}

/* The sys library's C part: write_ary clamps its length and keeps order
 * with buffered output; args is argv as arrays, made once. */
static void childSys(void) {
  printC("a");
  int64_t* ary = __simplec_new_array(5, 1, "f.smp", 1, 1);
  memcpy(ary + 1, "bcdef", 5);
  int64_t n[5] = {__simplec_write_ary(1, ary, 3), __simplec_write_ary(1, ary, 99), __simplec_write_ary(1, ary, -1),
                  __simplec_write_ary(1, NULL, 3), __simplec_write_ary(-1, ary, 2)};
  for (int i = 0; i < 5; i++) {
    printC("|");
    __simplec_print_i64(n[i]);
  }
  printC("\n");
  int64_t* args = __simplec_args();
  __simplec_print_i64(args[0]);
  for (int64_t i = 0; i < args[0]; i++) {
    const int64_t* a = (const int64_t*)(intptr_t)args[1 + i];
    printC("|");
    __simplec_print_str((const uint8_t*)(a + 1), a[0]);
  }
  printC(__simplec_args() == args ? "\nsame\n" : "\ndifferent\n");
}

/* Which of a mapping's pages are present, as a string of '1' and '0'. */
static void printResident(const char* base, int pages) {
  unsigned char vec[64];
  char text[66];
  if (pages > 64 || mincore((void*)base, (size_t)pages * 4096, vec) != 0) {
    printC("mincore failed\n");
    return;
  }
  for (int i = 0; i < pages; i++) text[i] = (vec[i] & 1) ? '1' : '0';
  text[pages] = '\n';
  text[pages + 1] = 0;
  printC(text);
}

/* Large copies prefault their destination's whole pages, and only those;
 * the bytes end up as memmove puts them, overlapping ranges included. */
static void childCopy(void) {
  char* m = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return;
  /* Kernels before 5.14 have no MADV_POPULATE_WRITE (the probe makes the
   * last page present where it exists). */
  if (madvise(m + 15 * 4096, 4096, 23) != 0) {
    printC("no populate\n");
  } else {
    __simplec_prefault(m + 100, 9 * 4096);
    printResident(m, 16);
  }
  int64_t len = 3 << 18;
  int64_t* a = __simplec_new_array(len, 1, "c.smp", 1, 1);
  int64_t* b = __simplec_new_array(len + 5, 1, "c.smp", 1, 1);
  uint8_t* ab = (uint8_t*)(a + 1);
  for (int64_t i = 0; i < len; i++) ab[i] = (uint8_t)(i * 7 + i / 251);
  __simplec_copy_bytes(b, 5, a, 0, len);
  int same = 1;
  for (int64_t i = 0; i < len; i++) same &= ((uint8_t*)(b + 1))[5 + i] == ab[i];
  printC(same ? "copied\n" : "bad copy\n");
  /* Overlapping, forwards then backwards. */
  __simplec_copy_bytes(a, 3, a, 0, len - 3);
  same = 1;
  for (int64_t i = 3; i < len; i++) same &= ab[i] == ((uint8_t*)(b + 1))[5 + i - 3];
  __simplec_copy_bytes(a, 0, a, 3, len - 3);
  for (int64_t i = 0; i < len - 3; i++) same &= ab[i] == ((uint8_t*)(b + 1))[5 + i];
  printC(same ? "overlaps\n" : "bad overlap\n");
}

static int runChild(int argc, char** argv) {
  const char* mode = argv[1];
  if (strcmp(mode, "print") == 0) childPrint();
  else if (strcmp(mode, "float") == 0) childFloat();
  else if (strcmp(mode, "big") == 0) childBig();
  else if (strcmp(mode, "order") == 0) childOrder();
  else if (strcmp(mode, "error") == 0 && argc > 2) childError(argv[2]);
  else if (strcmp(mode, "args") == 0) childArgs();
  else if (strcmp(mode, "alloc") == 0 && argc > 2) childAlloc(argv[2]);
  else if (strcmp(mode, "stack") == 0) childStack(0);
  else if (strcmp(mode, "stackprint") == 0) childStack(1);
  else if (strcmp(mode, "badptr") == 0) childBadPointer();
  else if (strcmp(mode, "raise") == 0) raise(SIGSEGV);
  else if (strcmp(mode, "exit") == 0) childExit();
  else if (strcmp(mode, "sys") == 0) childSys();
  else if (strcmp(mode, "copy") == 0) childCopy();
  else return 64;
  return 0;
}

/* ---- parent side ---- */

typedef struct {
  char* out;
  size_t outLen;
  char* err;
  size_t errLen;
  int status;
} Result;

static int failures, checks;

static void appendTo(char** buf, size_t* len, const char* p, size_t n) {
  char* nb = realloc(*buf, *len + n + 1);
  if (nb == NULL) abort();
  memcpy(nb + *len, p, n);
  *len += n;
  nb[*len] = '\0';
  *buf = nb;
}

/* Runs this binary as `name MODE [ARG...]` (argv[0] is `name`). */
static Result run(char* const* childArgv) {
  Result r = {calloc(1, 1), 0, calloc(1, 1), 0, -1};
  int outPipe[2], errPipe[2];
  if (pipe2(outPipe, O_CLOEXEC) != 0 || pipe2(errPipe, O_CLOEXEC) != 0) abort();
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, outPipe[1], 1);
  posix_spawn_file_actions_adddup2(&fa, errPipe[1], 2);
  pid_t pid;
  if (posix_spawn(&pid, "/proc/self/exe", &fa, NULL, childArgv, environ) != 0) abort();
  posix_spawn_file_actions_destroy(&fa);
  close(outPipe[1]);
  close(errPipe[1]);
  struct pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
  int open = 2;
  time_t deadline = time(NULL) + 60;
  while (open > 0) {
    if (poll(fds, 2, 1000) < 0 && errno != EINTR) break;
    if (time(NULL) > deadline) {
      kill(pid, SIGKILL);
      break;
    }
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[65536];
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        if (i == 0) appendTo(&r.out, &r.outLen, buf, (size_t)n);
        else appendTo(&r.err, &r.errLen, buf, (size_t)n);
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        open--;
      }
    }
  }
  for (int i = 0; i < 2; i++)
    if (fds[i].fd >= 0) close(fds[i].fd);
  while (waitpid(pid, &r.status, 0) < 0 && errno == EINTR) {
  }
  return r;
}

static void freeResult(Result* r) {
  free(r->out);
  free(r->err);
}

static void check(int ok, const char* what, const Result* r) {
  checks++;
  if (ok) return;
  failures++;
  fprintf(stderr, "FAIL: %s\n  status=%#x\n  stdout(%zu)=[%.400s]\n  stderr(%zu)=[%.400s]\n", what,
          r->status, r->outLen, r->out, r->errLen, r->err);
}

static int exitedWith(const Result* r, int code) {
  return WIFEXITED(r->status) && WEXITSTATUS(r->status) == code;
}

static int outIs(const Result* r, const char* s) {
  return r->outLen == strlen(s) && memcmp(r->out, s, r->outLen) == 0;
}

static int errIs(const Result* r, const char* s) { return strcmp(r->err, s) == 0; }

static void testPrint(void) {
  Result r = run((char* const[]){"rtchild", "print", NULL});
  static const char want[] =
      "0\n1\n-1\n42\n-1234567890123\n9223372036854775807\n-9223372036854775808\n"
      "false true true true true \nabc\0def|\n";
  check(exitedWith(&r, 0) && r.outLen == sizeof want - 1 && memcmp(r.out, want, r.outLen) == 0 &&
            r.errLen == 0,
        "print: integers, INT64_MIN, bools, strings", &r);
  freeResult(&r);
}

static void testFloat(void) {
  Result r = run((char* const[]){"rtchild", "float", NULL});
  check(exitedWith(&r, 0) &&
            outIs(&r,
                  "0.0\n-0.0\n1.0\n3.0\n0.1\n0.30000000000000004\n0.3333333333333333\n"
                  "0.6666666666666666\n1.5\n100.0\n1000000000000000.0\n1e+16\n1e+22\n1e+23\n"
                  "0.0001\n1e-05\n1.2345e-07\n-2.5e+300\n123456789.125\n9007199254740992.0\n"
                  "5e-324\n2.2250738585072014e-308\n1.7976931348623157e+308\n"
                  "7.120236347223045e-307\ninf\n-inf\nnan\n"
                  "0.1\n0.33333334\n16777216.0\n3.4028235e+38\n1e-45\n0.2\n10000000000.0\n"
                  "1.1754944e-38\n-0.0\n2.5\n"),
        "float: shortest round-trip text, Python repr format", &r);
  freeResult(&r);
}

static void testBig(void) {
  Result r = run((char* const[]){"rtchild", "big", NULL});
  int ok = exitedWith(&r, 0);
  size_t pos = 0;
  char line[32];
  for (int64_t i = 0; ok && i < 100000; i++) {
    int n = snprintf(line, sizeof line, "%lld\n", (long long)i);
    ok = pos + (size_t)n <= r.outLen && memcmp(r.out + pos, line, (size_t)n) == 0;
    pos += (size_t)n;
  }
  ok = ok && r.outLen == pos + 300000;
  for (size_t i = 0; ok && i < 300000; i++) ok = r.out[pos + i] == (char)('a' + i % 26);
  check(ok, "big: output larger than the buffer arrives complete and in order", &r);
  freeResult(&r);
}

static void testOrder(void) {
  Result r = run((char* const[]){"rtchild", "order", NULL});
  check(exitedWith(&r, 0) && outIs(&r, "abcde\n"), "order: __simplec_flush before write(1)", &r);
  freeResult(&r);
}

static void testErrors(void) {
  static const struct {
    const char* kind;
    const char* message;
  } cases[] = {
      {"0", "dir/prog.smp:12:34: runtime error: division by zero\n"},
      {"1", "dir/prog.smp:12:34: runtime error: index -3 out of bounds for length 7\n"},
      {"2", "dir/prog.smp:12:34: runtime error: negative array size -9223372036854775808\n"},
      {"3", "dir/prog.smp:12:34: runtime error: out of memory\n"},
      {"4", "dir/prog.smp:12:34: runtime error: stack overflow\n"},
      {"99", "dir/prog.smp:12:34: runtime error: unknown error 99\n"},
      {"7", "rtchild:12:34: runtime error: unknown error 7\n"}, /* NULL file */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    Result r = run((char* const[]){"rtchild", "error", (char*)cases[i].kind, NULL});
    char what[64];
    snprintf(what, sizeof what, "error kind %s: message and exit 101", cases[i].kind);
    check(exitedWith(&r, 101) && outIs(&r, "before\n") && errIs(&r, cases[i].message), what, &r);
    freeResult(&r);
  }
}

static void testArgs(void) {
  Result r = run((char* const[]){"rtchild", "args", "x", "", "y z", NULL});
  check(exitedWith(&r, 0) && outIs(&r, "5|rtchild|args|x||y z|end\n"), "args: argc/argv captured",
        &r);
  freeResult(&r);
}

static void testAlloc(void) {
  Result r = run((char* const[]){"rtchild", "alloc", "ok", NULL});
  check(exitedWith(&r, 0) && outIs(&r, "ok\n"), "alloc: zeroed, aligned blocks", &r);
  freeResult(&r);
  const char* modes[] = {"negative", "huge"};
  for (int i = 0; i < 2; i++) {
    r = run((char* const[]){"rtchild", "alloc", (char*)modes[i], NULL});
    check(exitedWith(&r, 101) && outIs(&r, "") && errIs(&r, "b.smp:5:6: runtime error: out of memory\n"),
          modes[i], &r);
    freeResult(&r);
  }
}

static void testStack(void) {
  Result r = run((char* const[]){"rtchild", "stack", NULL});
  check(exitedWith(&r, 101) && outIs(&r, "start\n") &&
            errIs(&r, "rtchild: runtime error: stack overflow\n"),
        "stack overflow: message, buffered output kept, exit 101", &r);
  freeResult(&r);

  /* Overflowing while printing at every level: what was printed before the
   * fault comes out intact ("0101..."), nothing is duplicated. */
  r = run((char* const[]){"rtchild", "stackprint", NULL});
  int ok = exitedWith(&r, 101) && r.outLen > 6 + 10000 && memcmp(r.out, "start\n", 6) == 0 &&
           errIs(&r, "rtchild: runtime error: stack overflow\n");
  for (size_t i = 6; ok && i < r.outLen; i++) ok = r.out[i] == (char)('0' + (i - 6) % 2);
  check(ok, "stack overflow inside print: output consistent", &r);
  freeResult(&r);
}

static void testOtherFaults(void) {
  Result r = run((char* const[]){"rtchild", "badptr", NULL});
  check(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGSEGV && r.errLen == 0,
        "fault far from the stack: default SIGSEGV, no message", &r);
  freeResult(&r);
  r = run((char* const[]){"rtchild", "raise", NULL});
  check(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGSEGV && r.errLen == 0,
        "raise(SIGSEGV): default action", &r);
  freeResult(&r);
}

static void testExit(void) {
  Result r = run((char* const[]){"rtchild", "exit", NULL});
  check(exitedWith(&r, 3) && outIs(&r, "flushed by exit\n"), "exit(3) flushes the buffer", &r);
  freeResult(&r);
}

static void testSys(void) {
  Result r = run((char* const[]){"rtchild", "sys", "x y", "", NULL});
  check(exitedWith(&r, 0) && outIs(&r, "abcdbcdef|3|5|0|0|-1\n4|rtchild|sys|x y|\nsame\n"),
        "sys: write_ary clamps and keeps order; args as arrays", &r);
  freeResult(&r);
}

static void testCopy(void) {
  Result r = run((char* const[]){"rtchild", "copy", NULL});
  /* Pages 1-8 lie wholly inside [100, 100 + 9 pages); 15 is the probe's. */
  check(exitedWith(&r, 0) && (outIs(&r, "0111111110000001\ncopied\noverlaps\n") ||
                              outIs(&r, "no populate\ncopied\noverlaps\n")),
        "copy: a large copy prefaults the destination's whole pages only; overlaps kept", &r);
  freeResult(&r);
}

int main(int argc, char** argv) {
  if (argc > 1) return runChild(argc, argv);
  testPrint();
  testFloat();
  testBig();
  testOrder();
  testErrors();
  testArgs();
  testAlloc();
  testStack();
  testOtherFaults();
  testExit();
  testSys();
  testCopy();
  printf("runtime_test: %d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
