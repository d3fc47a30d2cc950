/* Call chains of runtime errors: the frames from where an error was raised
 * up to main, found by walking frame pointers (every simplec function and
 * the runtime keep rbp chains) and looking each return address up in the
 * call-site table the compiler emits (codegen/x86_64/call_table.h). Frames
 * without an entry (C code, the runtime itself) are skipped.
 * Everything here is async-signal-safe and allocates nothing. */
#ifndef SIMPLEC_RT_TRACE_H
#define SIMPLEC_RT_TRACE_H
#include <stddef.h>
#include <stdint.h>

/* At most this many frame lines are printed; the rest are counted in one
 * "  ... N more frames" line (son/call_chain.h says the same). */
enum { kTraceHead = 50 };

typedef struct {
  const char* fun;
  const char* file;
  int64_t line, col;
} TraceFrame;

/* The first source frame above frame pointer `fp` (the caller of the
 * function owning `fp`); returns 0 when there is none. */
int __simplec_trace_first(void* fp, TraceFrame* out);

/* Calls emit(frame, ctx) for each source frame above `fp`, innermost first,
 * up to main, at most kTraceHead times; returns the number of frames not
 * printed. */
size_t __simplec_trace_each(void* fp, void (*emit)(const TraceFrame*, void*), void* ctx);
#endif
