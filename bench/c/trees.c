#include <stdio.h>
#include <stdlib.h>
/* Nodes are zero-filled and never freed, like the Simple twin's. */
struct Node {
    struct Node* left;
    struct Node* right;
};
static struct Node* make(long depth) {
    struct Node* n = calloc(1, sizeof *n);
    if (depth > 0) {
        n->left = make(depth - 1);
        n->right = make(depth - 1);
    }
    return n;
}
static long check(struct Node* t) {
    if (!t) return 0;
    return 1 + check(t->left) + check(t->right);
}
int main(void) {
    long maxDepth = 14;
    printf("%ld\n", check(make(maxDepth + 1)));
    struct Node* longLived = make(maxDepth);
    for (long d = 4; d <= maxDepth; d += 2) {
        long iterations = 1L << (maxDepth - d + 4);
        long sum = 0;
        for (long i = 0; i < iterations; i++) sum += check(make(d));
        printf("%ld trees of depth %ld: %ld\n", iterations, d, sum);
    }
    printf("%ld\n", check(longLived));
    return 0;
}
