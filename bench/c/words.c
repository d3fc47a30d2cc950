#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
/* Counts the occurrences of text[pos .. pos+len) in text, by naive search. */
static long count(const unsigned char* text, long n, long pos, long len) {
    long found = 0;
    for (long i = 0; i + len <= n; i++) {
        long k = 0;
        while (k < len && text[i + k] == text[pos + k]) k++;
        if (k == len) found++;
    }
    return found;
}
int main(void) {
    long n = 1L << 23;
    unsigned char* text = calloc(n, 1);
    uint64_t x = 12345;
    long i = 0;
    while (i < n) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        long wl = 1 + (long)(x >> 61);
        for (long k = 0; k < wl && i < n; k++) text[i++] = (unsigned char)('a' + ((x >> (4 * k)) & 7));
        if (i < n) text[i++] = ((x >> 40) & 15) == 0 ? '\n' : ' ';
    }
    /* wc: words, lines, the longest word, a histogram of word lengths. */
    long words = 0, lines = 0, longest = 0, cur = 0;
    long hist[16] = {0};
    for (long i = 0; i < n; i++) {
        unsigned char c = text[i];
        if (c == ' ' || c == '\n') {
            if (cur > 0) {
                words++;
                hist[cur]++;
                if (cur > longest) longest = cur;
            }
            cur = 0;
            if (c == '\n') lines++;
        } else cur++;
    }
    if (cur > 0) {
        words++;
        hist[cur]++;
        if (cur > longest) longest = cur;
    }
    long hh = 0;
    for (int k = 0; k < 16; k++) hh = (hh * 7 + hist[k]) & 0xFFFFFFFFFFFFL;
    printf("%ld %ld %ld %ld\n", words, lines, longest, hh);
    /* Substring search for 16 patterns cut from the text itself. */
    long total = 0;
    for (long p = 0; p < 16; p++) {
        long len = 3 + p % 5;
        long pos = (p * 7919 * 131) % (n - 8);
        long c = count(text, n, pos, len);
        total = total * 3 + c;
        printf("%ld ", c);
    }
    printf("%ld\n", total);
    return 0;
}
