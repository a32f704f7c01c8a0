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
use super::schedule::all_ascii;
use crate::arch::generic::vector::Vector;
use crate::arch::portable::{self, Positions};
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
    let blocks = len / BLOCK;
    assert!(
        words.len() >= blocks + 2,
        "a bit for every byte of the region, and a word more"
    );
    words[blocks] = 0;
    words[blocks + 1] = 0;
    if len == 0 {
        return false;
    }
    // SAFETY: the caller guarantees the instruction set.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    if len < V::BYTES {
        // SAFETY: len < V::BYTES.
        let error = bits(t.check(unsafe { V::load_partial(region) }, zero), zero);
        // (The zeros after the region show a sequence it leaves open as a bit past its end,
        // which is not kept.)
        words[0] = error & (u64::MAX >> (64 - len));
        return words[0] != 0;
    }
    // The whole blocks, a group at a time, each word written once: a group that is ASCII
    // after no open sequence has no bits.
    let per = BLOCK / V::BYTES;
    let mut any = 0;
    let mut b = 0;
    while b < blocks {
        let n = MEDIUM_GROUP.min(blocks - b);
        // SAFETY: blocks b..b + n lie inside the region, and the register before block b
        // too when b > 0.
        let quiet = unsafe {
            all_ascii::<V>(ptr.add(b * BLOCK), n)
                && (b == 0
                    || !t
                        .incomplete(V::load_unaligned(ptr.add(b * BLOCK - V::BYTES)))
                        .any_set())
        };
        for (k, word) in words.iter_mut().enumerate().take(b + n).skip(b) {
            *word = 0;
            if !quiet {
                for i in 0..per {
                    // SAFETY: register k * per + i lies inside the region.
                    let error = unsafe { check(&t, ptr, k * per + i) };
                    *word |= bits(error, zero) << (i * V::BYTES);
                }
            }
            any |= *word;
        }
        b += n;
    }
    // The last, partial block: its whole registers, then the last register of the region,
    // which ends at its end, overlapping; only its bits past the whole registers, which lie
    // 3 or more bytes into it, so that they are right even when it starts too near the
    // region's start to load the bytes before it. Every bit lands in word `blocks`.
    let whole = len / V::BYTES;
    let mut tail = 0;
    for r in blocks * per..whole {
        // SAFETY: register r lies inside the region.
        let error = unsafe { check(&t, ptr, r) };
        tail |= bits(error, zero) << (r * V::BYTES - blocks * BLOCK);
    }
    if !len.is_multiple_of(V::BYTES) {
        let last_at = len - V::BYTES;
        let error = if last_at >= 3 {
            // SAFETY: 3 <= last_at and the register lies inside the region.
            unsafe { t.check_at(ptr.add(last_at)) }
        } else {
            // SAFETY: V::BYTES <= len.
            t.check(unsafe { V::load_unaligned(ptr.add(last_at)) }, zero)
        };
        let past = whole * V::BYTES - last_at;
        let kept = bits(error, zero) >> past << past;
        // Bit `j` of the register is byte `last_at + j`; the kept ones are at or past
        // `whole * V::BYTES >= blocks * BLOCK`.
        tail |= if last_at >= blocks * BLOCK {
            kept << (last_at - blocks * BLOCK)
        } else {
            kept >> (blocks * BLOCK - last_at)
        };
    }
    words[blocks] = tail;
    any | tail != 0
}

/// The error bits of a register, a bit per byte. (A function rather than a closure: a
/// closure inside a `#[target_feature]` function does not take its features, and the
/// vector operations in it would not be inlined.)
#[inline(always)]
fn bits<V: Vector>(error: V, zero: V) -> u64 {
    !error.eq_mask(zero) & (u64::MAX >> (64 - V::BYTES))
}

/// The error bits of whole register `r` of the region at `ptr`: the first with nothing
/// before it, the others with the 3 bytes before them loaded.
///
/// # Safety
/// The register lies inside the region.
#[inline(always)]
unsafe fn check<V: Vector>(t: &Tables<V>, ptr: *const u8, r: usize) -> V {
    if r == 0 {
        // SAFETY: the register lies inside the region; nothing comes before the first.
        // (Zero is made from the tables' instruction set, which `t` proves.)
        unsafe { t.check(V::load_unaligned(ptr), V::splat(0)) }
    } else {
        // SAFETY: 3 <= r * V::BYTES and the register lies inside the region.
        unsafe { t.check_at(ptr.add(r * V::BYTES)) }
    }
}
