// Opcodes: 0 halt, 1 push K, 2 load R, 3 store R, 4 add, 5 sub, 6 mul,
// 7 mod, 8 jump-if-less T (pops b, a; jumps if a < b), 9 jump T.
fn emit(code: &mut [i64], at: usize, op: i64, arg: i64) -> usize {
    code[at] = op;
    code[at + 1] = arg;
    at + 2
}

fn main() {
    let mut code = vec![0i64; 64];
    let mut len = 0;
    // r0 = 0 (i); r1 = 0 (acc)
    len = emit(&mut code, len, 1, 0); len = emit(&mut code, len, 3, 0);
    len = emit(&mut code, len, 1, 0); len = emit(&mut code, len, 3, 1);
    let top = len as i64;
    // acc = (acc * 31 + i) % 1000000007
    len = emit(&mut code, len, 2, 1); len = emit(&mut code, len, 1, 31); len = emit(&mut code, len, 6, 0);
    len = emit(&mut code, len, 2, 0); len = emit(&mut code, len, 4, 0);
    len = emit(&mut code, len, 1, 1000000007); len = emit(&mut code, len, 7, 0);
    len = emit(&mut code, len, 3, 1);
    // i = i + 1; if (i < 5000000) goto top
    len = emit(&mut code, len, 2, 0); len = emit(&mut code, len, 1, 1); len = emit(&mut code, len, 4, 0);
    len = emit(&mut code, len, 3, 0);
    len = emit(&mut code, len, 2, 0); len = emit(&mut code, len, 1, 5000000); len = emit(&mut code, len, 8, top);
    emit(&mut code, len, 0, 0);

    let mut stack = vec![0i64; 16];
    let mut regs = vec![0i64; 4];
    let mut sp = 0usize;
    let mut pc = 0usize;
    let mut steps = 0i64;
    loop {
        let op = code[pc];
        let arg = code[pc + 1];
        pc += 2;
        steps += 1;
        match op {
            0 => break,
            1 => { stack[sp] = arg; sp += 1; }
            2 => { stack[sp] = regs[arg as usize]; sp += 1; }
            3 => { sp -= 1; regs[arg as usize] = stack[sp]; }
            4 => { sp -= 1; stack[sp - 1] = stack[sp - 1].wrapping_add(stack[sp]); }
            5 => { sp -= 1; stack[sp - 1] = stack[sp - 1].wrapping_sub(stack[sp]); }
            6 => { sp -= 1; stack[sp - 1] = stack[sp - 1].wrapping_mul(stack[sp]); }
            7 => { sp -= 1; stack[sp - 1] = stack[sp - 1] % stack[sp]; }
            8 => { sp -= 2; if stack[sp] < stack[sp + 1] { pc = arg as usize; } }
            9 => pc = arg as usize,
            _ => {}
        }
    }
    println!("{} {}", regs[1], steps);
}
