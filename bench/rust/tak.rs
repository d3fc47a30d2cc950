fn tak(x: i64, y: i64, z: i64) -> i64 {
    if y < x {
        return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y));
    }
    z
}

fn main() {
    println!("{} {}", tak(30, 20, 10), tak(26, 18, 8));
}
