//! Calls `vutf8::is_valid` on one short CJK input in a loop, for profiling.
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(16);
    let text = vutf8_corpus::generate(vutf8_corpus::Script::Cjk, 4096, 42);
    let mut cut = n;
    while text[cut] & 0xC0 == 0x80 {
        cut -= 1;
    }
    let mut b = text[..cut].to_vec();
    b.resize(n, b' ');
    for (name, f) in [
        ("vutf8", vutf8::is_valid as fn(&[u8]) -> bool),
        ("std", |b| std::str::from_utf8(b).is_ok()),
    ] {
        let t = std::time::Instant::now();
        let mut ok = 0;
        for _ in 0..20_000_000 {
            ok += f(std::hint::black_box(&b)) as usize;
        }
        println!(
            "{name} {n} bytes: {:.2} ns per call ({ok})",
            t.elapsed().as_nanos() as f64 / 2e7
        );
    }
}
