//! Shared helpers for the integration tests: the list of backends under test and a checker
//! that compares a backend with `core::str::from_utf8` and the scalar reference.
#![allow(dead_code)]

use std::sync::Once;
use vutf8::Backend;

/// How much of the input space the sweeping tests cover, from `VUTF8_EXHAUSTIVE` (see
/// `docs/RELIABILITY.md`, "Test tiers"). No tier skips anything at random: each sample is
/// chosen (register and block boundaries, the edges of every class of the UTF-8 grammar,
/// every error class, every size tier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// `reduced`: the sample with fewer lengths in the boundary sweep, for runs that are
    /// many times slower (emulation: `scripts/test-cross.sh`; AddressSanitizer).
    Reduced,
    /// Unset or `sample`, the default of `cargo test`: a systematic sample.
    Sample,
    /// `full` (`scripts/test-exhaustive.sh`, in CI, compiled in release): every 1- to
    /// 3-byte string at every offset of a block, every 4-byte string from F0 to F4, every
    /// offset of every length of the boundary sweep, every cut of a parallel validation.
    Full,
}

/// The tier of this run. Panics on an unknown value, so a typo cannot silently run a
/// smaller tier. Prints the tier once per test binary.
pub fn tier() -> Tier {
    static PRINT: Once = Once::new();
    let tier = match std::env::var("VUTF8_EXHAUSTIVE").as_deref() {
        Ok("full") => Tier::Full,
        Ok("sample") | Err(_) => Tier::Sample,
        Ok("reduced") => Tier::Reduced,
        Ok(other) => {
            panic!("VUTF8_EXHAUSTIVE must be 'sample', 'reduced' or 'full', not {other:?}")
        }
    };
    PRINT.call_once(|| {
        eprintln!("vutf8 tests: tier {tier:?} (VUTF8_EXHAUSTIVE=full for the exhaustive tier)")
    });
    tier
}

/// Whether this run is the full (exhaustive) tier.
pub fn full_tier() -> bool {
    tier() == Tier::Full
}

/// Every backend this CPU can run. Prints the list once per test binary, so a run shows
/// which backends were exercised (and none is skipped silently).
pub fn backends() -> Vec<Backend> {
    static PRINT: Once = Once::new();
    let list: Vec<Backend> = Backend::available().collect();
    PRINT.call_once(|| {
        let names: Vec<&str> = list.iter().map(|b| b.name()).collect();
        // What did not run, and why: so that a run on a CPU without AVX-512, or a build
        // without the feature `avx512`, says so.
        let missing: Vec<String> = Backend::ALL
            .into_iter()
            .filter_map(|b| Some(format!("{} ({})", b.name(), b.unavailable_reason()?)))
            .collect();
        eprintln!(
            "vutf8 tests: backends under test: {} (selected: {}); not run: {}",
            names.join(", "),
            Backend::selected().name(),
            if missing.is_empty() {
                "none".to_string()
            } else {
                missing.join(", ")
            }
        );
    });
    assert!(list.contains(&Backend::Scalar));
    assert!(
        list.contains(&Backend::selected()),
        "the selected backend must be available"
    );
    list
}

/// The bytes of `backend`'s register (`vutf8::tiers`), the width its vector code works in;
/// 1 for the scalar decoder, which has none.
pub fn register_bytes(backend: Backend) -> usize {
    use vutf8::tiers::{REGISTER_128, REGISTER_256, REGISTER_512};
    match backend {
        Backend::Scalar => 1,
        Backend::Sse42 | Backend::Neon | Backend::Simd128 => REGISTER_128,
        Backend::Avx2 => REGISTER_256,
        Backend::Avx512 => REGISTER_512,
        other => panic!("tests/common: no register width for {}", other.name()),
    }
}

/// The index of `buf` at which its bytes lie `place` bytes past a `BLOCK`-aligned address
/// (`place < BLOCK`): where to put an input so that it starts at that address modulo a
/// block (`buf` needs up to `BLOCK - 1` bytes before it).
pub fn index_at_address(buf: &[u8], place: usize) -> usize {
    use vutf8::tiers::BLOCK;
    (place + BLOCK - buf.as_ptr() as usize % BLOCK) % BLOCK
}

/// What std says: `None` for valid, else `(valid_up_to, error_len)`.
pub fn std_verdict(input: &[u8]) -> Option<(usize, Option<usize>)> {
    std::str::from_utf8(input)
        .err()
        .map(|e| (e.valid_up_to(), e.error_len()))
}

/// [`std_verdict`] of `input` computed from `from`, a character boundary before every error
/// (the tests of long inputs, to save time): `valid_up_to` counts from the start of `input`.
pub fn std_verdict_from(input: &[u8], from: usize) -> Option<(usize, Option<usize>)> {
    std::str::from_utf8(&input[from..])
        .err()
        .map(|e| (from + e.valid_up_to(), e.error_len()))
}

/// The start of the character that holds byte `at` of `text`: `at` backed up over
/// continuation bytes (to 0 at most), the place [`std_verdict_from`] may start.
pub fn char_start(text: &[u8], mut at: usize) -> usize {
    while at > 0 && text[at] & 0xC0 == 0x80 {
        at -= 1;
    }
    at
}

/// The same shape from one of our results.
pub fn verdict(r: Result<(), vutf8::Utf8Error>) -> Option<(usize, Option<usize>)> {
    r.err().map(|e| (e.valid_up_to(), e.error_len()))
}

/// Checks every backend, the dispatching API and the scalar reference against std.
pub fn check_all(input: &[u8], backends: &[Backend]) {
    let want = std_verdict(input);
    for &b in backends {
        let got = verdict(b.validate(input));
        assert_eq!(got, want, "backend {} on {:02X?}", b.name(), input);
        assert_eq!(
            b.is_valid(input),
            want.is_none(),
            "backend {} is_valid",
            b.name()
        );
    }
    assert_eq!(
        verdict(vutf8::from_utf8(input).map(|_| ())),
        want,
        "from_utf8 on {:02X?}",
        input
    );
    assert_eq!(
        vutf8::is_valid(input),
        want.is_none(),
        "is_valid on {:02X?}",
        input
    );
    assert_eq!(
        verdict(vutf8::scalar::validate(input)),
        want,
        "scalar on {:02X?}",
        input
    );
}

/// Valid filler of exactly `len` bytes, cycling through 1- to 4-byte characters so that
/// the case after it follows every kind of character. `phase` picks the first: `a`, `é`,
/// `€`, `😀` for 0 to 3 (then again). The last 0-3 bytes are `z`.
pub fn filler(len: usize, phase: usize) -> Vec<u8> {
    const CHARS: [&str; 4] = ["a", "é", "€", "😀"];
    let mut out = Vec::with_capacity(len);
    let mut i = phase;
    loop {
        let c = CHARS[i % 4].as_bytes();
        if out.len() + c.len() > len {
            break;
        }
        out.extend_from_slice(c);
        i += 1;
    }
    out.resize(len, b'z');
    out
}

/// Seven classes of error, written over valid text by the tests of long inputs
/// (`far_schedule`, `long_inputs`) (std decides what each one makes of the bytes around it).
pub const ERRORS_OVER_TEXT: &[&[u8]] = &[
    &[0x80],                   // a stray continuation byte
    &[0xC3, b'A'],             // a 2-byte sequence cut short
    &[0xE0, 0x80, 0x80],       // an overlong 3-byte form
    &[0xED, 0xA0, 0x80],       // a surrogate
    &[0xF4, 0x90, 0x80, 0x80], // above U+10FFFF
    &[0xF0, 0x9F, 0x98],       // a 4-byte sequence cut short
    &[0xFF],                   // a byte that never appears
];

/// Streams `input` through a `Validator` in chunks of `size` bytes (each chunk a slice of
/// `input`, the last one ending where the input ends).
pub fn stream_in_chunks(input: &[u8], size: usize) -> Result<(), vutf8::Utf8Error> {
    let mut v = vutf8::Validator::new();
    for chunk in input.chunks(size) {
        v.update(chunk)?;
    }
    v.finish()
}

/// The kind of the first error of `input`, from std's error alone (where it is, whether
/// the input ends inside it) and the byte after it, by the rules of `vutf8::ErrorKind`'s
/// documentation (Unicode's Table 3-7): the reference for counts by kind. `None` when the
/// input is valid.
pub fn std_error_kind(input: &[u8]) -> Option<vutf8::ErrorKind> {
    use vutf8::ErrorKind::*;
    let e = std::str::from_utf8(input).err()?;
    if e.error_len().is_none() {
        return Some(Incomplete);
    }
    let at = &input[e.valid_up_to()..];
    let next = at.get(1).copied().unwrap_or(0);
    let continuation = (0x80..=0xBF).contains(&next);
    Some(match at[0] {
        0x80..=0xBF => UnexpectedContinuation,
        0xC0 | 0xC1 if continuation => Overlong,
        0xE0 if (0x80..=0x9F).contains(&next) => Overlong,
        0xF0 if (0x80..=0x8F).contains(&next) => Overlong,
        0xED if (0xA0..=0xBF).contains(&next) => Surrogate,
        0xF4 if (0x90..=0xBF).contains(&next) => TooLarge,
        0xF5..=0xF7 if continuation => TooLarge,
        0xC0 | 0xC1 | 0xF5..=0xFF => InvalidByte,
        // A lead byte C2..F4 followed by too few continuation bytes.
        _ => TooShort,
    })
}
