//! The vector pass behind [`crate::records`]: the scan of a window of records ([`scan`]),
//! which finds where one byte (the record delimiter) occurs, writing out the positions,
//! and, in the same loads, where the errors are: a bit per byte, so that each record's
//! verdict is a lookup rather than a validation of its own.
//!
//! The delimiters are found a register at a time with the vector trait's compare
//! ([`Vector::eq_mask`]) and their positions written out as they are found
//! ([`window::push_positions`]): the records iterator then reads one position per
//! record, with no branch on where in the window the next delimiter is. The errors are the
//! lookup algorithm's (`super::lookup`), a group of `MEDIUM_GROUP` blocks at a time as the
//! validator's medium path takes them (`super::schedule`): a group of ASCII after no open
//! sequence has none. Next: `crate::records::delimited`, which turns the bits into
//! verdicts.

use super::lookup::Tables;
use crate::arch::generic::vector::Vector;
use crate::arch::window::{self, ErrorBits, Positions};
use crate::tiers::{BLOCK, MEDIUM_GROUP, PREFETCH_AHEAD, RECORD_WINDOW};

/// Scans the records window `bytes[from..]` (`RECORD_WINDOW` bytes, or fewer at the end of
/// `bytes`): writes the positions of its bytes that equal `byte`, from the window's start
/// and in order, to `positions`, and the error bits of its bytes to `words` (bit `i % 64`
/// of word `i / 64` for the window's byte `i`), only the words that have a bit; returns how
/// many positions there are, and which words have a bit (bit `k` for word `k`: the other
/// words are not written).
///
/// A byte's error bit is the lookup algorithm's error register at that byte, with the 3
/// bytes before it in `bytes` (zeros before the start of `bytes`): so the bits of the
/// windows of a buffer, scanned one after the other, are the bits of the whole buffer, and
/// for a record `s..d` of it (`d` its delimiter, ASCII): a record that is invalid on its
/// own has a bit in `s..=d` (its first error's bytes, or the delimiter that cuts a sequence
/// short), except for an error in the last bytes of `bytes`, which may need a byte after
/// them to show; the bits in `s + 2..=d` are the record's own (the byte before `s` is the
/// delimiter before it, ASCII, as for the record alone); only bits at `s` and `s + 1` can
/// come from the record before (a lead byte just before its delimiter). The portable
/// version ([`window::scan`]) sets a bit exactly where each ill-formed part starts, which
/// keeps the same contract.
///
/// The errors are found as the validator finds them, ORed over a group, and only a group
/// with an error (rare, even in a damaged log) is checked again for its bits. A group after
/// one that was not ASCII is checked as it is loaded; after an ASCII one, it is tested for
/// ASCII first.
///
/// # Panics
/// When `from` is past the end of `bytes`, or neither 0 nor at least `BLOCK` (the scan reads
/// the register before each group).
///
/// # Safety
/// The CPU supports `V`'s instruction set.
#[inline(always)]
pub(crate) unsafe fn scan<V: Vector>(
    bytes: &[u8],
    from: usize,
    byte: u8,
    positions: &mut Positions,
    words: &mut ErrorBits,
) -> (usize, u64) {
    assert!(from <= bytes.len(), "a window inside the buffer");
    assert!(
        from == 0 || from >= BLOCK,
        "the register before a group is the buffer's"
    );
    let end = bytes.len().min(from + RECORD_WINDOW);
    let len = end - from;
    let blocks = len / BLOCK;
    // SAFETY: the caller guarantees the instruction set.
    let mut s = unsafe {
        Scan::<V> {
            tables: Tables::new(),
            needle: V::splat(byte),
            zero: V::splat(0),
            count: 0,
            with_bits: 0,
            dense: false,
            positions,
            words,
        }
    };
    let mut k = 0;
    if from == 0 && blocks > 0 {
        // The buffer's first block: zeros before it, in a copy.
        s.copied(bytes, 0, BLOCK, 0);
        k = 1;
    }
    // SAFETY: `from..end` lies in `bytes`.
    let ptr = unsafe { bytes.as_ptr().add(from) };
    while k < blocks {
        let n = MEDIUM_GROUP.min(blocks - k);
        // SAFETY: blocks k..k + n lie in the window; the group starts `BLOCK` or more bytes
        // into `bytes` (from >= BLOCK, or k >= 1), so the register before it is readable.
        unsafe { s.group(ptr.add(k * BLOCK), n, k) };
        k += n;
    }
    if len > blocks * BLOCK {
        // The last, partial block, in a copy with zeros after it.
        s.copied(bytes, from + blocks * BLOCK, len - blocks * BLOCK, blocks);
    }
    (s.count, s.with_bits)
}

/// The state of a [`scan`].
struct Scan<'a, V> {
    tables: Tables<V>,
    needle: V,
    zero: V,
    count: usize,
    /// Which words have a bit.
    with_bits: u64,
    /// Whether the last group was not ASCII: the next is checked as it is loaded.
    dense: bool,
    positions: &'a mut Positions,
    words: &'a mut ErrorBits,
}

impl<V: Vector> Scan<'_, V> {
    /// Scans the `n` blocks at `ptr`, blocks `k..k + n` of the window: their delimiters,
    /// then their errors, and the error bits of the group if it has any.
    ///
    /// # Safety
    /// The CPU supports `V`'s instruction set; `ptr - V::BYTES` is valid for reads of
    /// `V::BYTES + n * BLOCK` bytes.
    #[inline(always)]
    unsafe fn group(&mut self, ptr: *const u8, n: usize, k: usize) {
        // SAFETY: the caller's guarantee.
        let (error, ascii) = unsafe {
            if self.dense {
                self.check_as_loaded(ptr, n, k)
            } else {
                self.test_then_check(ptr, n, k)
            }
        };
        // The last group says what the next is likely to be (a log's text comes in runs).
        self.dense = !ascii;
        if error.any_set() {
            // SAFETY: as above.
            unsafe { self.group_bits(ptr, n, k) };
        }
    }

    /// [`Scan::group`]'s delimiters and errors where the last group was not ASCII: each
    /// register checked as it is loaded (the same check that the validator makes), with no
    /// test for ASCII first, which text that is mostly not ASCII rarely passes. Returns the
    /// errors ORed, and whether the group is ASCII.
    ///
    /// # Safety
    /// As for [`Scan::group`].
    #[inline(always)]
    unsafe fn check_as_loaded(&mut self, ptr: *const u8, n: usize, k: usize) -> (V, bool) {
        let per = BLOCK / V::BYTES;
        let (mut any, mut error) = (self.zero, self.zero);
        for b in 0..n {
            // SAFETY: the caller's guarantee: block b lies in the readable bytes.
            let block = unsafe { ptr.add(b * BLOCK) };
            // The window is the first pass over its bytes: ask for the bytes ahead, as the
            // validator's main loop does (a hint; it never faults).
            V::prefetch(block.wrapping_add(PREFETCH_AHEAD));
            let mut marks = 0u64;
            for i in 0..per {
                // SAFETY: the register lies in the block, with 3 <= V::BYTES readable bytes
                // before it.
                unsafe {
                    let at = block.add(i * V::BYTES);
                    let v = V::load_unaligned(at);
                    marks |= v.eq_mask(self.needle) << (i * V::BYTES);
                    any = any.or(v);
                    let (prev1, prev2, prev3) = (
                        V::load_unaligned(at.sub(1)),
                        V::load_unaligned(at.sub(2)),
                        V::load_unaligned(at.sub(3)),
                    );
                    error = error.or(self.tables.classify(v, prev1, prev2, prev3));
                }
            }
            self.count = window::push_positions(self.positions, self.count, marks, (k + b) * BLOCK);
        }
        (error, any.is_ascii())
    }

    /// [`Scan::group`]'s delimiters and errors where the last group was ASCII: the
    /// delimiters and an OR of the registers first; a group that is ASCII after no open
    /// sequence has no errors, the others are checked. Returns the errors ORed, and whether
    /// the group is ASCII.
    ///
    /// # Safety
    /// As for [`Scan::group`].
    #[inline(always)]
    unsafe fn test_then_check(&mut self, ptr: *const u8, n: usize, k: usize) -> (V, bool) {
        let per = BLOCK / V::BYTES;
        let mut any = self.zero;
        for b in 0..n {
            // SAFETY: the caller's guarantee: block b lies in the readable bytes.
            let block = unsafe { ptr.add(b * BLOCK) };
            V::prefetch(block.wrapping_add(PREFETCH_AHEAD));
            let mut marks = 0u64;
            for i in 0..per {
                // SAFETY: as above, the register lies in the block.
                let v = unsafe { V::load_unaligned(block.add(i * V::BYTES)) };
                marks |= v.eq_mask(self.needle) << (i * V::BYTES);
                any = any.or(v);
            }
            self.count = window::push_positions(self.positions, self.count, marks, (k + b) * BLOCK);
        }
        if any.is_ascii() {
            // SAFETY: the register before the group is readable (the caller's guarantee).
            let before = unsafe { V::load_unaligned(ptr.sub(V::BYTES)) };
            return (self.tables.incomplete(before), true);
        }
        let mut error = self.zero;
        for r in 0..n * per {
            // SAFETY: the register lies in the group, with 3 <= V::BYTES readable bytes
            // before it.
            error = error.or(unsafe { self.tables.check_at(ptr.add(r * V::BYTES)) });
        }
        (error, false)
    }

    /// The error bits of the `n` blocks at `ptr`, blocks `k..k + n` of the window.
    ///
    /// # Safety
    /// As for [`Scan::group`].
    #[cold]
    #[inline(always)]
    unsafe fn group_bits(&mut self, ptr: *const u8, n: usize, k: usize) {
        let per = BLOCK / V::BYTES;
        for b in 0..n {
            let mut word = 0;
            for i in 0..per {
                // SAFETY: the register lies in the group, with 3 <= V::BYTES readable bytes
                // before it.
                let error = unsafe { self.tables.check_at(ptr.add(b * BLOCK + i * V::BYTES)) };
                word |= bits(error, self.zero) << (i * V::BYTES);
            }
            self.keep(k + b, word);
        }
    }

    /// Keeps `word`, the bits of block `k`, if it has any.
    #[inline(always)]
    fn keep(&mut self, k: usize, word: u64) {
        self.words[k] = word;
        self.with_bits |= u64::from(word != 0) << k;
    }

    /// Scans `len` (at most `BLOCK`) bytes of `bytes` at `at`, block `k` of the window, in
    /// a copy: the (up to) `BLOCK` bytes before it in `bytes` before them (zeros before the
    /// start of `bytes`), and zeros after them, which are ASCII; the marks and bits of
    /// the zeros are not kept.
    #[inline(always)]
    fn copied(&mut self, bytes: &[u8], at: usize, len: usize, k: usize) {
        let mut copy = [0u8; 2 * BLOCK];
        let before = at.min(BLOCK);
        copy[BLOCK - before..BLOCK].copy_from_slice(&bytes[at - before..at]);
        copy[BLOCK..BLOCK + len].copy_from_slice(&bytes[at..at + len]);
        let keep = u64::MAX >> (BLOCK - len);
        let per = BLOCK / V::BYTES;
        let block = copy[BLOCK..].as_ptr();
        let (mut marks, mut word) = (0u64, 0u64);
        for i in 0..per {
            // SAFETY: the register lies in the copy's second block, and the 3 bytes before
            // it in the copy; a `Scan<V>` holds `Tables<V>`, made only where the CPU runs
            // `V`'s instruction set.
            unsafe {
                let v = V::load_unaligned(block.add(i * V::BYTES));
                marks |= v.eq_mask(self.needle) << (i * V::BYTES);
                word |= bits(self.tables.check_at(block.add(i * V::BYTES)), self.zero)
                    << (i * V::BYTES);
            }
        }
        self.count = window::push_positions(self.positions, self.count, marks & keep, k * BLOCK);
        self.keep(k, word & keep);
    }
}

/// The error bits of a register, a bit per byte. (A function rather than a closure: a
/// closure inside a `#[target_feature]` function does not take its features, and the
/// vector operations in it would not be inlined.)
#[inline(always)]
fn bits<V: Vector>(error: V, zero: V) -> u64 {
    !error.eq_mask(zero) & (u64::MAX >> (64 - V::BYTES))
}
