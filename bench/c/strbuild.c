#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* A growable byte buffer like sys.aryu8: doubling, decimal append. */
struct buf {
    unsigned char* data;
    long len, cap;
};
static void add(struct buf* b, unsigned char c) {
    if (b->len == b->cap) {
        b->cap *= 2;
        b->data = realloc(b->data, b->cap);
    }
    b->data[b->len++] = c;
}
static void num(struct buf* b, long x) {
    char tmp[24];
    int n = 0;
    if (x < 0) {
        add(b, '-');
        x = -x;
    }
    do {
        tmp[n++] = (char)('0' + x % 10);
        x /= 10;
    } while (x);
    while (n) add(b, (unsigned char)tmp[--n]);
}
int main(void) {
    struct buf sb = {malloc(16), 0, 16};
    for (long i = 0; i < 3000000; i++) {
        num(&sb, i * 7919 % 1000003);
        add(&sb, i % 10 == 9 ? '\n' : ',');
    }
    long h = 0;
    for (long i = 0; i < sb.len; i++) h = (h * 131 + sb.data[i]) & 0xFFFFFFFFFFFFL;
    printf("%ld %ld\n", sb.len, h);
    return 0;
}
