//! Size-tier sweep: every class of error at every offset (or, in long inputs, at every
//! offset near a register or block boundary and everywhere in the last block), in inputs
//! of lengths derived from the size tiers of `vutf8::tiers` so that every tier is reached:
//! the one-register paths (packed 128-bit, AVX2's two 16-byte loads, AVX-512's masked
//! load), the short path (one to 32 registers, the overlapping last register, its ASCII
//! test), the medium path (its first block, groups, the rest, the group count changing
//! with the length, the error test every `MEDIUM_LONG_ERROR_TEST` groups of a long input and
//! the place it reports) and the main loop of
//! the 128- and 256-bit backends from `MEDIUM_BELOW` (its first block, its groups, the ASCII
//! skips, single blocks, the overlapping last block); after every kind of character, for
//! every backend this CPU has and for the public API (`from_utf8`, `is_valid`,
//! `Validator`). [`plan`] chooses the lengths and offsets, and [`every_tier_is_swept`]
//! asserts that they reach every tier.
//!
//! An input is `prefix + pattern + suffix`:
//!
//! - the prefix is `o` bytes of valid text whose last character is ASCII or a 2-, 3- or
//!   4-byte character (padded at the front with ASCII), so the error starts at offset `o`
//!   right after that kind of character; or ASCII after one 2-byte character at the start
//!   (so the main loop's first block is not ASCII and the ASCII after it is skipped by the
//!   main loop, after a group, rather than by the leading skip);
//! - the pattern is one of [`PATTERNS`]: a stray continuation byte, each byte that never
//!   appears (C0, C1, F5..FF), overlong 2-, 3- and 4-byte forms, surrogates, values above
//!   U+10FFFF, sequences cut short by an ASCII byte or another lead, and sequences left
//!   open (cut short by the suffix, or, when the pattern ends the input, `Incomplete`);
//! - the suffix fills the input to its length: ASCII, or 1- to 4-byte characters.
//!
//! Each input is checked against `core::str::from_utf8` (`valid_up_to` must be `o`, and
//! `error_len`), the scalar reference (every field of the error) and the pattern's own
//! expected [`ErrorKind`]. `VUTF8_EXHAUSTIVE=full` sweeps every offset of every length up
//! to the second group; `reduced` (AddressSanitizer, emulation) fewer lengths; see [`plan`].
//! The lengths where only the AVX-512 backends change tier are swept where the CPU runs
//! them ([`avx512_runs`]).
//! The backends see every input; the public API and the streams see every length and
//! offset, after one kind of prefix in turn ([`through_the_api`]).

mod common;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use common::Tier;
use vutf8::tiers::{
    ASCII_SKIP_BLOCKS, ASCII_SKIP_BLOCKS_256, BLOCK, GROUPS_FROM_256, GROUPS_FROM_512,
    GROUPS_FROM_UNITS_128, GROUP_BRANCHES_BELOW_512, LARGE_GROUPS_FROM_512, LOCATE_SCALAR_BELOW,
    LOOP_GROUP, MASKED_BELOW, MEDIUM_BELOW, MEDIUM_GROUP, MEDIUM_GROUP_512, MEDIUM_LONG_ERROR_TEST,
    MEDIUM_LONG_FIRST_TEST, MEDIUM_UNALIGNED_BELOW, MEDIUM_UNALIGNED_BELOW_UNITS_128,
    ONE_GROUP_BELOW_512, REGISTER_128, REGISTER_256, REGISTER_512, SHORT_BELOW, SMALL_GROUP,
    SMALL_GROUPS_BELOW_256, WORD_BELOW,
};
use vutf8::{Backend, ErrorKind, Utf8Error, Validator};

use ErrorKind::*;

/// An error pattern and its kind when something follows it (the suffix always starts with
/// a byte that is not a continuation byte). `open`: the pattern is the valid start of a
/// sequence, so at the very end of the input its kind is `Incomplete` instead.
struct Pattern {
    bytes: &'static [u8],
    kind: ErrorKind,
    open: bool,
}

const fn p(bytes: &'static [u8], kind: ErrorKind) -> Pattern {
    Pattern {
        bytes,
        kind,
        open: false,
    }
}

const fn open(bytes: &'static [u8]) -> Pattern {
    Pattern {
        bytes,
        kind: TooShort,
        open: true,
    }
}

const PATTERNS: &[Pattern] = &[
    // A continuation byte where a character should start.
    p(b"\x80", UnexpectedContinuation),
    p(b"\xBF", UnexpectedContinuation),
    // Bytes that never appear (followed by a non-continuation byte).
    p(b"\xC0", InvalidByte),
    p(b"\xC1", InvalidByte),
    p(b"\xF5", InvalidByte),
    p(b"\xF7", InvalidByte),
    p(b"\xF8", InvalidByte),
    p(b"\xFE", InvalidByte),
    p(b"\xFF", InvalidByte),
    // Overlong 2-, 3- and 4-byte forms.
    p(b"\xC0\xAF", Overlong),
    p(b"\xC1\xBF", Overlong),
    p(b"\xE0\x80\x80", Overlong),
    p(b"\xE0\x9F\xBF", Overlong),
    p(b"\xF0\x80\x80\x80", Overlong),
    p(b"\xF0\x8F\xBF\xBF", Overlong),
    // Surrogates.
    p(b"\xED\xA0\x80", Surrogate),
    p(b"\xED\xBF\xBF", Surrogate),
    // Above U+10FFFF.
    p(b"\xF4\x90\x80\x80", TooLarge),
    p(b"\xF4\xBF\xBF\xBF", TooLarge),
    p(b"\xF5\x80\x80\x80", TooLarge),
    p(b"\xF7\xBF\xBF\xBF", TooLarge),
    // Cut short by an ASCII byte or by another character's lead byte.
    p(b"\xC2\x41", TooShort),
    p(b"\xE2\x41", TooShort),
    p(b"\xE2\x82\x41", TooShort),
    p(b"\xF0\x41", TooShort),
    p(b"\xF0\x9F\x41", TooShort),
    p(b"\xF0\x9F\x98\x41", TooShort),
    p(b"\xE2\x82\xC3\xA9", TooShort),
    p(b"\xF0\x9F\x98\xF0\x9F\x98\x80", TooShort),
    // Left open: cut short by the suffix, or Incomplete at the end of the input.
    open(b"\xC2"),
    open(b"\xDF"),
    open(b"\xE2"),
    open(b"\xE2\x82"),
    open(b"\xED\x9F"),
    open(b"\xF0"),
    open(b"\xF0\x9F"),
    open(b"\xF0\x9F\x98"),
    open(b"\xF4\x8F\xBF"),
];

/// The main loop's ASCII skip unit in bytes, the longer of the backends' (AVX2's is
/// shorter): an offset past one unit is past the first unit on every backend.
const SKIP_UNIT: usize = if ASCII_SKIP_BLOCKS > ASCII_SKIP_BLOCKS_256 {
    ASCII_SKIP_BLOCKS * BLOCK
} else {
    ASCII_SKIP_BLOCKS_256 * BLOCK
};
/// Every length up to this is swept with every offset: the one-register paths of every
/// width, and the short path up to two blocks and a 256-bit register (all register counts
/// of the three widths up to two 512-bit registers, every overlapping last register, the
/// short path's ASCII test).
const ALL_UP_TO: usize = 2 * BLOCK + REGISTER_256;
// Every tier swept with every offset reaches past the end of the errors found by the
// scalar decoder alone (the reduced tier's `2 * BLOCK + 4` the smallest), so that every
// error position on both sides of `LOCATE_SCALAR_BELOW` is checked in every tier.
const _: () = assert!(LOCATE_SCALAR_BELOW + 3 < 2 * BLOCK + 4 && 2 * BLOCK + 4 <= ALL_UP_TO);
/// The bytes of one group of the medium path.
const GROUP: usize = MEDIUM_GROUP * BLOCK;
/// The bytes of one group of AVX-512's medium path from `LARGE_GROUPS_FROM_512`.
const GROUP_512: usize = MEDIUM_GROUP_512 * BLOCK;
/// The first length whose main loop, in a long input, runs a whole group after its first
/// block (and whose medium path runs two groups).
const FIRST_GROUP: usize = (1 + LOOP_GROUP) * BLOCK;
/// The first length whose main loop runs two groups (and the medium path four).
const SECOND_GROUP: usize = (1 + 2 * LOOP_GROUP) * BLOCK;
/// The longest of the shorter inputs swept: past the medium path with four groups, one
/// more block and a partial rest, and past AVX2's groups from the first byte by as much.
const MAX_SHORT: usize = {
    let after = BLOCK + REGISTER_256 + 3;
    if SECOND_GROUP > MEDIUM_UNALIGNED_BELOW {
        SECOND_GROUP + after
    } else {
        MEDIUM_UNALIGNED_BELOW + after
    }
};
// AVX-512's groups with a branch each start, and gain their second and third group (which
// leave the rest one whole block or more: at `2 * BLOCK + k * GROUP`; the second where
// their first function hands over to the next, `ONE_GROUP_BELOW_512`), within the lengths
// swept.
const _: () = assert!(ALL_UP_TO < GROUPS_FROM_512 && 2 * BLOCK + 3 * GROUP + 3 < MAX_SHORT);
const _: () = assert!(ONE_GROUP_BELOW_512 == 2 * BLOCK + 2 * GROUP);
// Its groups of `MEDIUM_GROUP_512` blocks start (an edge, swept wherever it lies) two or
// more, so that its first lengths have an error in a later group, and at a group count's
// first length (their groups too leave the rest one whole block or more).
const _: () = assert!(
    LARGE_GROUPS_FROM_512 >= 2 * BLOCK + 2 * GROUP_512
        && (LARGE_GROUPS_FROM_512 - 2 * BLOCK).is_multiple_of(GROUP_512)
        && LARGE_GROUPS_FROM_512 < GROUP_BRANCHES_BELOW_512
);

/// Whether this build has the AVX2 backend (x86): then [`every_tier_is_swept`] asks for the
/// tiers AVX2 alone takes, in the plan that sweeps them.
const X86_BUILD: bool = cfg!(any(target_arch = "x86", target_arch = "x86_64"));

/// Whether this build has the AVX-512 backends (x86 with the feature `avx512`): then
/// [`every_tier_is_swept`] asks for the tiers they alone take, in the plan that sweeps them.
const AVX512_BUILD: bool = cfg!(all(
    any(target_arch = "x86", target_arch = "x86_64"),
    feature = "avx512"
));

/// Whether the sweeps take the lengths that only the AVX-512 backends take differently
/// ([`avx512_edges`], two of [`long_lengths`]): where this CPU runs them. Elsewhere (an
/// x86 CPU without AVX-512, aarch64 and wasm32 under an emulator) no backend under test
/// has a tier there.
fn avx512_runs() -> bool {
    Backend::Avx512.is_available()
}

/// Whether the sweeps take the lengths that only AVX2 takes differently (its groups after
/// the first block, its groups from the first byte on 128-bit units, its unaligned medium
/// path's end, its groups of `SMALL_GROUP` blocks: the edges and long lengths marked so in
/// [`edges`] and [`long_lengths`]): where this CPU runs it. Under an emulator (aarch64,
/// wasm32), where every call costs tens of times more, no backend under test has a tier
/// there.
fn avx2_runs() -> bool {
    Backend::Avx2.is_available()
}

/// The long inputs: the longest of AVX2's aligned groups of `SMALL_GROUP` blocks
/// (`SMALL_GROUPS_BELOW_256 - 1`: the most groups there) and the shortest of its groups of
/// `MEDIUM_GROUP` after them, the longest of AVX-512's groups with a branch each
/// (`GROUP_BRANCHES_BELOW_512 - 1`: the most groups there), the longest whose medium path
/// tests its groups into a mask first (`MASKED_BELOW - 1`: the most groups in one mask),
/// the main loop's shortest (on the 128- and 256-bit backends; the medium path on
/// AVX-512), one byte more (a partial last block), and a length whose medium path
/// (AVX-512) tests its error inside the loop, every
/// `MEDIUM_LONG_ERROR_TEST` groups, with a partial block after the groups. (The offsets
/// of [`plan`] put errors in the first span, a middle one and the last, whose `from` the
/// cold `locate` starts at.) AVX-512's two only with `avx512` (its tiers); each length
/// once; AVX2's two only with `avx2`.
fn long_lengths(avx512: bool, avx2: bool) -> Vec<usize> {
    let mut lengths = vec![MASKED_BELOW - 1, MEDIUM_BELOW, MEDIUM_BELOW + 1];
    if avx2 {
        lengths.extend([SMALL_GROUPS_BELOW_256 - 1, SMALL_GROUPS_BELOW_256]);
    }
    if avx512 {
        lengths.push(GROUP_BRANCHES_BELOW_512 - 1);
        lengths.push(MEDIUM_BELOW.max(BLOCK + MEDIUM_LONG_ERROR_TEST * GROUP) + BLOCK + 37);
    }
    lengths.sort_unstable();
    lengths.dedup();
    lengths
}
/// The longest input swept.
fn max_len() -> usize {
    long_lengths(true, true)
        .into_iter()
        .max()
        .unwrap_or(0)
        .max(MAX_SHORT)
}

/// Where the rest of AVX2's groups after the first block (256-bit units,
/// `arch::generic::groups::validate_groups`) starts in an input of `len` bytes: after the
/// first block and as many groups of `SMALL_GROUP` blocks as fit.
fn after_small_groups(len: usize) -> usize {
    BLOCK + (len - BLOCK) / SMALL_GROUP_BYTES * SMALL_GROUP_BYTES
}

/// A group of `SMALL_GROUP` blocks, in bytes.
const SMALL_GROUP_BYTES: usize = SMALL_GROUP * BLOCK;

/// A length of AVX2's groups after the first block (256-bit units) that leaves them no
/// rest: the first block and whole groups.
const NO_REST_256: usize = BLOCK + (GROUPS_FROM_256 / SMALL_GROUP_BYTES + 1) * SMALL_GROUP_BYTES;
const _: () = assert!(GROUPS_FROM_256 <= NO_REST_256 && NO_REST_256 + 3 < MEDIUM_UNALIGNED_BELOW);

/// The tier edges above [`ALL_UP_TO`]: block counts of the short path (where AVX2 on
/// 256-bit units leaves it for its groups after the first block, one of their lengths
/// with no rest, and the short path's last length), the medium path's first length and
/// the lengths where its number of groups changes (which are also where the main loop of
/// a long input reaches its first and second group), and AVX2's unaligned groups (a
/// group more at each multiple of a group; on 128-bit units their first length, where
/// they take a second group of `SMALL_GROUP` blocks; their last length, on 256-bit and on
/// 128-bit units: those only with `avx2`); with `avx512`, [`avx512_edges`] too. Lengths
/// within 3 bytes of each are swept.
fn edges(avx512: bool, avx2: bool) -> Vec<usize> {
    let mut edges = vec![
        3 * BLOCK,
        ASCII_SKIP_BLOCKS * BLOCK,
        5 * BLOCK,
        SHORT_BELOW - 1,
        SHORT_BELOW,
        BLOCK + 2 * GROUP,
        FIRST_GROUP,
        FIRST_GROUP + BLOCK,
        BLOCK + 3 * GROUP,
        SECOND_GROUP,
        SECOND_GROUP + BLOCK,
        3 * GROUP,
    ];
    if avx2 {
        edges.extend([
            GROUPS_FROM_256,
            NO_REST_256,
            MEDIUM_UNALIGNED_BELOW,
            GROUPS_FROM_UNITS_128,
            GROUPS_FROM_UNITS_128 + SMALL_GROUP * BLOCK,
            MEDIUM_UNALIGNED_BELOW_UNITS_128,
        ]);
    }
    if avx512 {
        edges.extend(avx512_edges());
    }
    edges
}

/// The tier edges of AVX-512 alone: where its short path hands over to its groups with a
/// branch each (`GROUPS_FROM_512`), where those gain their second and third group, where
/// they become groups of 8 blocks (`LARGE_GROUPS_FROM_512`, the 3 bytes before it the
/// longest groups of 4, with their most groups) and where those gain a group.
fn avx512_edges() -> [usize; 6] {
    [
        GROUPS_FROM_512 - 1,
        GROUPS_FROM_512,
        ONE_GROUP_BELOW_512,
        2 * BLOCK + 3 * GROUP,
        LARGE_GROUPS_FROM_512,
        LARGE_GROUPS_FROM_512 + GROUP_512,
    ]
}
// AVX2's groups from the first byte end within the lengths swept, after two of their
// group counts (`SHORT_BELOW` is past the first).
const _: () = assert!(SHORT_BELOW < 3 * GROUP && MEDIUM_UNALIGNED_BELOW + 3 < MAX_SHORT);
const _: () = assert!(GROUPS_FROM_512 <= SHORT_BELOW);

/// The lengths swept, each with the error offsets swept in it.
type Plan = Vec<(usize, Vec<usize>)>;

/// Whether offset `o` of an input of `len` bytes is one of the sampled ones: within 3 bytes
/// of a block boundary, within 1 of a 128-bit register boundary, or in the last block and
/// the 3 bytes before it.
fn sampled_offset(len: usize, o: usize) -> bool {
    !(4..=BLOCK - 4).contains(&(o % BLOCK))
        || !(2..=REGISTER_128 - 2).contains(&(o % REGISTER_128))
        || o + BLOCK + 3 >= len
}

/// Which lengths are swept and, for each, which error offsets.
///
/// - default: every length up to [`ALL_UP_TO`] with every offset; every length within 3
///   bytes of an [edge](edges) and every 37th length up to [`MAX_SHORT`] (so that the
///   length modulo a block varies), with the [sampled](sampled_offset) offsets; and the
///   [long lengths](long_lengths), with the offsets within 3 bytes of a block boundary in
///   three stretches (the first `FIRST_GROUP + BLOCK` bytes, the middle `2 * GROUP`, the
///   last `2 * BLOCK`) and every offset in the last block and the 3 bytes before it;
/// - `full`: every length up to [`FIRST_GROUP`]` + BLOCK + 3` and every length within 3
///   bytes of an edge, with every offset (minutes), and the long lengths as above;
/// - `reduced`: every length up to `2 * BLOCK + 4` with every offset, the edges ±1 with
///   the sampled offsets, and the long lengths with the offsets within 1 byte of a block
///   boundary in the three stretches.
///
/// With `avx512`, the edges and long lengths of the AVX-512 tiers too; with `avx2`, AVX2's.
fn plan(avx512: bool, avx2: bool) -> Plan {
    let (all_up_to, near, stride, sampled) = match common::tier() {
        Tier::Sample => (ALL_UP_TO, 3, Some(37), true),
        Tier::Full => (FIRST_GROUP + BLOCK + 3, 3, None, false),
        Tier::Reduced => (2 * BLOCK + 4, 1, None, true),
    };
    let mut lengths: Vec<usize> = (0..=all_up_to).collect();
    for e in edges(avx512, avx2) {
        lengths.extend(e - near..=e + near);
    }
    if let Some(stride) = stride {
        lengths.extend((all_up_to..=MAX_SHORT).step_by(stride));
    }
    lengths.sort_unstable();
    lengths.dedup();
    let mut plan: Plan = lengths
        .into_iter()
        .map(|len| {
            let offsets = (0..=len)
                .filter(|&o| !sampled || len <= all_up_to || sampled_offset(len, o))
                .collect();
            (len, offsets)
        })
        .collect();
    for len in long_lengths(avx512, avx2) {
        let middle = len / 2 - GROUP..len / 2 + GROUP;
        let offsets = (0..=len)
            .filter(|&o| {
                let near_block = !(near + 1..=BLOCK - near - 1).contains(&(o % BLOCK));
                let stretch =
                    o <= FIRST_GROUP + BLOCK || middle.contains(&o) || o + 2 * BLOCK >= len;
                (near_block && stretch) || o + BLOCK + 3 >= len
            })
            .collect();
        plan.push((len, offsets));
    }
    plan
}

/// The kinds of prefix: its last character has 1 to 4 bytes, or it is ASCII after one
/// 2-byte character at the start (which the leading ASCII skip stops at, so the main loop
/// meets the ASCII run after its first block: it skips ASCII again after a group of it).
const PREFIXES: [&str; 5] = [
    "1-byte characters",
    "2-byte characters",
    "3-byte characters",
    "4-byte characters",
    "ASCII after a 2-byte character",
];

/// Valid text of exactly `len` bytes of prefix kind `kind` (an index into [`PREFIXES`]):
/// for kinds 0 to 3, ASCII padding, then characters of `kind + 1` bytes (its last character
/// has that width when `len > kind`); for kind 4, `é` and then ASCII (only ASCII when
/// `len < 2`).
fn prefix(kind: usize, len: usize) -> Vec<u8> {
    if kind == 4 {
        let mut out = vec![b'a'; len];
        if len >= 2 {
            out[..2].copy_from_slice("é".as_bytes());
        }
        return out;
    }
    let width = kind + 1;
    let c = ["a", "é", "€", "😀"][kind].as_bytes();
    let mut out = vec![b'p'; len % width];
    while out.len() < len {
        out.extend_from_slice(c);
    }
    out
}

/// Valid text of exactly `len` bytes: ASCII, or 1- to 4-byte characters in turn (ASCII
/// padding at the end). Starts with a byte that is not a continuation byte.
fn suffix(mixed: bool, len: usize) -> Vec<u8> {
    if !mixed {
        return vec![b's'; len];
    }
    let mut out = Vec::with_capacity(len);
    for c in ["é", "€", "😀", "z"].iter().cycle() {
        if out.len() + c.len() > len {
            break;
        }
        out.extend_from_slice(c.as_bytes());
    }
    out.resize(len, b'z');
    out
}

/// The prefixes (or suffixes) of one kind, of every length up to the longest, without a
/// copy of each: [`prefix`] (or [`suffix`]) of the longest length, and how to cut it.
struct Texts {
    text: Vec<u8>,
    /// Prefixes: [`prefix`] puts its padding first, so a prefix of `len` bytes is the
    /// padding and the last whole characters of the text. Suffixes: [`suffix`] pads at the
    /// end, so a suffix of `len` bytes is the text up to its last character boundary at or
    /// before `len`, then padding.
    kind: TextKind,
}

enum TextKind {
    /// Characters of this width after padding with `p` (prefix kinds 0 to 3).
    Width(usize),
    /// `é`, then ASCII (prefix kind 4): the text's first `len` bytes are the prefix.
    Head,
    /// A suffix, padded with this byte.
    Suffix(u8),
}

impl Texts {
    fn prefixes(kind: usize, max: usize) -> Texts {
        Texts {
            text: prefix(kind, max),
            kind: if kind < 4 {
                TextKind::Width(kind + 1)
            } else {
                TextKind::Head
            },
        }
    }

    fn suffixes(mixed: bool, max: usize) -> Texts {
        Texts {
            text: suffix(mixed, max),
            kind: TextKind::Suffix(if mixed { b'z' } else { b's' }),
        }
    }

    /// Appends the text of `len` bytes of this kind: what [`prefix`] or [`suffix`] gives
    /// for `len`.
    fn push(&self, out: &mut Vec<u8>, len: usize) {
        match self.kind {
            TextKind::Width(w) => {
                out.resize(out.len() + len % w, b'p');
                let chars = len - len % w;
                out.extend_from_slice(&self.text[self.text.len() - chars..]);
            }
            TextKind::Head if len >= 2 => out.extend_from_slice(&self.text[..len]),
            TextKind::Head => out.resize(out.len() + len, b'a'),
            TextKind::Suffix(pad) => {
                let mut cut = len;
                while cut > 0 && cut < self.text.len() && self.text[cut] & 0xC0 == 0x80 {
                    cut -= 1;
                }
                out.extend_from_slice(&self.text[..cut]);
                out.resize(out.len() + len - cut, pad);
            }
        }
    }
}

/// The stream through a `Validator`, as one chunk and as two chunks split inside the
/// pattern.
fn stream(input: &[u8], split: usize) -> [Result<(), Utf8Error>; 2] {
    let whole = {
        let mut v = Validator::new();
        v.update(input).and_then(|()| v.finish())
    };
    let split = {
        let mut v = Validator::new();
        let (a, b) = input.split_at(split);
        v.update(a)
            .and_then(|()| v.update(b))
            .and_then(|()| v.finish())
    };
    [whole, split]
}

/// Whether the input with the error at offset `o` of `len` bytes, after prefix kind `w`,
/// also goes through the public API and the streams; the backends see every input. One
/// prefix kind in turn, `(len + o)` modulo the kinds, with both suffixes: every length and
/// offset of every pattern goes through every entry point (the dispatch by length, the
/// stream's carry across a split inside the pattern), after one kind of character instead
/// of all five, which only the backend's own work (checked on every input) tells apart.
/// Those checks run the selected backend four times more: under emulation they were most
/// of the sweep's time.
fn through_the_api(len: usize, o: usize, w: usize) -> bool {
    (len + o) % PREFIXES.len() == w
}

/// Checks one pattern at every length and offset, after every prefix and before both
/// suffixes, with every input starting at address `place` modulo a block (so that which
/// placement a pattern gets does not depend on the allocator's history or on which thread
/// takes it: a failure that depends on it fails every run). Returns (inputs, checks).
fn sweep(pattern: &Pattern, plan: &Plan, backends: &[Backend], place: usize) -> (u64, u64) {
    let max = max_len();
    let prefixes: Vec<Texts> = (0..PREFIXES.len())
        .map(|k| Texts::prefixes(k, max))
        .collect();
    let suffixes: Vec<Texts> = [false, true]
        .iter()
        .map(|&m| Texts::suffixes(m, max))
        .collect();
    let n = pattern.bytes.len();
    let mut buffer: Vec<u8> = Vec::with_capacity(max + BLOCK);
    let (mut inputs, mut checks) = (0u64, 0u64);
    for (len, offsets) in plan.iter().filter(|(len, _)| *len >= n) {
        let len = *len;
        for o in offsets.iter().copied().filter(|&o| o + n <= len) {
            let at_end = o + n == len;
            let kind = if at_end && pattern.open {
                Incomplete
            } else {
                pattern.kind
            };
            for (w, pre) in prefixes.iter().enumerate() {
                for (m, suf) in suffixes.iter().enumerate() {
                    if at_end && m == 1 {
                        continue; // both suffixes are empty
                    }
                    buffer.clear();
                    let shift = common::index_at_address(&buffer, place);
                    buffer.resize(shift, 0);
                    pre.push(&mut buffer, o);
                    buffer.extend_from_slice(pattern.bytes);
                    suf.push(&mut buffer, len - o - n);
                    let input = &buffer[shift..];
                    debug_assert_eq!(input.as_ptr() as usize % BLOCK, place);
                    let what = || {
                        format!(
                            "pattern {:02X?} at {o} of {len} after {}, suffix {}",
                            pattern.bytes,
                            PREFIXES[w],
                            ["ASCII", "mixed"][m]
                        )
                    };
                    let std = std::str::from_utf8(input).unwrap_err();
                    let want = vutf8::scalar::validate(input).unwrap_err();
                    assert_eq!(std.valid_up_to(), o, "{}", what());
                    assert_eq!(
                        (want.valid_up_to(), want.error_len(), want.kind()),
                        (o, std.error_len(), kind),
                        "scalar reference, {}",
                        what()
                    );
                    for &b in backends {
                        assert_eq!(b.validate(input), Err(want), "{b}, {}", what());
                        assert!(!b.is_valid(input), "{b} is_valid, {}", what());
                    }
                    inputs += 1;
                    checks += 2 * backends.len() as u64 + 2;
                    if !through_the_api(len, o, w) {
                        continue;
                    }
                    assert_eq!(vutf8::from_utf8(input).map(|_| ()), Err(want), "{}", what());
                    assert!(!vutf8::is_valid(input), "is_valid, {}", what());
                    let [whole, split] = stream(input, o + n / 2 + 1);
                    assert_eq!(whole, Err(want), "Validator, {}", what());
                    assert_eq!(split, Err(want), "Validator in 2 chunks, {}", what());
                    checks += 4;
                }
            }
        }
    }
    (inputs, checks)
}

#[test]
fn every_error_class_at_every_offset_and_length() {
    let backends = common::backends();
    let plan = plan(avx512_runs(), avx2_runs());
    let (inputs, checks) = (AtomicU64::new(0), AtomicU64::new(0));
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let start = std::time::Instant::now();
    let work = || {
        while let Some((i, pattern)) = {
            let i = next.fetch_add(1, Ordering::Relaxed);
            PATTERNS.get(i).map(|p| (i, p))
        } {
            // Pattern i at address 13 * i + 8 modulo a block (13 is prime to the block, so
            // the patterns spread over the placements; the first at 8, as the benchmarks).
            let (n, c) = sweep(pattern, &plan, &backends, (13 * i + 8) % BLOCK);
            inputs.fetch_add(n, Ordering::Relaxed);
            checks.fetch_add(c, Ordering::Relaxed);
        }
    };
    // wasm32 (WASI) cannot start threads: there, the calling thread does all the work.
    if threads <= 1 || cfg!(target_family = "wasm") {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(work);
            }
        });
    }
    let (inputs, checks) = (inputs.into_inner(), checks.into_inner());
    eprintln!(
        "boundary sweep: {} lengths (AVX-512's: {}; AVX2's: {}), {} patterns, {inputs} inputs, {checks} checks ({} backends), {:.1?}",
        plan.len(),
        if avx512_runs() { "swept" } else { "not run here" },
        if avx2_runs() { "swept" } else { "not run here" },
        PATTERNS.len(),
        backends.len(),
        start.elapsed()
    );
    assert!(inputs > 1_000_000);
}

#[test]
fn valid_inputs_of_every_length_after_every_prefix() {
    // The same shapes without an error: nothing may be reported.
    let backends = common::backends();
    let mut cases = 0;
    for (len, offsets) in plan(avx512_runs(), avx2_runs()) {
        for w in 0..PREFIXES.len() {
            for m in [false, true] {
                for o in offsets.iter().copied().step_by(7).chain([len]) {
                    let mut input = prefix(w, o);
                    input.extend_from_slice(&suffix(m, len - o));
                    common::check_all(&input, &backends);
                    assert_eq!(stream(&input, o / 2), [Ok(()), Ok(())]);
                    cases += 1;
                }
            }
        }
    }
    eprintln!("boundary sweep: {cases} valid inputs");
}

/// Each tier of `vutf8::tiers` (and each part of the main loop) with the lengths and error
/// offsets that reach it: the plan must contain at least one of each.
#[test]
fn every_tier_is_swept() {
    // (tier, does (len, offset) reach it?)
    type Reach = fn(usize, usize) -> bool;
    let tiers: &[(&str, Reach)] = &[
        ("the word's DFA, packed from 1 to 3 bytes", |len, _| {
            (1..4).contains(&len)
        }),
        ("the word's DFA, packed from two 4-byte words", |len, _| {
            (4..WORD_BELOW).contains(&len)
        }),
        ("one register packed from two 8-byte words", |len, _| {
            (WORD_BELOW..REGISTER_128).contains(&len)
        }),
        ("one AVX2 register from two 16-byte loads", |len, _| {
            (REGISTER_128..REGISTER_256).contains(&len)
        }),
        (
            "short path, last register 1-2 bytes past the first (128-bit)",
            |len, _| (REGISTER_128 + 1..=REGISTER_128 + 2).contains(&len),
        ),
        (
            "short path, last register 1-2 bytes past the first (256-bit)",
            |len, _| (REGISTER_256 + 1..=REGISTER_256 + 2).contains(&len),
        ),
        (
            "short path, last register 1-2 bytes past the first (512-bit)",
            |len, _| (REGISTER_512 + 1..=REGISTER_512 + 2).contains(&len),
        ),
        (
            "short path, two 512-bit registers and an overlapping third",
            |len, _| len > 2 * REGISTER_512 && len % REGISTER_512 != 0,
        ),
        ("short path, overlapping last register", |len, _| {
            len > REGISTER_256 + 3 && len % REGISTER_256 != 0
        }),
        ("short path above one block (its ASCII test)", |len, o| {
            len > BLOCK && len < SHORT_BELOW && o > BLOCK
        }),
        (
            "AVX2's groups after the first block (256-bit units), their shortest input, \
             the error in the first block",
            |len, o| len == GROUPS_FROM_256 && o < BLOCK,
        ),
        (
            "AVX2's groups after the first block (256-bit units), the error in a group",
            |len, o| {
                (GROUPS_FROM_256..MEDIUM_UNALIGNED_BELOW).contains(&len)
                    && (BLOCK..after_small_groups(len)).contains(&o)
            },
        ),
        (
            "AVX2's groups after the first block (256-bit units), the error in the rest",
            |len, o| {
                (GROUPS_FROM_256..MEDIUM_UNALIGNED_BELOW).contains(&len)
                    && after_small_groups(len) < len
                    && o >= after_small_groups(len)
            },
        ),
        (
            "AVX2's groups after the first block (256-bit units), no rest",
            |len, _| {
                (GROUPS_FROM_256..MEDIUM_UNALIGNED_BELOW).contains(&len)
                    && after_small_groups(len) == len
            },
        ),
        (
            "groups of `SMALL_GROUP` blocks from the first byte (AVX2 on 128-bit units), past the first",
            |len, o| {
                (GROUPS_FROM_UNITS_128..MEDIUM_UNALIGNED_BELOW_UNITS_128).contains(&len)
                    && o >= SMALL_GROUP * BLOCK
                    && o + SMALL_GROUP * BLOCK < len
            },
        ),
        ("short path, its longest input", |len, o| {
            len == SHORT_BELOW - 1 && o + BLOCK > len
        }),
        ("medium path, its shortest input", |len, o| {
            len == SHORT_BELOW && o + BLOCK > len
        }),
        ("medium path, first block", |len, o| {
            (SHORT_BELOW..MAX_SHORT).contains(&len) && o < BLOCK
        }),
        ("medium path, first group", |len, o| {
            (SHORT_BELOW..MAX_SHORT).contains(&len) && (BLOCK..BLOCK + GROUP).contains(&o)
        }),
        ("medium path, a later group", |len, o| {
            (BLOCK + 3 * GROUP..MAX_SHORT).contains(&len)
                && (BLOCK + GROUP..BLOCK + 3 * GROUP).contains(&o)
        }),
        ("medium path, the rest after the groups", |len, o| {
            (SHORT_BELOW..MAX_SHORT).contains(&len) && o >= BLOCK + (len - BLOCK) / GROUP * GROUP
        }),
        (
            "medium path, one more group than a byte shorter",
            |len, _| len > SHORT_BELOW && (len - BLOCK).is_multiple_of(GROUP),
        ),
        (
            "medium path from the first byte (AVX2), its first group",
            |len, o| (SHORT_BELOW..MEDIUM_UNALIGNED_BELOW).contains(&len) && o < GROUP,
        ),
        (
            "medium path from the first byte (AVX2), a later group",
            |len, o| {
                (3 * GROUP..MEDIUM_UNALIGNED_BELOW).contains(&len)
                    && (GROUP..3 * GROUP).contains(&o)
            },
        ),
        (
            "medium path from the first byte (AVX2), the rest after the groups",
            |len, o| {
                (SHORT_BELOW..MEDIUM_UNALIGNED_BELOW).contains(&len) && o >= len / GROUP * GROUP
            },
        ),
        (
            "medium path from the first byte (AVX2), one more group than a byte shorter",
            |len, _| (SHORT_BELOW..MEDIUM_UNALIGNED_BELOW).contains(&len) && len % GROUP == 0,
        ),
        (
            "medium path from the first byte (AVX2), its longest input",
            |len, o| len == MEDIUM_UNALIGNED_BELOW - 1 && o + BLOCK > len,
        ),
        (
            "groups from the first byte (AVX2), no branch on the whole input, error in a \
             later group",
            |len, o| {
                (SHORT_BELOW..MEDIUM_UNALIGNED_BELOW).contains(&len)
                    && (GROUP..len / GROUP * GROUP).contains(&o)
            },
        ),
        (
            "groups from the first byte (AVX2), no branch on the whole input, error in the \
             rest",
            |len, o| {
                (SHORT_BELOW..MEDIUM_UNALIGNED_BELOW).contains(&len)
                    && len % GROUP != 0
                    && o >= len / GROUP * GROUP
            },
        ),
        (
            "medium path from the first 64-byte boundary (AVX2), its shortest input",
            |len, o| len == MEDIUM_UNALIGNED_BELOW && o + BLOCK > len,
        ),
        (
            "AVX2's aligned groups of `SMALL_GROUP` blocks, their longest input, an error \
             in a later group",
            |len, o| {
                len == SMALL_GROUPS_BELOW_256 - 1
                    && ((2 + SMALL_GROUP) * BLOCK..len - 2 * BLOCK).contains(&o)
            },
        ),
        (
            "AVX2's aligned groups of `SMALL_GROUP` blocks, their longest input, an error \
             in the rest",
            |len, o| len == SMALL_GROUPS_BELOW_256 - 1 && o + BLOCK > len,
        ),
        (
            "AVX2's aligned groups of `MEDIUM_GROUP` blocks from `SMALL_GROUPS_BELOW_256`, \
             their shortest input",
            |len, o| len == SMALL_GROUPS_BELOW_256 && o + BLOCK > len,
        ),
        ("main loop, its shortest input", |len, o| {
            len == MEDIUM_BELOW && o + BLOCK > len
        }),
        ("main loop, first block", |len, o| {
            len >= MEDIUM_BELOW && o < BLOCK
        }),
        (
            "main loop, ASCII skipped several blocks at a time",
            |len, o| len >= MEDIUM_BELOW && o >= SKIP_UNIT + BLOCK,
        ),
        (
            "main loop, ASCII skipped again after an all-ASCII group",
            |len, o| len >= MEDIUM_BELOW && o >= (1 + LOOP_GROUP) * BLOCK + SKIP_UNIT,
        ),
        ("main loop, first group", |len, o| {
            len >= MEDIUM_BELOW && (BLOCK..FIRST_GROUP).contains(&o)
        }),
        (
            "main loop, block boundaries inside the first group",
            |len, o| len >= MEDIUM_BELOW && o > BLOCK && o < FIRST_GROUP && o % BLOCK == 0,
        ),
        ("main loop, a group far from the start", |len, o| {
            len >= MEDIUM_BELOW && o > len / 4 && o + len / 4 < len
        }),
        ("main loop, the blocks after the last group", |len, o| {
            len >= MEDIUM_BELOW && o + 2 * BLOCK >= len && o + BLOCK < len
        }),
        ("main loop ending on a block boundary", |len, o| {
            len >= MEDIUM_BELOW && len % BLOCK == 0 && o + 3 >= len
        }),
        (
            "main loop, after the overlapping last block's start",
            |len, o| len > MEDIUM_BELOW && len % BLOCK != 0 && o >= len - len % BLOCK,
        ),
    ];
    // The tiers of AVX-512 alone, asked for in a build that has it ([`AVX512_BUILD`]).
    let avx512_tiers: &[(&str, Reach)] = &[
        ("one masked 512-bit register (AVX-512)", |len, _| {
            (WORD_BELOW..REGISTER_512).contains(&len)
        }),
        ("short path, its longest input (AVX-512)", |len, o| {
            len == GROUPS_FROM_512 - 1 && o + BLOCK > len
        }),
        (
            "a branch per group (AVX-512), its shortest input, an error in the rest",
            |len, o| len == GROUPS_FROM_512 && o + BLOCK > len,
        ),
        (
            "a branch per group (AVX-512), an error in the first block",
            |len, o| (GROUPS_FROM_512..SHORT_BELOW).contains(&len) && o < BLOCK,
        ),
        (
            "a branch per group (AVX-512), an error in its one group",
            |len, o| {
                (GROUPS_FROM_512..SHORT_BELOW).contains(&len) && (BLOCK..BLOCK + GROUP).contains(&o)
            },
        ),
        (
            "a branch per group (AVX-512), one group, an error in the rest",
            |len, o| (GROUPS_FROM_512..ONE_GROUP_BELOW_512).contains(&len) && o >= BLOCK + GROUP,
        ),
        (
            "a branch per group (AVX-512), two groups or more, an error in a later group",
            |len, o| {
                (ONE_GROUP_BELOW_512..GROUP_BRANCHES_BELOW_512).contains(&len)
                    && (BLOCK + GROUP..len - GROUP).contains(&o)
            },
        ),
        (
            "groups of 8 blocks (AVX-512), an error in a later group",
            |len, o| {
                (LARGE_GROUPS_FROM_512..GROUP_BRANCHES_BELOW_512).contains(&len)
                    && (BLOCK + GROUP_512..len - 2 * BLOCK).contains(&o)
            },
        ),
        (
            "groups of 8 blocks (AVX-512), one more group than a byte shorter",
            |len, _| len > LARGE_GROUPS_FROM_512 && (len - 2 * BLOCK).is_multiple_of(GROUP_512),
        ),
        (
            "a branch per group (AVX-512), its longest input, an error in the rest",
            |len, o| len == GROUP_BRANCHES_BELOW_512 - 1 && o + BLOCK > len,
        ),
        (
            "medium path, its error test inside the loop (AVX-512), error near the start",
            |len, o| len >= MASKED_BELOW.max(BLOCK + MEDIUM_LONG_ERROR_TEST * GROUP) && o < BLOCK,
        ),
        (
            "medium path, an error after a span found clean (AVX-512: `from` past 0)",
            |len, o| {
                len >= MASKED_BELOW
                    && o >= BLOCK + (MEDIUM_LONG_FIRST_TEST + MEDIUM_LONG_ERROR_TEST) * GROUP
                    && o + 2 * BLOCK < len
            },
        ),
        (
            "medium path, an error in its last span or the rest (AVX-512: `from` past 0)",
            |len, o| len >= MASKED_BELOW && o + BLOCK > len,
        ),
    ];
    let plan = plan(AVX512_BUILD, X86_BUILD);
    let avx512_tiers = if AVX512_BUILD { avx512_tiers } else { &[] };
    // The tiers named for AVX2 are asked for where the build has it (x86).
    let tiers = tiers
        .iter()
        .filter(|(tier, _)| X86_BUILD || !tier.contains("AVX2"));
    for (tier, reaches) in tiers.chain(avx512_tiers) {
        assert!(
            plan.iter()
                .any(|(len, offsets)| offsets.iter().any(|&o| reaches(*len, o))),
            "no swept length and offset reaches: {tier}"
        );
    }
    // Every edge and every length up to ALL_UP_TO (or its reduced form), with every offset.
    for (len, offsets) in plan.iter().filter(|(len, _)| *len <= 2 * BLOCK + 4) {
        assert_eq!(offsets.len(), len + 1, "every offset of length {len}");
    }
    for e in edges(AVX512_BUILD, X86_BUILD) {
        assert!(plan.iter().any(|(len, _)| *len == e), "edge {e} swept");
    }
}
