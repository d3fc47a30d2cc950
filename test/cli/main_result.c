// Calls the entries of script_float.smp and script_void.smp (renamed with
// objcopy, since both are `main`) the way a C test driver would.
#include <stdio.h>
double float_main(long arg);
void void_main(long arg);
int main(void) {
  printf("%g %g\n", float_main(0), float_main(3));
  void_main(7);
  void_main(3);
  return 0;
}
