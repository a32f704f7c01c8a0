//! A records window as the scans of `vutf8::records` write it: the positions of its
//! delimiters ([`Positions`]) and its error bits ([`ErrorBits`]), and the byte-wise scan
//! where no vector backend runs ([`scan`]). The vector scan is
//! [`generic::delimiters`](super::generic::delimiters), which writes the same types; the records
//! iterator that reads them is `crate::records::delimited`. (They live here, below the
//! records layer, because the scans of `crate::arch` write them.)

use crate::reference::grammar::is_continuation;
use crate::tiers::{BLOCK, RECORD_WINDOW};
use core::mem::MaybeUninit;

/// Room for the positions of one window's delimiters ([`Positions`]): one per byte at
/// most, and one that [`push_positions`] may write past the last.
pub(crate) const POSITIONS: usize = RECORD_WINDOW + 1;

/// The positions of a window's record delimiters, from the window's start, in order: what
/// a backend's `scan` writes ([`generic::delimiters::scan`](super::generic::delimiters::scan)). Only
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

/// The error bits of a records window, a bit per byte (bit `i % 64` of word `i / 64` for
/// the window's byte `i`): what a backend's `scan` writes
/// ([`generic::delimiters::scan`](super::generic::delimiters::scan) says what a bit means).
pub(crate) type ErrorBits = [u64; WINDOW_WORDS];

/// The words of [`ErrorBits`]: one per block of a window.
pub(crate) const WINDOW_WORDS: usize = RECORD_WINDOW / BLOCK;

/// The scan of a records window where no vector backend runs: see
/// [`generic::delimiters::scan`](super::generic::delimiters::scan), whose contract this keeps. Here a
/// bit is exactly where an ill-formed part starts, the text decoded as `from_utf8_lossy`
/// does (resuming after each); decoding starts at the character that holds the window's
/// first byte, whose lead may lie up to 3 bytes before the window, and a part that starts
/// before the window is marked at the window's first byte (it is in the same record: only
/// continuation bytes lie between). A sequence that the buffer's end leaves open has no bit.
pub(crate) fn scan(
    bytes: &[u8],
    from: usize,
    byte: u8,
    positions: &mut Positions,
    words: &mut ErrorBits,
) -> (usize, u64) {
    let end = bytes.len().min(from + RECORD_WINDOW);
    let window = &bytes[from..end];
    let mut count = 0;
    for (i, chunk) in window.chunks(BLOCK).enumerate() {
        count = push_positions(positions, count, mark_word(chunk, byte), i * BLOCK);
    }
    // The last byte that is not a continuation byte among the 3 before the window: a
    // boundary between characters (or ill-formed parts) wherever the decoding started.
    let start = (from.saturating_sub(3)..from)
        .rev()
        .find(|&i| !is_continuation(bytes[i]))
        .unwrap_or(from);
    let text = &bytes[start..end];
    let mut with_bits = 0u64;
    let mut at = 0;
    while let Err(e) = crate::reference::scalar::validate_from(text, at) {
        let Some(n) = e.error_len() else { break };
        let i = (start + e.valid_up_to()).max(from) - from;
        let k = i / BLOCK;
        if with_bits >> k & 1 == 0 {
            words[k] = 0;
        }
        words[k] |= 1 << (i % BLOCK);
        with_bits |= 1 << k;
        at = e.valid_up_to() + n;
    }
    (count, with_bits)
}

/// The marks of at most 64 bytes: bit `i` set when `chunk[i] == byte`.
pub(crate) fn mark_word(chunk: &[u8], byte: u8) -> u64 {
    debug_assert!(chunk.len() <= BLOCK);
    chunk
        .iter()
        .enumerate()
        .fold(0, |bits, (i, &b)| bits | u64::from(b == byte) << i)
}
