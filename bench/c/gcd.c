#include <stdio.h>
static long gcd(long a, long b) {
    while (b != 0) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}
int main(void) {
    long sum = 0;
    for (long i = 1; i <= 1500; i++)
        for (long j = 1; j <= 1500; j++)
            sum += gcd(i, j);
    printf("%ld\n", sum);
    return 0;
}
