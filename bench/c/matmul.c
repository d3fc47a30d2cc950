#include <stdio.h>
#include <stdlib.h>
int main(void) {
    long n = 400;
    double* a = calloc(n * n, sizeof(double));
    double* b = calloc(n * n, sizeof(double));
    double* c = calloc(n * n, sizeof(double));
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            a[i * n + j] = (i * j) % 7 - 3;
            b[i * n + j] = (i + 2 * j) % 5 - 2;
        }
    for (int rep = 0; rep < 3; rep++)
        for (long i = 0; i < n; i++)
            for (long k = 0; k < n; k++) {
                double aik = a[i * n + k];
                for (long j = 0; j < n; j++) c[i * n + j] += aik * b[k * n + j];
            }
    double sum = 0.0;
    for (long i = 0; i < n * n; i++) sum += c[i] * (i % 13);
    printf("%ld\n", (long)sum);
    return 0;
}
