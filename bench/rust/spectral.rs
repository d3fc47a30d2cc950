// The entries of the infinite matrix A, 0-based.
fn a(i: i64, j: i64) -> f64 {
    1.0 / ((i + j) * (i + j + 1) / 2 + i + 1) as f64
}

fn mul_av(v: &[f64], av: &mut [f64]) {
    for i in 0..v.len() {
        let mut sum = 0.0;
        for j in 0..v.len() {
            sum += a(i as i64, j as i64) * v[j];
        }
        av[i] = sum;
    }
}

fn mul_atv(v: &[f64], atv: &mut [f64]) {
    for i in 0..v.len() {
        let mut sum = 0.0;
        for j in 0..v.len() {
            sum += a(j as i64, i as i64) * v[j];
        }
        atv[i] = sum;
    }
}

fn mul_atav(v: &[f64], out: &mut [f64], tmp: &mut [f64]) {
    mul_av(v, tmp);
    mul_atv(tmp, out);
}

fn main() {
    let n = 2000;
    let mut u = vec![1.0f64; n];
    let mut v = vec![0.0f64; n];
    let mut tmp = vec![0.0f64; n];
    for _ in 0..10 {
        mul_atav(&u, &mut v, &mut tmp);
        mul_atav(&v, &mut u, &mut tmp);
    }
    let mut vbv = 0.0;
    let mut vv = 0.0;
    for i in 0..n {
        vbv += u[i] * v[i];
        vv += v[i] * v[i];
    }
    println!("{}", ((vbv / vv).sqrt() * 1000000000.0) as i64);
}
