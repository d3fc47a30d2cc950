#include <stdio.h>
#include <stdlib.h>
static void quicksort(long* a, long lo, long hi) {
    while (lo < hi) {
        long pivot = a[lo + (hi - lo) / 2];
        long i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot) i++;
            while (a[j] > pivot) j--;
            if (i <= j) {
                long t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                j--;
            }
        }
        if (j - lo < hi - i) {
            quicksort(a, lo, j);
            lo = i;
        } else {
            quicksort(a, i, hi);
            hi = j;
        }
    }
}
int main(void) {
    long n = 1000000;
    long* a = calloc(n, sizeof(long));
    long seed = 12345;
    for (long i = 0; i < n; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF;
        a[i] = seed % 1000000;
    }
    quicksort(a, 0, n - 1);
    long sorted = 1, check = 0;
    for (long i = 0; i < n; i++) {
        if (i > 0 && a[i - 1] > a[i]) sorted = 0;
        check = (check * 31 + a[i]) & 0xFFFFFFFF;
    }
    printf("%ld %ld\n", sorted, check);
    return 0;
}
