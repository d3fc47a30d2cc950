/* The interface between compiled Simple code and its C runtime.
 * Compiled code calls only these symbols; the runtime never calls back
 * except through `main`. No argument value makes a function here invoke UB.
 * Link with `-Wl,-u,__simplec_argv` so the ELF constructor (argv capture,
 * stack-overflow handler) is pulled in even by programs that never print. */
#ifndef SIMPLEC_RT_H
#define SIMPLEC_RT_H
#include <stdint.h>

enum SimplecErrorKind {
  SIMPLEC_ERR_DIV_ZERO = 0,   /* "division by zero" */
  SIMPLEC_ERR_BOUNDS = 1,     /* "index A out of bounds for length B" */
  SIMPLEC_ERR_NEG_SIZE = 2,   /* "negative array size A" */
  SIMPLEC_ERR_OOM = 3,        /* "out of memory" */
  SIMPLEC_ERR_STACK = 4,      /* "stack overflow" */
  SIMPLEC_ERR_NULL_RESULT = 5, /* a C function declared non-null returned NULL */
};

/* Printing for sys.io.p; output is buffered and flushed at exit and before
 * any runtime error message. */
void __simplec_print_i64(int64_t v);
void __simplec_print_bool(int64_t v);
void __simplec_print_str(const uint8_t* p, int64_t len);
/* Floats print as Python's repr does: the shortest digits that read back as
 * the same value ("3.0", "0.1", "1e+16", "inf", "nan"); f32 reads back as f32. */
void __simplec_print_f64(double v);
void __simplec_print_f32(float v);
void __simplec_print_f32d(double v);  /* v holds an f32 value widened to double */

/* sys.math.floor/ceil (SSE2 has no rounding instruction; roundsd is SSE4.1):
 * the sign of a zero result is the argument's; NaN, infinities and values
 * of magnitude 2^52 and more are returned unchanged. */
double __simplec_floor(double v);
double __simplec_ceil(double v);

/* Writes out what C code left in stdio's stdout buffer, then everything
 * buffered by the print functions. Compiled code calls it before calling an
 * external C function that may write to fd 1 (or exit without running atexit
 * handlers, like _exit), so that standard output keeps program order, C's
 * printf included. Output is also written at exit, before a runtime error,
 * when SIGINT or SIGTERM stops the program, and line by line when stdout is
 * a terminal. Cheap when nothing is buffered. */
void __simplec_flush(void);

/* Prints "FILE:LINE:COL: runtime error: WHAT" to stderr after flushing
 * stdout, then the call chain ("  at FUNCTION (FILE:LINE:COL)" per frame,
 * from the compiler's call-site table, runtime/rt_trace.h), then calls
 * simplec_runtime_error(kind) (a breakpoint symbol), raises SIGTRAP under a
 * debugger, abort()s when SIMPLEC_TRAP=1, else exits with status 101.
 * LINE 0 means "at the first frame of the call chain" (errors inside the
 * sys library, reported at the user's call). */
_Noreturn void __simplec_rt_error(int64_t kind, const char* file, int64_t line,
                                  int64_t col, int64_t a, int64_t b);

/* The breakpoint symbol of runtime errors (see __simplec_rt_error). */
void simplec_runtime_error(int64_t kind);

/* Returns `bytes` zero-filled bytes, 16-byte aligned, never freed; on failure
 * (or negative `bytes`) reports SIMPLEC_ERR_OOM at FILE:LINE:COL. */
void* __simplec_alloc(int64_t bytes, const char* file, int64_t line, int64_t col);

/* A zero-filled array of `len` elements of `elemSize` bytes: an 8-byte
 * length header, then the elements. A negative `len` reports
 * SIMPLEC_ERR_NEG_SIZE, a size that does not fit SIMPLEC_ERR_OOM. */
void* __simplec_new_array(int64_t len, int64_t elemSize, const char* file, int64_t line, int64_t col);

/* Prints the bytes of a u8 array (header, then bytes), or "null". */
void __simplec_print_ary(const int64_t* ary);

/* sys.io.stdin(): all of standard input (until end of file or an error)
 * as a new u8 array. */
void* __simplec_stdin(void);
/* sys.args: the arguments (argv[0] first) as a u8[~]?[~], made on first use. */
void* __simplec_args(void);
/* sys.ary.copy when every index is in bounds (the library checks first):
 * dst[doff, doff+len) = src[soff, soff+len); the ranges may overlap. */
int64_t __simplec_copy_bytes(int64_t* dst, int64_t doff, const int64_t* src, int64_t soff, int64_t len);
/* sys.aryu8.write: writes bytes [0, len) of a u8 array (len clamped to its
 * length) to fd, after what sys.io.p buffered; returns the count written
 * (-1 when nothing could be written). */
int64_t __simplec_write_ary(int64_t fd, const int64_t* ary, int64_t len);

/* The process's argc/argv, captured by an ELF constructor before main runs
 * (for sys.args). argv[argc] is NULL. */
extern int64_t __simplec_argc;
extern char** __simplec_argv;
#endif
