//! `par_from_utf8` / `par_is_valid`: the same result as `from_utf8` / `is_valid` with
//! errors at, just before and just after every possible piece boundary, several errors in
//! different pieces, inputs around the size threshold, and pools of several sizes.
//!
//! wasm32 (WASI) cannot start threads, and rayon then refuses to build a pool of a chosen
//! size (`ThreadPoolBuilder::build` returns its `Unsupported` error; only the implicit
//! global pool falls back to the calling thread). So the tests that build pools are
//! compiled only where threads exist (`cfg(not(target_family = "wasm"))`, listed as
//! excluded by `scripts/test-cross.sh`), and `the_global_pool_gives_the_same_answers`
//! runs everywhere: on wasm32 it checks the fallback.
#![cfg(feature = "rayon")]

mod common;

use vutf8::PAR_THRESHOLD;
use vutf8_corpus::{generate, with_error, Corruption, Script};

/// Pieces are multiples of this many bytes (see `src/streams/parallel.rs`), so every cut lies at a
/// multiple of it, moved forward by up to 3 bytes.
const CUT_ALIGN: usize = 64 << 10;

#[cfg(not(target_family = "wasm"))]
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Checks both functions against the one-shot API (every field of the error) and std.
fn check(input: &[u8], what: &dyn std::fmt::Debug) {
    let want = vutf8::from_utf8(input);
    assert_eq!(vutf8::par_from_utf8(input), want, "{what:?}");
    assert_eq!(vutf8::par_is_valid(input), want.is_ok(), "{what:?}");
    let std = std::str::from_utf8(input).map_err(|e| (e.valid_up_to(), e.error_len()));
    assert_eq!(
        want.map_err(|e| (e.valid_up_to(), e.error_len())),
        std,
        "{what:?}"
    );
}

/// Bad bytes written over `text` at `pos`: every kind of error, and the ones that involve
/// the neighbouring character (a continuation byte replaced by ASCII cuts the character
/// before; an extra continuation byte lengthens it).
#[cfg(not(target_family = "wasm"))]
fn corrupt(text: &[u8], pos: usize, how: usize) -> Vec<u8> {
    let mut out = text.to_vec();
    match how {
        0 => out[pos] = 0xFF,
        1 => out[pos] = 0x80,
        2 => out[pos] = b'a',
        3 => out[pos] = 0xC0,
        4 => out[pos] = 0xF0,
        5 => out[pos..pos + 3].copy_from_slice(b"\xED\xA0\x80"),
        _ => unreachable!(),
    }
    out
}

#[test]
#[cfg(not(target_family = "wasm"))] // builds pools: needs threads
fn errors_around_every_cut() {
    let len = PAR_THRESHOLD + 12345;
    // In the sample tier (the default, emulation, sanitizers; see `common::full_tier`), only the
    // multiples of 256 KiB (the smallest piece, which is the piece size of these inputs on
    // 2 to 4 threads, so these are the real cuts) and the first multiple of CUT_ALIGN.
    let reduced = !common::full_tier();
    let cuts: Vec<usize> = (CUT_ALIGN..len)
        .step_by(CUT_ALIGN)
        .filter(|&c| !reduced || c == CUT_ALIGN || c % (256 << 10) == 0)
        .collect();
    for (threads, script) in [(2, Script::Emoji), (3, Script::Cjk), (4, Script::Mixed)] {
        let text = generate(script, len, threads as u64);
        pool(threads).install(|| {
            check(&text, &"valid");
            for &cut in &cuts {
                for pos in cut - 4..cut + 5 {
                    for how in 0..6 {
                        check(&corrupt(&text, pos, how), &(threads, cut, pos, how));
                    }
                }
            }
        });
    }
}

#[test]
#[cfg(not(target_family = "wasm"))] // builds pools: needs threads
fn the_first_error_wins_even_if_a_later_piece_finishes_first() {
    let len = 4 * PAR_THRESHOLD;
    let text = generate(Script::Mixed, len, 77);
    for threads in [2, 3, 8] {
        pool(threads).install(|| {
            // A late error in an early piece and an early error in a later piece.
            for (first, later) in [
                (CUT_ALIGN - 10, CUT_ALIGN + 1),
                (len / 2 - 3, len / 2 + 3),
                (1, len - 10),
            ] {
                for c in Corruption::ALL {
                    let (once, _) = with_error(&text, later, Corruption::InvalidByte);
                    let (twice, at) = with_error(&once, first, c);
                    check(&twice, &(threads, first, later, c));
                    assert_eq!(vutf8::par_from_utf8(&twice).unwrap_err().valid_up_to(), at);
                }
            }
            // An error in every piece.
            let mut many = text.clone();
            for pos in (1000..len).step_by(CUT_ALIGN / 2) {
                many = with_error(&many, pos, Corruption::Overlong).0;
            }
            check(&many, &threads);
        });
    }
}

#[test]
#[cfg(not(target_family = "wasm"))] // builds pools: needs threads
fn inputs_around_the_threshold_and_at_the_end() {
    let text = generate(Script::Cyrillic, PAR_THRESHOLD + 70_000, 5);
    for threads in [1, 2, 5] {
        pool(threads).install(|| {
            for len in [
                0,
                1,
                63,
                64,
                65,
                4096,
                PAR_THRESHOLD - 1,
                PAR_THRESHOLD,
                PAR_THRESHOLD + 1,
                text.len(),
            ] {
                let input = &text[..len];
                check(input, &(threads, len)); // may end inside a character
                if len >= 16 {
                    for how in 0..5 {
                        check(&corrupt(input, len - 1, how), &(threads, len, how));
                        check(&corrupt(input, len / 2, how), &(threads, len, how));
                    }
                }
            }
        });
    }
}

#[test]
#[cfg(not(target_family = "wasm"))] // builds pools: needs threads
fn continuation_runs_longer_than_three_bytes_at_a_cut() {
    let len = 2 * PAR_THRESHOLD;
    let text = generate(Script::Ascii, len, 1);
    pool(2).install(|| {
        for start in PAR_THRESHOLD - 6..PAR_THRESHOLD + 2 {
            for run in 1..=8 {
                let mut bad = text.clone();
                bad[start] = 0xF0;
                bad[start + 1..start + 1 + run].fill(0x80);
                check(&bad, &(start, run));
            }
        }
    });
}

/// The implicit global pool, which every target has (on wasm32, rayon runs it on the
/// calling thread): errors near the start, at a cut, in the middle and at the end.
#[test]
fn the_global_pool_gives_the_same_answers() {
    let len = 2 * PAR_THRESHOLD + 777;
    let text = generate(Script::Mixed, len, 9);
    check(&text, &"valid");
    for at in [0, CUT_ALIGN - 2, CUT_ALIGN + 1, len / 2, len - 10] {
        for c in Corruption::ALL {
            let (bad, pos) = with_error(&text, at, c);
            check(&bad, &(at, c));
            assert_eq!(vutf8::par_from_utf8(&bad).unwrap_err().valid_up_to(), pos);
        }
    }
}
