fn main() {
    let mut best = 0i64;
    let mut best_start = 0i64;
    for s in 1..500000i64 {
        let mut x = s;
        let mut len = 1i64;
        while x != 1 {
            x = if x & 1 != 0 { 3 * x + 1 } else { x >> 1 };
            len += 1;
        }
        if len > best {
            best = len;
            best_start = s;
        }
    }
    println!("{} {}", best_start, best);
}
