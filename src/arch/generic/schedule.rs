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
//! word: inputs under `WORD_BELOW` never reach a backend (`crate::reference::word`, from
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
//!   path at 1 KiB: a full check costs twice as much there. Every AVX2 CPU has groups of
//!   `SMALL_GROUP` blocks below 8 KiB (`Schedule::SMALL_GROUPS_BELOW`), the busy ones
//!   reached by a loop over their bits (`Schedule::BUSY_GROUPS_LOOP`), and tests a busy
//!   input's error every 512 bytes (`Schedule::BUSY_ERROR_TEST`).
//! - *Groups* of `MEDIUM_GROUP` blocks above that (AVX-512 from `LARGE_GROUPS_FROM_512`
//!   below `MASKED_BELOW`: `MEDIUM_GROUP_512`; eight registers either way), on 64-byte
//!   boundaries of memory, one ASCII test each; their number, and the rest's registers,
//!   depend on the length only ([`validate_medium`]); in inputs from
//!   `MEDIUM_PREFETCH_FROM`, whose text comes from memory, each asks for the bytes
//!   `PREFETCH_AHEAD`, `MEMORY_PREFETCH_AHEAD` and `MEMORY_PREFETCH_FAR` ahead
//!   ([`prefetch_blocks`](super::blocks::prefetch_blocks)), and leading ASCII goes first, each group its test alone and
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
//!   than shifted in, where they lie inside the input ([`Tables::check_at`](super::lookup::Tables::check_at)).
//! - *Long inputs* on the 128- and 256-bit backends go to the main loop
//!   ([`super::main_loop`]), which tests ASCII block by block.
//!
//! This file chooses the path for each length (for the entries, `crate::arch::rows`); the
//! paths are [`super::short`] (one register, the short path) and [`super::groups`] (the
//! medium path's groups), over the helpers of [`super::blocks`]; the cold search for an
//! error's place is [`super::locate`]. The constants that set the lengths per CPU family
//! are the schedules of [`super::tuning`].
//!
//! Next: [`super::lookup`] for the check of one register, [`super::main_loop`] for long
//! inputs, `crate::arch` for the backends that compile this schedule.
//!

use super::groups::{validate_groups, validate_medium};
use super::short::{ends_ascii, short_ascii, validate_partial, validate_short, words_ascii};
use super::tuning::Schedule;
use super::vector::Vector;
use crate::tiers::{
    BLOCK, GROUP_BRANCHES_BELOW_512, LARGE_GROUPS_FROM_512, MASKED_BELOW, MEDIUM_GROUP,
    MEDIUM_GROUP_512, REGISTER_512, SHORT_BELOW, SMALL_GROUP,
};

/// Validates `input`, shorter than `S::MEDIUM_BELOW` bytes, with vector type `V`: the hot
/// path of a call (longer inputs: [`super::main_loop::validate_long`]). `input` starts `at`
/// bytes into its text (0 for a call on a whole text), which decides how AVX-512's long
/// inputs are read ([`validate_medium`]).
///
/// Returns `Err(from)` if the input is invalid: everything before `from` is valid except
/// perhaps a sequence left open by its last 3 bytes ([`locate`](super::locate::locate) narrows that down; these
/// paths say `Err(0)`).
///
/// # Safety
/// The CPU supports `V`'s instruction set. This function must be inlined into a function
/// compiled with that instruction set enabled (`#[target_feature]`), or the intrinsics will
/// not be selected.
#[inline(always)]
pub(crate) unsafe fn validate<V: Vector, S: Schedule>(
    input: &[u8],
    at: usize,
) -> Result<(), usize> {
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
            validate_aligned::<V, S>(input, at)
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
            // Shorter than any input whose text decides how it is read: its place in its
            // text does not matter.
            validate_aligned::<V, S>(input, 0)
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
pub(crate) unsafe fn validate_aligned<V: Vector, S: Schedule>(
    input: &[u8],
    at: usize,
) -> Result<(), usize> {
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
            validate_medium::<V, S, MEDIUM_GROUP_512>(input, at)
        } else {
            validate_medium::<V, S, MEDIUM_GROUP>(input, at)
        }
    }
}
