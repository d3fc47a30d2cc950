// Fills s with letters a-d from the xorshift64 state x; returns the new state.
fn fill(s: &mut [u8], mut x: u64) -> u64 {
    for i in 0..s.len() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        s[i] = b'a' + ((x >> 60) % 4) as u8;
    }
    x
}

fn lcs(a: &[u8], b: &[u8], d: &mut Vec<Vec<i64>>) -> i64 {
    let (n, m) = (a.len(), b.len());
    for i in 1..=n {
        let (done, rest) = d.split_at_mut(i);
        let prev = &done[i - 1];
        let cur = &mut rest[0];
        let ai = a[i - 1];
        for j in 1..=m {
            cur[j] = if ai == b[j - 1] {
                prev[j - 1] + 1
            } else if prev[j] >= cur[j - 1] {
                prev[j]
            } else {
                cur[j - 1]
            };
        }
    }
    d[n][m]
}

// Walks back from d[n][m] and hashes the common subsequence (read backwards).
fn traceback(a: &[u8], b: &[u8], d: &[Vec<i64>]) -> i64 {
    let mut h: i64 = 0;
    let (mut i, mut j) = (a.len(), b.len());
    while i > 0 && j > 0 {
        if a[i - 1] == b[j - 1] {
            h = (h * 131 + a[i - 1] as i64) & 0xFFFF_FFFF_FFFF;
            i -= 1;
            j -= 1;
        } else if d[i - 1][j] >= d[i][j - 1] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    h
}

fn main() {
    let n = 2000;
    let mut a = vec![0u8; n];
    let mut b = vec![0u8; n];
    let mut d = vec![vec![0i64; n + 1]; n + 1];
    let mut x: u64 = 7;
    let mut total = 0i64;
    let mut h = 0i64;
    for _ in 0..50 {
        x = fill(&mut a, x);
        x = fill(&mut b, x);
        total += lcs(&a, &b, &mut d);
        h = (h * 31 + traceback(&a, &b, &d)) & 0xFFFF_FFFF_FFFF;
    }
    println!("{} {}", total, h);
}
