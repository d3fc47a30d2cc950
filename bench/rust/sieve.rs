fn main() {
    let n = 10000000usize;
    let mut count = 0i64;
    for _ in 0..1 {
        let mut composite = vec![false; n + 1];
        count = 0;
        for i in 2..=n {
            if !composite[i] {
                count += 1;
                let mut j = i * i;
                while j <= n {
                    composite[j] = true;
                    j += i;
                }
            }
        }
    }
    println!("{}", count);
}
