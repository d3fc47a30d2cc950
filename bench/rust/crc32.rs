fn crc32(table: &[u32], buf: &[u8], len: usize, crc: u32) -> u32 {
    let mut c = crc ^ 0xFFFF_FFFF;
    for i in 0..len {
        c = table[((c ^ buf[i] as u32) & 0xFF) as usize] ^ (c >> 8);
    }
    c ^ 0xFFFF_FFFF
}

fn main() {
    let mut table = vec![0u32; 256];
    for n in 0..256 {
        let mut c = n as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        table[n] = c;
    }
    let n = 1usize << 22;
    let mut buf = vec![0u8; n];
    let mut x: u64 = 1;
    for i in 0..n {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        buf[i] = (x >> 33) as u8;
    }
    let mut crc = 0u32;
    for pass in 0..40 {
        crc = crc32(&table, &buf, n - pass, crc);
    }
    println!("{} {}", crc32(&table, b"123456789", 9, 0), crc);
}
