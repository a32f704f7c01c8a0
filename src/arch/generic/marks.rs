//! Where one byte occurs in a window of input, as a bit per byte: the record delimiters of
//! [`crate::records`], found a register at a time with the vector trait's compare
//! ([`Vector::eq_mask`]). The records iterator walks the bits with `trailing_zeros`, so a
//! record costs a few instructions instead of a search that starts over at every record.
//!
//! Validation is not fused in here: the records iterator validates each window right
//! after marking it, while the window is still in the nearest cache (`crate::records`,
//! "One pass"; `docs/PERFORMANCE.md` has the measurements that decided it).

use crate::arch::portable;
use crate::arch::vector::Vector;
use crate::tiers::{BLOCK, PREFETCH_AHEAD};

/// Writes the bits of `window`'s bytes that equal `byte` into `marks`: bit `i % 64` of
/// `marks[i / 64]` is set when `window[i] == byte`; the other bits of the words the window
/// covers are cleared, and later words are left alone. Returns whether the window is ASCII
/// (an OR of the registers already loaded: a window of ASCII needs no validation).
///
/// # Panics
/// When `marks` is too short: fewer than `window.len()` bits.
///
/// # Safety
/// The CPU supports `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn marks<V: Vector>(window: &[u8], byte: u8, marks: &mut [u64]) -> bool {
    assert!(
        window.len().div_ceil(BLOCK) <= marks.len(),
        "a bit for every byte of the window"
    );
    // SAFETY: the caller guarantees the instruction set.
    let needle = unsafe { V::splat(byte) };
    // SAFETY: as above.
    let mut any = unsafe { V::splat(0) };
    let mut blocks = window.chunks_exact(BLOCK);
    for (block, word) in blocks.by_ref().zip(marks.iter_mut()) {
        // The window is the first pass over its bytes: ask for the bytes ahead, as the
        // validator's main loop does (a hint; it never faults).
        V::prefetch(block.as_ptr().wrapping_add(PREFETCH_AHEAD));
        let mut bits = 0u64;
        let mut at = 0;
        while at < BLOCK {
            // SAFETY: the instruction set as above; `at + V::BYTES <= BLOCK` bytes of the
            // block are readable (a register divides a block).
            let v = unsafe { V::load_unaligned(block.as_ptr().add(at)) };
            bits |= v.eq_mask(needle) << at;
            any = any.or(v);
            at += V::BYTES;
        }
        *word = bits;
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        marks[window.len() / BLOCK] = portable::mark_word(tail, byte);
    }
    any.is_ascii() && tail.is_ascii()
}
