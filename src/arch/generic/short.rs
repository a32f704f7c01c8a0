//! The paths of inputs up to `SHORT_BELOW` bytes that take no groups (see
//! [`super::schedule`], which chooses them): one register, of `V` or of `V::Narrow`, for
//! inputs shorter than one ([`validate_partial`], after [`short_ascii`] where the schedule
//! tests them for ASCII), and the short path straight through the registers
//! ([`validate_short`]); and the ASCII tests of inputs under one register that the entries
//! of AVX2 on 256-bit units run in a function of their own ([`ends_ascii`],
//! [`words_ascii`]).
//!
//! Next: [`super::groups`] for longer inputs, [`super::blocks`] for the helpers.

use super::blocks::{check_to_end, or_block, verdict};
use super::lookup::Tables;
use super::tuning::Schedule;
use super::vector::Vector;
use crate::tiers::BLOCK;

/// Inputs of `V::BYTES` to `S::GROUPS_FROM - 1` bytes (`SHORT_BELOW - 1`; AVX-512: 447,
/// AVX2: 383, on 128-bit units 319), with no per-block ASCII or error tests, which for a
/// few blocks cost more than they save.
///
/// 1. Above one block, if the first block is ASCII, one OR-reduction of the others (the
///    last one ending at the end, overlapping the one before it) lets ASCII through before
///    any table is loaded. The first block's test comes first so that text that is not
///    ASCII mostly stops there, and so that the branches' guesses are as often wrong at
///    every length: a single test of the whole input, right more often the longer the
///    input, made the lengths just past one block slower than twice as long ones on
///    Chinese text, a cliff (docs/PERFORMANCE.md#short-path). Up to one block, from
///    `Schedule::SHORT_ASCII_FROM` (AVX2), the OR of the first and the last register
///    ([`short_ascii`]); on the other backends no test: on text seen once it is a guess,
///    and there one or two registers cost about what a wrong guess costs (with AVX2 a
///    message of mostly-ASCII text just under one block costs more without it than one
///    just over it: docs/PERFORMANCE.md#avx2-short-ascii-test).
/// 2. The first register is checked with a zero predecessor; the last, which ends at the
///    end of the input (overlapping the one before it where the length is not a whole
///    number of registers), must not leave a sequence open. From three bytes past the
///    first register on, every register after the first (those in between, from the
///    start, and the last) is checked with the 3 bytes before it read from memory, as in
///    the main loop; a last register 1 or 2 bytes past the first is checked with a zero
///    predecessor and its first 3 bytes' error bits cleared (the first register has
///    checked them), and an input of one register has no other.
///
/// # Safety
/// As for [`validate`](super::schedule::validate); `V::BYTES <= input.len() < SHORT_BELOW`.
#[inline(always)]
pub(super) unsafe fn validate_short<V: Vector, S: Schedule>(input: &[u8]) -> Result<(), usize> {
    let len = input.len();
    let ptr = input.as_ptr();
    if len <= BLOCK {
        // SAFETY: the caller guarantees the instruction set; len <= BLOCK.
        if len >= S::SHORT_ASCII_FROM && unsafe { short_ascii::<V, S>(input) } {
            return Ok(());
        }
    } else {
        // SAFETY: the caller guarantees the instruction set; BLOCK < len, so the first
        // block, the whole blocks after it and the last block lie inside `input`.
        let ascii = unsafe {
            or_block::<V>(ptr).is_ascii() && {
                let mut any = or_block::<V>(ptr.add(len - BLOCK));
                for b in 1..(len - 1) / BLOCK {
                    any = any.or(or_block::<V>(ptr.add(b * BLOCK)));
                }
                any.is_ascii()
            }
        };
        if ascii {
            return Ok(());
        }
    }
    // SAFETY: the caller guarantees the instruction set; the whole registers from the
    // start lie inside `input` (V::BYTES <= len).
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    // The first register, with no bytes before it, and the last, which ends at the end
    // (overlapping the one before it where the length is not a whole number of registers)
    // and must not leave a sequence open.
    let last_at = len - V::BYTES;
    // SAFETY: V::BYTES <= len.
    let last = unsafe { V::load_unaligned(ptr.add(last_at)) };
    // SAFETY: as above.
    let mut error = unsafe { t.check(V::load_unaligned(ptr), zero) }.or(t.incomplete(last));
    if last_at >= 3 {
        // The registers in between (from three registers on), then the last, each with
        // the 3 bytes before it read from memory. (After this branch, not through
        // `check_start` before it, so that inputs of 3 bytes past one register up to two
        // registers run no loop code: through `check_start` the shortest of them cost more
        // than longer ones, a cliff, docs/PERFORMANCE.md#short-path.)
        // SAFETY: 3 <= V::BYTES and 3 <= last_at.
        error = unsafe { check_to_end(&t, ptr, 1, len, error) };
    } else if last_at > 0 {
        // The last register 1 or 2 bytes past the first: checked with no bytes before it,
        // its first 3 bytes' error bits cleared (the first register has checked them).
        // SAFETY: CLEAR_FIRST_3 has BLOCK >= V::BYTES bytes.
        let mask = unsafe { V::load_unaligned(CLEAR_FIRST_3.as_ptr()) };
        error = error.or(t.check(last, zero).and(mask));
    }
    verdict(error)
}

/// Inputs shorter than one register, in one register with zeros after them
/// ([`Vector::load_partial`]: packed from overlapping reads on the 128-bit backends, two
/// 16-byte loads on AVX2, one masked load on AVX-512). Zeros are ASCII, so a sequence cut
/// off by the end shows up as TOO_SHORT and needs no end-of-input check. (With AVX2,
/// [`validate_small`](super::schedule::validate_small) has tested the input for ASCII first: [`short_ascii`].)
///
/// # Safety
/// As for [`validate`](super::schedule::validate); `input.len() < V::BYTES`.
#[inline(always)]
pub(super) unsafe fn validate_partial<V: Vector>(input: &[u8]) -> Result<(), usize> {
    debug_assert!(input.len() < V::BYTES);
    // SAFETY: the caller guarantees the instruction set and input.len() < V::BYTES.
    let reg = unsafe { V::load_partial(input) };
    // SAFETY: the caller guarantees the instruction set.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    verdict(t.check(reg, zero))
}

/// Whether `input` (`WORD_BELOW` to `BLOCK` bytes: the test of `Schedule::SHORT_ASCII_FROM`)
/// is all ASCII, from two overlapping reads, the first from its start and the last ending
/// at its end: of `V`'s registers from their width (two make a block), of `V::Narrow`'s
/// from theirs, else of 8 bytes in general registers. Below one register, before
/// [`validate_partial`] and not on its register: that one is packed or shifted into place
/// first, which made the test of a 16-31-byte input cost nearly what a full check of it
/// does (docs/PERFORMANCE.md#avx2-short-ascii-test).
///
/// # Safety
/// As for [`validate`](super::schedule::validate).
#[inline(always)]
pub(super) unsafe fn short_ascii<V: Vector, S: Schedule>(input: &[u8]) -> bool {
    // Two registers make a block; the shortest inputs are read 8 bytes from each end.
    const {
        assert!(S::SHORT_ASCII_FROM > BLOCK || 2 * V::BYTES >= BLOCK);
        assert!(S::SHORT_ASCII_FROM >= crate::tiers::WORD_BELOW);
    };
    let len = input.len();
    debug_assert!((crate::tiers::WORD_BELOW..=BLOCK).contains(&len));
    if len >= V::BYTES {
        // SAFETY: the caller guarantees the instruction set; the length as checked.
        unsafe { ends_ascii::<V>(input) }
    } else if len >= V::Narrow::BYTES {
        // SAFETY: Narrow's instruction set comes with V's; the length as checked.
        unsafe { ends_ascii::<V::Narrow>(input) }
    } else {
        words_ascii(input)
    }
}

/// Whether `input` (one to two registers of `W`) is all ASCII, from two overlapping loads,
/// the first from its start and the last ending at its end: [`short_ascii`]'s test from
/// one register of `V` or of `V::Narrow` up, and that of the entries' function for inputs
/// of one register of `V::Narrow` up to one of `V` (`crate::arch`, where
/// [`words_first`](super::schedule::words_first) says).
///
/// # Safety
/// The CPU supports `W`'s instruction set; `W::BYTES <= input.len() <= 2 * W::BYTES`.
#[inline(always)]
pub(crate) unsafe fn ends_ascii<W: Vector>(input: &[u8]) -> bool {
    let len = input.len();
    let ptr = input.as_ptr();
    debug_assert!((W::BYTES..=2 * W::BYTES).contains(&len));
    // SAFETY: the caller guarantees the instruction set; both loads lie inside `input`.
    unsafe { W::load_unaligned(ptr).or(W::load_unaligned(ptr.add(len - W::BYTES))) }.is_ascii()
}

/// Whether `input` (8 to 16 bytes) is all ASCII, from two overlapping 8-byte reads in
/// general registers, the first from its start and the last ending at its end:
/// [`short_ascii`]'s test below one register of `V::Narrow`, and that of the entries'
/// function for those inputs (`crate::arch`, where [`words_first`](super::schedule::words_first) says).
#[inline(always)]
pub(crate) fn words_ascii(input: &[u8]) -> bool {
    debug_assert!((8..=16).contains(&input.len()));
    let first = u64::from_le_bytes(input[..8].try_into().unwrap());
    let last = u64::from_le_bytes(input[input.len() - 8..].try_into().unwrap());
    (first | last) & 0x8080_8080_8080_8080 == 0
}

/// All ones but for the first 3 bytes; its first `BYTES` bytes clear the error bits of the
/// first 3 bytes of a register.
static CLEAR_FIRST_3: [u8; BLOCK] = {
    let mut t = [0xFF; BLOCK];
    t[0] = 0;
    t[1] = 0;
    t[2] = 0;
    t
};
