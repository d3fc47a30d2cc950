#include <stdio.h>
#include <stdlib.h>
int main(void) {
    long n = 10000000, count = 0;
    for (int rep = 0; rep < 1; rep++) {
        /* Like the Simple twin: zero-filled, never freed. */
        unsigned char* composite = calloc(n + 1, 1);
        count = 0;
        for (long i = 2; i <= n; i++) {
            if (!composite[i]) {
                count++;
                for (long j = i * i; j <= n; j += i) composite[j] = 1;
            }
        }
    }
    printf("%ld\n", count);
    return 0;
}
