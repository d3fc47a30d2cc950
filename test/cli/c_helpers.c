/* C functions for c_interop.smp. They return 64-bit values whose upper
 * bits are junk for the narrow types the Simple side declares; the System V
 * ABI leaves those bits undefined, so simplec must truncate them. */
#include <stdio.h>
#include <unistd.h>
long junk_u8(void) { return 0x123456789ABCDEFFL; }   /* as u8: 255 */
long junk_i16(void) { return 0x7777777700008001L; }  /* as i16: -32767 */
long echo(long x) { return x; }
/* Writes straight to fd 1, past simplec's output buffer. */
long say(long n) {
  char buf[32];
  int len = snprintf(buf, sizeof buf, "[C %ld]", n);
  return write(1, buf, (size_t)len);
}
