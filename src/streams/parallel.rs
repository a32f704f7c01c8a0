//! [`par_from_utf8`] and [`par_is_valid`]: one large input validated on all cores.
//!
//! # The idea
//!
//! Cut the input into pieces of 256 KiB to 4 MiB (a multiple of 64 KiB, about 8 per thread) and validate them independently on
//! rayon's current thread pool. A cut can fall inside a character, so each nominal cut
//! `i * chunk` is moved back over at most 3 continuation bytes (`80..BF`), by
//! [`crate::grammar::floor_boundary`]:
//!
//! - In valid UTF-8 this lands on the start of a character (a character has at most 3
//!   continuation bytes), so every piece of a valid input is valid on its own.
//! - Valid pieces concatenate to valid UTF-8. So the input is valid exactly when every
//!   piece is: [`par_is_valid`] is a parallel `all`, stopping early on any error.
//!
//! For the exact error, [`par_from_utf8`] asks rayon for the *first* piece, in input
//! order, that is invalid on its own (`position_first`: pieces after a known bad one are
//! abandoned, pieces before it still finish). All pieces before it are valid, so its start
//! is a character boundary of the whole input with only valid bytes before it, and the
//! first error of the whole input is the first error of the sequential path run from that
//! start. That run stops at the error, which lies inside the piece or within 3 bytes after
//! it (no piece ends inside a sequence that the next piece completes: each cut was moved
//! back to the lead of the character it fell inside, or, after 4 or more continuation
//! bytes in a row, left where no sequence reaches). Hence the result is exactly that of [`crate::from_utf8`], whichever
//! piece finished first.
//!
//! Inputs under [`PAR_THRESHOLD`] bytes, or a pool with one thread, take the sequential path:
//! below it the cost of waking the pool is larger than the gain.

use rayon::prelude::*;

use crate::reference::error::Utf8Error;
use crate::reference::grammar::floor_boundary;

/// Inputs shorter than this many bytes (2 MiB) are validated on the calling thread by
/// [`par_from_utf8`] and [`par_is_valid`]: for them, waking the thread pool costs more than
/// it saves (docs/PERFORMANCE.md#par-threshold; `bench/examples/stream_speed.rs sizes`).
pub const PAR_THRESHOLD: usize = 2 << 20;

/// Piece sizes are multiples of this (so that pieces start on the same 64-byte alignment
/// as the input, and tests can put errors at every possible cut).
const CHUNK_ALIGN: usize = 64 << 10;

/// The smallest and largest piece given to one task.
const MIN_CHUNK: usize = 256 << 10;
const MAX_CHUNK: usize = 4 << 20;

/// How many pieces per thread: more than one, so that a thread that is slowed down (a
/// busy machine) holds up the end by a small piece only.
const PIECES_PER_THREAD: usize = 8;

/// The piece size for an input of `len` bytes on `threads` threads.
fn chunk_size(len: usize, threads: usize) -> usize {
    len.div_ceil(threads.saturating_mul(PIECES_PER_THREAD))
        .clamp(MIN_CHUNK, MAX_CHUNK)
        .next_multiple_of(CHUNK_ALIGN)
}

/// The start of piece `i`: `i * chunk` moved back to a character boundary by
/// [`floor_boundary`], or the end of the input. Pieces never overlap or run backwards: a
/// piece is at least 64 KiB long and the cut moves back at most 3 bytes.
#[inline]
fn boundary(input: &[u8], i: usize, chunk: usize) -> usize {
    floor_boundary(input, i.saturating_mul(chunk))
}

/// Splits `input` into pieces and returns `(count, chunk)`, or `None` when it should be
/// validated on the calling thread.
fn plan(input: &[u8]) -> Option<(usize, usize)> {
    let threads = rayon::current_num_threads();
    if input.len() < PAR_THRESHOLD || threads < 2 {
        return None;
    }
    let chunk = chunk_size(input.len(), threads);
    Some((input.len().div_ceil(chunk), chunk))
}

/// Whether `input` is valid UTF-8, checked on all threads of rayon's current pool for large
/// inputs. Same answer as [`crate::is_valid`].
///
/// ```
/// let big = "ünïcödé ".repeat(1 << 18);
/// assert!(vutf8::par_is_valid(big.as_bytes()));
/// ```
pub fn par_is_valid(input: &[u8]) -> bool {
    let Some((count, chunk)) = plan(input) else {
        return crate::engine::is_valid(input);
    };
    (0..count).into_par_iter().all(|i| {
        let piece = &input[boundary(input, i, chunk)..boundary(input, i + 1, chunk)];
        crate::engine::is_valid(piece)
    })
}

/// Converts a slice of bytes to a string slice like [`crate::from_utf8`] (the same result,
/// the first error with its exact position), checked on all threads of rayon's current
/// pool for large inputs. Run it inside [`rayon::ThreadPool::install`] to choose the
/// threads.
///
/// ```
/// let mut big = "ünïcödé ".repeat(1 << 18).into_bytes();
/// assert!(vutf8::par_from_utf8(&big).is_ok());
/// big[3_000_001] = 0xFF;
/// big[1_000_001] = 0xFF;
/// let err = vutf8::par_from_utf8(&big).unwrap_err();
/// assert_eq!(err, vutf8::from_utf8(&big).unwrap_err());
/// ```
pub fn par_from_utf8(input: &[u8]) -> Result<&str, Utf8Error> {
    par_validate(input)?;
    // SAFETY: `par_validate` just checked that the bytes are valid UTF-8.
    Ok(unsafe { core::str::from_utf8_unchecked(input) })
}

/// The first error in `input`, found in parallel; see the module documentation.
fn par_validate(input: &[u8]) -> Result<(), Utf8Error> {
    let Some((count, chunk)) = plan(input) else {
        return crate::engine::validate(input);
    };
    let first_bad = (0..count).into_par_iter().position_first(|i| {
        let start = boundary(input, i, chunk);
        let piece = &input[start..boundary(input, i + 1, chunk)];
        !crate::engine::is_valid_at(piece, start as u64)
    });
    match first_bad {
        None => Ok(()),
        Some(i) => {
            let start = boundary(input, i, chunk);
            crate::engine::validate(&input[start..]).map_err(|e| e.shifted(start))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_step_back_over_at_most_three_continuation_bytes() {
        let input = b"abcd\x80\x80\x80\x80\x80\x80ef";
        assert_eq!(boundary(input, 0, 4), 0);
        // 4 is a continuation byte: back to "d".
        assert_eq!(boundary(input, 1, 4), 3);
        // 8 follows 3 continuation bytes (5, 6, 7): no sequence reaches it, the cut stays.
        assert_eq!(boundary(input, 2, 4), 8);
        assert_eq!(boundary(input, 3, 4), input.len());
        assert_eq!(boundary(input, usize::MAX, 4), input.len());
        let text = "ab€🌍".repeat(100);
        for chunk in 4..20 {
            for i in 0..=text.len() / chunk + 1 {
                let b = boundary(text.as_bytes(), i, chunk);
                assert!(text.is_char_boundary(b), "{chunk} {i}");
                assert!(b <= (i * chunk).min(text.len()) && b + 3 >= (i * chunk).min(text.len()));
            }
        }
    }

    #[test]
    #[cfg(not(target_family = "wasm"))] // builds a 2-thread pool: no threads on wasm32-wasip1
    fn the_first_piece_starts_at_the_start() {
        // Regression: piece 0 used to skip leading continuation bytes, so an input of
        // 2 MiB or more starting with 1 to 3 of them was reported valid (and
        // `par_from_utf8` returned a `&str` holding invalid UTF-8).
        assert_eq!(boundary(b"\x80\x80abc", 0, 2), 0);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for lead in [
            &b"\x80"[..],
            b"\xBF\xBF",
            b"\x80\x80\x80",
            b"\x80\x80\x80\x80",
        ] {
            let mut input = lead.to_vec();
            input.resize(PAR_THRESHOLD + (1 << 20), b'a');
            let want = crate::engine::from_utf8(&input).map(|_| ());
            assert_eq!(want.unwrap_err().valid_up_to(), 0);
            pool.install(|| {
                assert_eq!(par_from_utf8(&input).map(|_| ()), want, "{lead:02X?}");
                assert!(!par_is_valid(&input), "{lead:02X?}");
            });
        }
    }

    #[test]
    fn chunk_sizes_stay_in_range() {
        assert_eq!(chunk_size(1 << 20, 2), MIN_CHUNK);
        assert_eq!(chunk_size(256 << 20, 2), MAX_CHUNK);
        assert_eq!(chunk_size(64 << 20, 4), 2 << 20);
        assert_eq!(chunk_size((64 << 20) + 1, 4), (2 << 20) + CHUNK_ALIGN);
        assert_eq!(chunk_size(usize::MAX, usize::MAX), MIN_CHUNK);
    }
}
