// A Vec<u8> grown by doubling (Vec's own policy), with a decimal append like
// sys.aryu8's num.
fn num(buf: &mut Vec<u8>, x: i64) {
    let mut tmp = [0u8; 24];
    let mut n = 0;
    if x < 0 {
        buf.push(b'-');
    }
    // Work on the negative value so that i64::MIN needs no special case.
    let mut y = if x < 0 { x } else { -x };
    loop {
        tmp[n] = b'0' + (-(y % 10)) as u8;
        n += 1;
        y /= 10;
        if y == 0 {
            break;
        }
    }
    while n > 0 {
        n -= 1;
        buf.push(tmp[n]);
    }
}

fn main() {
    let mut sb: Vec<u8> = Vec::with_capacity(16);
    for i in 0..3000000i64 {
        num(&mut sb, i * 7919 % 1000003);
        sb.push(if i % 10 == 9 { b'\n' } else { b',' });
    }
    let mut h = 0i64;
    for &c in &sb {
        h = (h * 131 + c as i64) & 0xFFFF_FFFF_FFFF;
    }
    println!("{} {}", sb.len(), h);
}
