#include <stdio.h>
static long code[64];
static long emit(long at, long op, long arg) {
    code[at] = op;
    code[at + 1] = arg;
    return at + 2;
}
int main(void) {
    long len = 0;
    len = emit(len, 1, 0); len = emit(len, 3, 0);
    len = emit(len, 1, 0); len = emit(len, 3, 1);
    long top = len;
    len = emit(len, 2, 1); len = emit(len, 1, 31); len = emit(len, 6, 0);
    len = emit(len, 2, 0); len = emit(len, 4, 0);
    len = emit(len, 1, 1000000007); len = emit(len, 7, 0);
    len = emit(len, 3, 1);
    len = emit(len, 2, 0); len = emit(len, 1, 1); len = emit(len, 4, 0);
    len = emit(len, 3, 0);
    len = emit(len, 2, 0); len = emit(len, 1, 5000000); len = emit(len, 8, top);
    len = emit(len, 0, 0);

    long stack[16] = {0}, regs[4] = {0};
    long sp = 0, pc = 0, steps = 0;
    for (;;) {
        long op = code[pc], arg = code[pc + 1];
        pc += 2;
        steps++;
        if (op == 0) break;
        else if (op == 1) { stack[sp] = arg; sp++; }
        else if (op == 2) { stack[sp] = regs[arg]; sp++; }
        else if (op == 3) { sp--; regs[arg] = stack[sp]; }
        else if (op == 4) { sp--; stack[sp - 1] = stack[sp - 1] + stack[sp]; }
        else if (op == 5) { sp--; stack[sp - 1] = stack[sp - 1] - stack[sp]; }
        else if (op == 6) { sp--; stack[sp - 1] = stack[sp - 1] * stack[sp]; }
        else if (op == 7) { sp--; stack[sp - 1] = stack[sp - 1] % stack[sp]; }
        else if (op == 8) { sp -= 2; if (stack[sp] < stack[sp + 1]) pc = arg; }
        else if (op == 9) pc = arg;
    }
    printf("%ld %ld\n", regs[1], steps);
    return 0;
}
