#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static uint32_t table[256];
static uint32_t crc32(const unsigned char* buf, long len, uint32_t crc) {
    uint32_t c = crc ^ 0xFFFFFFFFu;
    for (long i = 0; i < len; i++) c = table[(c ^ buf[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}
int main(void) {
    for (long n = 0; n < 256; n++) {
        uint32_t c = (uint32_t)n;
        for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[n] = c;
    }
    long n = 1L << 22;
    unsigned char* buf = calloc(n, 1);
    uint64_t x = 1;
    for (long i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        buf[i] = (unsigned char)(x >> 33);
    }
    uint32_t crc = 0;
    for (int pass = 0; pass < 40; pass++) crc = crc32(buf, n - pass, crc);
    printf("%lu %lu\n", (unsigned long)crc32((const unsigned char*)"123456789", 9, 0), (unsigned long)crc);
    return 0;
}
