//! Block-boundary sweep: every class of error at every offset 0..=255 of inputs of every
//! length 0..=320 (where it fits), after every kind of character, for every backend this
//! CPU has and for the public API (`from_utf8`, `is_valid`, `Validator`).
//!
//! An input is `prefix + pattern + suffix`:
//!
//! - the prefix is `o` bytes of valid text whose last character is ASCII or a 2-, 3- or
//!   4-byte character (padded at the front with ASCII), so the error starts at offset `o`
//!   right after that kind of character, at every position in the 16- and 32-byte
//!   registers and the 64-byte blocks, before and after the first 64-byte block and the
//!   128-byte limit of the short-input path;
//! - the pattern is one of [`PATTERNS`]: a stray continuation byte, each byte that never
//!   appears (C0, C1, F5..FF), overlong 2-, 3- and 4-byte forms, surrogates, values above
//!   U+10FFFF, sequences cut short by an ASCII byte or another lead, and sequences left
//!   open (cut short by the suffix, or, when the pattern ends the input, `Incomplete`);
//! - the suffix fills the input to its length: ASCII, or 1- to 4-byte characters.
//!
//! Each input is checked against `core::str::from_utf8` (`valid_up_to` must be `o`, and
//! `error_len`), the scalar reference (every field of the error) and the pattern's own
//! expected [`ErrorKind`]. With `VUTF8_EXHAUSTIVE=reduced` (AddressSanitizer, emulation)
//! only some lengths are swept; see [`lengths`].

mod common;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use vutf8::{Backend, ErrorKind, Utf8Error, Validator};

use ErrorKind::*;

/// An error pattern and its kind when something follows it (the suffix always starts with
/// a byte that is not a continuation byte). `open`: the pattern is the valid start of a
/// sequence, so at the very end of the input its kind is `Incomplete` instead.
struct Pattern {
    bytes: &'static [u8],
    kind: ErrorKind,
    open: bool,
}

const fn p(bytes: &'static [u8], kind: ErrorKind) -> Pattern {
    Pattern {
        bytes,
        kind,
        open: false,
    }
}

const fn open(bytes: &'static [u8]) -> Pattern {
    Pattern {
        bytes,
        kind: TooShort,
        open: true,
    }
}

const PATTERNS: &[Pattern] = &[
    // A continuation byte where a character should start.
    p(b"\x80", UnexpectedContinuation),
    p(b"\xBF", UnexpectedContinuation),
    // Bytes that never appear (followed by a non-continuation byte).
    p(b"\xC0", InvalidByte),
    p(b"\xC1", InvalidByte),
    p(b"\xF5", InvalidByte),
    p(b"\xF7", InvalidByte),
    p(b"\xF8", InvalidByte),
    p(b"\xFE", InvalidByte),
    p(b"\xFF", InvalidByte),
    // Overlong 2-, 3- and 4-byte forms.
    p(b"\xC0\xAF", Overlong),
    p(b"\xC1\xBF", Overlong),
    p(b"\xE0\x80\x80", Overlong),
    p(b"\xE0\x9F\xBF", Overlong),
    p(b"\xF0\x80\x80\x80", Overlong),
    p(b"\xF0\x8F\xBF\xBF", Overlong),
    // Surrogates.
    p(b"\xED\xA0\x80", Surrogate),
    p(b"\xED\xBF\xBF", Surrogate),
    // Above U+10FFFF.
    p(b"\xF4\x90\x80\x80", TooLarge),
    p(b"\xF4\xBF\xBF\xBF", TooLarge),
    p(b"\xF5\x80\x80\x80", TooLarge),
    p(b"\xF7\xBF\xBF\xBF", TooLarge),
    // Cut short by an ASCII byte or by another character's lead byte.
    p(b"\xC2\x41", TooShort),
    p(b"\xE2\x41", TooShort),
    p(b"\xE2\x82\x41", TooShort),
    p(b"\xF0\x41", TooShort),
    p(b"\xF0\x9F\x41", TooShort),
    p(b"\xF0\x9F\x98\x41", TooShort),
    p(b"\xE2\x82\xC3\xA9", TooShort),
    p(b"\xF0\x9F\x98\xF0\x9F\x98\x80", TooShort),
    // Left open: cut short by the suffix, or Incomplete at the end of the input.
    open(b"\xC2"),
    open(b"\xDF"),
    open(b"\xE2"),
    open(b"\xE2\x82"),
    open(b"\xED\x9F"),
    open(b"\xF0"),
    open(b"\xF0\x9F"),
    open(b"\xF0\x9F\x98"),
    open(b"\xF4\x8F\xBF"),
];

const MAX_LEN: usize = 320;
const MAX_OFFSET: usize = 255;

/// The input lengths swept: all of 0..=320, or with `VUTF8_EXHAUSTIVE=reduced` (set under
/// emulation and AddressSanitizer, which are many times slower) all up to 140 (the short
/// path, two blocks and a bit) and the lengths around the later block boundaries.
fn lengths() -> Vec<usize> {
    match std::env::var("VUTF8_EXHAUSTIVE").as_deref() {
        Ok("reduced") => (0..=140)
            .chain([191, 192, 193, 255, 256, 257, 319, 320])
            .collect(),
        Ok("full") | Err(_) => (0..=MAX_LEN).collect(),
        Ok(other) => panic!("VUTF8_EXHAUSTIVE must be 'full' or 'reduced', not {other:?}"),
    }
}

/// Valid text of exactly `len` bytes whose last character has `width` bytes (when
/// `len >= width`): ASCII padding, then characters of that width.
fn prefix(width: usize, len: usize) -> Vec<u8> {
    let c = ["a", "é", "€", "😀"][width - 1].as_bytes();
    let mut out = vec![b'p'; len % width];
    while out.len() < len {
        out.extend_from_slice(c);
    }
    out
}

/// Valid text of exactly `len` bytes: ASCII, or 1- to 4-byte characters in turn (ASCII
/// padding at the end). Starts with a byte that is not a continuation byte.
fn suffix(mixed: bool, len: usize) -> Vec<u8> {
    if !mixed {
        return vec![b's'; len];
    }
    let mut out = Vec::with_capacity(len);
    for c in ["é", "€", "😀", "z"].iter().cycle() {
        if out.len() + c.len() > len {
            break;
        }
        out.extend_from_slice(c.as_bytes());
    }
    out.resize(len, b'z');
    out
}

/// The stream through a `Validator`, as one chunk and as two chunks split inside the
/// pattern.
fn stream(input: &[u8], split: usize) -> [Result<(), Utf8Error>; 2] {
    let whole = {
        let mut v = Validator::new();
        v.update(input).and_then(|()| v.finish())
    };
    let split = {
        let mut v = Validator::new();
        let (a, b) = input.split_at(split);
        v.update(a)
            .and_then(|()| v.update(b))
            .and_then(|()| v.finish())
    };
    [whole, split]
}

/// Checks one pattern at every length and offset, after every prefix and before both
/// suffixes. Returns (inputs, checks).
fn sweep(pattern: &Pattern, backends: &[Backend]) -> (u64, u64) {
    let prefixes: Vec<Vec<Vec<u8>>> = (1..=4)
        .map(|w| (0..=MAX_LEN).map(|len| prefix(w, len)).collect())
        .collect();
    let suffixes: Vec<Vec<Vec<u8>>> = [false, true]
        .iter()
        .map(|&m| (0..=MAX_LEN).map(|len| suffix(m, len)).collect())
        .collect();
    let n = pattern.bytes.len();
    let mut input = Vec::with_capacity(MAX_LEN);
    let (mut inputs, mut checks) = (0u64, 0u64);
    for len in lengths().into_iter().filter(|&len| len >= n) {
        for o in 0..=(len - n).min(MAX_OFFSET) {
            let at_end = o + n == len;
            let kind = if at_end && pattern.open {
                Incomplete
            } else {
                pattern.kind
            };
            for (w, pre) in prefixes.iter().enumerate() {
                for (m, suf) in suffixes.iter().enumerate() {
                    if at_end && m == 1 {
                        continue; // both suffixes are empty
                    }
                    input.clear();
                    input.extend_from_slice(&pre[o]);
                    input.extend_from_slice(pattern.bytes);
                    input.extend_from_slice(&suf[len - o - n]);
                    let what = || {
                        format!(
                            "pattern {:02X?} at {o} of {len} after {}-byte characters, suffix {}",
                            pattern.bytes,
                            w + 1,
                            ["ASCII", "mixed"][m]
                        )
                    };
                    let std = std::str::from_utf8(&input).unwrap_err();
                    let want = vutf8::scalar::validate(&input).unwrap_err();
                    assert_eq!(std.valid_up_to(), o, "{}", what());
                    assert_eq!(
                        (want.valid_up_to(), want.error_len(), want.kind()),
                        (o, std.error_len(), kind),
                        "scalar reference, {}",
                        what()
                    );
                    for &b in backends {
                        assert_eq!(b.validate(&input), Err(want), "{b}, {}", what());
                        assert!(!b.is_valid(&input), "{b} is_valid, {}", what());
                    }
                    assert_eq!(
                        vutf8::from_utf8(&input).map(|_| ()),
                        Err(want),
                        "{}",
                        what()
                    );
                    assert!(!vutf8::is_valid(&input), "is_valid, {}", what());
                    let [whole, split] = stream(&input, o + n / 2 + 1);
                    assert_eq!(whole, Err(want), "Validator, {}", what());
                    assert_eq!(split, Err(want), "Validator in 2 chunks, {}", what());
                    inputs += 1;
                    checks += 2 * backends.len() as u64 + 6;
                }
            }
        }
    }
    (inputs, checks)
}

#[test]
fn every_error_class_at_every_offset_and_length() {
    let backends = common::backends();
    let (inputs, checks) = (AtomicU64::new(0), AtomicU64::new(0));
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let start = std::time::Instant::now();
    let work = || {
        while let Some(pattern) = PATTERNS.get(next.fetch_add(1, Ordering::Relaxed)) {
            let (n, c) = sweep(pattern, &backends);
            inputs.fetch_add(n, Ordering::Relaxed);
            checks.fetch_add(c, Ordering::Relaxed);
        }
    };
    // wasm32 (WASI) cannot start threads: there, the calling thread does all the work.
    if threads <= 1 || cfg!(target_family = "wasm") {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(work);
            }
        });
    }
    let (inputs, checks) = (inputs.into_inner(), checks.into_inner());
    eprintln!(
        "boundary sweep: {} patterns, {inputs} inputs, {checks} checks ({} backends), {:.1?}",
        PATTERNS.len(),
        backends.len(),
        start.elapsed()
    );
    assert!(inputs > 1_000_000);
}

#[test]
fn valid_inputs_of_every_length_after_every_prefix() {
    // The same shapes without an error: nothing may be reported.
    let backends = common::backends();
    let mut cases = 0;
    for w in 1..=4 {
        for m in [false, true] {
            for len in 0..=MAX_LEN {
                for o in (0..=len.min(MAX_OFFSET))
                    .step_by(7)
                    .chain([len.min(MAX_OFFSET)])
                {
                    let mut input = prefix(w, o);
                    input.extend_from_slice(&suffix(m, len - o));
                    common::check_all(&input, &backends);
                    assert_eq!(stream(&input, o / 2), [Ok(()), Ok(())]);
                    cases += 1;
                }
            }
        }
    }
    eprintln!("boundary sweep: {cases} valid inputs");
}
