// Quicksort with a Hoare partition around the middle element; indices are
// i64 like the Simple program's (j may drop below lo).
fn quicksort(a: &mut [i64], mut lo: i64, mut hi: i64) {
    while lo < hi {
        let pivot = a[(lo + (hi - lo) / 2) as usize];
        let mut i = lo;
        let mut j = hi;
        while i <= j {
            while a[i as usize] < pivot {
                i += 1;
            }
            while a[j as usize] > pivot {
                j -= 1;
            }
            if i <= j {
                a.swap(i as usize, j as usize);
                i += 1;
                j -= 1;
            }
        }
        // Recurse into the smaller half, loop on the larger one.
        if j - lo < hi - i {
            quicksort(a, lo, j);
            lo = i;
        } else {
            quicksort(a, i, hi);
            hi = j;
        }
    }
}

fn main() {
    let n = 1000000usize;
    let mut a = vec![0i64; n];
    let mut seed: i64 = 12345;
    for i in 0..n {
        seed = (seed * 1103515245 + 12345) & 0x7FFF_FFFF;
        a[i] = seed % 1000000;
    }
    quicksort(&mut a, 0, n as i64 - 1);
    let mut sorted = 1;
    let mut check = 0i64;
    for i in 0..n {
        if i > 0 && a[i - 1] > a[i] {
            sorted = 0;
        }
        check = (check * 31 + a[i]) & 0xFFFF_FFFF;
    }
    println!("{} {}", sorted, check);
}
