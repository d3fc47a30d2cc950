/* See rt_trace.h. The table is read in place: entries of one object are in
 * address order, and the objects usually are too, so a binary search is used
 * when the whole table is sorted (checked per error), a linear scan if not. */
#define _GNU_SOURCE
#include "runtime/rt_trace.h"

typedef struct {
  int32_t ret, record; /* relative to their own field */
} CallEntry;
extern const CallEntry __start_simplec_calls[] __attribute__((weak, visibility("hidden")));
extern const CallEntry __stop_simplec_calls[] __attribute__((weak, visibility("hidden")));

/* The stack's top (glibc): frame pointers above it are not ours. */
extern void* __libc_stack_end;

static uintptr_t retOf(const CallEntry* e) { return (uintptr_t)&e->ret + (uintptr_t)(intptr_t)e->ret; }

static const int32_t* recordOf(const CallEntry* e) {
  return (const int32_t*)((uintptr_t)&e->record + (uintptr_t)(intptr_t)e->record);
}

static int tableSorted(void) {
  for (const CallEntry* e = __start_simplec_calls; e != NULL && e + 1 < __stop_simplec_calls; e++)
    if (retOf(e) >= retOf(e + 1)) return 0;
  return 1;
}

static const int32_t* lookup(uintptr_t ret, int sorted) {
  const CallEntry* lo = __start_simplec_calls;
  const CallEntry* hi = __stop_simplec_calls;
  if (lo == NULL || hi == NULL || lo >= hi) return NULL;
  if (!sorted) {
    for (const CallEntry* e = lo; e < hi; e++)
      if (retOf(e) == ret) return recordOf(e);
    return NULL;
  }
  while (lo < hi) {
    const CallEntry* mid = lo + (hi - lo) / 2;
    uintptr_t r = retOf(mid);
    if (r == ret) return recordOf(mid);
    if (r < ret) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

static const char* relString(const int32_t* field) { return (const char*)((uintptr_t)field + (uintptr_t)(intptr_t)*field); }

static void frameAt(const int32_t* record, uint32_t i, TraceFrame* out) {
  const int32_t* f = record + 1 + 4 * i;
  out->fun = relString(f);
  out->file = relString(f + 1);
  out->line = f[2];
  out->col = f[3];
}

/* Walks the rbp chain from `fp`: calls visit(record) for each return address
 * with a table entry until visit returns 0, a frame of main was seen, or
 * the chain leaves the stack. */
static void walk(void* fp, int (*visit)(const int32_t*, void*), void* ctx) {
  int sorted = tableSorted();
  uintptr_t top = (uintptr_t)__libc_stack_end;
  uintptr_t* p = (uintptr_t*)fp;
  while (p != NULL && ((uintptr_t)p & 7) == 0 && (top == 0 || (uintptr_t)p < top)) {
    const int32_t* rec = lookup(p[1], sorted);
    if (rec != NULL) {
      if (!visit(rec, ctx)) return;
      if ((uint32_t)rec[0] & 0x80000000u) return; /* main: the program's outermost frame */
    }
    uintptr_t* next = (uintptr_t*)p[0];
    if (next <= p) return; /* frames grow toward higher addresses */
    p = next;
  }
}

static int takeFirst(const int32_t* rec, void* ctx) {
  if (((uint32_t)rec[0] & 0x7fffffffu) == 0) return 1;
  frameAt(rec, 0, (TraceFrame*)ctx);
  return 0;
}

int __simplec_trace_first(void* fp, TraceFrame* out) {
  out->fun = NULL;
  walk(fp, takeFirst, out);
  return out->fun != NULL;
}

typedef struct {
  void (*emit)(const TraceFrame*, void*);
  void* ctx;
  size_t shown, more;
} EachState;

static int emitRecord(const int32_t* rec, void* ctx) {
  EachState* s = (EachState*)ctx;
  uint32_t n = (uint32_t)rec[0] & 0x7fffffffu;
  for (uint32_t i = 0; i < n; i++) {
    if (s->shown == kTraceHead) {
      s->more++;
      continue;
    }
    TraceFrame f;
    frameAt(rec, i, &f);
    s->emit(&f, s->ctx);
    s->shown++;
  }
  return 1;
}

size_t __simplec_trace_each(void* fp, void (*emit)(const TraceFrame*, void*), void* ctx) {
  EachState s = {emit, ctx, 0, 0};
  walk(fp, emitRecord, &s);
  return s.more;
}
