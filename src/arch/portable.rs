//! What every target has, whatever its vector instructions: the scalar decoder as a raw
//! validator, the fallback where no vector backend runs, the word-at-a-time count of
//! characters, and the scalar search for ill-formed parts. The table of backends
//! (`super::backends`) uses these where a backend has nothing better; the x86 counter uses
//! the word-wise count for its last bytes. (The byte-wise scan of a records window is with
//! the window's types, [`super::window`].)

use crate::reference::decode::{decode_fault, Strict};
use crate::reference::grammar::is_continuation;
use crate::tiers::{BLOCK, FALLBACK_STD_BELOW, SUBPART_BLOCKS};

/// The scalar decoder as a raw validator: its error position is exact.
pub(crate) fn scalar_validate(input: &[u8], _at: usize) -> Result<(), usize> {
    crate::reference::scalar::validate(input).map_err(|e| e.valid_up_to())
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
