#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static long slotOf(long k, int bits) { return (long)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> (64 - bits)); }
int main(void) {
    int bits = 22;
    long size = 1L << bits, mask = size - 1;
    long* keys = calloc(size, sizeof(long));
    long* counts = calloc(size, sizeof(long));
    uint64_t x = 88172645463325252ull;
    long distinct = 0;
    for (long i = 0; i < 1000000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        long k = (long)(x & 0xFFFFF) + 1;
        long s = slotOf(k, bits);
        while (keys[s] != 0 && keys[s] != k) s = (s + 1) & mask;
        if (keys[s] == 0) {
            keys[s] = k;
            distinct++;
        }
        counts[s]++;
    }
    long found = 0, total = 0;
    for (long k = 1; k <= 2000000; k++) {
        long s = slotOf(k, bits);
        while (keys[s] != 0 && keys[s] != k) s = (s + 1) & mask;
        if (keys[s] == k) {
            found++;
            total += counts[s];
        }
    }
    printf("%ld %ld %ld\n", distinct, found, total);
    return 0;
}
