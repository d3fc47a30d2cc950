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

/* Writes out everything buffered by the print functions. Compiled code should
 * call it before calling an external C function that may write to fd 1 (or
 * exit without running atexit handlers, like _exit), so that standard output
 * keeps program order. Cheap when nothing is buffered. */
void __simplec_flush(void);

/* Prints "FILE:LINE:COL: runtime error: WHAT" to stderr after flushing
 * stdout, then exits with status 101. */
_Noreturn void __simplec_rt_error(int64_t kind, const char* file, int64_t line,
                                  int64_t col, int64_t a, int64_t b);

/* Returns `bytes` zero-filled bytes, 16-byte aligned, never freed; on failure
 * (or negative `bytes`) reports SIMPLEC_ERR_OOM at FILE:LINE:COL. */
void* __simplec_alloc(int64_t bytes, const char* file, int64_t line, int64_t col);

/* A zero-filled array of `len` elements of `elemSize` bytes: an 8-byte
 * length header, then the elements. A negative `len` reports
 * SIMPLEC_ERR_NEG_SIZE, a size that does not fit SIMPLEC_ERR_OOM. */
void* __simplec_new_array(int64_t len, int64_t elemSize, const char* file, int64_t line, int64_t col);

/* Prints the bytes of a u8 array (header, then bytes), or "null". */
void __simplec_print_ary(const int64_t* ary);

/* The process's argc/argv, captured by an ELF constructor before main runs
 * (for sys.args). argv[argc] is NULL. */
extern int64_t __simplec_argc;
extern char** __simplec_argv;
#endif
