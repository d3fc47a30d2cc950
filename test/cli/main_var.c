// Calls the var-bound functions of lib_var.smp.
#include <stdio.h>
long twice(long);
long f(long);
long h(long);
int main(void) {
  printf("%ld %ld %ld\n", twice(4), f(4), h(4));
  return 0;
}
