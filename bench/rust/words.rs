// Counts the occurrences of text[pos .. pos+len) in text, by naive search.
fn count(text: &[u8], pos: usize, len: usize) -> i64 {
    let n = text.len();
    let mut found = 0;
    let mut i = 0;
    while i + len <= n {
        let mut k = 0;
        while k < len && text[i + k] == text[pos + k] {
            k += 1;
        }
        if k == len {
            found += 1;
        }
        i += 1;
    }
    found
}

fn main() {
    let n = 1usize << 23;
    let mut text = vec![0u8; n];
    let mut x: u64 = 12345;
    let mut i = 0;
    while i < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let wl = 1 + (x >> 61) as usize;
        let mut k = 0;
        while k < wl && i < n {
            text[i] = b'a' + ((x >> (4 * k)) & 7) as u8;
            i += 1;
            k += 1;
        }
        if i < n {
            text[i] = if (x >> 40) & 15 == 0 { b'\n' } else { b' ' };
            i += 1;
        }
    }
    // wc: words, lines, the longest word, a histogram of word lengths.
    let (mut words, mut lines, mut longest, mut cur) = (0i64, 0i64, 0usize, 0usize);
    let mut hist = vec![0i64; 16];
    for &c in &text {
        if c == b' ' || c == b'\n' {
            if cur > 0 {
                words += 1;
                hist[cur] += 1;
                longest = longest.max(cur);
            }
            cur = 0;
            if c == b'\n' {
                lines += 1;
            }
        } else {
            cur += 1;
        }
    }
    if cur > 0 {
        words += 1;
        hist[cur] += 1;
        longest = longest.max(cur);
    }
    let mut hh = 0i64;
    for k in 0..16 {
        hh = (hh * 7 + hist[k]) & 0xFFFF_FFFF_FFFF;
    }
    println!("{} {} {} {}", words, lines, longest, hh);
    // Substring search for 16 patterns cut from the text itself.
    let mut total = 0i64;
    let mut out = String::new();
    for p in 0..16usize {
        let len = 3 + p % 5;
        let pos = (p * 7919 * 131) % (n - 8);
        let c = count(&text, pos, len);
        total = total * 3 + c;
        out.push_str(&format!("{} ", c));
    }
    println!("{}{}", out, total);
}
