/* Runtime set-up and runtime errors: an ELF constructor captures argc/argv and
 * puts a SIGSEGV handler on an alternate stack that reports a fault next to
 * the stack pointer as "FILE:LINE:COL: runtime error: stack overflow", the
 * position of the function whose stack probe faulted (codegen's stack table;
 * "PROGRAM: ..." when the fault is elsewhere, e.g. in linked C code) and the
 * call chain from the call that did not fit; both it and __simplec_rt_error
 * flush buffered stdout first and exit with status 101.
 * Invariant: the signal handler only reaches async-signal-safe calls. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "runtime/rt_internal.h"
#include "runtime/rt_trace.h"
#include "runtime/simplec_rt.h"

enum { kRuntimeErrorStatus = 101, kAltStackSize = 1 << 16, kStackSlack = 1 << 16 };

int64_t __simplec_argc;
char** __simplec_argv;

static _Alignas(16) char altStack[kAltStackSize];

/* A tiny line builder over a fixed buffer; spills to fd 2 when full, so a
 * message of any length is written, in as few write calls as possible. */
typedef struct {
  char buf[512];
  size_t len;
} ErrLine;

static void errFlush(ErrLine* l) {
  __simplec_write_all(2, l->buf, l->len);
  l->len = 0;
}

static void errStr(ErrLine* l, const char* s) {
  if (s == NULL) s = "(null)";
  for (; *s != '\0'; s++) {
    if (l->len == sizeof l->buf) errFlush(l);
    l->buf[l->len++] = *s;
  }
}

static void errI64(ErrLine* l, int64_t v) {
  char tmp[24];
  size_t n = __simplec_format_i64(v, tmp);
  tmp[n] = '\0';
  errStr(l, tmp);
}

static const char* programName(void) {
  if (__simplec_argv != NULL && __simplec_argc > 0 && __simplec_argv[0] != NULL)
    return __simplec_argv[0];
  return "program";
}

/* True if the fault at `addr` is within kStackSlack of the stack pointer the
 * faulting instruction ran with: a push or call just below it, or a store
 * into a frame that was just allocated. */
static int nearStackPointer(const siginfo_t* info, void* ctx) {
#if defined(__x86_64__) && defined(REG_RSP)
  const ucontext_t* uc = (const ucontext_t*)ctx;
  uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
  uintptr_t addr = (uintptr_t)info->si_addr;
  uintptr_t lo = sp > kStackSlack ? sp - kStackSlack : 0;
  return addr >= lo && addr <= sp + kStackSlack;
#else
  (void)info;
  (void)ctx;
  return 1; /* compiled code makes no other kind of fault */
#endif
}

/* The stack table the compiler emits (codegen/x86_64/stack_table.h), gathered
 * by the linker; weak, so a program without entries still links. */
typedef struct {
  int32_t function, file, line, col; /* the function's stack probe and file, relative to their field */
} StackEntry;
extern const StackEntry __start_simplec_stack[] __attribute__((weak, visibility("hidden")));
extern const StackEntry __stop_simplec_stack[] __attribute__((weak, visibility("hidden")));

/* The entry of the function whose stack probe (its prologue's first
 * instruction) is at `pc`, or NULL. */
static const StackEntry* stackEntryAt(const void* ctx) {
#if defined(__x86_64__) && defined(REG_RIP)
  uintptr_t pc = (uintptr_t)((const ucontext_t*)ctx)->uc_mcontext.gregs[REG_RIP];
  for (const StackEntry* e = __start_simplec_stack; e != NULL && e < __stop_simplec_stack; e++)
    if ((uintptr_t)&e->function + (uintptr_t)(intptr_t)e->function == pc) return e;
#else
  (void)ctx;
#endif
  return NULL;
}

static void traceLine(const TraceFrame* f, void* ctx) {
  ErrLine* l = (ErrLine*)ctx;
  errStr(l, "  at ");
  errStr(l, f->fun);
  errStr(l, " (");
  errStr(l, f->file);
  errStr(l, ":");
  errI64(l, f->line);
  errStr(l, ":");
  errI64(l, f->col);
  errStr(l, ")\n");
}

/* The call chain above frame record `fp`, one line a frame, the frames past
 * kTraceHead counted in one line. */
static void errTrace(ErrLine* l, void* fp) {
  size_t more = __simplec_trace_each(fp, traceLine, l);
  if (more != 0) {
    errStr(l, "  ... ");
    errI64(l, (int64_t)more);
    errStr(l, " more frames\n");
  }
}

static void onSegv(int sig, siginfo_t* info, void* ctx) {
  if (info == NULL || info->si_code <= 0 || !nearStackPointer(info, ctx)) {
    /* Not ours (a bad pointer in linked C code, or kill -SEGV): let the
     * default action happen, as if we had never installed a handler. A
     * hardware fault re-executes the instruction; a sent signal is re-raised
     * and delivered once we return and unblock it. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (info == NULL || info->si_code <= 0) raise(sig);
    return;
  }
  __simplec_flush_own();
  ErrLine l;
  l.len = 0;
  const StackEntry* e = stackEntryAt(ctx);
  if (e != NULL) {
    errStr(&l, (const char*)&e->file + e->file);
    errStr(&l, ":");
    errI64(&l, e->line);
    errStr(&l, ":");
    errI64(&l, e->col);
  } else {
    errStr(&l, programName());
  }
  errStr(&l, ": runtime error: stack overflow\n");
#if defined(__x86_64__) && defined(REG_RBP)
  if (e != NULL) {
    /* The probe faulted before the function pushed rbp: its return address
     * is at rsp, and rbp is still its caller's. A frame record of the two
     * starts the chain at the call that did not fit. */
    const ucontext_t* uc = (const ucontext_t*)ctx;
    uintptr_t frame[2] = {(uintptr_t)uc->uc_mcontext.gregs[REG_RBP],
                          *(const uintptr_t*)uc->uc_mcontext.gregs[REG_RSP]};
    errTrace(&l, frame);
  }
#endif
  errFlush(&l);
  _exit(kRuntimeErrorStatus);
}

/* SIGINT, SIGTERM: what sys.io.p buffered is written, then the signal
 * takes its default action (the exit status still says which signal). */
static void onStop(int sig) {
  __simplec_flush_own();
  signal(sig, SIG_DFL);
  raise(sig);
}

/* Installs onStop for `sig` unless the signal is ignored (nohup, `&` in a
 * non-interactive shell): an ignored signal stays ignored. */
static void flushOnSignal(int sig) {
  struct sigaction old;
  if (sigaction(sig, NULL, &old) != 0 || old.sa_handler == SIG_IGN) return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = onStop;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
}

/* glibc calls .init_array entries with (argc, argv, envp). Priority 101 is the
 * first one not reserved for the implementation, so user C constructors
 * already see the handler and sys.args. */
__attribute__((constructor(101))) static void simplecInit(int argc, char** argv, char** envp) {
  (void)envp;
  __simplec_argc = argc;
  __simplec_argv = argv;
  flushOnSignal(SIGINT);
  flushOnSignal(SIGTERM);

  stack_t ss;
  memset(&ss, 0, sizeof ss);
  ss.ss_sp = altStack;
  ss.ss_size = sizeof altStack;
  ss.ss_flags = 0;
  if (sigaltstack(&ss, NULL) != 0) return; /* no alt stack: keep default SIGSEGV */

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = onSegv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, NULL);
}


/* The documented breakpoint for runtime errors (`break simplec_runtime_error`
 * in gdb): called after the message is printed, before the process exits,
 * with the whole call chain still on the stack. */
__attribute__((noinline)) void simplec_runtime_error(int64_t kind) {
  (void)kind;
  __asm__ volatile("" ::: "memory"); /* keeps the call */
}

/* A debugger is tracing us (TracerPid in /proc/self/status is not 0). */
static int debuggerAttached(void) {
  char buf[1024];
  int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  const char* t = strstr(buf, "TracerPid:");
  if (t == NULL) return 0;
  t += strlen("TracerPid:");
  while (*t == ' ' || *t == '\t') t++;
  return *t != '\0' && *t != '0';
}

/* Under a debugger, stop where the error happened; with SIMPLEC_TRAP=1,
 * abort() (a core dump, if enabled). Otherwise the caller exits with 101. */
static inline __attribute__((always_inline)) void stopForDebugging(void) {
  const char* trap = getenv("SIMPLEC_TRAP");
  if (trap != NULL && strcmp(trap, "1") == 0) abort();
#if defined(__x86_64__)
  if (debuggerAttached()) __asm__ volatile("int3"); /* SIGTRAP; `continue` exits with 101 */
#endif
}

_Noreturn void __simplec_rt_error(int64_t kind, const char* file, int64_t line, int64_t col,
                                  int64_t a, int64_t b) {
  __simplec_flush();
  fflush(NULL); /* output of linked C code, which _exit would drop */
  ErrLine l;
  l.len = 0;
  void* fp = __builtin_frame_address(0);
  /* Line 0: raised inside the sys library, reported at the user's call. */
  TraceFrame first;
  if (line == 0 && __simplec_trace_first(fp, &first)) {
    file = first.file;
    line = first.line;
    col = first.col;
  }
  errStr(&l, file != NULL ? file : programName());
  errStr(&l, ":");
  errI64(&l, line);
  errStr(&l, ":");
  errI64(&l, col);
  errStr(&l, ": runtime error: ");
  switch (kind) {
    case SIMPLEC_ERR_DIV_ZERO:
      errStr(&l, "division by zero");
      break;
    case SIMPLEC_ERR_BOUNDS:
      errStr(&l, "index ");
      errI64(&l, a);
      errStr(&l, " out of bounds for length ");
      errI64(&l, b);
      break;
    case SIMPLEC_ERR_NEG_SIZE:
      errStr(&l, "negative array size ");
      errI64(&l, a);
      break;
    case SIMPLEC_ERR_OOM:
      errStr(&l, "out of memory");
      break;
    case SIMPLEC_ERR_STACK:
      errStr(&l, "stack overflow");
      break;
    case SIMPLEC_ERR_NULL_RESULT:
      errStr(&l, "a C function declared to return a non-null reference returned null");
      break;
    default:
      errStr(&l, "unknown error ");
      errI64(&l, kind);
      break;
  }
  errStr(&l, "\n");
  errTrace(&l, fp);
  errFlush(&l);
  simplec_runtime_error(kind);
  stopForDebugging();
  _exit(kRuntimeErrorStatus);
}

/* Objects are never freed (a program cannot, and the runtime does not
 * collect), so they come from big zeroed blocks by bumping a pointer: no
 * per-object header, size class or lock (calloc's bookkeeping was a third
 * of an allocation-heavy program's time). Large objects get a mapping of
 * their own. Per thread, for C code that calls into Simple from several. */
enum { kArenaBlock = 1 << 20, kOwnMapping = 1 << 18 };
static _Thread_local char* arenaNext;
static _Thread_local char* arenaEnd;

/* Plain pages, as glibc's malloc takes them. Advising huge pages for big
 * objects (MADV_HUGEPAGE) was tried and dropped: it won when a program ran
 * again and again on its own, but among other programs, as bench/run.py and
 * real use run it, fresh 2 MiB pages cost the kernel far more to clear on
 * this VM (hash 0.98 -> 1.85x gcc, strbuild 1.26 -> 2.09x). */
static void* mapZeroed(size_t bytes) {
  void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

void* __simplec_alloc(int64_t bytes, const char* file, int64_t line, int64_t col) {
  if (bytes < 0 || (uint64_t)bytes > (uint64_t)SIZE_MAX - 16)
    __simplec_rt_error(SIMPLEC_ERR_OOM, file, line, col, bytes, 0);
  /* 16-byte aligned (as malloc's max_align_t) and zeroed; a zero-byte
   * request still gets a unique non-null address. */
  size_t n = ((size_t)bytes + 15) & ~(size_t)15;
  if (n == 0) n = 16;
  void* p;
  if (n >= kOwnMapping) {
    p = mapZeroed(n);
  } else {
    if (arenaNext == NULL || (size_t)(arenaEnd - arenaNext) < n) {
      char* block = mapZeroed(kArenaBlock);
      if (block == NULL) __simplec_rt_error(SIMPLEC_ERR_OOM, file, line, col, bytes, 0);
      arenaNext = block;
      arenaEnd = block + kArenaBlock;
    }
    p = arenaNext;
    arenaNext += n;
  }
  if (p == NULL) __simplec_rt_error(SIMPLEC_ERR_OOM, file, line, col, bytes, 0);
  return p;
}

void* __simplec_new_array(int64_t len, int64_t elemSize, const char* file, int64_t line, int64_t col) {
  if (len < 0) __simplec_rt_error(SIMPLEC_ERR_NEG_SIZE, file, line, col, len, 0);
  /* The header and the elements must fit: a wrapped size would hand out a
   * short block for a long array. */
  if (elemSize <= 0 || (uint64_t)len > ((uint64_t)INT64_MAX - 16) / (uint64_t)elemSize)
    __simplec_rt_error(SIMPLEC_ERR_OOM, file, line, col, len, 0);
  /* Arrays of 8 or more 8-byte elements start them 16-byte aligned (the
   * length word 8 bytes below): two of them, as a vectorized loop moves
   * them (movupd), never straddle a cache line. Memory is never freed, so
   * the 8 bytes before the length word are simply unused. Small objects
   * (structs are arrays of their fields) keep their malloc size class. */
  int64_t pad = elemSize == 8 && len >= 8 ? 8 : 0;
  int64_t* p = (int64_t*)((char*)__simplec_alloc(pad + 8 + len * elemSize, file, line, col) + pad);
  p[0] = len;
  return p;
}
