//! The size tiers: which input lengths take which path, on which backend. Every length
//! threshold that chooses a path of the validator or of the character count is defined here
//! and nowhere else. (Sizes that only cut work into pieces are named where they are used:
//! the parallel split's in `crate::parallel`, the error iterator's scalar stretch in
//! `crate::errors`.)
//!
//! The paths, checked in this order (`len` is the input length in bytes):
//!
//! | condition                          | path                                                        | backends        |
//! |------------------------------------|-------------------------------------------------------------|-----------------|
//! | `len < STD_BELOW` (8)              | `core::str::from_utf8` (public API only)                    | all             |
//! | `len <= ASCII_WORDS_MAX` (64)      | `<[u8]>::is_ascii`, a word at a time; ASCII ends here (public API only) | all but AVX-512 |
//! | `len < REGISTER_512` (64)          | one register from one masked load, zeros after the input    | AVX-512         |
//! | `len < REGISTER_256` (32)          | handed to SSE4.2                                            | AVX2            |
//! | `len < REGISTER_128` (16)          | one register packed from two 8-byte reads                   | 128-bit ones    |
//! | `len < SHORT_BELOW` (513)          | the short path: straight through the registers, one ASCII test above one block, no loop | all vector ones |
//! | otherwise                          | the main loop: groups of `LOOP_GROUP` (8) blocks of `BLOCK` (64) bytes between error tests, then single blocks, then the last `BLOCK` bytes re-checked, overlapping | all vector ones |
//!
//! "Public API only": [`crate::is_valid`] and [`crate::from_utf8`] take these paths before
//! any backend; [`crate::Backend::validate`] runs the backend on every length. The 128-bit
//! backends are SSE4.2, NEON and simd128.
//!
//! Without a vector backend (scalar fallback): `< FALLBACK_STD_BELOW` (16) bytes go to
//! `core::str::from_utf8`, longer ones to [`crate::scalar`]. [`crate::count_chars`]: under
//! `COUNT_PORTABLE_BELOW` (64) bytes a word at a time, longer ones by the counter of the
//! chosen backend (AVX2 where the CPU has it); [`crate::validate_and_count`] works in pieces
//! of `COUNT_PIECE` (16 KiB).
//!
//! In the main loop, leading ASCII is skipped `ASCII_SKIP_BLOCKS` blocks, then one block,
//! at a time before any table is loaded; after a group of `LOOP_GROUP` blocks that were all
//! ASCII, ASCII is skipped `ASCII_SKIP_BLOCKS` blocks at a time again. From `DENSE_AFTER`
//! (1 MiB) into the input on, runs of busy groups switch to groups without ASCII tests
//! (`BUSY_BLOCKS`, `BUSY_GROUPS`, `DENSE_GROUPS`; see `arch::generic::schedule`).
//!
//! Why public but `#[doc(hidden)]`: the integration tests (`tests/boundary_sweep.rs`,
//! `tests/guard_pages.rs`) derive the lengths they sweep from these constants, and
//! integration tests only see public items. A test that hard-codes "the short path ends at
//! 128 bytes" silently stops reaching the code it was written for when a tier moves (it
//! happened). They describe this build, not a promise: they are hidden from the API
//! documentation and may change in any release. This page is the one table of tiers; read
//! it in the source, or with `cargo doc --document-private-items`.

/// Inputs shorter than this go to `core::str::from_utf8` (setting up vector registers costs
/// more than the work). Only when it reports an error does the scalar decoder run, to say
/// why.
pub const STD_BELOW: usize = 8;

/// The unit of the main loop, of the per-block ASCII test and of the error check.
pub const BLOCK: usize = 64;

/// Inputs of up to this many bytes are first tested with `<[u8]>::is_ascii`, a word at a
/// time, before any vector code, except on AVX-512, which takes them in one masked register
/// (`arch::ascii_words_first`).
pub const ASCII_WORDS_MAX: usize = BLOCK;

/// The bytes of a 128-bit register. 128-bit backends (SSE4.2, NEON, simd128) pack inputs
/// shorter than this into one register from two 8-byte reads.
pub const REGISTER_128: usize = 16;

/// The bytes of a 256-bit register: AVX2 hands inputs shorter than this to SSE4.2, whose
/// registers can be loaded straight from the input.
pub const REGISTER_256: usize = 32;

/// The bytes of a 512-bit register: AVX-512 loads inputs shorter than this into one
/// register with one masked load.
pub const REGISTER_512: usize = 64;

/// Inputs shorter than this (up to 512 bytes) take the short path: straight through their
/// registers, with one ASCII test and no per-block tests. Must be at least `2 * BLOCK` (the
/// main loop's overlapping last block reads the register before it).
pub const SHORT_BELOW: usize = 8 * BLOCK + 1;

/// The main loop tests its error accumulator after this many blocks (512 bytes): an error
/// is found at most that far after it occurs.
pub const LOOP_GROUP: usize = 8;

/// Leading ASCII of a long input is skipped this many blocks at a time (one OR-reduction
/// and one test), then one block at a time. The ASCII after a group of the main loop whose
/// blocks were all ASCII is skipped this many blocks at a time too (without the one-block
/// steps: the next group tests its blocks one by one).
pub const ASCII_SKIP_BLOCKS: usize = 4;

/// The main loop's groups that test their blocks for ASCII (mostly-ASCII text, which runs
/// at the speed of the cache it comes from) ask for the group this many bytes ahead
/// (a prefetch, on x86). Groups of non-ASCII text are bound by the tables, not by memory,
/// and do not ask. 2 KiB: see docs/PERFORMANCE.md ("Notes moved from code") for what
/// 1 KiB and 4 KiB did.
pub const PREFETCH_AHEAD: usize = 32 * BLOCK;

/// From this offset on (1 MiB), a run of busy groups in the main loop — `BUSY_GROUPS`
/// groups in a row whose ASCII tests found `BUSY_BLOCKS` or more non-ASCII blocks — sends
/// the next `DENSE_GROUPS` groups through the tables without ASCII tests. Before it, the
/// branch predictor of a CPU can learn a text validated again and again, and the tests pay;
/// after it, it cannot (docs/PERFORMANCE.md, "Far into a long input").
pub const DENSE_AFTER: usize = 1 << 20;

/// See [`DENSE_AFTER`]: a group whose ASCII tests found at least this many of its
/// `LOOP_GROUP` blocks not ASCII is busy.
pub const BUSY_BLOCKS: usize = 3;

/// See [`DENSE_AFTER`]: this many busy groups in a row switch to groups without tests.
pub const BUSY_GROUPS: usize = 2;

/// See [`DENSE_AFTER`]: this many groups then go without ASCII tests before the next group
/// is tested again.
pub const DENSE_GROUPS: usize = 8;

/// Without a vector backend, inputs shorter than this go to `core::str::from_utf8`, whose
/// loop is faster than the scalar decoder's there.
pub const FALLBACK_STD_BELOW: usize = 16;

/// [`crate::records`] marks the delimiters of this many bytes (a window) at a time, and
/// validates the window's records up to its last delimiter in one call.
pub const RECORD_WINDOW: usize = 64 * BLOCK;

/// [`crate::count_chars`] counts inputs shorter than this a word at a time.
pub const COUNT_PORTABLE_BELOW: usize = 64;

/// [`crate::validate_and_count`] validates and counts its input in pieces of about this
/// many bytes (cut back to a character boundary), each counted while it is still in the L1
/// cache.
pub const COUNT_PIECE: usize = 16 * 1024;

const _: () = assert!(SHORT_BELOW >= 2 * BLOCK);
const _: () = assert!(RECORD_WINDOW.is_multiple_of(BLOCK) && RECORD_WINDOW >= BLOCK);
const _: () = assert!(BUSY_BLOCKS <= LOOP_GROUP && BUSY_GROUPS >= 1 && DENSE_GROUPS >= 1);
const _: () = assert!(STD_BELOW <= REGISTER_128 && REGISTER_128 <= REGISTER_256);
const _: () = assert!(REGISTER_256 <= REGISTER_512 && REGISTER_512 <= BLOCK);
