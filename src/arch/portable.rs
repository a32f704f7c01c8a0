//! What every target has, whatever its vector instructions: the scalar decoder as a raw
//! validator, the fallback where no vector backend runs, the word-at-a-time count of
//! characters, and the byte-wise search for record delimiters and errors of a window. The table of backends (`super`) uses these where a backend has nothing
//! better; the x86 counter uses the word-wise count for its last bytes.

use crate::grammar::is_continuation;
use crate::tiers::{BLOCK, FALLBACK_STD_BELOW, RECORD_WINDOW};
use core::mem::MaybeUninit;

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

/// Room for the positions of one window's delimiters ([`Positions`]): one per byte at
/// most, and one that [`push_positions`] may write past the last.
pub(crate) const POSITIONS: usize = RECORD_WINDOW + 1;

/// The positions of a window's record delimiters, from the window's start, in order: what
/// a backend's `marks` writes ([`generic::marks`](super::generic::marks::marks)). Only
/// the first `count` are written.
pub(crate) type Positions = [MaybeUninit<u16>; POSITIONS];

// A position in a window fits a `u16`.
const _: () = assert!(RECORD_WINDOW <= 1 << 16);

/// Appends the positions of the set bits of `bits`, the marks of the 64 bytes at `at` in
/// the window, to `positions` from index `count`, and returns the new count. One position
/// per round, written whether or not there is a bit (the count only moves when there was),
/// so a block with one delimiter or none, which is most blocks of a log, costs no branch on
/// its bits; blocks with more take more rounds.
#[inline(always)]
pub(crate) fn push_positions(
    positions: &mut Positions,
    count: usize,
    bits: u64,
    at: usize,
) -> usize {
    let mut bits = bits;
    let mut count = count;
    loop {
        // With no bit left this writes `at + 64` one past the last position: a slot that
        // the next write overwrites or that is never read.
        positions[count] = MaybeUninit::new((at + bits.trailing_zeros() as usize) as u16);
        count += usize::from(bits != 0);
        bits &= bits.wrapping_sub(1);
        if bits == 0 {
            return count;
        }
    }
}

/// The record delimiters where no vector backend runs: see
/// [`generic::marks`](super::generic::marks::marks), whose contract this keeps.
pub(crate) fn marks(window: &[u8], byte: u8, positions: &mut Positions) -> (usize, bool) {
    assert!(window.len() <= RECORD_WINDOW, "a window at most");
    let mut count = 0;
    for (i, chunk) in window.chunks(BLOCK).enumerate() {
        count = push_positions(positions, count, mark_word(chunk, byte), i * BLOCK);
    }
    (count, window.is_ascii())
}

/// Where the errors of `region` are where no vector backend runs: see
/// [`generic::marks::flags`](super::generic::marks::flags), whose contract this keeps. Here
/// a flag is exactly where an ill-formed part starts (the scalar decoder, resuming after
/// each as `from_utf8_lossy` does).
pub(crate) fn flags(region: &[u8], words: &mut [u64]) -> bool {
    words[..region.len() / BLOCK + 2].fill(0);
    let mut at = 0;
    let mut any = false;
    while let Err(e) = crate::scalar::validate_from(region, at) {
        let start = e.valid_up_to();
        words[start / BLOCK] |= 1 << (start % BLOCK);
        any = true;
        match e.error_len() {
            Some(n) => at = start + n,
            None => break,
        }
    }
    any
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
