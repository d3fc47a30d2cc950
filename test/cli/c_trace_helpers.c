/* C functions for interop_test.sh: variadic callees that read doubles (the
 * System V ABI makes the caller count the vector registers in al), printf
 * through stdio's buffer, and a function returning NULL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Prints n doubles with printf; gcc's prologue of a variadic function saves
 * xmm0-7 only when al is non-zero, so a wrong al loses the floats. */
long print_floats(long n, ...) {
  va_list ap;
  va_start(ap, n);
  for (long i = 0; i < n; i++) printf("%s%.2f", i ? " " : "", va_arg(ap, double));
  va_end(ap);
  return n;
}

/* long vector_count(long n, ...): returns al as the caller set it (the
 * number of vector registers used). In assembly: a C variadic function
 * would overwrite al before any code of ours ran. */
__asm__(".text\n.globl vector_count\n.type vector_count, @function\nvector_count:\n"
        "\tmovzbl %al, %eax\n\tret\n.size vector_count, .-vector_count\n");

/* NULL for a result declared `P` (non-null) or `P?` on the Simple side. */
void* no_object(void) { return NULL; }
void* no_object_either(void) { return NULL; }
