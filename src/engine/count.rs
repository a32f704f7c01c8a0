//! Counting characters.
//!
//! In valid UTF-8 every character has exactly one byte that is not a continuation byte
//! (`80..BF`), so the number of characters is the number of such bytes, and no decoding
//! is needed. [`count_chars`] counts them with the counter of the backend this CPU runs
//! (`crate::arch`'s table: AVX2 where the CPU has it, 32 bytes per compare) and a word at a
//! time elsewhere and for short inputs (`crate::tiers::COUNT_PORTABLE_BELOW`).
//!
//! [`validate_and_count`] checks and counts in one pass over memory: it works through the
//! input in cache-sized pieces, validating each with the vector validator and counting it
//! while it is still in L1 cache. Pieces are cut at character boundaries
//! ([`crate::grammar::floor_boundary`]), so a piece of valid text is valid on its own.

use crate::arch;
use crate::engine;
use crate::reference::error::Utf8Error;
use crate::reference::grammar::floor_boundary;
use crate::tiers::{COUNT_PIECE, COUNT_PORTABLE_BELOW};

/// The number of characters (Unicode scalar values) in `text`; the same as
/// `text.chars().count()`, several times faster on long text.
///
/// ```
/// assert_eq!(vutf8::count_chars("grüße, 世界 🌍"), 11);
/// ```
#[inline]
pub fn count_chars(text: &str) -> usize {
    count_non_continuation(text.as_bytes())
}

/// The number of bytes in `bytes` that are not continuation bytes (`80..BF`). For valid
/// UTF-8 this is the number of characters.
#[inline]
pub(crate) fn count_non_continuation(bytes: &[u8]) -> usize {
    if bytes.len() < COUNT_PORTABLE_BELOW {
        arch::portable::count_non_continuation(bytes)
    } else {
        arch::count_non_continuation(bytes)
    }
}

/// Checks that `input` is valid UTF-8 (exactly like [`crate::from_utf8`]) and returns the
/// number of characters.
///
/// ```
/// assert_eq!(vutf8::validate_and_count("añb".as_bytes()), Ok(3));
/// assert_eq!(vutf8::validate_and_count(b"a\xFF").unwrap_err().valid_up_to(), 1);
/// ```
pub fn validate_and_count(input: &[u8]) -> Result<usize, Utf8Error> {
    let mut count = 0;
    let mut pos = 0;
    while pos < input.len() {
        // Never more than 3 bytes back, so `end > pos`.
        let end = floor_boundary(input, pos + COUNT_PIECE);
        let piece = &input[pos..end];
        match engine::validate(piece) {
            Ok(()) => count += count_non_continuation(piece),
            // The kind of an error at the end of a piece can depend on the bytes after it
            // (`C0` is "overlong" before a continuation byte, `E2 82` is cut short, not
            // incomplete, before ASCII): decide it on the whole input. Everything before it
            // is valid, so the first error from there is the input's first error.
            Err(e) if end < input.len() => {
                return Err(
                    crate::reference::scalar::validate_from(input, pos + e.valid_up_to())
                        .err()
                        .unwrap_or(e.shifted(pos)),
                )
            }
            Err(e) => return Err(e.shifted(pos)),
        }
        pos = end;
    }
    Ok(count)
}

#[cfg(test)]
mod tests {

    #[test]
    fn portable_matches_naive_on_every_byte() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        for start in 0..9 {
            let b = &bytes[start..];
            let naive = b.iter().filter(|&&x| !(0x80..=0xBF).contains(&x)).count();
            assert_eq!(crate::arch::portable::count_non_continuation(b), naive);
            assert_eq!(crate::arch::count_non_continuation(b), naive);
        }
    }

    #[test]
    fn vector_count_at_every_length() {
        // Lengths across the 32-byte register, the 256-byte step and the 127-step group.
        let mut x = 12345u32;
        let bytes: Vec<u8> = (0..70_000)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (x >> 16) as u8
            })
            .collect();
        let naive = |b: &[u8]| b.iter().filter(|&&x| !(0x80..=0xBF).contains(&x)).count();
        for len in (0..600).chain([32_511, 32_512, 32_513, 65_024, 65_025, 69_999]) {
            let b = &bytes[1..=len];
            assert_eq!(crate::arch::count_non_continuation(b), naive(b), "{len}");
        }
    }
}
