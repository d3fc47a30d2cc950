#include <stdio.h>
int main(void) {
    long best = 0, bestStart = 0;
    for (long s = 1; s < 500000; s++) {
        long x = s, len = 1;
        while (x != 1) {
            if (x & 1) x = 3 * x + 1;
            else x = x >> 1;
            len++;
        }
        if (len > best) {
            best = len;
            bestStart = s;
        }
    }
    printf("%ld %ld\n", bestStart, best);
    return 0;
}
