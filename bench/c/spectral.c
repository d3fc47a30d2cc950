#include <math.h>
#include <stdio.h>
#include <stdlib.h>
/* The entries of the infinite matrix A, 0-based. */
static double A(long i, long j) { return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1); }
static void mulAv(const double* v, double* av, long n) {
    for (long i = 0; i < n; i++) {
        double sum = 0.0;
        for (long j = 0; j < n; j++) sum += A(i, j) * v[j];
        av[i] = sum;
    }
}
static void mulAtv(const double* v, double* atv, long n) {
    for (long i = 0; i < n; i++) {
        double sum = 0.0;
        for (long j = 0; j < n; j++) sum += A(j, i) * v[j];
        atv[i] = sum;
    }
}
static void mulAtAv(const double* v, double* out, double* tmp, long n) {
    mulAv(v, tmp, n);
    mulAtv(tmp, out, n);
}
int main(void) {
    long n = 2000;
    double* u = calloc(n, sizeof(double));
    double* v = calloc(n, sizeof(double));
    double* tmp = calloc(n, sizeof(double));
    for (long i = 0; i < n; i++) u[i] = 1.0;
    for (int k = 0; k < 10; k++) {
        mulAtAv(u, v, tmp, n);
        mulAtAv(v, u, tmp, n);
    }
    double vBv = 0.0, vv = 0.0;
    for (long i = 0; i < n; i++) {
        vBv += u[i] * v[i];
        vv += v[i] * v[i];
    }
    printf("%ld\n", (long)(sqrt(vBv / vv) * 1000000000.0));
    return 0;
}
