//! The schedule of the lookup algorithm ([`super::lookup`]): which registers are checked
//! when, for every input length, and the cold search for an error's place. The thresholds
//! are the size tiers of [`crate::tiers`]:
//!
//! ```text
//! bytes       0     8     16          32          64      513 = SHORT_BELOW  1.5 KiB  16 KiB = MEDIUM_BELOW
//!             |     |     |           |           |       |                  |        |
//! 128-bit     word  | packed | short path                 | medium path, aligned      | main loop
//! AVX2        word  | 128 | two 16 B  | short path (to 383) | groups after block 0 | aligned | main loop
//! AVX-512     word  | one masked load -----------| short path (to 447) | groups (to 8 KiB) | medium, aligned
//!                                                      (groups of 4 blocks; of 8 from 1,664 B)
//!
//! word: inputs under `WORD_BELOW` never reach a backend (`crate::word`, from
//! `crate::engine`); the paths here still take them correctly.
//!
//! one register: [AVX2: ASCII test of two overlapping reads]
//!               [the input, zeros after it: a cut-off sequence shows as too short]
//! short path:   [above 64 bytes: ASCII test of the first block, then of the others;
//!               AVX2: up to 64 bytes, of the first and the last register]
//!               [register 0] [registers 1.. in between] [last register, overlapping]
//!               [end-of-input check]
//! medium path:  (below 16 KiB: every ASCII test first; all ASCII: valid, done;
//!               AVX-512: first block not ASCII: everything checked in one pass)
//!   aligned:    [first block where it lies: ASCII test, else checked]
//!               ([group: 4 aligned blocks from the first 64-byte boundary: ASCII test,
//!               else checked; from 2 MiB, the bytes 2 and 8 KiB ahead asked for, and
//!               leading ASCII skipped first, whole groups, 8 KiB ahead asked for])*
//!               [the rest: as many registers as the longest rest needs, clamped to end
//!               at the end: ASCII test, else checked] [end-of-input check]
//! groups (AVX2 below 16 KiB; AVX-512 from `GROUPS_FROM_512`, 448 bytes, to 8 KiB): first
//!               block not ASCII: everything checked in one pass;
//!               else the same tests, all first, and no branch on the whole input;
//!               then a branch per group on its own test; the groups
//!               right after the first block below `MEDIUM_UNALIGNED_BELOW` (AVX2 from
//!               `GROUPS_FROM_256`, 384 bytes; on 128-bit units from the first byte),
//!               else as the aligned medium path; the rest in registers ending at the end
//!               (AVX-512: from where the groups end, the last clamped)
//! main loop:    see super::main_loop
//! ```
//!
//! One idea: **the branches of a call depend on its length, not on its bytes**, but for a
//! few ASCII tests, each over as many bytes as text of one kind (ASCII, or not) tends to
//! span. A message is validated once: a branch on its bytes is a coin the predictor cannot
//! have seen, and a wrong guess costs more than checking a few registers through the
//! tables (docs/PERFORMANCE.md#length-not-bytes). The rules, each in the function that
//! applies it:
//!
//! - *One register* for inputs shorter than one ([`validate_partial`]); with AVX2, after
//!   an ASCII test of two overlapping reads ([`short_ascii`]).
//! - *Straight through* for inputs of up to 8 blocks (AVX-512: 7; AVX2: 6, on 128-bit
//!   units 5): every register
//!   checked, after an ASCII test of the first block and then of the others
//!   ([`validate_short`]).
//! - *An ASCII test of every input* with AVX2 (`Schedule::SHORT_ASCII_FROM`: from 8 bytes;
//!   on 128-bit units from 16): without it a message of mostly-ASCII text just under one
//!   block costs more than one just over it, which leaves at its first test.
//! - *A schedule per microarchitecture* where one pays: AVX2 on 128-bit units (AMD Zen 1
//!   and Zen+) starts its groups from the first byte at 320 bytes and its aligned medium
//!   path at 1 KiB, and tests a busy input's error every 512 bytes
//!   (`Schedule::BUSY_ERROR_TEST`): a full check costs twice as much there. Every AVX2 CPU
//!   has groups of `SMALL_GROUP` blocks below 8 KiB (`Schedule::SMALL_GROUPS_BELOW`), the
//!   busy ones reached by a loop over their bits (`Schedule::BUSY_GROUPS_LOOP`).
//! - *Groups* of `MEDIUM_GROUP` blocks above that (AVX-512 from `LARGE_GROUPS_FROM_512`
//!   below `MASKED_BELOW`: `MEDIUM_GROUP_512`; eight registers either way), on 64-byte
//!   boundaries of memory, one ASCII test each; their number, and the rest's registers,
//!   depend on the length only ([`validate_medium`]); in inputs from
//!   `MEDIUM_PREFETCH_FROM`, whose text comes from memory, each asks for the bytes
//!   `PREFETCH_AHEAD`, `MEMORY_PREFETCH_AHEAD` and `MEMORY_PREFETCH_FAR` ahead
//!   ([`prefetch_blocks`]), and leading ASCII goes first, each group its test alone and
//!   `MEMORY_PREFETCH_AHEAD` asked for.
//!   Below `MASKED_BELOW`, every group is tested before any of their branches is taken,
//!   so that a wrong guess is found as soon as it is made, and an input that is all ASCII
//!   takes one branch and none of the rest; on AVX-512 there, a first block that is not
//!   ASCII sends the whole input through one pass instead.
//! - *A branch per group* on AVX2 (`Schedule::GROUP_BRANCHES`, [`validate_groups`]), and on
//!   AVX-512 from `GROUPS_FROM_512` to `GROUP_BRANCHES_BELOW_512`: no branch on
//!   the whole input (on mixed text, whether a whole message is ASCII is the coin); below
//!   `MEDIUM_UNALIGNED_BELOW` (AVX2) the groups start where the input does (right after
//!   the first block, whose test comes first, `Schedule::GROUPS_AFTER_FIRST_BLOCK`; on
//!   128-bit units at the first byte), fewer registers and instructions where the fixed
//!   cost of a call weighs most; either way, a first block
//!   that is not ASCII sends the whole input through one pass with no ASCII tests (busy
//!   text would read each group twice).
//! - *Loaded predecessors*: the 3 bytes before a register are loaded from memory rather
//!   than shifted in, where they lie inside the input ([`Tables::check_at`]).
//! - *Long inputs* on the 128- and 256-bit backends go to the main loop
//!   ([`super::main_loop`]), which tests ASCII block by block.
//!
//! Next: [`super::lookup`] for the check of one register, [`super::main_loop`] for long
//! inputs, `crate::arch` for the backends that compile this schedule.
//!
//! # Locating an error
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

use super::lookup::Tables;
use crate::arch::generic::tuning::Schedule;
use crate::arch::generic::vector::Vector;
use crate::tiers::{
    BLOCK, GROUP_BRANCHES_BELOW_512, LARGE_GROUPS_FROM_512, MASKED_BELOW, MEDIUM_GROUP,
    MEDIUM_GROUP_512, MEDIUM_LONG_ERROR_TEST, MEDIUM_LONG_FIRST_TEST, MEDIUM_MASK_GROUPS,
    MEDIUM_PREFETCH_FROM, MEMORY_PREFETCH_AHEAD, MEMORY_PREFETCH_FAR, PREFETCH_AHEAD, REGISTER_512,
    SHORT_BELOW, SMALL_GROUP,
};
use core::ops::{BitOr, Shl};

/// Validates `input`, shorter than `S::MEDIUM_BELOW` bytes, with vector type `V`: the hot
/// path of a call (longer inputs: [`super::main_loop::validate_long`]).
///
/// Returns `Err(from)` if the input is invalid: everything before `from` is valid except
/// perhaps a sequence left open by its last 3 bytes ([`locate`] narrows that down; these
/// paths say `Err(0)`).
///
/// # Safety
/// The CPU supports `V`'s instruction set. This function must be inlined into a function
/// compiled with that instruction set enabled (`#[target_feature]`), or the intrinsics will
/// not be selected.
#[inline(always)]
pub(crate) unsafe fn validate<V: Vector, S: Schedule>(input: &[u8]) -> Result<(), usize> {
    let len = input.len();
    debug_assert!(len < S::MEDIUM_BELOW);
    // SAFETY: (every path) the caller guarantees the instruction set; the length as
    // checked.
    unsafe {
        if len < S::GROUPS_FROM {
            validate_small::<V, S>(input)
        } else if len < S::ALIGNED_FROM {
            validate_unaligned::<V, S>(input)
        } else {
            validate_aligned::<V, S>(input)
        }
    }
}

/// Whether the entries (`crate::arch`) send inputs shorter than one register of `V` to
/// functions of their own that test them for ASCII first ([`words_ascii`] under one
/// register of `V::Narrow`, [`ends_ascii`] on two of those above) and send the others on to
/// the short path's function: where the paths are out of line
/// (`Schedule::PATHS_OUT_OF_LINE`) and inputs under one register of `V::Narrow` are tested
/// for ASCII (`Schedule::SHORT_ASCII_FROM`): AVX2 on 256-bit units.
pub(crate) const fn words_first<V: Vector, S: Schedule>() -> bool {
    S::PATHS_OUT_OF_LINE && S::SHORT_ASCII_FROM < V::Narrow::BYTES
}

/// The body of the entries' functions for inputs under one register of `V`, where
/// [`words_first`] says (`crate::arch`): `yes` where `input` is all ASCII, else what `rest`
/// (the short path's function) says. `WORDS`: the input is shorter than one register of
/// `V::Narrow`, and tested from `S::SHORT_ASCII_FROM` bytes by [`words_ascii`]; otherwise
/// it is one register of `V::Narrow` or more and tested by [`ends_ascii`] on two of them.
///
/// # Safety
/// The CPU supports `V`'s instruction set; with `WORDS`, `input.len() < V::Narrow::BYTES`,
/// otherwise `V::Narrow::BYTES <= input.len() < V::BYTES`; `rest`'s own contract.
#[inline(always)]
pub(crate) unsafe fn ascii_first<V: Vector, S: Schedule, const WORDS: bool, R>(
    input: &[u8],
    yes: R,
    rest: impl FnOnce(&[u8]) -> R,
) -> R {
    let ascii = if WORDS {
        input.len() >= S::SHORT_ASCII_FROM && words_ascii(input)
    } else {
        // SAFETY: the caller guarantees the instruction set, and with it Narrow's (the
        // contract of `Vector::Narrow`), and the length.
        unsafe { ends_ascii::<V::Narrow>(input) }
    };
    if ascii {
        yes
    } else {
        rest(input)
    }
}

/// [`validate`] for inputs shorter than `S::GROUPS_FROM` (`SHORT_BELOW` but on AVX2 and
/// AVX-512): one register (of `V::Narrow` where the input is shorter than one of those) or
/// the short path. In a function of its own on the backends with
/// `Schedule::PATHS_OUT_OF_LINE`, so that the medium path's code does not move it about
/// (sharing a function with the groups, the short path's timing moved with every change to
/// them: docs/PERFORMANCE.md#paths-out-of-line).
///
/// # Safety
/// As for [`validate`]; `input.len() < SHORT_BELOW`.
#[inline(always)]
pub(crate) unsafe fn validate_small<V: Vector, S: Schedule>(input: &[u8]) -> Result<(), usize> {
    debug_assert!(input.len() < SHORT_BELOW);
    // SAFETY: the caller guarantees the instruction set, and with it `V::Narrow`'s (the
    // contract of `Vector::Narrow`); the length as checked.
    unsafe {
        if input.len() >= V::BYTES {
            validate_short::<V, S>(input)
        } else if input.len() >= S::SHORT_ASCII_FROM && short_ascii::<V, S>(input) {
            Ok(())
        } else if V::Narrow::BYTES < V::BYTES && input.len() < V::Narrow::BYTES {
            validate_partial::<V::Narrow>(input)
        } else {
            validate_partial::<V>(input)
        }
    }
}

/// [`validate`] for inputs of `S::GROUPS_FROM` to `S::ALIGNED_FROM - 1` bytes: (AVX2) the
/// groups that start where the input does ([`validate_groups`], of `SMALL_GROUP` blocks
/// where `S::SMALL_GROUPS_BELOW` says, else `MEDIUM_GROUP`); (AVX-512, from
/// `GROUPS_FROM_512`) the groups of [`validate_aligned`] for the inputs that have one group
/// (a first block and the groups from the first 64-byte boundary: this function's name
/// says where AVX2's groups start). In a function of its own on the backends with
/// `Schedule::PATHS_OUT_OF_LINE`, so that the shorter inputs' function holds no more code
/// than the short path's (AVX-512: `crate::tiers::ONE_GROUP_BELOW_512` says what each
/// other place cost). On the backends whose `GROUPS_FROM` and `ALIGNED_FROM` are
/// `SHORT_BELOW` no input reaches it; it then takes the aligned path, which is right for
/// every length from `SHORT_BELOW` on.
///
/// # Safety
/// As for [`validate`]; `S::GROUPS_FROM <= input.len() < S::ALIGNED_FROM`.
#[inline(always)]
pub(crate) unsafe fn validate_unaligned<V: Vector, S: Schedule>(input: &[u8]) -> Result<(), usize> {
    // Only the groups of `validate_groups` start where the input does, and they test every
    // group's bit in one mask; AVX-512's groups here are those of `validate_aligned`,
    // whose first group, with the whole block it leaves to the rest, fits in every input
    // from `GROUPS_FROM` on.
    const { assert!(S::ALIGNED_FROM == SHORT_BELOW || S::GROUP_BRANCHES || V::BYTES == REGISTER_512) };
    const { assert!(S::ALIGNED_FROM <= MASKED_BELOW) };
    const { assert!(3 * BLOCK < S::GROUPS_FROM && S::GROUPS_FROM <= SHORT_BELOW) };
    const { assert!(V::BYTES != REGISTER_512 || (2 + MEDIUM_GROUP) * BLOCK <= S::GROUPS_FROM) };
    // Every input of the unaligned groups of `SMALL_GROUP` blocks is shorter than
    // `SMALL_GROUPS_BELOW`.
    const { assert!(S::SMALL_GROUPS_BELOW == 0 || S::ALIGNED_FROM <= S::SMALL_GROUPS_BELOW) };
    debug_assert!((S::GROUPS_FROM..S::ALIGNED_FROM).contains(&input.len()));
    // SAFETY: the caller guarantees the instruction set; the length as checked.
    unsafe {
        if V::BYTES == REGISTER_512 {
            validate_groups::<V, S, MEDIUM_GROUP, true>(input)
        } else if S::GROUP_BRANCHES && S::SMALL_GROUPS_BELOW != 0 {
            validate_groups::<V, S, SMALL_GROUP, false>(input)
        } else if S::GROUP_BRANCHES {
            validate_groups::<V, S, MEDIUM_GROUP, false>(input)
        } else {
            validate_aligned::<V, S>(input)
        }
    }
}

/// [`validate`] for inputs of `S::ALIGNED_FROM` bytes and more: the medium path from the
/// first 64-byte boundary (in a function of its own on the backends with
/// `Schedule::PATHS_OUT_OF_LINE`): [`validate_groups`] below `MASKED_BELOW` on the backends
/// with `Schedule::GROUP_BRANCHES` (AVX2) and below `GROUP_BRANCHES_BELOW_512` with 512-bit
/// registers, [`validate_medium`] otherwise; in groups of `MEDIUM_GROUP` blocks, but
/// `MEDIUM_GROUP_512` with 512-bit registers from `LARGE_GROUPS_FROM_512` to
/// `MASKED_BELOW` (eight registers a group, as AVX2's groups of `MEDIUM_GROUP` blocks
/// have; AVX-512's whole files: see `crate::tiers::MEDIUM_GROUP_512`).
///
/// # Safety
/// As for [`validate`]; `S::ALIGNED_FROM <= input.len()`.
#[inline(always)]
pub(crate) unsafe fn validate_aligned<V: Vector, S: Schedule>(input: &[u8]) -> Result<(), usize> {
    debug_assert!(S::ALIGNED_FROM <= input.len());
    // SAFETY: the caller guarantees the instruction set and the length (SHORT_BELOW <=
    // S::ALIGNED_FROM).
    unsafe {
        let len = input.len();
        if S::GROUP_BRANCHES && len < S::SMALL_GROUPS_BELOW {
            validate_groups::<V, S, SMALL_GROUP, true>(input)
        } else if (S::GROUP_BRANCHES && len < MASKED_BELOW)
            || (V::BYTES == REGISTER_512 && len < LARGE_GROUPS_FROM_512)
        {
            validate_groups::<V, S, MEDIUM_GROUP, true>(input)
        } else if V::BYTES == REGISTER_512 && len < GROUP_BRANCHES_BELOW_512 {
            validate_groups::<V, S, MEDIUM_GROUP_512, true>(input)
        } else if V::BYTES == REGISTER_512 && len < MASKED_BELOW {
            validate_medium::<V, S, MEDIUM_GROUP_512>(input)
        } else {
            validate_medium::<V, S, MEDIUM_GROUP>(input)
        }
    }
}

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
/// As for [`validate`]; `V::BYTES <= input.len() < SHORT_BELOW`.
#[inline(always)]
unsafe fn validate_short<V: Vector, S: Schedule>(input: &[u8]) -> Result<(), usize> {
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

/// Inputs of `SHORT_BELOW` to `MEDIUM_BELOW - 1` bytes on the backends without
/// `Schedule::GROUP_BRANCHES`, in groups of `G` blocks, each tested for ASCII with one
/// OR-reduction and checked through the tables when it is not: the first block where it
/// lies, then the groups from the first 64-byte boundary ([`aligned_head`]), so that their
/// loads never straddle a cache line, then the rest (less than a group and a block) in
/// registers, the last ones clamped to end at the end of the input, overlapping. The error
/// accumulator is tested once, at the end (from `MASKED_BELOW` on, every
/// `MEDIUM_LONG_ERROR_TEST` groups, and an error says where the span that failed starts).
/// On AVX-512 below `MASKED_BELOW`, a first block that is not ASCII sends the whole input
/// through one pass with no ASCII test, as in [`validate_groups`].
///
/// # Safety
/// As for [`validate`]; `2 * BLOCK <= input.len()` (`SHORT_BELOW`).
#[inline(always)]
unsafe fn validate_medium<V: Vector, S: Schedule, const G: usize>(
    input: &[u8],
) -> Result<(), usize> {
    const {
        // Below `MASKED_BELOW` every group's ASCII test fits in one mask of
        // `MEDIUM_MASK_GROUPS` bits.
        assert!(MASKED_BELOW / (G * BLOCK) <= MEDIUM_MASK_GROUPS);
        assert!(MEDIUM_MASK_GROUPS <= 64);
    }
    let len = input.len();
    let ptr = input.as_ptr();
    debug_assert!(2 * BLOCK <= len);
    // SAFETY: the caller guarantees the instruction set; len > BLOCK >= V::BYTES.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    // Where the groups start, and how many there are: as many as fit whatever `head` is,
    // so that their number depends on the length only (a loop whose trip count changed
    // with the address would be mispredicted). The rest: as many registers from `rest_at`
    // as the longest rest needs (`head` = 3).
    let head = aligned_head(ptr);
    let groups = (len - BLOCK) / (G * BLOCK);
    let rest_at = head + groups * G * BLOCK;
    let rest = (len - 3 - groups * G * BLOCK).div_ceil(V::BYTES);
    let rest_reg = |i: usize| {
        // SAFETY: the register lies inside `input`, 3 <= rest_at.
        unsafe { ptr.add((rest_at + i * V::BYTES).min(len - V::BYTES)) }
    };
    // The OR of the rest's registers (its ASCII test).
    let rest_or = || {
        let mut any = zero;
        for i in 0..rest {
            // SAFETY: see `rest_reg`.
            any = any.or(unsafe { V::load_unaligned(rest_reg(i)) });
        }
        any
    };
    // SAFETY: BLOCK < len.
    let first_ascii = unsafe { all_ascii::<V>(ptr, 1) };
    // Up to `MASKED_BELOW` bytes, every ASCII test comes first, with no branch: the first
    // block's, one bit per group into `busy`, the rest's. An input that is all ASCII (most
    // messages of mostly-ASCII text) is then valid at once, with no other work; otherwise
    // each group branches on its bit, decided as soon as it is met, so a wrong guess costs
    // a refill of the pipeline, not also the wait for its group's loads. Longer inputs
    // (AVX-512's whole files) test each group as they go: reading each group twice costs
    // more there than it saves (docs/PERFORMANCE.md#medium-path).
    let masked = len < MASKED_BELOW;
    if V::BYTES == REGISTER_512 && masked && !first_ascii {
        // (AVX-512) A first block that is not ASCII says the text is busy: one pass
        // ([`check_busy`]), as in `validate_groups`. The 128-bit backends keep their
        // ASCII tests: a full check costs them four times the registers, and SSE4.2 lost
        // on English HTML with this rule (docs/PERFORMANCE.md#busy-one-pass).
        // SAFETY: the first block, the groups and the rest's registers lie inside
        // `input`, each register 3 bytes in or more but the first block's first.
        return unsafe {
            check_busy::<V, S, G>(
                &t,
                ptr,
                len,
                Cover {
                    start_blocks: 1,
                    head,
                    groups,
                    rest,
                },
                &rest_reg,
            )
        };
    }
    let mut busy = u64::MAX;
    let mut rest_any = zero;
    if masked {
        busy = 0;
        for k in 0..groups {
            // SAFETY: the group lies inside `input` (rest_at <= len).
            let ascii = unsafe { all_ascii::<V>(ptr.add(head + k * G * BLOCK), G) };
            busy |= u64::from(!ascii) << k;
        }
        rest_any = rest_or();
        if first_ascii && busy == 0 && rest_any.is_ascii() {
            return Ok(());
        }
    }
    let mut error = zero;
    // Everything before it is valid, but perhaps a sequence its last 3 bytes leave open:
    // the `from` of an error (see `validate`).
    let mut clean_to = 0;
    if !first_ascii {
        // SAFETY: BLOCK <= len.
        error = unsafe { check_start(&t, ptr, BLOCK / V::BYTES) };
    }
    if masked {
        for k in 0..groups {
            // SAFETY: the group lies inside `input`, 3 <= its start.
            let e = unsafe { group::<V, G>(&t, ptr, head + k * G * BLOCK, busy >> k & 1 == 0) };
            error = error.or(e);
        }
    } else {
        let mut pos = head;
        let mut g = 0;
        let mut test_at = MEDIUM_LONG_FIRST_TEST;
        // Whether the input is long enough for its text to come from memory rather than
        // from a cache near the core.
        let ask_ahead = len >= MEDIUM_PREFETCH_FROM;
        if ask_ahead && first_ascii {
            // Leading ASCII, read at the speed of memory: whole groups, each its test and
            // nothing else, asking further ahead than the groups below. Everything before
            // the first group that is not ASCII is valid.
            // SAFETY: every group tested lies inside `input` (g < groups).
            while g < groups && unsafe { all_ascii::<V>(ptr.add(pos), G) } {
                prefetch_blocks::<V>(ptr.wrapping_add(pos + MEMORY_PREFETCH_AHEAD), G);
                pos += G * BLOCK;
                g += 1;
            }
            clean_to = pos;
            test_at = g + MEDIUM_LONG_FIRST_TEST;
        }
        while g < groups {
            while g < test_at.min(groups) {
                if ask_ahead {
                    prefetch_blocks::<V>(ptr.wrapping_add(pos + PREFETCH_AHEAD), G);
                    prefetch_blocks::<V>(ptr.wrapping_add(pos + MEMORY_PREFETCH_AHEAD), G);
                    prefetch_blocks::<V>(ptr.wrapping_add(pos + MEMORY_PREFETCH_FAR), G);
                }
                // SAFETY: the group lies inside `input`, 3 <= pos.
                error = error
                    .or(unsafe { group::<V, G>(&t, ptr, pos, all_ascii::<V>(ptr.add(pos), G)) });
                pos += G * BLOCK;
                g += 1;
            }
            if g < groups {
                // An invalid long input stops within `MEDIUM_LONG_ERROR_TEST` groups of its
                // error, which lies after the last span found clean.
                if error.any_set() {
                    return Err(clean_to);
                }
                clean_to = pos;
            }
            test_at += MEDIUM_LONG_ERROR_TEST;
        }
        rest_any = rest_or();
    }
    if rest_any.is_ascii() {
        // SAFETY: 3 <= rest_at <= len.
        error = error.or(unsafe { open_before(&t, ptr, rest_at) });
    } else {
        for i in 0..rest {
            // SAFETY: see `rest_reg`.
            error = error.or(unsafe { t.check_at(rest_reg(i)) });
        }
    }
    // SAFETY: V::BYTES <= len.
    verdict(error.or(unsafe { open_at_end(&t, ptr, len, true) })).map_err(|_| clean_to)
}

/// Inputs of `Schedule::GROUPS_FROM` (`GROUPS_FROM_256`; on 128-bit units
/// `GROUPS_FROM_UNITS_128`) to `MASKED_BELOW - 1` bytes on the backends with
/// `Schedule::GROUP_BRANCHES` (AVX2), and AVX-512's of `GROUPS_FROM_512` to
/// `GROUP_BRANCHES_BELOW_512 - 1` bytes, in groups of `G` = `MEDIUM_GROUP` blocks (AVX-512
/// from `LARGE_GROUPS_FROM_512`: `MEDIUM_GROUP_512`; AVX2 below `Schedule::SMALL_GROUPS_BELOW`:
/// `SMALL_GROUP`): below `Schedule::ALIGNED_FROM` (`ALIGNED` false; AVX2 only) where the input
/// starts, right after the first block with `Schedule::GROUPS_AFTER_FIRST_BLOCK` (AVX2 on
/// 256-bit units: the first block, tested first anyway, is read once, the first group
/// needs no check with no bytes before it, and a length one block past a whole number of
/// groups leaves no rest; every kind of text measured was faster for it:
/// docs/PERFORMANCE.md#avx2-groups-after-first-block), else at the first byte; from
/// `ALIGNED_FROM`, a first block and the groups from the first 64-byte boundary, as in
/// [`validate_medium`]. Then the rest: in the registers that end at the end of the input,
/// except AVX-512's from the first 64-byte boundary, in registers from where the groups
/// end, the last clamped to end at the end (counted from the end, each of its 64-byte loads
/// straddled a cache line, which messages all ASCII paid for; AVX2's 32-byte loads
/// measured the same either way: docs/PERFORMANCE.md#group-branches).
///
/// Where the first block is not ASCII, every group and the rest are checked in one pass, with no
/// ASCII test (aligned or not: from the first byte too, busy text read each group twice,
/// docs/PERFORMANCE.md#busy-one-pass). Otherwise every ASCII test comes first, with no branch: the
/// first block's (unless the groups start at the first byte), one bit per group into `busy`, the
/// rest's. Then **no branch on the whole input**: whether a message of mixed text is all ASCII is a
/// coin the predictor cannot call (of mostly-ASCII text, some messages are and some are not, at
/// every length), and each wrong guess costs more than the branch saves, even where most messages
/// are all ASCII: a message that is not then pays for a wrong guess on its group too
/// (docs/PERFORMANCE.md#group-branches). Instead each group branches on its own bit, which on
/// mostly-ASCII text is nearly always "ASCII"; a group that is ASCII costs that test and nothing
/// else, and a group that is not is checked, with the register at its end tested for a sequence
/// left open where what follows it is ASCII ([`open_at_end`]). The bits are tested four to a step,
/// so that an ASCII group costs one instruction; with `Schedule::BUSY_GROUPS_LOOP` (AVX2) a loop
/// visits the bits that are set instead, and its one guess is how many there are.
///
/// # Safety
/// As for [`validate`]; `S::GROUPS_FROM <= input.len() < MASKED_BELOW` and
/// `(1 + G) * BLOCK <= input.len()` (AVX-512: `(2 + G) * BLOCK`); where not `ALIGNED`,
/// `input.len() < S::ALIGNED_FROM`.
#[inline(always)]
unsafe fn validate_groups<V: Vector, S: Schedule, const G: usize, const ALIGNED: bool>(
    input: &[u8],
) -> Result<(), usize> {
    // With at least one group (where the input starts: every input of the path has one,
    // after its first block too), the rest's registers start 3 bytes in or more (below),
    // and every group's bit fits in `busy`, one mask of `MEDIUM_MASK_GROUPS` bits (as in
    // `validate_medium`).
    // (Groups of `SMALL_GROUP` blocks only below `S::SMALL_GROUPS_BELOW`.)
    const {
        let below = if G == SMALL_GROUP {
            S::SMALL_GROUPS_BELOW
        } else {
            MASKED_BELOW
        };
        assert!(ALIGNED || S::GROUPS_FROM >= (1 + G) * BLOCK);
        assert!(below / (G * BLOCK) <= MEDIUM_MASK_GROUPS && MEDIUM_MASK_GROUPS <= 64);
    };
    let len = input.len();
    let ptr = input.as_ptr();
    debug_assert!(len < MASKED_BELOW && (1 + G) * BLOCK <= len);
    debug_assert!(V::BYTES != REGISTER_512 || (2 + G) * BLOCK <= len);
    debug_assert!(S::GROUPS_FROM <= len);
    debug_assert!(ALIGNED || len < S::ALIGNED_FROM);
    // SAFETY: the caller guarantees the instruction set; len > BLOCK >= V::BYTES.
    let (t, zero) = unsafe { (Tables::<V>::new(), V::splat(0)) };
    // Whether the groups start at the first byte (AVX2 on 128-bit units, below
    // `ALIGNED_FROM`); else after a first block, tested on its own.
    let at_first_byte = !ALIGNED && !S::GROUPS_AFTER_FIRST_BLOCK;
    // As in `validate_medium`: the number of groups and of the rest's registers depends
    // on the length only (`head` = 3 where `ALIGNED`).
    let (head, min_head) = if ALIGNED {
        (aligned_head(ptr), 3)
    } else if at_first_byte {
        (0, 0)
    } else {
        (BLOCK, BLOCK)
    };
    // AVX-512's groups leave the rest one whole block or more (fewer than `G + 2`), under
    // one ASCII test, where a rest of a few bytes would be a register and a branch more:
    // with the inputs of one group (448-639 bytes, `tiers::ONE_GROUP_BELOW_512`) in their
    // own function, every kind of text measured is faster at 576-639 bytes
    // (docs/PERFORMANCE.md#avx512-groups).
    let groups = if ALIGNED && V::BYTES == REGISTER_512 {
        (len - 2 * BLOCK) / (G * BLOCK)
    } else {
        (len - if at_first_byte { 0 } else { BLOCK }) / (G * BLOCK)
    };
    debug_assert!((1..=MEDIUM_MASK_GROUPS).contains(&groups));
    let rest = (len - min_head - groups * G * BLOCK).div_ceil(V::BYTES);
    // The rest's registers: with registers of a whole block (AVX-512) where `ALIGNED`,
    // from where the groups end (`rest_at`, 3 bytes in or more), the last ones clamped to
    // end at the end, as in `validate_medium`; else ending at the end, the first
    // `rest * V::BYTES` bytes before it, at or before where the groups end and at least 3
    // bytes in (`1 <= groups`). Either way they cover the bytes after the groups.
    let rest_at = head + groups * G * BLOCK;
    let rest_reg = |i: usize| {
        // SAFETY: the register lies inside `input`, 3 bytes in or more.
        unsafe {
            if ALIGNED && V::BYTES == BLOCK {
                ptr.add((rest_at + i * V::BYTES).min(len - V::BYTES))
            } else {
                ptr.add(len - (rest - i) * V::BYTES)
            }
        }
    };
    // SAFETY: BLOCK < len.
    if !unsafe { all_ascii::<V>(ptr, 1) } {
        // A first block that is not ASCII says the text is busy: one pass ([`check_busy`]):
        // the first block and the groups from `head`, or (from the first byte) the first
        // group as the start and the others after it.
        let cover = if at_first_byte {
            Cover {
                start_blocks: G,
                head: G * BLOCK,
                groups: groups - 1,
                rest,
            }
        } else {
            Cover {
                start_blocks: 1,
                head,
                groups,
                rest,
            }
        };
        // SAFETY: the start, the groups and the rest's registers lie inside `input`, each
        // register 3 bytes in or more but the start's first (1 <= groups).
        return unsafe { check_busy::<V, S, G>(&t, ptr, len, cover, &rest_reg) };
    }
    // Each group's ASCII test, a bit of `busy`: with AVX2 two groups a turn ([`busy_bits`];
    // below `ALIGNED_FROM` the compiler unrolls the whole loop, whose branches depend on
    // the length only). AVX-512, not measured with them, keeps one a turn.
    let mut busy = 0u64;
    if V::BYTES == REGISTER_512 {
        for k in 0..groups {
            // SAFETY: the group lies inside `input`.
            let ascii = unsafe { all_ascii::<V>(ptr.add(head + k * G * BLOCK), G) };
            busy |= u64::from(!ascii) << k;
        }
    } else {
        // SAFETY: the groups lie inside `input`.
        busy = unsafe { busy_bits::<V, u64>(ptr.add(head), G, groups) };
    }
    let mut rest_any = zero;
    for i in 0..rest {
        // SAFETY: see `rest_reg`.
        rest_any = rest_any.or(unsafe { V::load_unaligned(rest_reg(i)) });
    }
    let rest_ascii = rest_any.is_ascii();
    // Whether what starts at group `k` is ASCII (the rest's test where `k == groups`).
    let ascii_from = |k: usize| {
        if k < groups {
            busy >> k & 1 == 0
        } else {
            rest_ascii
        }
    };
    // The start of the input, whose first register has no bytes before it: the first
    // block, ASCII (tested above); or, where the groups start at the first byte, the first
    // group, checked here where it is not ASCII (and left out by the steps below).
    let first_group = usize::from(at_first_byte);
    let mut error = zero;
    if at_first_byte && busy & 1 != 0 {
        // SAFETY: G * BLOCK <= len (1 <= groups).
        error = unsafe {
            check_start(&t, ptr, G * BLOCK / V::BYTES).or(open_at_end(
                &t,
                ptr,
                G * BLOCK,
                ascii_from(first_group),
            ))
        };
    }
    // The error bits of group `k` (after `first_group`, before `groups`), which is not
    // ASCII: every register, and the one at its end must not leave a sequence open where
    // what follows is ASCII. (A macro, not a closure: a closure here was not inlined.)
    macro_rules! busy_group {
        ($k:expr) => {{
            let k: usize = $k;
            let pos = head + k * G * BLOCK;
            // SAFETY: the group lies inside `input`, 3 <= pos.
            unsafe {
                check_group::<V, G>(&t, ptr.add(pos)).or(open_at_end(
                    &t,
                    ptr,
                    pos + G * BLOCK,
                    ascii_from(k + 1),
                ))
            }
        }};
    }
    if S::BUSY_GROUPS_LOOP {
        // One group a turn, the lowest bit set: `busy`'s bits from `groups` on are clear.
        let mut todo = busy & (u64::MAX << first_group);
        while todo != 0 {
            error = error.or(busy_group!(todo.trailing_zeros() as usize));
            todo &= todo - 1;
        }
    } else {
        // Four bits to a step, each tested against a constant; `todo`'s bits from `groups`
        // on are clear.
        let mut todo = busy >> first_group;
        let mut k = first_group;
        while k < groups {
            macro_rules! step {
                ($j:literal) => {
                    if todo & 1 << $j != 0 {
                        error = error.or(busy_group!(k + $j));
                    }
                };
            }
            step!(0);
            step!(1);
            step!(2);
            step!(3);
            todo >>= 4;
            k += 4;
        }
    }
    if !rest_ascii {
        for i in 0..rest {
            // SAFETY: see `rest_reg`.
            error = error.or(unsafe { t.check_at(rest_reg(i)) });
        }
        // SAFETY: V::BYTES <= len.
        error = error.or(unsafe { open_at_end(&t, ptr, len, true) });
    }
    verdict(error)
}

/// Where [`check_busy`] reads an input: its first `start_blocks` blocks from the first
/// byte, `groups` groups of `G` blocks from `head`, and `rest` registers (`rest_reg(i)`).
struct Cover {
    start_blocks: usize,
    head: usize,
    groups: usize,
    rest: usize,
}

/// One pass over an input whose first block is not ASCII ("busy"): every register of its
/// [`Cover`] (the first with no bytes before it) and the end-of-input check, with no ASCII
/// test and no branch but the loops'. [`validate_groups`] (AVX2) and [`validate_medium`]
/// (AVX-512, below `MASKED_BELOW`) send such inputs here: reading each group for its ASCII
/// test and again to check it costs text that is not ASCII in every group more than the
/// tests save (docs/PERFORMANCE.md#busy-one-pass).
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `len` bytes, which
/// hold every register of `cover`, each 3 bytes in or more but the first one's.
#[inline(always)]
unsafe fn check_busy<V: Vector, S: Schedule, const G: usize>(
    t: &Tables<V>,
    ptr: *const u8,
    len: usize,
    cover: Cover,
    rest_reg: impl Fn(usize) -> *const u8,
) -> Result<(), usize> {
    let Cover {
        start_blocks,
        head,
        groups,
        rest,
    } = cover;
    // With `Schedule::BUSY_ERROR_TEST`, the error is tested every that many bytes of groups,
    // and an error says where the span that failed starts (as in `validate_medium` from
    // `MASKED_BELOW`).
    let every = match S::BUSY_ERROR_TEST {
        0 => usize::MAX,
        bytes => (bytes / (G * BLOCK)).max(1),
    };
    let mut clean_to = 0;
    // SAFETY: the caller's guarantee covers every register read.
    unsafe {
        let mut error = check_start(t, ptr, start_blocks * BLOCK / V::BYTES);
        for k in 0..groups {
            if k % every == 0 && k > 0 {
                // No bit before this group: everything before it is valid but perhaps a
                // sequence its last 3 bytes leave open.
                if error.any_set() {
                    return Err(clean_to);
                }
                clean_to = head + k * G * BLOCK;
            }
            error = error.or(check_group::<V, G>(t, ptr.add(head + k * G * BLOCK)));
        }
        for i in 0..rest {
            error = error.or(t.check_at(rest_reg(i)));
        }
        verdict(error.or(open_at_end(t, ptr, len, true))).map_err(|_| clean_to)
    }
}

/// The error bits of the first `regs` registers of the input at `ptr`: the first with no
/// bytes before it, the others with the 3 bytes before them read from memory.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `1 <= regs`; `ptr` is valid for reads of
/// `regs * V::BYTES` bytes.
#[inline(always)]
unsafe fn check_start<V: Vector>(t: &Tables<V>, ptr: *const u8, regs: usize) -> V {
    // SAFETY: the register lies in the first `regs`; the caller guarantees the
    // instruction set.
    let mut error = unsafe { t.check(V::load_unaligned(ptr), V::splat(0)) };
    for i in 1..regs {
        // SAFETY: 3 <= i * V::BYTES and the register lies in the first `regs`.
        error = error.or(unsafe { t.check_at(ptr.add(i * V::BYTES)) });
    }
    error
}

/// `error` with the error bits of register `from` of the input of `len` bytes at `ptr`
/// and of those after it, the last one ending at the end (overlapping the one before it
/// where `len` is not a whole number of registers), each with the 3 bytes before it read
/// from memory.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `len` bytes;
/// `3 <= from * V::BYTES` and `3 <= len - V::BYTES`.
#[inline(always)]
unsafe fn check_to_end<V: Vector>(
    t: &Tables<V>,
    ptr: *const u8,
    from: usize,
    len: usize,
    mut error: V,
) -> V {
    for i in from..(len - 1) / V::BYTES {
        // SAFETY: the register lies before the last one, inside the input, 3 <= i *
        // V::BYTES.
        error = error.or(unsafe { t.check_at(ptr.add(i * V::BYTES)) });
    }
    // SAFETY: 3 <= len - V::BYTES, so the register and the 3 bytes before it lie inside
    // the input.
    error.or(unsafe { t.check_at(ptr.add(len - V::BYTES)) })
}

/// A path's answer from its error accumulator: `Err(0)` where any bit is set (see
/// [`validate`]).
#[inline(always)]
fn verdict<V: Vector>(error: V) -> Result<(), usize> {
    if error.any_set() {
        Err(0)
    } else {
        Ok(())
    }
}

/// Where `next_ascii` (the bytes from `end` on are ASCII; at the end of the input, always),
/// the error bits of the register
/// that ends at `end` if it leaves a sequence open; none otherwise (the bytes from `end` on
/// are then checked with the 3 bytes before them). A mask, not a branch: whether the next
/// group is ASCII is known, but a branch on it would be one more guess.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `V::BYTES <= end`; `ptr` is valid for reads of
/// `end` bytes.
#[inline(always)]
unsafe fn open_at_end<V: Vector>(t: &Tables<V>, ptr: *const u8, end: usize, next_ascii: bool) -> V {
    // SAFETY: the register ends at `end`, inside the input; the caller guarantees the
    // instruction set.
    unsafe {
        t.incomplete(V::load_unaligned(ptr.add(end - V::BYTES)))
            .and(V::splat(u8::from(next_ascii).wrapping_neg()))
    }
}

/// The error bits of the group of `G` blocks at `ptr + pos`: where it is `ascii`, only
/// whether the register before it leaves a sequence open ([`open_before`]), otherwise
/// every register of it ([`check_group`]).
///
/// # Safety
/// The CPU supports `V`'s instruction set; `3 <= pos`; `ptr` is valid for reads of
/// `pos + G * BLOCK` bytes, and of `BLOCK` bytes at least.
#[inline(always)]
unsafe fn group<V: Vector, const G: usize>(
    t: &Tables<V>,
    ptr: *const u8,
    pos: usize,
    ascii: bool,
) -> V {
    // SAFETY: the caller's guarantee.
    unsafe {
        if ascii {
            open_before(t, ptr, pos)
        } else {
            check_group::<V, G>(t, ptr.add(pos))
        }
    }
}

/// Before ASCII bytes at `at`, the register before must not leave a sequence open. The
/// test reads the register that ends at `at`, or at the first block's end when `at` lies
/// inside the first block: where that block was checked, it saw the ASCII bytes from `at`
/// on, so a sequence open before `at` is already an error, and the register ending at
/// `BLOCK` can only show one that is (bytes `at..BLOCK` are ASCII). No branch on `at`,
/// which depends on the input's address: on text seen once it would be a guess
/// (docs/PERFORMANCE.md#medium-path).
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `at.max(BLOCK)`
/// bytes.
#[inline(always)]
unsafe fn open_before<V: Vector>(t: &Tables<V>, ptr: *const u8, at: usize) -> V {
    // SAFETY: the register ends at `at.max(BLOCK)`, inside the input.
    t.incomplete(unsafe { V::load_unaligned(ptr.add(at.max(BLOCK) - V::BYTES)) })
}

/// The error bits of the `G` blocks at `ptr`, each register with its 3 bytes before it
/// read from memory.
///
/// # Safety
/// `ptr - 3` is valid for reads of `G * BLOCK + 3` bytes.
#[inline(always)]
unsafe fn check_group<V: Vector, const G: usize>(t: &Tables<V>, ptr: *const u8) -> V {
    // SAFETY: the caller's guarantee covers every register and the 3 bytes before it.
    let mut error = unsafe { t.check_at(ptr) };
    for i in 1..G * BLOCK / V::BYTES {
        // SAFETY: as above.
        error = error.or(unsafe { t.check_at(ptr.add(i * V::BYTES)) });
    }
    error
}

/// Inputs shorter than one register, in one register with zeros after them
/// ([`Vector::load_partial`]: packed from overlapping reads on the 128-bit backends, two
/// 16-byte loads on AVX2, one masked load on AVX-512). Zeros are ASCII, so a sequence cut
/// off by the end shows up as TOO_SHORT and needs no end-of-input check. (With AVX2,
/// [`validate_small`] has tested the input for ASCII first: [`short_ascii`].)
///
/// # Safety
/// As for [`validate`]; `input.len() < V::BYTES`.
#[inline(always)]
unsafe fn validate_partial<V: Vector>(input: &[u8]) -> Result<(), usize> {
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
/// As for [`validate`].
#[inline(always)]
unsafe fn short_ascii<V: Vector, S: Schedule>(input: &[u8]) -> bool {
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
/// [`words_first`] says).
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
/// function for those inputs (`crate::arch`, where [`words_first`] says).
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

/// The OR of the registers of the block at `ptr`.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `BLOCK` bytes.
#[inline(always)]
pub(super) unsafe fn or_block<V: Vector>(ptr: *const u8) -> V {
    // SAFETY: every register read lies in the `BLOCK` bytes at `ptr`.
    let mut any = unsafe { V::load_unaligned(ptr) };
    for i in 1..BLOCK / V::BYTES {
        // SAFETY: as above.
        any = any.or(unsafe { V::load_unaligned(ptr.add(i * V::BYTES)) });
    }
    any
}

/// The OR of the registers of the `n` blocks at `ptr`, block by block.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of `n * BLOCK` bytes,
/// and `n >= 1`.
#[inline(always)]
pub(super) unsafe fn or_blocks<V: Vector>(ptr: *const u8, n: usize) -> V {
    // SAFETY: every block read lies in the `n * BLOCK` bytes at `ptr`.
    let mut any = unsafe { or_block::<V>(ptr) };
    for b in 1..n {
        // SAFETY: as above.
        any = any.or(unsafe { or_block::<V>(ptr.add(b * BLOCK)) });
    }
    any
}

/// Asks for the `n` blocks at `ptr` ([`Vector::prefetch`], one per 64-byte block). Any
/// address will do: a prefetch never faults.
#[inline(always)]
pub(super) fn prefetch_blocks<V: Vector>(ptr: *const u8, n: usize) {
    for k in 0..n {
        V::prefetch(ptr.wrapping_add(k * BLOCK));
    }
}

/// Whether the `n * BLOCK` bytes at `ptr` are all ASCII: one OR-reduction, one test.
///
/// # Safety
/// As for [`or_blocks`].
#[inline(always)]
pub(super) unsafe fn all_ascii<V: Vector>(ptr: *const u8, n: usize) -> bool {
    // SAFETY: the caller's guarantee.
    unsafe { or_blocks::<V>(ptr, n) }.is_ascii()
}

/// The ASCII tests of `n` spans of `blocks` blocks each, one after the other from `ptr`,
/// two a turn (the last of an odd number alone): bit `k` of the answer (a mask `M`, `u32`
/// or `u64`) is set where span `k` is not all ASCII. AVX2's medium-path groups and its main
/// loop's blocks. Two a turn: one a turn, the loop's own instructions (its count, compare
/// and jump, a shift by a variable amount) are about as many as the tests', and on
/// mostly-ASCII text they are most of the time (docs/PERFORMANCE.md#two-tests-a-turn). The
/// main loop's mask is `u32`: with `u64` the compiler ordered its tests otherwise.
///
/// # Safety
/// The CPU supports `V`'s instruction set; `ptr` is valid for reads of
/// `n * blocks * BLOCK` bytes; `blocks >= 1`, and `M` has `n` bits or more.
#[inline(always)]
pub(super) unsafe fn busy_bits<V: Vector, M>(ptr: *const u8, blocks: usize, n: usize) -> M
where
    M: Copy + Default + From<bool> + BitOr<Output = M> + Shl<usize, Output = M>,
{
    debug_assert!(blocks >= 1 && n <= 8 * core::mem::size_of::<M>());
    let mut busy = M::default();
    let mut k = 0;
    while k + 2 <= n {
        // SAFETY: both spans lie in the caller's bytes (k + 1 < n).
        let (a, b) = unsafe {
            (
                all_ascii::<V>(ptr.add(k * blocks * BLOCK), blocks),
                all_ascii::<V>(ptr.add((k + 1) * blocks * BLOCK), blocks),
            )
        };
        busy = busy | (M::from(!a) | M::from(!b) << 1) << k;
        k += 2;
    }
    if k < n {
        // The last of an odd number of spans.
        // SAFETY: the span lies in the caller's bytes (k < n).
        let ascii = unsafe { all_ascii::<V>(ptr.add(k * blocks * BLOCK), blocks) };
        busy = busy | M::from(!ascii) << k;
    }
    busy
}

/// The offset of the first 64-byte boundary of memory after `ptr` where aligned blocks
/// start: `BLOCK` when `ptr` is on one, or when the boundary is 1 or 2
/// bytes in (the main loop reads the 3 bytes before a block). Always `3..=BLOCK`.
#[inline(always)]
pub(super) fn aligned_head(ptr: *const u8) -> usize {
    match BLOCK - ptr as usize % BLOCK {
        at @ 3.. => at,
        _ => BLOCK,
    }
}

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
/// As for [`validate`].
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

#[cfg(test)]
mod tests {
    use super::aligned_head;
    use crate::tiers::BLOCK;

    /// `aligned_head`'s contract at every address modulo a block: the offset of the first
    /// 64-byte boundary of memory after `ptr`, so that the blocks from there are aligned;
    /// `BLOCK` where that boundary is fewer than 3 bytes in (the 3 bytes before a block are
    /// read). A wrong offset still gives right answers (the blocks overlap wherever they
    /// start), so only this test sees it: found by mutation testing (docs/RELIABILITY.md).
    #[test]
    fn aligned_head_is_the_first_boundary_after_the_start() {
        let base = [0u8; 4 * BLOCK];
        let start = base.as_ptr().align_offset(BLOCK);
        for offset in 0..2 * BLOCK {
            let ptr = base[start + offset..].as_ptr();
            let head = aligned_head(ptr);
            let boundary = BLOCK - offset % BLOCK; // 1..=BLOCK bytes in
            if boundary >= 3 {
                assert_eq!(head, boundary, "offset {offset}");
                assert_eq!((ptr as usize + head) % BLOCK, 0, "offset {offset}");
            } else {
                assert_eq!(head, BLOCK, "offset {offset}");
            }
        }
    }
}
