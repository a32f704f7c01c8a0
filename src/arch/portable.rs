//! What every target has, whatever its vector instructions: the scalar decoder as a raw
//! validator, the fallback where no vector backend runs, the word-at-a-time count of
//! characters, and the byte-wise marks of record delimiters. The table of backends (`super`) uses these where a backend has nothing
//! better; the x86 counter uses the word-wise count for its last bytes.

use crate::grammar::is_continuation;
use crate::tiers::{BLOCK, FALLBACK_STD_BELOW};

/// The scalar decoder as a raw validator: its error position is exact.
pub(crate) fn scalar_validate(input: &[u8], _at: usize) -> Result<(), usize> {
    crate::scalar::validate(input).map_err(|e| e.valid_up_to())
}

/// What the engine runs where no vector backend is available: the scalar decoder, except
/// that short inputs go to `core::str::from_utf8`, whose loop is faster than ours there
/// (the vector backends take them in one register). The position is exact either way.
pub(crate) fn fallback_validate(input: &[u8], at: usize) -> Result<(), usize> {
    if input.len() < FALLBACK_STD_BELOW {
        core::str::from_utf8(input)
            .map(|_| ())
            .map_err(|e| e.valid_up_to())
    } else {
        scalar_validate(input, at)
    }
}

/// The record delimiters' marks where no vector backend runs: see
/// [`generic::marks`](super::generic::marks::marks), whose contract this keeps.
pub(crate) fn marks(window: &[u8], byte: u8, marks: &mut [u64]) -> bool {
    assert!(
        window.len().div_ceil(BLOCK) <= marks.len(),
        "a bit for every byte of the window"
    );
    for (chunk, word) in window.chunks(BLOCK).zip(marks.iter_mut()) {
        *word = mark_word(chunk, byte);
    }
    window.is_ascii()
}

/// The marks of at most 64 bytes: bit `i` set when `chunk[i] == byte`.
pub(crate) fn mark_word(chunk: &[u8], byte: u8) -> u64 {
    debug_assert!(chunk.len() <= BLOCK);
    chunk
        .iter()
        .enumerate()
        .fold(0, |bits, (i, &b)| bits | u64::from(b == byte) << i)
}

/// The number of bytes that are not continuation bytes, a machine word at a time: in each
/// byte, bit 7 clear or bit 6 set.
pub(crate) fn count_non_continuation(bytes: &[u8]) -> usize {
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
