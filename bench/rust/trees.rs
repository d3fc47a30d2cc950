// Binary trees of boxed nodes; each tree is dropped (freed) after it is
// checked, unlike the C and Simple twins, which never free.
struct Node {
    left: Option<Box<Node>>,
    right: Option<Box<Node>>,
}

fn make(depth: i64) -> Box<Node> {
    if depth > 0 {
        Box::new(Node { left: Some(make(depth - 1)), right: Some(make(depth - 1)) })
    } else {
        Box::new(Node { left: None, right: None })
    }
}

fn check(t: &Option<Box<Node>>) -> i64 {
    match t {
        None => 0,
        Some(n) => 1 + check(&n.left) + check(&n.right),
    }
}

fn main() {
    let max_depth = 14;
    println!("{}", check(&Some(make(max_depth + 1))));
    let long_lived = Some(make(max_depth));
    let mut d = 4;
    while d <= max_depth {
        let iterations = 1i64 << (max_depth - d + 4);
        let mut sum = 0;
        for _ in 0..iterations {
            sum += check(&Some(make(d)));
        }
        println!("{} trees of depth {}: {}", iterations, d, sum);
        d += 2;
    }
    println!("{}", check(&long_lived));
}
