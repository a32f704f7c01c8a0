//! Validates text of random 1- to 4-byte characters (each length equally likely, as in
//! Keiser & Lemire's benchmark) `ROUNDS` times with one backend, for counting instructions
//! per byte under `valgrind --tool=callgrind` (see `scripts/instructions-per-byte.sh`).
//!
//! Usage: `instructions BACKEND ROUNDS [LEN]` (BACKEND: scalar, sse4.2, avx2, …; `std`
//! for `core::str::from_utf8`, `simdutf8` for `simdutf8::basic::from_utf8`).

use std::hint::black_box;
use vutf8_corpus::Rng;

/// A validator under test.
type Validator = Box<dyn Fn(&[u8]) -> bool>;

fn random_text(len: usize) -> Vec<u8> {
    let mut rng = Rng::new(2021);
    let mut s = String::with_capacity(len + 4);
    while s.len() < len {
        let c = loop {
            let v = match rng.below(4) {
                0 => rng.below(0x80),
                1 => 0x80 + rng.below(0x800 - 0x80),
                2 => 0x800 + rng.below(0x10000 - 0x800),
                _ => 0x10000 + rng.below(0x110000 - 0x10000),
            };
            if let Some(c) = char::from_u32(v as u32) {
                break c;
            }
        };
        if s.len() + c.len_utf8() > len {
            break;
        }
        s.push(c);
    }
    while s.len() < len {
        s.push(' ');
    }
    s.into_bytes()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "avx2".into());
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let len: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1 << 20);
    let text = random_text(len);
    let f: Validator = match which.as_str() {
        "std" => Box::new(|b| core::str::from_utf8(b).is_ok()),
        "simdutf8" => Box::new(|b| simdutf8::basic::from_utf8(b).is_ok()),
        "dispatch" => Box::new(vutf8::is_valid),
        name => {
            let backend = vutf8::Backend::from_name(name).expect("unknown backend");
            assert!(
                backend.is_available(),
                "{name} is not available on this CPU"
            );
            Box::new(move |b| backend.is_valid(b))
        }
    };
    for _ in 0..rounds {
        assert!(f(black_box(&text)));
    }
}
