#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
/* Longest common subsequence by dynamic programming over a 2-D table (an
   array of row arrays), then a traceback through the table. */
/* Fills s with letters a-d from the xorshift64 state x; returns the new state. */
static uint64_t fill(unsigned char* s, long n, uint64_t x) {
    for (long i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        s[i] = (unsigned char)('a' + (x >> 60) % 4);
    }
    return x;
}
static long lcs(const unsigned char* a, long n, const unsigned char* b, long m, long** d) {
    for (long i = 1; i <= n; i++) {
        long* prev = d[i - 1];
        long* cur = d[i];
        unsigned char ai = a[i - 1];
        for (long j = 1; j <= m; j++) {
            if (ai == b[j - 1]) cur[j] = prev[j - 1] + 1;
            else if (prev[j] >= cur[j - 1]) cur[j] = prev[j];
            else cur[j] = cur[j - 1];
        }
    }
    return d[n][m];
}
/* Walks back from d[n][m] and hashes the common subsequence (read backwards). */
static long traceback(const unsigned char* a, long n, const unsigned char* b, long m, long** d) {
    long h = 0, i = n, j = m;
    while (i > 0 && j > 0) {
        if (a[i - 1] == b[j - 1]) {
            h = (h * 131 + a[i - 1]) & 0xFFFFFFFFFFFFL;
            i--;
            j--;
        } else if (d[i - 1][j] >= d[i][j - 1]) i--;
        else j--;
    }
    return h;
}
int main(void) {
    long n = 2000;
    unsigned char* a = calloc(n, 1);
    unsigned char* b = calloc(n, 1);
    long** d = calloc(n + 1, sizeof(long*));
    for (long i = 0; i <= n; i++) d[i] = calloc(n + 1, sizeof(long));
    uint64_t x = 7;
    long total = 0, h = 0;
    for (int rep = 0; rep < 50; rep++) {
        x = fill(a, n, x);
        x = fill(b, n, x);
        total += lcs(a, n, b, n, d);
        h = (h * 31 + traceback(a, n, b, n, d)) & 0xFFFFFFFFFFFFL;
    }
    printf("%ld %ld\n", total, h);
    return 0;
}
