fn main() {
    let n = 400usize;
    let mut a = vec![0.0f64; n * n];
    let mut b = vec![0.0f64; n * n];
    let mut c = vec![0.0f64; n * n];
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] = ((i * j) % 7) as f64 - 3.0;
            b[i * n + j] = ((i + 2 * j) % 5) as f64 - 2.0;
        }
    }
    for _ in 0..3 {
        for i in 0..n {
            for k in 0..n {
                let aik = a[i * n + k];
                for j in 0..n {
                    c[i * n + j] += aik * b[k * n + j];
                }
            }
        }
    }
    let mut sum = 0.0;
    for i in 0..n * n {
        sum += c[i] * (i % 13) as f64;
    }
    println!("{}", sum as i64);
}
