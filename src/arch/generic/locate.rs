//! The cold search for an error's place, after a validator said `Err(from)`.
//!
//! The error bits are *local*: the bits of byte `i` depend only on bytes `i-3..=i`. So if
//! the first error starts at byte `e`, no byte before `e` has bits set, and the error sets
//! a bit at most 3 bytes after `e` (a stray continuation at `e`, a bad second byte at
//! `e+1`, a missing continuation at `e+1..=e+3`). When a validator reports an error, the
//! cold [`locate`] re-checks register by register, takes the first byte `i` with a bit
//! set, and reports `i - 3`; the scalar decoder then finds the error exactly, after backing
//! up to the start of a character (`crate::engine::exact_error`). An input that ends inside
//! a sequence sets no bit (only the end-of-input check sees it): `locate` reports the end,
//! and the decoder backs up from there.
//!
//! Next: `crate::engine::exact_error`, which finds the exact error from there.

use super::lookup::Tables;
use super::vector::Vector;

/// The cold path: given `from` from a validator's `Err`, returns an offset at most 3 bytes
/// before the first error, or the end of the input when the input ends inside a sequence
/// (see "Locating an error" above). Everything before the character that contains the byte
/// before the returned offset is valid.
///
/// It re-checks register by register from `from` (or from 0 when `from` is under one
/// register), each with the true bytes before it read from memory, and stops at the first
/// register with an error bit. The last register ends at the end of the input, overlapping
/// the one before it, whose bytes it skips; an input shorter than one register is one
/// register with zeros after it. No copy and no scan of bytes: an invalid message costs
/// `from_utf8` about what std's walk to the error costs (docs/PERFORMANCE.md#exact-errors).
/// Each backend compiles it into its own `#[cold]`, `#[target_feature]` function, so the
/// hot paths stay small.
///
/// # Safety
/// As for [`validate`](super::schedule::validate).
#[inline(always)]
pub(crate) unsafe fn locate<V: Vector>(input: &[u8], from: usize) -> usize {
    let len = input.len();
    let ptr = input.as_ptr();
    // SAFETY: the caller guarantees the instruction set.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    if len < V::BYTES {
        // SAFETY: as above; len < V::BYTES.
        let error = t.check(unsafe { V::load_partial(input) }, zero);
        // A sequence the end cuts off shows in the zeros after the input.
        return error
            .first_nonzero_byte(0)
            .map_or(len, |lane| lane.saturating_sub(3));
    }
    let mut pos = if from < V::BYTES { 0 } else { from.min(len) };
    while pos < len {
        // The register at `pos`, or the last one, which ends at the end and whose bytes
        // before `pos` were checked already.
        let at = pos.min(len - V::BYTES);
        // SAFETY: the register lies inside `input` (V::BYTES <= len), and so do the 3
        // bytes before it where `at >= 3`. Below that, `at` is the start (no bytes before
        // it), or 1 or 2 with `pos >= V::BYTES`: the bytes the zero predecessor makes
        // wrong (`at..at + 3`) are skipped.
        let error = unsafe {
            if at >= 3 {
                t.check_at(ptr.add(at))
            } else {
                t.check(V::load_unaligned(ptr.add(at)), zero)
            }
        };
        if let Some(lane) = error.first_nonzero_byte(pos - at) {
            return (at + lane).saturating_sub(3);
        }
        pos = at + V::BYTES;
    }
    // No error bit: the input ends inside a sequence.
    len
}
