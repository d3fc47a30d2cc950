#include <stdio.h>
static long tak(long x, long y, long z) {
    if (y < x) return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y));
    return z;
}
int main(void) {
    printf("%ld %ld\n", tak(30, 20, 10), tak(26, 18, 8));
    return 0;
}
