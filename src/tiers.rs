//! The size tiers: which input lengths take which path, on which backend. Every length
//! threshold that chooses a path of the validator or of the character count is defined here
//! and nowhere else. (Sizes that only cut work into pieces are named where they are used:
//! the parallel split's in `crate::streams::parallel`, the error iterator's scalar stretch in
//! `crate::damaged::every_error`.)
//!
//! The paths, by the input's length `len` in bytes. The same on every path into the
//! validator ([`crate::is_valid`], [`crate::from_utf8`], [`crate::Backend::validate`]): one
//! tier, the shortest, comes before the backend (in `crate::engine`), the same for every
//! backend; the others are the backend's. Inside a path, no branch depends on the bytes but
//! for a few ASCII tests; the number of registers and groups depends on the length only.
//!
//! | condition                          | path                                                        | backends        |
//! |------------------------------------|-------------------------------------------------------------|-----------------|
//! | `len < WORD_BELOW` (8)             | one `u64` from overlapping 4- or 1-byte reads, a shift DFA over its bytes (`crate::reference::word`), before any backend is called | all, the scalar one too |
//! | `len < REGISTER_128` (16)          | one register packed from two overlapping 8-byte reads, zeros after the input (AVX2: first those reads' OR tested for ASCII, `SHORT_ASCII_FROM_256`; on 256-bit units in a function of its own that answers an input all ASCII, then the short path's function for the others) | 128-bit ones, and AVX2 in SSE4.2's register (`Vector::Narrow`) |
//! | `len < REGISTER_256` (32)          | one register from two 16-byte loads, zeros after the input (first those loads' OR tested for ASCII; on 256-bit units in a function of its own, as above) | AVX2            |
//! | `len < REGISTER_512` (64)          | one register from one masked load, zeros after the input    | AVX-512         |
//! | `len < SHORT_BELOW` (513; AVX-512: `GROUPS_FROM_512`, 448) | the short path: straight through the registers, above one block an ASCII test of the first block and then of the others (AVX2 up to one block: of the first and last register), no per-block tests (AVX2 on 256-bit units: below `GROUPS_FROM_256`, 384) | all vector ones |
//! | `len < GROUP_BRANCHES_BELOW_512` (8 KiB; from `GROUPS_FROM_512`, 448) | the first block, then groups of `MEDIUM_GROUP` (4; from `LARGE_GROUPS_FROM_512`, 1,664: `MEDIUM_GROUP_512`, 8) blocks from the first 64-byte boundary, as many as leave the rest one whole block or more, one ASCII test each, all tested before the first branch, then one branch per group and none on the whole input (a first block that is not ASCII: every group through one pass with no ASCII test); the rest in registers from where the groups end, the last clamped to end at the end | AVX-512 |
//! | `len < MEDIUM_UNALIGNED_BELOW` (1.5 KiB; from `GROUPS_FROM_256`, 384) | the first block, then groups of `SMALL_GROUP` (2) blocks right after it (not from a 64-byte boundary of memory): a first block that is not ASCII sends every group through one pass with no ASCII test; otherwise one ASCII test a group, all tested before the first branch, then a loop over the groups that are not ASCII and no branch on the whole input; the rest in registers ending at the end | AVX2 |
//! | `len < MEDIUM_BELOW` (16 KiB; AVX-512: no limit, `MEDIUM_BELOW_512`) | the medium path from the first 64-byte boundary: the first block, then groups of `MEDIUM_GROUP` (4; AVX-512 below `MASKED_BELOW`: `MEDIUM_GROUP_512`, 8) blocks from the boundary, one ASCII test each (AVX2 below `SMALL_GROUPS_BELOW_256`, 8 KiB: `SMALL_GROUP`, 2) (below `MASKED_BELOW`, 16 KiB, every group, the first block and the rest tested before the first branch: an input all ASCII is valid at once, except with AVX2, which loops over the groups that are not ASCII as above; with AVX2 and AVX-512, a first block that is not ASCII sends every group through one pass with no ASCII test), the rest in registers ending at the end, the error tested at the end (from `MASKED_BELOW`, after `MEDIUM_LONG_FIRST_TEST` groups, then every `MEDIUM_LONG_ERROR_TEST`, an error saying where the span that failed starts) | all vector ones |
//! | otherwise                          | the main loop: groups of `LOOP_GROUP` (8) blocks of `BLOCK` (64) bytes between error tests, then single blocks, then the last `BLOCK` bytes re-checked, overlapping | all but AVX-512 |
//!
//! On CPUs that run AVX2 on 128-bit units (AMD Zen 1 and Zen+; the backend
//! the row `arch::avx2units128`, chosen at run time) three AVX2 tiers differ: inputs are tested
//! for ASCII first from `SHORT_ASCII_FROM_UNITS_128` (16) bytes up, not 8, the
//! unaligned groups start at `GROUPS_FROM_UNITS_128` (320) and from the first byte, the
//! medium path starts at the first 64-byte boundary from `MEDIUM_UNALIGNED_BELOW_UNITS_128`
//! (1 KiB). With every AVX2 schedule a busy input of the medium path tests its error
//! every `BUSY_ERROR_TEST_AVX2` (512) bytes.
//!
//! The 128-bit backends are SSE4.2, NEON and simd128. Why each tier ends where it does:
//! `docs/PERFORMANCE.md#length-not-bytes` and the sections after it, named at each constant.
//!
//! After a validator reports an error (`Err(from)`), the exact-error functions let the
//! backend's vector `locate` narrow it down to a few bytes, unless fewer than
//! `LOCATE_SCALAR_BELOW` (44) bytes follow `from` (every input shorter than that): the
//! scalar decoder then reads them from `from` alone.
//!
//! Without a vector backend (scalar fallback): `< FALLBACK_STD_BELOW` (16) bytes go to
//! `core::str::from_utf8`, longer ones to [`crate::scalar`]. [`crate::count_chars`]: under
//! `COUNT_PORTABLE_BELOW` (64) bytes a word at a time, longer ones by the counter of the
//! chosen backend (AVX2 where the CPU has it); [`crate::validate_and_count`] works in pieces
//! of `COUNT_PIECE` (16 KiB).
//!
//! In the main loop, leading ASCII is skipped `ASCII_SKIP_BLOCKS` blocks (AVX2:
//! `ASCII_SKIP_BLOCKS_256`), then one block, at a time before any table is loaded; after a
//! group of `LOOP_GROUP` blocks that were all ASCII, ASCII is skipped as many blocks at a
//! time again. From `DENSE_AFTER` (1 MiB) into the input on, runs of busy groups switch to
//! groups without ASCII tests (`BUSY_BLOCKS`, `BUSY_GROUPS`, `DENSE_GROUPS`; see
//! `arch::generic::schedule`), and every group asks for the bytes `PREFETCH_AHEAD` and
//! `MEMORY_PREFETCH_AHEAD` ahead, as AVX-512's medium path does in inputs from
//! `MEDIUM_PREFETCH_FROM` (2 MiB).
//!
//! Why public but `#[doc(hidden)]`: the integration tests (`tests/boundary_sweep.rs`,
//! `tests/guard_pages.rs`) derive the lengths they sweep from these constants, and
//! integration tests only see public items. A test that hard-codes "the short path ends at
//! 128 bytes" silently stops reaching the code it was written for when a tier moves. They
//! describe this build, not a promise: they are hidden from the API documentation and may
//! change in any release. This page is the one table of tiers; read it in the source, or with
//! `cargo doc --document-private-items`.

/// The unit of the main loop, of the medium path's groups, of the per-block ASCII test and
/// of the error check.
pub const BLOCK: usize = 64;

/// Inputs shorter than this (a `u64`'s bytes) are packed into one word and checked by the shift DFA
/// of `crate::reference::word`, before the call to the backend: a vector register's set-up and the call
/// through the dispatch cost more than the DFA's steps (docs/PERFORMANCE.md#word-dfa).
pub const WORD_BELOW: usize = 8;

/// The bytes of a 128-bit register. 128-bit backends (SSE4.2, NEON, simd128) pack inputs
/// shorter than this (from `WORD_BELOW` bytes) into one register from overlapping reads (`arch::generic::vector::pack16`).
pub const REGISTER_128: usize = 16;

/// The bytes of a 256-bit register: AVX2 loads inputs shorter than this into one register
/// from two 16-byte loads (`arch::x86::avx2`).
pub const REGISTER_256: usize = 32;

/// The bytes of a 512-bit register: AVX-512 loads inputs shorter than this into one
/// register with one masked load.
pub const REGISTER_512: usize = 64;

/// Inputs shorter than this (up to 512 bytes) take the short path: straight through their
/// registers, with an ASCII test of the first block and then of the others, and no
/// per-block tests, which for a few blocks cost more than they save
/// (docs/PERFORMANCE.md#short-path); on AVX-512 only those shorter than `GROUPS_FROM_512`,
/// with AVX2 those shorter than [`GROUPS_FROM_256`] ([`GROUPS_FROM_UNITS_128`] on 128-bit
/// units). Must be more than `(1 + MEDIUM_GROUP) * BLOCK` (the medium path of the 128- and
/// 256-bit backends runs at least one group) and at least `2 * BLOCK` (the main loop's
/// overlapping last block reads the register before it).
pub const SHORT_BELOW: usize = 8 * BLOCK + 1;

/// On CPUs whose AVX2 runs on 256-bit units, inputs from this many bytes (384) up to
/// [`MEDIUM_UNALIGNED_BELOW`] take the groups of `SMALL_GROUP` blocks after the first block
/// (`Schedule::GROUPS_FROM`, `arch::generic::groups::validate_groups`), not the short path:
/// mostly-ASCII messages gain more there than other text loses, and from fewer bytes they lose
/// (docs/PERFORMANCE.md#avx2-groups-after-first-block). (On 128-bit units:
/// [`GROUPS_FROM_UNITS_128`].)
pub const GROUPS_FROM_256: usize = 6 * BLOCK;

/// Inputs of `SHORT_BELOW` bytes up to this take the medium path on the 128- and 256-bit backends,
/// longer ones the main loop. The medium path's branches depend on the length only (and one ASCII
/// test per group), which text seen once favours; the main loop's per-block ASCII tests win where a
/// branch predictor has learnt a long text validated again and again
/// (docs/PERFORMANCE.md#medium-or-main-loop).
pub const MEDIUM_BELOW: usize = 16 << 10;

/// [`MEDIUM_BELOW`] on AVX-512: no limit, the main loop is never used there (its full check of a
/// block is one register, and the medium path is as fast as the main loop on text seen again and
/// again, and faster on text seen once: docs/PERFORMANCE.md#medium-or-main-loop).
pub const MEDIUM_BELOW_512: usize = usize::MAX;

/// Inputs of the medium path shorter than this (16 KiB: every one on the 128- and 256-bit backends)
/// test up to `MEDIUM_MASK_GROUPS` groups for ASCII before they branch on any of them; longer ones
/// (AVX-512's) test each group as they reach it, as reading each group twice costs more there than
/// it saves (docs/PERFORMANCE.md#medium-path).
pub const MASKED_BELOW: usize = 16 << 10;

/// AVX2's medium path cuts inputs shorter than this into groups that start where the input does,
/// not at a 64-byte boundary of memory (on 256-bit units right after the first block, on 128-bit
/// units at the first byte); longer ones (and every input on the other backends) have a first
/// block, then groups from the first 64-byte boundary of memory. Below it the unaligned groups'
/// fewer registers and instructions win (most of all on inputs that are all ASCII); above it the
/// cache lines their loads straddle cost more (docs/PERFORMANCE.md#avx2-unaligned-groups). At least
/// `MEDIUM_GROUP * BLOCK` (a group) and at most `MASKED_BELOW`.
pub const MEDIUM_UNALIGNED_BELOW: usize = 1536;

/// [`MEDIUM_UNALIGNED_BELOW`] on CPUs whose AVX2 runs on 128-bit units (AMD Zen 1 and Zen+,
/// the row `arch::avx2units128`): from 1 KiB their medium path starts at the first 64-byte boundary,
/// in groups of `SMALL_GROUP` blocks (below `SMALL_GROUPS_BELOW_256`), which there saves
/// mostly-ASCII text more than it costs other text (docs/PERFORMANCE.md#avx2-units-128).
pub const MEDIUM_UNALIGNED_BELOW_UNITS_128: usize = 1024;

/// On CPUs whose AVX2 runs on 128-bit units, inputs from this many bytes (320) up to
/// [`MEDIUM_UNALIGNED_BELOW_UNITS_128`] take the groups from the first byte, of `SMALL_GROUP`
/// blocks, not the short path (`Schedule::GROUPS_FROM`; on 256-bit units [`GROUPS_FROM_256`]): with
/// the groups that are not ASCII reached by a loop over their bits (`Schedule::BUSY_GROUPS_LOOP`), a
/// message of mostly-ASCII text with a few non-ASCII characters checks the groups that have them,
/// not half of its registers or all, and that saves more than text that is not ASCII pays for the
/// groups' tests; below 320 bytes it does not (docs/PERFORMANCE.md#avx2-units-128).
pub const GROUPS_FROM_UNITS_128: usize = 5 * BLOCK;

/// Where AVX-512's short path ends (7 blocks, 448 bytes) and its groups of `MEDIUM_GROUP` blocks
/// with a branch each begin (up to `GROUP_BRANCHES_BELOW_512`): a first block, the groups from the
/// first 64-byte boundary, the rest, every ASCII test before the first branch and no branch on the
/// whole input (`arch::generic::groups::validate_groups`). A message of mostly-ASCII text with a
/// non-ASCII character then checks the one group of 4 registers that has it, not every register of
/// the message: on a CPU whose 512-bit operations each take two of its 256-bit units (AMD Zen 4) a
/// full check of many registers costs more than the groups' tests
/// (docs/PERFORMANCE.md#avx512-groups).
pub const GROUPS_FROM_512: usize = 7 * BLOCK;

/// AVX-512 inputs of `GROUPS_FROM_512` bytes up to this one less (639) have one group of
/// `MEDIUM_GROUP` blocks after their first block (AVX-512's groups leave the rest one whole block
/// or more, `arch::generic::groups::validate_groups`); they take the groups in a function of
/// their own (`arch::generic::schedule::validate_unaligned`'s: AVX-512's `Schedule::GROUPS_FROM` and
/// `ALIGNED_FROM`), longer ones in `validate_aligned`'s. In either of the other functions, or in
/// one function for every input up to 1 KiB, the code's place made the inputs it shares a function
/// with slower (docs/PERFORMANCE.md#avx512-groups).
pub const ONE_GROUP_BELOW_512: usize = (2 + 2 * MEDIUM_GROUP) * BLOCK;

/// From here (1,664 bytes: where groups of `MEDIUM_GROUP_512` blocks, which leave the rest one
/// whole block or more, are three) AVX-512's groups with a branch each have `MEDIUM_GROUP_512`
/// blocks, below it `MEDIUM_GROUP`. With one or two groups of 8 and a long rest, the inputs from 1
/// KiB paid a step in time per call, and groups of 4 up to here were faster; beyond, groups of 4
/// lost on French and Russian text (docs/PERFORMANCE.md#avx512-groups).
pub const LARGE_GROUPS_FROM_512: usize = 2 * BLOCK + 3 * MEDIUM_GROUP_512 * BLOCK;

/// AVX-512 inputs of `GROUPS_FROM_512` bytes up to this (8 KiB) take the medium path's groups with
/// a branch each and no test of the whole input first, as AVX2's do
/// (`arch::generic::groups::validate_groups`); longer ones test the whole input first. Below it,
/// whether a message of mixed text is all ASCII is a coin for that test; from 8 KiB on, messages
/// all ASCII lost more than mixed ones gained (docs/PERFORMANCE.md#group-branches).
pub const GROUP_BRANCHES_BELOW_512: usize = 8 << 10;

/// Inputs of this many bytes and more, up to one block, are tested for ASCII before any table is
/// loaded (`Schedule::SHORT_ASCII_FROM`): `BLOCK + 1`, none, on every backend but AVX2
/// ([`SHORT_ASCII_FROM_256`], [`SHORT_ASCII_FROM_UNITS_128`]; AVX2 on the AMD Zen 5 keeps this
/// one). On text seen once the test is a guess, and one or two registers cost about what a wrong
/// guess costs (docs/PERFORMANCE.md#length-not-bytes).
pub const SHORT_ASCII_FROM: usize = BLOCK + 1;

/// With AVX2 (on 256-bit units: Zen 2 and later, Intel), every input the backend gets (from
/// `WORD_BELOW`, 8 bytes) up to one block is tested for ASCII before any table is loaded, from two
/// overlapping reads (8-byte ones in general registers below `REGISTER_128`, 16-byte ones up to
/// `REGISTER_256`, two registers up to `BLOCK`; `short::short_ascii`). Without the test a
/// message of mostly-ASCII text just under one block costs more than one just over it, which leaves
/// at its first test (a cliff); from fewer bytes the cliff moves below them; text that is not ASCII
/// pays the wrong guesses and stays well ahead of its peers
/// (docs/PERFORMANCE.md#avx2-short-ascii-test). Inputs under one register take the test in
/// functions of their own, before the short path's (`crate::arch`'s entries,
/// `schedule::words_first`). Not on the AMD Zen 5 (the row `arch::avx2zen5`, which keeps
/// [`SHORT_ASCII_FROM`]): there the wrong guesses on mixed text cost more than the checks they save
/// (docs/PERFORMANCE.md#avx2-zen5-short-whole).
pub const SHORT_ASCII_FROM_256: usize = WORD_BELOW;

/// On CPUs whose AVX2 runs on 128-bit units (AMD Zen 1 and Zen+: the backend
/// the row `arch::avx2units128`), inputs of this many bytes and more, up to one block, are tested for
/// ASCII (one OR of their registers) before any table is loaded, as those above one block are on
/// every backend (`Schedule::SHORT_ASCII_FROM`; with AVX2 on 256-bit units [`SHORT_ASCII_FROM_256`],
/// elsewhere [`SHORT_ASCII_FROM`]). A register's full check costs twice as much there, so a wrong
/// guess on text that is not ASCII costs less than a check saved on text that is
/// (docs/PERFORMANCE.md#avx2-units-128); inputs under 16 bytes, checked in one 128-bit register,
/// which those units run at full speed, keep no test (not measured with one).
pub const SHORT_ASCII_FROM_UNITS_128: usize = REGISTER_128;

/// AVX2's groups with a branch each below this (8 KiB) have `SMALL_GROUP` blocks, not
/// `MEDIUM_GROUP`: those from the first byte (from `SHORT_BELOW`; on 128-bit units from
/// [`GROUPS_FROM_UNITS_128`]) and those of the aligned medium path (from `MEDIUM_UNALIGNED_BELOW`;
/// on 128-bit units from `MEDIUM_UNALIGNED_BELOW_UNITS_128`) (`Schedule::SMALL_GROUPS_BELOW`; on
/// other backends 0, none); those that are not ASCII are reached by a loop over their bits
/// (`Schedule::BUSY_GROUPS_LOOP`). A group with one non-ASCII byte is checked whole, so smaller
/// groups check less of mostly-ASCII text, and with the loop (one guess per input: how many groups
/// are busy) every kind of text measured was faster (docs/PERFORMANCE.md#avx2-small-groups). At
/// most what the mask of `MEDIUM_MASK_GROUPS` groups holds.
pub const SMALL_GROUPS_BELOW_256: usize = 8 << 10;

/// With AVX2, a busy input of the medium path (its first block not ASCII, checked in one pass)
/// tests its error every this many bytes (512) and stops there when it is invalid
/// (`Schedule::BUSY_ERROR_TEST`; AVX-512 and the 128-bit backends: once, at the end): invalid text
/// of a few KiB lost to peers that stop at the first bad block, on 128-bit units
/// (docs/PERFORMANCE.md#avx2-units-128) and, where one message is validated again and again, on
/// 256-bit units too (docs/PERFORMANCE.md#busy-error-test); valid text pays a predicted branch.
pub const BUSY_ERROR_TEST_AVX2: usize = LOOP_GROUP * BLOCK;

/// The blocks of the groups of [`SMALL_GROUPS_BELOW_256`].
pub const SMALL_GROUP: usize = 2;

/// The medium path's groups: this many blocks (256 bytes), one ASCII test each.
pub const MEDIUM_GROUP: usize = 4;

/// The medium path's groups on AVX-512 from `LARGE_GROUPS_FROM_512` to `MASKED_BELOW`: this many
/// blocks (512 bytes), one ASCII test each. A block is one 512-bit register, so a group holds 8
/// registers, as a group of `MEDIUM_GROUP` blocks does with AVX2; groups of 2, 4 and 16 blocks
/// measured slower. Longer inputs (whole files) keep groups of `MEDIUM_GROUP`: with 8 they lost
/// more on files validated again and again than they gained on text seen once; shorter ones
/// (`GROUPS_FROM_512` up to `LARGE_GROUPS_FROM_512`) have groups of `MEDIUM_GROUP` with a branch
/// each (docs/PERFORMANCE.md#avx512-groups).
pub const MEDIUM_GROUP_512: usize = 8;

/// The medium path below `MASKED_BELOW` tests up to this many groups for ASCII before it
/// branches on any, into a 64-bit mask (so at most 64).
pub const MEDIUM_MASK_GROUPS: usize = 64;

/// From `MASKED_BELOW` on (AVX-512's whole files), the medium path tests its error accumulator
/// after its first `MEDIUM_LONG_FIRST_TEST` groups, then every this many groups (4 KiB), and an
/// error says where the span that failed starts: the cold `locate` starts there, not at the start
/// of the input. Tested less often, an error far into a long input takes longer to report; more
/// often, whole files cost more (docs/PERFORMANCE.md#long-error-tests).
pub const MEDIUM_LONG_ERROR_TEST: usize = 16;

/// The groups before the first error test of [`MEDIUM_LONG_ERROR_TEST`] (512 bytes, as the
/// main loop's `LOOP_GROUP` blocks): an error at the start of a long input is found after
/// them, not after 4 KiB.
pub const MEDIUM_LONG_FIRST_TEST: usize = 2;

/// When a validator reports an error with fewer than this many bytes after its `from` (every input
/// shorter than this), the scalar decoder finds the exact error from there without the backend's
/// vector `locate`, whose start-up (the call through the dispatch, its tables) costs more than
/// reading that many bytes (docs/PERFORMANCE.md#exact-errors).
pub const LOCATE_SCALAR_BELOW: usize = 44;

/// The main loop tests its error accumulator after this many blocks (512 bytes): an error
/// is found at most that far after it occurs.
pub const LOOP_GROUP: usize = 8;

/// Leading ASCII of a long input is skipped this many blocks at a time (one OR-reduction
/// and one test), then one block at a time. The ASCII after a group of the main loop whose
/// blocks were all ASCII is skipped this many blocks at a time too (without the one-block
/// steps: the next group tests its blocks one by one). On the 128-bit backends; AVX2's is
/// [`ASCII_SKIP_BLOCKS_256`].
pub const ASCII_SKIP_BLOCKS: usize = 4;

/// [`ASCII_SKIP_BLOCKS`] on AVX2: 128 bytes at a time. A unit that is not all ASCII sends the main
/// loop back to a group whose blocks are tested one by one, so the smaller the unit the fewer ASCII
/// blocks take that slower road; on AVX2 two blocks are four registers, and the test of a smaller
/// unit costs little more. SSE4.2, whose unit of two blocks is eight registers, was no faster and
/// lost on ASCII text from the L2 cache (docs/PERFORMANCE.md#main-loop-ascii-skip).
pub const ASCII_SKIP_BLOCKS_256: usize = 2;

/// The main loop's groups that test their blocks for ASCII (mostly-ASCII text, which runs at the
/// speed of the cache it comes from) ask for the group this many bytes ahead (a prefetch, on x86),
/// and so do its groups without tests far into a long input ([`DENSE_AFTER`]) and every group of
/// AVX-512's inputs from [`MEDIUM_PREFETCH_FROM`]: there the text comes from memory, and a wrong
/// guess empties the pipeline of the loads in flight. Nearer the start, groups of non-ASCII text
/// are bound by the tables, not by memory, and do not ask. 2 KiB: 1 KiB and 4 KiB were no better
/// (docs/PERFORMANCE.md#prefetch-ahead).
pub const PREFETCH_AHEAD: usize = 32 * BLOCK;

/// Where the text comes from memory (the main loop's groups far into a long input, every group of
/// AVX-512's inputs from [`MEDIUM_PREFETCH_FROM`]), each group also asks for the group this many
/// bytes ahead (8 KiB), and AVX-512's leading ASCII there asks this far only: read at the speed of
/// memory, [`PREFETCH_AHEAD`] alone is less than memory takes to answer, and the two requests
/// together beat either alone (docs/PERFORMANCE.md#memory-prefetch).
pub const MEMORY_PREFETCH_AHEAD: usize = 4 * PREFETCH_AHEAD;

/// Every group of AVX-512's inputs from [`MEDIUM_PREFETCH_FROM`] also asks for the group this many
/// bytes ahead (16 KiB), a third request beside [`PREFETCH_AHEAD`] and [`MEMORY_PREFETCH_AHEAD`]:
/// it keeps busy text fast where memory is slow to answer, and costs text in the L3 cache and ASCII
/// (which skips ahead on its own) nothing (docs/PERFORMANCE.md#memory-prefetch).
pub const MEMORY_PREFETCH_FAR: usize = 2 * MEMORY_PREFETCH_AHEAD;

/// Inputs of the medium path that end this far into their text (2 MiB; AVX-512's whole files, the
/// only ones of its inputs this long, and a `Validator`'s chunks or parallel pieces of 8 KiB and more
/// from there on) ask in every group for the bytes [`PREFETCH_AHEAD`], [`MEMORY_PREFETCH_AHEAD`] and
/// [`MEMORY_PREFETCH_FAR`] ahead, one prefetch per block each, and their leading ASCII is skipped
/// whole groups at a time before anything else: text from the L3 cache or from memory is faster for
/// it, and from fewer bytes ASCII in the L2 cache was slower (docs/PERFORMANCE.md#memory-prefetch).
pub const MEDIUM_PREFETCH_FROM: usize = 2 << 20;

/// From this offset on (1 MiB), a run of busy groups in the main loop — `BUSY_GROUPS` groups in a
/// row whose ASCII tests found `BUSY_BLOCKS` or more non-ASCII blocks — sends the next
/// `DENSE_GROUPS` groups through the tables without ASCII tests. Before it, the branch predictor of
/// a CPU can learn a text validated again and again, and the tests pay; after it, it cannot
/// (docs/PERFORMANCE.md#far-into-long-input).
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

/// After an error, [`crate::errors()`] finds the ill-formed parts of the text this many blocks
/// at a time, a backend call for each (the masks of `arch::generic::subparts`), until such
/// a stretch has none: then the validator takes the rest again
/// (docs/PERFORMANCE.md#damaged-stretches).
pub const SUBPART_BLOCKS: usize = 8;

/// [`crate::count_chars`] counts inputs shorter than this a word at a time.
pub const COUNT_PORTABLE_BELOW: usize = 64;

/// [`crate::validate_and_count`] validates and counts its input in pieces of about this
/// many bytes (cut back to a character boundary), each counted while it is still in the L1
/// cache.
pub const COUNT_PIECE: usize = 16 * 1024;

const _: () = assert!(SHORT_BELOW >= 2 * BLOCK && SHORT_BELOW > (1 + MEDIUM_GROUP) * BLOCK);
const _: () = assert!(MEDIUM_BELOW >= SHORT_BELOW);
const _: () = assert!(MEDIUM_GROUP >= 1 && MEDIUM_GROUP_512 >= 1);
const _: () = assert!(
    GROUPS_FROM_512 >= (2 + MEDIUM_GROUP) * BLOCK
        && GROUPS_FROM_512 <= SHORT_BELOW
        && GROUPS_FROM_512 < ONE_GROUP_BELOW_512
        && ONE_GROUP_BELOW_512 <= LARGE_GROUPS_FROM_512
        && LARGE_GROUPS_FROM_512 >= (2 + MEDIUM_GROUP_512) * BLOCK
        && LARGE_GROUPS_FROM_512 <= GROUP_BRANCHES_BELOW_512
        && GROUP_BRANCHES_BELOW_512 <= MASKED_BELOW
);
const _: () = assert!(
    SMALL_GROUP >= 1
        && SMALL_GROUP < MEDIUM_GROUP
        && SMALL_GROUPS_BELOW_256 <= MASKED_BELOW
        && SMALL_GROUPS_BELOW_256 / (SMALL_GROUP * BLOCK) <= MEDIUM_MASK_GROUPS
        && SHORT_ASCII_FROM_UNITS_128 <= REGISTER_256
        && SHORT_ASCII_FROM_256 >= WORD_BELOW
        && SHORT_ASCII_FROM_256 <= SHORT_ASCII_FROM_UNITS_128
        && MEDIUM_UNALIGNED_BELOW_UNITS_128 >= SHORT_BELOW
        && GROUPS_FROM_UNITS_128 > (1 + SMALL_GROUP) * BLOCK
        && GROUPS_FROM_UNITS_128 <= SHORT_BELOW
        && MEDIUM_UNALIGNED_BELOW_UNITS_128 <= SMALL_GROUPS_BELOW_256
);
const _: () = assert!(MEDIUM_LONG_FIRST_TEST >= 1 && MEDIUM_LONG_ERROR_TEST >= 1);
const _: () = assert!(MEDIUM_MASK_GROUPS >= 1 && MEDIUM_MASK_GROUPS <= 64);
const _: () = assert!(RECORD_WINDOW.is_multiple_of(BLOCK) && RECORD_WINDOW >= BLOCK);
const _: () = assert!(ASCII_SKIP_BLOCKS >= 1 && ASCII_SKIP_BLOCKS_256 >= 1);
const _: () = assert!(BUSY_BLOCKS <= LOOP_GROUP && BUSY_GROUPS >= 1 && DENSE_GROUPS >= 1);
const _: () = assert!(REGISTER_128 <= REGISTER_256);
const _: () = assert!(REGISTER_256 <= REGISTER_512 && REGISTER_512 <= BLOCK);
