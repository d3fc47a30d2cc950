#include <stdio.h>
int main(void) {
    long size = 1200, inside = 0;
    for (long py = 0; py < size; py++) {
        double ci = 3.0 * py / size - 1.5;
        for (long px = 0; px < size; px++) {
            double cr = 3.0 * px / size - 2.0;
            double zr = 0.0, zi = 0.0;
            long it = 0;
            while (it < 100 && zr * zr + zi * zi <= 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                it++;
            }
            if (it == 100) inside++;
        }
    }
    printf("%ld\n", inside);
    return 0;
}
