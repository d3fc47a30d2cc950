fn main() {
    let size = 1200i64;
    let mut inside = 0i64;
    for py in 0..size {
        let ci = 3.0 * py as f64 / size as f64 - 1.5;
        for px in 0..size {
            let cr = 3.0 * px as f64 / size as f64 - 2.0;
            let mut zr = 0.0f64;
            let mut zi = 0.0f64;
            let mut it = 0;
            while it < 100 && zr * zr + zi * zi <= 4.0 {
                let t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                it += 1;
            }
            if it == 100 {
                inside += 1;
            }
        }
    }
    println!("{}", inside);
}
