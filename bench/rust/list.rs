// A singly linked list of boxed nodes (Option<Box<Node>>).
struct Node {
    value: i64,
    next: Option<Box<Node>>,
}

type List = Option<Box<Node>>;

// Inserts v into the ascending list.
fn insert(head: &mut List, v: i64) {
    let mut cur = head;
    while cur.as_ref().map_or(false, |n| n.value < v) {
        cur = &mut cur.as_mut().unwrap().next;
    }
    let rest = cur.take();
    *cur = Some(Box::new(Node { value: v, next: rest }));
}

fn remove_multiples(head: &mut List, m: i64) {
    let mut cur = head;
    while cur.is_some() {
        if cur.as_ref().unwrap().value % m == 0 {
            let next = cur.as_mut().unwrap().next.take();
            *cur = next;
        } else {
            cur = &mut cur.as_mut().unwrap().next;
        }
    }
}

fn reverse(mut head: List) -> List {
    let mut prev: List = None;
    while let Some(mut node) = head {
        head = node.next.take();
        node.next = prev;
        prev = Some(node);
    }
    prev
}

// Sum of value * position, positions from 1, in 48 bits.
fn checksum(head: &List) -> i64 {
    let mut sum = 0i64;
    let mut pos = 1i64;
    let mut p = head;
    while let Some(node) = p {
        sum = (sum + node.value * pos) & 0xFFFF_FFFF_FFFF;
        pos += 1;
        p = &node.next;
    }
    sum
}

fn main() {
    let mut head: List = None;
    let mut seed: i64 = 42;
    for _ in 0..12000 {
        seed = (seed * 1103515245 + 12345) & 0x7FFF_FFFF;
        insert(&mut head, seed % 1000000);
    }
    let c1 = checksum(&head);
    remove_multiples(&mut head, 3);
    let c2 = checksum(&head);
    let mut acc = 0i64;
    for _ in 0..3000 {
        head = reverse(head);
        acc = (acc * 31 + checksum(&head)) & 0xFFFF_FFFF_FFFF;
    }
    let mut len = 0;
    let mut p = &head;
    while let Some(node) = p {
        len += 1;
        p = &node.next;
    }
    println!("{} {} {} {}", len, c1, c2, acc);
}
