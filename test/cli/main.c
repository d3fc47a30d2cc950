/* C driver calling Simple library functions through the System V ABI. */
#include <stdio.h>
long square(long);
long gcd(long, long);
long sumsq(long);
int main(void) {
  printf("%ld %ld %ld\n", square(12), gcd(84, 36), sumsq(10));
  return 0;
}
