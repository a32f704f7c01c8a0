//! What every target has, whatever its vector instructions: the scalar decoder as a raw
//! validator, the fallback where no vector backend runs, the word-at-a-time count of
//! characters, the byte-wise scan of a records window for its delimiters and errors, and the
//! scalar search for ill-formed parts. The table of backends (`super`) uses these where a backend has nothing
//! better; the x86 counter uses the word-wise count for its last bytes.

use crate::decode::{decode_fault, Strict};
use crate::grammar::is_continuation;
use crate::tiers::{BLOCK, FALLBACK_STD_BELOW, RECORD_WINDOW, SUBPART_BLOCKS};
use core::mem::MaybeUninit;

/// The scalar decoder as a raw validator: its error position is exact.
pub(crate) fn scalar_validate(input: &[u8], _at: usize) -> Result<(), usize> {
    crate::scalar::validate(input).map_err(|e| e.valid_up_to())
}

/// [`scalar_validate`]'s answer alone (the scalar backend's `valid` column).
pub(crate) fn scalar_is_valid(input: &[u8], at: usize) -> bool {
    scalar_validate(input, at).is_ok()
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

/// [`fallback_validate`]'s answer alone.
pub(crate) fn fallback_is_valid(input: &[u8], at: usize) -> bool {
    fallback_validate(input, at).is_ok()
}

/// Room for the positions of one window's delimiters ([`Positions`]): one per byte at
/// most, and one that [`push_positions`] may write past the last.
pub(crate) const POSITIONS: usize = RECORD_WINDOW + 1;

/// The positions of a window's record delimiters, from the window's start, in order: what
/// a backend's `scan` writes ([`generic::marks::scan`](super::generic::marks::scan)). Only
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
/// ([`generic::marks::scan`](super::generic::marks::scan) says what a bit means).
pub(crate) type ErrorBits = [u64; WINDOW_WORDS];

/// The words of [`ErrorBits`]: one per block of a window.
pub(crate) const WINDOW_WORDS: usize = RECORD_WINDOW / BLOCK;

/// The scan of a records window where no vector backend runs: see
/// [`generic::marks::scan`](super::generic::marks::scan), whose contract this keeps. Here a
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
    while let Err(e) = crate::scalar::validate_from(text, at) {
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

/// What a search for ill-formed parts ([`generic::subparts::scan`](super::generic::subparts::scan)) says of one block: bit `i` of each word for the block's byte `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct BlockParts {
    /// Where an ill-formed part starts.
    pub(crate) starts: u64,
    /// Where a lead byte with a valid second byte is (`S2`): an ill-formed part that starts
    /// there is 2 bytes long or more.
    pub(crate) two: u64,
    /// Where such a lead needs a third byte and has one (`S3`): an ill-formed part that
    /// starts there is 3 bytes long.
    pub(crate) three: u64,
}

impl BlockParts {
    /// The length (1 to 3) of the ill-formed part that starts at the block's byte `i`.
    #[inline(always)]
    pub(crate) fn len_at(&self, i: u32) -> usize {
        1 + ((self.two >> i) & 1) as usize + ((self.three >> i) & 1) as usize
    }
}

/// What a search for ill-formed parts returns: the parts of up to [`SUBPART_BLOCKS`]
/// blocks, how many blocks, and the carry out of the last (returned by value, so that a
/// caller's state never has its address taken by the search).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Subparts {
    /// The blocks, `parts[k]` for the block `k * BLOCK` bytes into the stretch.
    pub(crate) parts: [BlockParts; SUBPART_BLOCKS],
    /// How many of `parts` the stretch has.
    pub(crate) blocks: usize,
    /// Which of the 3 bytes after the last block a sequence or part in it takes.
    pub(crate) carry: u64,
}

/// The ill-formed parts of a stretch where no vector backend runs: see
/// [`generic::subparts::scan`](super::generic::subparts::scan), whose contract this keeps,
/// from the scalar decoder: each sequence decoded in turn (a sequence that the end of
/// `bytes` leaves open is a part as long as its bytes), an ill-formed part marked where it
/// starts with its length, and the carry out the bytes after the last block that the last
/// sequence or part takes.
pub(crate) fn subparts(bytes: &[u8], from: usize, carry: u64) -> Subparts {
    let len = bytes.len();
    let blocks = (len - from).div_ceil(BLOCK).min(SUBPART_BLOCKS);
    let end = from + blocks * BLOCK;
    let mut out = Subparts {
        blocks,
        ..Subparts::default()
    };
    let mut at = (from + carry.trailing_ones() as usize).min(len);
    while at < end.min(len) {
        let n = match decode_fault::<Strict, false>(&bytes[at..]) {
            Ok((_, n)) => n,
            Err(fault) => {
                let n = fault.error_len().unwrap_or(len - at);
                let (k, i) = ((at - from) / BLOCK, (at - from) % BLOCK);
                out.parts[k].starts |= 1 << i;
                out.parts[k].two |= u64::from(n >= 2) << i;
                out.parts[k].three |= u64::from(n >= 3) << i;
                n
            }
        };
        at += n;
    }
    // The bytes past the last block that the last sequence or part takes.
    let over = at.saturating_sub(end) as u32;
    out.carry = (1u64 << over) - 1;
    out
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
