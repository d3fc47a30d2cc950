#include <stdio.h>
#include <stdlib.h>
/* Nodes are zero-filled and never freed, like the Simple twin's. */
struct Node {
    long value;
    struct Node* next;
};
static struct Node* node(long value, struct Node* next) {
    struct Node* n = calloc(1, sizeof *n);
    n->value = value;
    n->next = next;
    return n;
}
/* Inserts v into the ascending list; returns the new head. */
static struct Node* insert(struct Node* head, long v) {
    if (!head || v <= head->value) return node(v, head);
    struct Node* p = head;
    while (p->next && p->next->value < v) p = p->next;
    p->next = node(v, p->next);
    return head;
}
static struct Node* removeMultiples(struct Node* head, long m) {
    while (head && head->value % m == 0) head = head->next;
    if (!head) return head;
    struct Node* p = head;
    while (p->next) {
        if (p->next->value % m == 0) p->next = p->next->next;
        else p = p->next;
    }
    return head;
}
static struct Node* reverse(struct Node* head) {
    struct Node* prev = NULL;
    while (head) {
        struct Node* next = head->next;
        head->next = prev;
        prev = head;
        head = next;
    }
    return prev;
}
/* Sum of value * position, positions from 1, in 48 bits. */
static long checksum(struct Node* head) {
    long sum = 0, pos = 1;
    for (struct Node* p = head; p; p = p->next) {
        sum = (sum + p->value * pos) & 0xFFFFFFFFFFFFL;
        pos++;
    }
    return sum;
}
int main(void) {
    struct Node* head = NULL;
    long seed = 42;
    for (long k = 0; k < 12000; k++) {
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF;
        head = insert(head, seed % 1000000);
    }
    long c1 = checksum(head);
    head = removeMultiples(head, 3);
    long c2 = checksum(head);
    long acc = 0;
    for (long r = 0; r < 3000; r++) {
        head = reverse(head);
        acc = (acc * 31 + checksum(head)) & 0xFFFFFFFFFFFFL;
    }
    long len = 0;
    for (struct Node* p = head; p; p = p->next) len++;
    printf("%ld %ld %ld %ld\n", len, c1, c2, acc);
    return 0;
}
