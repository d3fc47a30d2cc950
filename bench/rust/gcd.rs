fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

fn main() {
    let mut sum = 0i64;
    for i in 1..=1500 {
        for j in 1..=1500 {
            sum += gcd(i, j);
        }
    }
    println!("{}", sum);
}
