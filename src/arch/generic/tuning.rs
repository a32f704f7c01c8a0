//! How a microarchitecture is driven: the [`Schedule`] trait, whose constants choose the
//! paths of the lookup algorithm for each input length, and one named schedule per family
//! of CPUs. Where [`super::vector::Vector`] says what an instruction set *can do*, a
//! schedule says what pays on the CPUs that run it; each row of the backends table
//! (`crate::arch`) names both, and the algorithm ([`super::schedule`],
//! [`super::main_loop`]) is generic over the pair.
//!
//! The lengths are the size tiers of [`crate::tiers`], where each one's measurements are
//! summed up; the decisions behind them are in docs/PERFORMANCE.md, whose anchors each
//! constant names. Every schedule spells out every constant, so that one schedule reads in
//! one place:
//!
//! | schedule         | rows (`crate::arch`)   | what sets it apart                              |
//! |------------------|------------------------|-------------------------------------------------|
//! | [`Inline128`]    | NEON, simd128          | the plain schedule, every path inline           |
//! | [`OutOfLine128`] | SSE4.2                 | each path in a function of its own              |
//! | [`Avx2Units256`] | AVX2                   | ASCII tests from 8 bytes, groups by their bits  |
//! | [`Avx2Units128`] | AVX2 on Zen 1 and Zen+ | ASCII tests from 16 bytes, groups from byte 0   |
//! | [`Avx2Zen5`]     | AVX2 on the Zen 5      | inputs up to one block checked whole            |
//! | [`Avx512`]       | AVX-512 (both rows)    | no main loop, its own groups                    |
//!
//! Next: [`super::schedule`] for the paths these constants choose between.

use crate::tiers;

/// The tuning of the lookup algorithm for one family of CPUs; see the
/// [module documentation](self). Only constants: a schedule is never made.
pub(crate) trait Schedule {
    /// Inputs from here take the main loop (`main_loop::validate_long`), shorter ones the
    /// short and medium paths (docs/PERFORMANCE.md#medium-or-main-loop).
    const MEDIUM_BELOW: usize;

    /// The main loop skips ASCII this many blocks at a time
    /// (docs/PERFORMANCE.md#main-loop-ascii-skip).
    const ASCII_SKIP_BLOCKS: usize;

    /// Inputs from here take the medium path from the first 64-byte boundary
    /// (`schedule::validate_aligned`); shorter ones need no aligned head
    /// (docs/PERFORMANCE.md#avx2-unaligned-groups; AVX-512: its inputs with one group,
    /// docs/PERFORMANCE.md#avx512-groups).
    const ALIGNED_FROM: usize;

    /// Where the short path ends: inputs from here up to `ALIGNED_FROM - 1` bytes take
    /// `schedule::validate_unaligned` (`SHORT_BELOW` where it is also `ALIGNED_FROM`: none
    /// does) (docs/PERFORMANCE.md#avx2-groups-after-first-block,
    /// docs/PERFORMANCE.md#avx512-groups).
    const GROUPS_FROM: usize;

    /// Whether the groups below `ALIGNED_FROM` start right after the first block, whose
    /// ASCII test comes first anyway, rather than at the first byte: it is read once and an
    /// input one block past whole groups has no rest
    /// (docs/PERFORMANCE.md#avx2-groups-after-first-block).
    const GROUPS_AFTER_FIRST_BLOCK: bool;

    /// Whether the entries jump to a function of their own for each path (short, medium,
    /// main loop), so that the short path neither saves the medium path's registers nor
    /// moves with its code; a cost where a call cannot be a jump (WASM)
    /// (docs/PERFORMANCE.md#paths-out-of-line).
    const PATHS_OUT_OF_LINE: bool;

    /// Inputs from this many bytes up to one block are tested for ASCII (one OR of two
    /// overlapping reads or registers) before any table is loaded; `tiers::SHORT_ASCII_FROM`:
    /// none (docs/PERFORMANCE.md#avx2-short-ascii-test,
    /// docs/PERFORMANCE.md#avx2-zen5-short-whole).
    const SHORT_ASCII_FROM: usize;

    /// Below this, the groups with a branch each have `tiers::SMALL_GROUP` blocks instead
    /// of `MEDIUM_GROUP`; 0: never (docs/PERFORMANCE.md#avx2-small-groups).
    const SMALL_GROUPS_BELOW: usize;

    /// Where a busy input goes through its groups in one pass (`groups::check_busy`),
    /// its error is tested every this many bytes; 0: once, at the end
    /// (docs/PERFORMANCE.md#busy-error-test).
    const BUSY_ERROR_TEST: usize;

    /// Whether the medium path below `MASKED_BELOW` branches on each group's ASCII test
    /// with no test of the whole input first (`groups::validate_groups`): on mixed text
    /// whether a whole message is ASCII is a coin (docs/PERFORMANCE.md#group-branches).
    const GROUP_BRANCHES: bool;

    /// Whether `groups::validate_groups` reaches the groups that are not ASCII by a loop
    /// over the set bits of its mask (one guess per input) instead of a branch on each
    /// group's bit (docs/PERFORMANCE.md#avx2-small-groups).
    const BUSY_GROUPS_LOOP: bool;

    /// Whether the main loop's tested groups take every block's ASCII test into a mask and
    /// reach the busy blocks by a loop over its bits (`main_loop::State::group_by_mask`)
    /// instead of a branch per block: text seen once gains more than text validated again
    /// loses (docs/PERFORMANCE.md#avx2-main-loop-mask,
    /// docs/PERFORMANCE.md#text-seen-once-decides).
    const MAIN_LOOP_BITS: bool;
}

/// The plain schedule of the 128-bit instruction sets whose paths stay inline: NEON (not
/// measured out of line) and simd128 (where a call cannot be a jump).
#[cfg_attr(
    not(any(
        all(target_arch = "aarch64", target_feature = "neon"),
        all(target_arch = "wasm32", target_feature = "simd128")
    )),
    allow(dead_code)
)]
pub(crate) struct Inline128;

impl Schedule for Inline128 {
    const MEDIUM_BELOW: usize = tiers::MEDIUM_BELOW;
    const ASCII_SKIP_BLOCKS: usize = tiers::ASCII_SKIP_BLOCKS;
    const ALIGNED_FROM: usize = tiers::SHORT_BELOW;
    const GROUPS_FROM: usize = tiers::SHORT_BELOW;
    const GROUPS_AFTER_FIRST_BLOCK: bool = false;
    const PATHS_OUT_OF_LINE: bool = false;
    const SHORT_ASCII_FROM: usize = tiers::SHORT_ASCII_FROM;
    const SMALL_GROUPS_BELOW: usize = 0;
    const BUSY_ERROR_TEST: usize = 0;
    const GROUP_BRANCHES: bool = false;
    const BUSY_GROUPS_LOOP: bool = false;
    const MAIN_LOOP_BITS: bool = false;
}

/// SSE4.2's schedule: [`Inline128`]'s with each path in a function of its own, since its
/// medium path needs registers a function must save (docs/PERFORMANCE.md#paths-out-of-line).
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]
pub(crate) struct OutOfLine128;

impl Schedule for OutOfLine128 {
    const MEDIUM_BELOW: usize = tiers::MEDIUM_BELOW;
    const ASCII_SKIP_BLOCKS: usize = tiers::ASCII_SKIP_BLOCKS;
    const ALIGNED_FROM: usize = tiers::SHORT_BELOW;
    const GROUPS_FROM: usize = tiers::SHORT_BELOW;
    const GROUPS_AFTER_FIRST_BLOCK: bool = false;
    const PATHS_OUT_OF_LINE: bool = true;
    const SHORT_ASCII_FROM: usize = tiers::SHORT_ASCII_FROM;
    const SMALL_GROUPS_BELOW: usize = 0;
    const BUSY_ERROR_TEST: usize = 0;
    const GROUP_BRANCHES: bool = false;
    const BUSY_GROUPS_LOOP: bool = false;
    const MAIN_LOOP_BITS: bool = false;
}

/// AVX2 on CPUs that run a 256-bit operation at once (Intel, AMD Zen 2 to Zen 4): ASCII
/// tests from 8 bytes, groups right after the first block from 384 bytes, groups of
/// `SMALL_GROUP` blocks below 8 KiB reached by their bits, the main loop's by a mask.
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]
pub(crate) struct Avx2Units256;

impl Schedule for Avx2Units256 {
    const MEDIUM_BELOW: usize = tiers::MEDIUM_BELOW;
    const ASCII_SKIP_BLOCKS: usize = tiers::ASCII_SKIP_BLOCKS_256;
    const ALIGNED_FROM: usize = tiers::MEDIUM_UNALIGNED_BELOW;
    const GROUPS_FROM: usize = tiers::GROUPS_FROM_256;
    const GROUPS_AFTER_FIRST_BLOCK: bool = true;
    const PATHS_OUT_OF_LINE: bool = true;
    const SHORT_ASCII_FROM: usize = tiers::SHORT_ASCII_FROM_256;
    const SMALL_GROUPS_BELOW: usize = tiers::SMALL_GROUPS_BELOW_256;
    const BUSY_ERROR_TEST: usize = tiers::BUSY_ERROR_TEST_AVX2;
    const GROUP_BRANCHES: bool = true;
    const BUSY_GROUPS_LOOP: bool = true;
    const MAIN_LOOP_BITS: bool = true;
}

/// AVX2 on CPUs that split a 256-bit operation into two on 128-bit units (AMD Zen 1 and
/// Zen+, Hygon Dhyana), where a full check costs twice as much: ASCII tests from 16 bytes,
/// groups from the first byte at 320 bytes, the aligned path from 1 KiB
/// (docs/PERFORMANCE.md#avx2-units-128). Its row runs
/// [`Avx2Units256`]'s main loop (`sharing` in the table), so nothing reads its own
/// `MAIN_LOOP_BITS` and `ASCII_SKIP_BLOCKS`: they say what a main loop of its own would
/// start from (the mask of the main loop was not measured on these CPUs).
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]
pub(crate) struct Avx2Units128;

impl Schedule for Avx2Units128 {
    const MEDIUM_BELOW: usize = tiers::MEDIUM_BELOW;
    const ASCII_SKIP_BLOCKS: usize = tiers::ASCII_SKIP_BLOCKS_256;
    const ALIGNED_FROM: usize = tiers::MEDIUM_UNALIGNED_BELOW_UNITS_128;
    const GROUPS_FROM: usize = tiers::GROUPS_FROM_UNITS_128;
    const GROUPS_AFTER_FIRST_BLOCK: bool = false;
    const PATHS_OUT_OF_LINE: bool = true;
    const SHORT_ASCII_FROM: usize = tiers::SHORT_ASCII_FROM_UNITS_128;
    const SMALL_GROUPS_BELOW: usize = tiers::SMALL_GROUPS_BELOW_256;
    const BUSY_ERROR_TEST: usize = tiers::BUSY_ERROR_TEST_AVX2;
    const GROUP_BRANCHES: bool = true;
    const BUSY_GROUPS_LOOP: bool = true;
    const MAIN_LOOP_BITS: bool = false;
}

/// AVX2 on the AMD Zen 5: [`Avx2Units256`]'s with no ASCII test of inputs up to one block,
/// whose wrong guesses cost more there than the checks they save
/// (docs/PERFORMANCE.md#avx2-zen5-short-whole). Its row runs [`Avx2Units256`]'s main loop.
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]
pub(crate) struct Avx2Zen5;

impl Schedule for Avx2Zen5 {
    const MEDIUM_BELOW: usize = tiers::MEDIUM_BELOW;
    const ASCII_SKIP_BLOCKS: usize = tiers::ASCII_SKIP_BLOCKS_256;
    const ALIGNED_FROM: usize = tiers::MEDIUM_UNALIGNED_BELOW;
    const GROUPS_FROM: usize = tiers::GROUPS_FROM_256;
    const GROUPS_AFTER_FIRST_BLOCK: bool = true;
    const PATHS_OUT_OF_LINE: bool = true;
    const SHORT_ASCII_FROM: usize = tiers::SHORT_ASCII_FROM;
    const SMALL_GROUPS_BELOW: usize = tiers::SMALL_GROUPS_BELOW_256;
    const BUSY_ERROR_TEST: usize = tiers::BUSY_ERROR_TEST_AVX2;
    const GROUP_BRANCHES: bool = true;
    const BUSY_GROUPS_LOOP: bool = true;
    const MAIN_LOOP_BITS: bool = true;
}

/// AVX-512, with VBMI or without: no main loop (every input from `SHORT_BELOW` takes the
/// medium path), its first groups from 448 bytes in the function of
/// `schedule::validate_unaligned` up to its inputs with one group, each path out of line
/// (docs/PERFORMANCE.md#avx512-groups).
#[cfg_attr(
    not(all(feature = "avx512", any(target_arch = "x86", target_arch = "x86_64"))),
    allow(dead_code)
)]
pub(crate) struct Avx512;

impl Schedule for Avx512 {
    const MEDIUM_BELOW: usize = tiers::MEDIUM_BELOW_512;
    const ASCII_SKIP_BLOCKS: usize = tiers::ASCII_SKIP_BLOCKS;
    const ALIGNED_FROM: usize = tiers::ONE_GROUP_BELOW_512;
    const GROUPS_FROM: usize = tiers::GROUPS_FROM_512;
    const GROUPS_AFTER_FIRST_BLOCK: bool = false;
    const PATHS_OUT_OF_LINE: bool = true;
    const SHORT_ASCII_FROM: usize = tiers::SHORT_ASCII_FROM;
    const SMALL_GROUPS_BELOW: usize = 0;
    const BUSY_ERROR_TEST: usize = 0;
    const GROUP_BRANCHES: bool = false;
    const BUSY_GROUPS_LOOP: bool = false;
    const MAIN_LOOP_BITS: bool = false;
}
