/* Calls lib_narrow.smp through 64-bit prototypes, so the upper bits of the
 * argument registers hold junk that the Simple side must ignore. */
#include <stdio.h>
long addBytes(long a, long b);
long widen(long x);
int main(void) {
  printf("%ld %ld\n", addBytes(0x7700000000000105L, 0x1FFL), widen(0x12345678FFFFL));
  return 0;
}
