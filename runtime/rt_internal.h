/* Helpers shared between the runtime's translation units; not part of the
 * interface compiled code uses (that is simplec_rt.h). Everything here is
 * async-signal-safe except the float formatters. */
#ifndef SIMPLEC_RT_INTERNAL_H
#define SIMPLEC_RT_INTERNAL_H
#include <stddef.h>
#include <stdint.h>

/* write(2) all n bytes, retrying EINTR and partial writes; gives up quietly
 * on other errors. */
void __simplec_write_all(int fd, const char* p, size_t n);

/* Writes out what sys.io.p buffered, without stdio (so signal handlers can;
 * __simplec_flush also flushes stdio's stdout first). */
void __simplec_flush_own(void);

/* Decimal text of v (no terminator); returns its length (at most 20). */
size_t __simplec_format_i64(int64_t v, char out[24]);

/* Python-repr text of a float (no terminator); returns its length (< 40). */
size_t __simplec_format_f64(double v, char out[40]);
size_t __simplec_format_f32(float v, char out[40]);

/* Makes the whole pages inside [p, p+n) present and writable in one system
 * call, for a large write about to fill them (a copy into a fresh array
 * would otherwise take one page fault per 4 KiB). Only whole pages inside
 * the range, so no byte outside it is touched; does nothing where the
 * kernel lacks MADV_POPULATE_WRITE (before Linux 5.14). */
void __simplec_prefault(void* p, size_t n);
#endif
