fn slot_of(k: i64, bits: u32) -> usize {
    ((k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

fn main() {
    let bits = 22u32;
    let size = 1usize << bits;
    let mask = size - 1;
    let mut keys = vec![0i64; size];
    let mut counts = vec![0i64; size];
    let mut x: u64 = 88172645463325252;
    let mut distinct = 0i64;
    for _ in 0..1000000 {
        // xorshift64
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let k = (x & 0xFFFFF) as i64 + 1; // keys 1..2^20; 0 marks an empty slot
        let mut s = slot_of(k, bits);
        while keys[s] != 0 && keys[s] != k {
            s = (s + 1) & mask;
        }
        if keys[s] == 0 {
            keys[s] = k;
            distinct += 1;
        }
        counts[s] += 1;
    }
    let mut found = 0i64;
    let mut total = 0i64;
    for k in 1..=2000000i64 {
        let mut s = slot_of(k, bits);
        while keys[s] != 0 && keys[s] != k {
            s = (s + 1) & mask;
        }
        if keys[s] == k {
            found += 1;
            total += counts[s];
        }
    }
    println!("{} {} {}", distinct, found, total);
}
