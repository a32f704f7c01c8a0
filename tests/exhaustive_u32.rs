//! Every 4-byte string that starts with a lead byte `C0..FF` (2^30 of them), checked by the
//! fastest backend (`Backend::selected()`) inside long inputs, against the scalar reference
//! (reason, code point, sequence length) and `core::str::from_utf8` (position, length).
//!
//! A string whose first byte is ASCII is a whole character followed by a 3-byte string,
//! and every 3-byte string is checked after valid characters, ASCII among them, on every
//! backend by `tests/exhaustive.rs`'s full tier, in the same contexts of the medium path
//! (its first block, the first block of its first group) and at the end of short inputs.
//! A string whose first byte is a continuation byte `80..BF` follows a whole character
//! here (the separator), so its error is that byte, an unexpected continuation byte of
//! length 1, whatever its other bytes: each of those 2^30 strings checks the same error at
//! its own place, which `tests/exhaustive.rs` checks at every offset. So neither kind is
//! checked again here unless asked (`VUTF8_U32_FIRST=00..FF`, all 2^32; `80..FF` adds the
//! continuation bytes back; they were more than half of this test's time). Strings that
//! start with a lead byte are all checked: only this test sees every combination of their
//! later bytes, on which their errors, kinds and code points depend.
//!
//! Ignored by default: it takes minutes on all cores. Run it with
//! `cargo test --release --test exhaustive_u32 -- --ignored --nocapture`
//! (`VUTF8_U32_FIRST=F0..F4` chooses the first bytes, here for a quicker partial run).
//!
//! A 4-byte string on its own is a short input, which the vector backends handle in one
//! register or their short path (`vutf8::tiers`). So the strings are checked in batches of
//! 64, in one buffer of about 900 to 1,000 bytes that takes the medium path (the first block,
//! then groups of blocks, the error tested at the end; on AVX-512 every length takes it):
//!
//! ```text
//! sep s0 sep s1 ... sep s63 "a" <2 blocks of 1- to 4-byte text> <ASCII up to 577 bytes>
//! ```
//!
//! Each separator is one valid character, of 1 to 4 bytes in turn (rotated from batch to
//! batch), so the strings meet every alignment within the registers and blocks, after
//! every kind of character. A separator starts with a byte that is not a continuation
//! byte, so the error (if any) in `si` is that of `si` followed by ASCII, computed once per
//! string. The backend validates the buffer from its start: `Ok` must mean every string
//! is valid; an error must be exactly the first invalid string's. That string is then
//! overwritten with valid ASCII and the buffer validated again, from the start of the
//! 64-byte block that holds the end of that string (moved to the next character boundary),
//! until no error is left. So every string is checked at its own offset in a block of an
//! input of the medium path, of 577 bytes (`SHORT_BELOW + BLOCK`) or more, with the true
//! bytes before it. (The main loop, for long inputs on the 128- and 256-bit backends, is
//! the boundary sweep's and `tests/alignment.rs`'s job.)

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use vutf8::tiers::{BLOCK, SHORT_BELOW};
use vutf8::{Backend, ErrorKind, Utf8Error};

const BATCH: usize = 64;
const SEPARATORS: [&str; 4] = ["a", "é", "€", "😀"];

/// What the error in a string must be: offset in the string, length, kind, code point,
/// sequence length.
type Expect = (usize, Option<usize>, ErrorKind, Option<u32>, usize);

fn details(e: &Utf8Error) -> Expect {
    (
        e.valid_up_to(),
        e.error_len(),
        e.kind(),
        e.code_point(),
        e.sequence_len(),
    )
}

/// The expected error of `s` followed by a non-continuation byte, from the scalar
/// reference, checked against std.
fn expect(s: [u8; 4]) -> Option<Expect> {
    let t = [s[0], s[1], s[2], s[3], b'a'];
    let reference = vutf8::scalar::validate(&t);
    let std = std::str::from_utf8(&t);
    assert_eq!(
        reference.map_err(|e| (e.valid_up_to(), e.error_len())),
        std.map(|_| ())
            .map_err(|e| (e.valid_up_to(), e.error_len())),
        "scalar reference vs std on {s:02X?}"
    );
    reference.err().map(|e| details(&e))
}

/// Checks the 2^24 strings that start with `first`; returns the number of backend calls.
fn check_first_byte(backend: Backend, first: u8, trailer: &[u8]) -> u64 {
    let mut buf = Vec::with_capacity(BATCH * 8 + trailer.len());
    let mut starts = [0usize; BATCH];
    let mut want = [None; BATCH];
    let mut calls = 0u64;
    for batch in 0..(1u32 << 24) / BATCH as u32 {
        buf.clear();
        for (i, (start, want)) in starts.iter_mut().zip(&mut want).enumerate() {
            let r = batch * BATCH as u32 + i as u32;
            let s = [first, (r >> 16) as u8, (r >> 8) as u8, r as u8];
            buf.extend_from_slice(SEPARATORS[(i + batch as usize) % 4].as_bytes());
            *start = buf.len();
            buf.extend_from_slice(&s);
            *want = expect(s);
        }
        buf.extend_from_slice(trailer);
        // The next string to find, and where the input of the next call starts.
        let (mut next, mut from) = (0, 0);
        loop {
            let input = &buf[from..];
            let got = backend.validate(input);
            calls += 1;
            let Some(j) = (next..BATCH).find(|&j| want[j].is_some()) else {
                assert_eq!(
                    got,
                    Ok(()),
                    "{backend}: batch {first:02X} {batch}: {input:02X?}"
                );
                break;
            };
            let (at, len, kind, cp, seq) = want[j].unwrap();
            let e = got.unwrap_err();
            let expected = (starts[j] - from + at, len, kind, cp, seq);
            if details(&e) != expected {
                panic!(
                    "{backend} on string {:02X?} at {} of an input: got {:?}, want {expected:?}\n{input:02X?}",
                    &buf[starts[j]..starts[j] + 4],
                    starts[j] - from,
                    details(&e)
                );
            }
            buf[starts[j]..starts[j] + 4].copy_from_slice(b"aaaa");
            next = j + 1;
            // The start of the block, moved forward to a character boundary.
            from = (starts[j] + 4) / 64 * 64;
            while buf[from] & 0xC0 == 0x80 {
                from += 1;
            }
        }
    }
    calls
}

/// The first bytes checked unless `VUTF8_U32_FIRST` says otherwise: every lead byte (see
/// the module documentation).
const DEFAULT_FIRST: std::ops::RangeInclusive<u8> = 0xC0..=0xFF;

/// The first bytes to check: [`DEFAULT_FIRST`], or the range in `VUTF8_U32_FIRST` (hex,
/// `F0..F4`; `00..FF` for all).
fn first_bytes() -> Vec<u8> {
    let Ok(range) = std::env::var("VUTF8_U32_FIRST") else {
        return DEFAULT_FIRST.collect();
    };
    let (lo, hi) = range.split_once("..").unwrap_or((&range, &range));
    let parse = |h: &str| u8::from_str_radix(h.trim(), 16).expect("VUTF8_U32_FIRST: hex bytes");
    (parse(lo)..=parse(hi)).collect()
}

#[test]
#[ignore = "minutes on all cores: cargo test --release --test exhaustive_u32 -- --ignored"]
fn every_4_byte_string_in_long_inputs() {
    let backend = Backend::selected();
    let firsts = first_bytes();
    // "a", then two blocks of 1- to 4-byte characters (so that every string is followed by
    // text of every kind, through the block after its own), then ASCII up to the length
    // that keeps every call in the medium path, whatever the number of strings before it.
    // The ASCII costs each call one ASCII test per group instead of the whole lookup: it is
    // there for the length alone.
    let mut trailer = b"a".to_vec();
    for c in ["é", "€", "😀", "z"].iter().cycle() {
        if trailer.len() >= 2 * BLOCK {
            break;
        }
        trailer.extend_from_slice(c.as_bytes());
    }
    trailer.resize(SHORT_BELOW + BLOCK, b'.');
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicUsize::new(0);
    let (calls, done) = (AtomicU64::new(0), AtomicUsize::new(0));
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(&first) = firsts.get(next.fetch_add(1, Ordering::Relaxed)) {
                    calls.fetch_add(
                        check_first_byte(backend, first, &trailer),
                        Ordering::Relaxed,
                    );
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if n % 16 == 0 || n == firsts.len() {
                        eprintln!(
                            "exhaustive_u32: {n}/{} first bytes, {:.0?}",
                            firsts.len(),
                            start.elapsed()
                        );
                    }
                }
            });
        }
    });
    let strings = firsts.len() as u64 * (1 << 24);
    eprintln!(
        "exhaustive_u32: {strings} strings checked by {backend} in {} calls on {threads} threads, {:.1?}",
        calls.into_inner(),
        start.elapsed()
    );
}
