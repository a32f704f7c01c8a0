//! Calls `vutf8::is_valid`, `simdutf8::basic::from_utf8` and `core::str::from_utf8` on one
//! short input in a loop and prints the time per call: for profiling short inputs.
//!
//! Usage: `short_profile [SIZE] [SCRIPT] [CALLS] [ONLY]` (defaults: 16, cjk, 20000000, all
//! three). The input is generated text of that script, cut back to a character boundary and
//! padded with spaces to SIZE bytes. With ONLY (`vutf8`, `simdutf8` or `std`) just that one
//! runs, which is what `valgrind --tool=callgrind` wants: the difference between two runs
//! with different CALLS, divided by their difference, is the instruction count per call.
use std::hint::black_box;
use vutf8_corpus::{generate, Script};

/// A validator under test: its name and the function.
type Named = (&'static str, fn(&[u8]) -> bool);

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(16);
    let script = args.next().unwrap_or_else(|| "cjk".into());
    let calls: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000_000);
    let only = args.next();
    let script = Script::ALL
        .into_iter()
        .find(|s| s.name() == script)
        .expect("SCRIPT: ascii, latin, cyrillic, cjk, emoji or mixed");
    let text = generate(script, n + 4096, 42);
    let mut cut = n;
    while cut > 0 && text[cut] & 0xC0 == 0x80 {
        cut -= 1;
    }
    let mut b = text[..cut].to_vec();
    b.resize(n, b' ');
    let validators: [Named; 3] = [
        ("vutf8", vutf8::is_valid),
        ("simdutf8", |b| simdutf8::basic::from_utf8(b).is_ok()),
        ("std", |b| std::str::from_utf8(b).is_ok()),
    ];
    for (name, f) in validators {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let t = std::time::Instant::now();
        let mut ok = 0;
        for _ in 0..calls {
            ok += f(black_box(&b)) as u64;
        }
        assert_eq!(ok, calls, "{name} rejected valid text");
        println!(
            "{name} {n} bytes of {}: {:.2} ns per call",
            script.name(),
            t.elapsed().as_nanos() as f64 / calls as f64
        );
    }
}
