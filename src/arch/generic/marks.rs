//! The two vector passes behind [`crate::records`]: where one byte (the record delimiter)
//! occurs in a window of input, written out as positions ([`marks`]), and, for a stretch
//! of records that failed validation, where its error bits are ([`flags`]), so that each
//! record's verdict is a lookup rather than a validation of its own.
//!
//! The delimiters are found a register at a time with the vector trait's compare
//! ([`Vector::eq_mask`]) and their positions written out as they are found
//! ([`portable::push_positions`]): the records iterator then reads one position per
//! record, with no branch on where in the window the next delimiter is. Validation is not
//! fused in here: the records iterator validates each window right after marking it, while
//! the window is still in the nearest cache (`crate::records`, "One pass";
//! `docs/PERFORMANCE.md` has the measurements that decided it).

use super::lookup::Tables;
use crate::arch::portable::{self, Positions};
use crate::arch::vector::Vector;
use crate::tiers::{BLOCK, MEDIUM_GROUP, PREFETCH_AHEAD, RECORD_WINDOW};

/// Writes the positions of `window`'s bytes that equal `byte`, from the window's start and
/// in order, to `positions`, and returns how many there are and whether the window is
/// ASCII (an OR of the registers already loaded: a window of ASCII needs no validation).
///
/// # Panics
/// When the window is longer than `RECORD_WINDOW`.
///
/// # Safety
/// The CPU supports `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn marks<V: Vector>(
    window: &[u8],
    byte: u8,
    positions: &mut Positions,
) -> (usize, bool) {
    assert!(window.len() <= RECORD_WINDOW, "a window at most");
    // SAFETY: the caller guarantees the instruction set.
    let needle = unsafe { V::splat(byte) };
    // SAFETY: as above.
    let mut any = unsafe { V::splat(0) };
    let mut count = 0;
    let mut blocks = window.chunks_exact(BLOCK);
    for (i, block) in blocks.by_ref().enumerate() {
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
        count = portable::push_positions(positions, count, bits, i * BLOCK);
    }
    let tail = blocks.remainder();
    let done = window.len() - tail.len();
    let count = portable::push_positions(positions, count, portable::mark_word(tail, byte), done);
    (count, any.is_ascii() && tail.is_ascii())
}

/// The error bits of `region` (a stretch of records: it starts at a record's start), a bit
/// per byte in `words` (bit `i % 64` of `words[i / 64]`: the lookup algorithm's error bits
/// of byte `i` are not all zero), with the bytes before the region taken as ASCII, as for
/// the region alone; returns whether there is any. (Whether the region's end leaves a
/// sequence open is not asked: the records iterator validates a record at the end of the
/// buffer on its own.)
///
/// The bits of a byte depend only on it and the 3 bytes before it, so for a record
/// `s..d` of the region (`d` its delimiter): a record that is invalid on its own has a bit
/// in `s..=d` (its first error's bytes, or the delimiter that cuts a sequence short);
/// the bits in `s + 2..=d` are the record's own (the byte before `s` is the delimiter
/// before it, ASCII, as for the record alone); only bits at `s` and `s + 1` can come from
/// the record before (a lead byte just before its delimiter). The portable version
/// ([`portable::flags`]) sets a bit exactly where each ill-formed part starts, which keeps
/// the same contract.
///
/// It is a validation of the region too, as fast: groups of `MEDIUM_GROUP` blocks that are
/// ASCII (after no open sequence) have no bits; the others are checked through the tables,
/// and only a register with an error pays for writing its bits.
///
/// # Panics
/// When `words` has fewer than `region.len() / 64 + 2` words.
///
/// # Safety
/// The CPU supports `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn flags<V: Vector>(region: &[u8], words: &mut [u64]) -> bool {
    let len = region.len();
    let ptr = region.as_ptr();
    words[..len / BLOCK + 2].fill(0);
    if len == 0 {
        return false;
    }
    // SAFETY: the caller guarantees the instruction set.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    let bits = |error: V| !error.eq_mask(zero) & (u64::MAX >> (64 - V::BYTES));
    let mut any = false;
    let mut set = |at: usize, bits: u64| {
        any |= bits != 0;
        words[at / BLOCK] |= bits << (at % BLOCK);
        if at % BLOCK + V::BYTES > BLOCK {
            words[at / BLOCK + 1] |= bits >> (BLOCK - at % BLOCK);
        }
    };
    if len < V::BYTES {
        // SAFETY: len < V::BYTES.
        let error = bits(t.check(unsafe { V::load_partial(region) }, zero));
        // (The zeros after the region show a sequence it leaves open as a bit past its end,
        // which is not kept.)
        set(0, error & (u64::MAX >> (64 - len)));
        return any;
    }
    // The whole registers from the start, a group at a time.
    let whole = len / V::BYTES;
    let group = MEDIUM_GROUP * BLOCK / V::BYTES;
    let mut r = 0;
    while r < whole {
        let n = group.min(whole - r);
        // SAFETY: registers r..r + n lie inside the region, and the one before r too.
        let quiet = unsafe {
            let mut or = zero;
            for i in 0..n {
                or = or.or(V::load_unaligned(ptr.add((r + i) * V::BYTES)));
            }
            or.is_ascii()
                && (r == 0
                    || !t
                        .incomplete(V::load_unaligned(ptr.add((r - 1) * V::BYTES)))
                        .any_set())
        };
        if !quiet {
            for i in r..r + n {
                let error = if i == 0 {
                    // SAFETY: V::BYTES <= len; nothing comes before the first register.
                    t.check(unsafe { V::load_unaligned(ptr) }, zero)
                } else {
                    // SAFETY: 3 <= i * V::BYTES and the register lies inside the region.
                    unsafe { t.check_at(ptr.add(i * V::BYTES)) }
                };
                if error.any_set() {
                    set(i * V::BYTES, bits(error));
                }
            }
        }
        r += n;
    }
    let last_at = len - V::BYTES;
    if !len.is_multiple_of(V::BYTES) {
        // The last register ends at the end, overlapping: only its bits past the whole
        // registers, which lie 3 or more bytes into it, so that they are right even when it
        // starts too near the region's start to load the bytes before it.
        let error = if last_at >= 3 {
            // SAFETY: 3 <= last_at and the register lies inside the region.
            unsafe { t.check_at(ptr.add(last_at)) }
        } else {
            // SAFETY: V::BYTES <= len.
            t.check(unsafe { V::load_unaligned(ptr.add(last_at)) }, zero)
        };
        let past = whole * V::BYTES - last_at;
        set(last_at, bits(error) >> past << past);
    }
    any
}
