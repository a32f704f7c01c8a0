//! Counting characters.
//!
//! In valid UTF-8 every character has exactly one byte that is not a continuation byte
//! (`80..BF`), so the number of characters is the number of such bytes, and no decoding
//! is needed. [`count_chars`] counts them with AVX2 where the CPU has it (32 bytes per
//! compare, byte-wide counters summed with `vpsadbw`), and a word at a time elsewhere.
//!
//! [`validate_and_count`] checks and counts in one pass over memory: it works through the
//! input in cache-sized pieces, validating each with the vector validator and counting it
//! while it is still in L1 cache. Pieces are cut at character boundaries
//! ([`crate::grammar::floor_boundary`]), so a piece of valid text is valid on its own.

use crate::error::Utf8Error;
use crate::grammar::{floor_boundary, is_continuation};

use crate::tiers::COUNT_PORTABLE_BELOW;

/// The piece size of [`validate_and_count`]: small enough to stay in L1 cache.
const PIECE: usize = 16 * 1024;

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
        count_portable(bytes)
    } else {
        crate::arch::count_non_continuation(bytes)
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
        let end = floor_boundary(input, pos + PIECE);
        let piece = &input[pos..end];
        match crate::validate(piece) {
            Ok(()) => count += count_non_continuation(piece),
            // The kind of an error at the end of a piece can depend on the bytes after it
            // (`C0` is "overlong" before a continuation byte, `E2 82` is cut short, not
            // incomplete, before ASCII): decide it on the whole input. Everything before it
            // is valid, so the first error from there is the input's first error.
            Err(e) if end < input.len() => {
                return Err(crate::scalar::validate_from(input, pos + e.valid_up_to())
                    .err()
                    .unwrap_or(e.shifted(pos)))
            }
            Err(e) => return Err(e.shifted(pos)),
        }
        pos = end;
    }
    Ok(count)
}

/// The number of bytes that are not continuation bytes, a machine word at a time: in each
/// byte, bit 7 clear or bit 6 set.
pub(crate) fn count_portable(bytes: &[u8]) -> usize {
    const WORD: usize = core::mem::size_of::<usize>();
    const HIGH: usize = usize::from_ne_bytes([0x80; WORD]);
    let mut words = bytes.chunks_exact(WORD);
    let mut count = 0;
    for w in words.by_ref() {
        let w = usize::from_ne_bytes(w.try_into().unwrap_or([0; WORD]));
        // Bit 7 of each byte: set when bit 7 is clear or bit 6 is set. Shifting left by one
        // moves bit 6 into bit 7 of the same byte (the carry from the byte below lands in
        // bit 0, which the mask drops).
        count += ((!w | (w << 1)) & HIGH).count_ones() as usize;
    }
    count
        + words
            .remainder()
            .iter()
            .filter(|&&b| !is_continuation(b))
            .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_matches_naive_on_every_byte() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        for start in 0..9 {
            let b = &bytes[start..];
            let naive = b.iter().filter(|&&x| !(0x80..=0xBF).contains(&x)).count();
            assert_eq!(count_portable(b), naive);
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
