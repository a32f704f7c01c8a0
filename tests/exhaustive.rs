//! Exhaustive tests: every 1-, 2- and 3-byte string, every 4-byte string that starts
//! with F0..F4, and every never-valid lead F5..FF before three continuation bytes, placed
//! at many offsets of a 64-byte block, for every backend this CPU has,
//! compared with `core::str::from_utf8` (position and length) and with the scalar reference
//! (reason and code point).
//!
//! Each string `s` is checked in four contexts (see [`contexts`]): at the very end of the
//! input (so the end-of-input check is exercised), followed by valid multi-byte text (the
//! short-input path's overlapping registers), and, for the vector backends, inside an input
//! of the medium path (`vutf8::tiers`), once in its first block (checked on its own) and
//! once in the first block of its first group (where the bytes before each register are
//! loaded from memory). It is preceded by `o` bytes of valid text (ASCII, 2-byte or 3-byte
//! characters depending on `o`), so it starts at offset `o` of its block and crosses the
//! 16-, 32- and 64-byte register and block boundaries. Every input starts at a 64-byte
//! aligned address, so that an offset in the input is the same offset in the blocks of
//! memory the medium path works in (every other address is `tests/alignment.rs`'s job).
//! The expected answer is computed once per string and context, and shifted by the
//! string's position.
//!
//! Two tiers (see `common::full_tier` and `docs/RELIABILITY.md`). In the full tier
//! (`VUTF8_EXHAUSTIVE=full`, `scripts/test-exhaustive.sh`) the vector backends see every offset
//! `0..64` for 1- to 3-byte strings at the end of the input (every length of the short-input
//! path), and the offsets that touch a boundary of their own registers ([`at_boundary`]) in
//! the three other contexts (why: [`contexts`]); in the two long contexts, every 3-byte
//! string on the selected backend and the class-edge ones (below) on the others
//! ([`every_3_byte_string_at_every_offset`]). The scalar backend has no blocks; its only
//! position-dependence is the word alignment of its ASCII skip, so it sees offsets `0..=8`.
//! 4-byte strings are placed at offsets 0, 1, 15, 31, 32, 60, 61, 62 and 63 (the last
//! positions of a block, where the string crosses into the next one; in the three other
//! contexts, those of them at a boundary of the backend's registers); in the full tier the
//! selected backend checks them inside long inputs in tests/exhaustive_u32.rs instead (all
//! 2^31 that do not start with ASCII), and here in the short contexts, where every backend
//! checks every string `F0..F4 xx xx xx`; the other vector backends check the strings whose
//! later bytes are class edges (below) in the long contexts
//! ([`every_4_byte_string_from_f0_to_f4`]). In the sample tier
//! (the default of `cargo test`, and under emulation and sanitizers), the offsets of 1- to
//! 3-byte strings are a fixed subset chosen to cover every register boundary, and 4-byte
//! strings keep all of theirs: nothing is skipped at random.
//!
//! Byte values in the sample tier: every 1- and 2-byte string is still checked, and the first
//! byte of a 3-byte string still takes all 256 values, but the later bytes of 3- and
//! 4-byte strings take only [`CLASS_EDGES`]: the first and last byte of each class of the
//! UTF-8 grammar (Unicode Table 3-7: `00..7F`, `80..8F`, `90..9F`, `A0..BF`, `C0..C1`,
//! `C2..DF`, `E0`, `E1..EC`, `ED`, `EE..EF`, `F0`, `F1..F3`, `F4`, `F5..FF`) and one byte
//! inside each wider class. Bytes of one class are interchangeable for validity and error
//! positions, and every pair of adjacent bytes (all the lookup tables see) is covered by
//! the 2-byte strings; what the longer strings add is the check of the bytes 2 and 3
//! back (`>= E0`, `>= F0`) and of a sequence left open at the end (`>= C0`, `>= E0`,
//! `>= F0`), whose thresholds all lie on class edges. One pair is the exception: a lead
//! `F5..FF` and a continuation is seen by the tables alone only when two more
//! continuations follow (else the other checks catch it too), so those leads, every one of
//! them, get their 4-byte strings of continuations as well. That is 256 x 32^2 3-byte strings
//! instead of 2^24, and 5 x 32^3 4-byte strings instead of 5 x 2^24, which leaves room
//! for every 4-byte offset of the full mode.

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use vutf8::tiers::{BLOCK, REGISTER_128, SHORT_BELOW};
use vutf8::Backend;

/// After each string in the "followed by text" context: 2-, 3- and 4-byte characters,
/// then ASCII, long enough to reach into the next block.
const SUFFIX: &str = "é€😀 and plain text to run well past the end of the block ....";

/// One context a string is checked in: the valid text before the `o` prefix bytes and
/// what follows the string, and whether the scalar backend runs too.
struct Context {
    lead: Vec<u8>,
    tail: Vec<u8>,
    /// The first character of `tail`: all that the expected answer depends on (see
    /// [`expect`]).
    head: Vec<u8>,
    with_scalar: bool,
    /// Only the offsets [`at_boundary`] of each vector backend's registers.
    boundaries_only: bool,
}

/// Whether a string of `len` bytes (1 to 4) at offset `o` of a block meets a boundary of
/// registers of `width` bytes: it starts one (or is one byte past the start of a block),
/// or reaches into the last 3 bytes of one (the 4 last for a 4-byte string), where the next
/// register's `prev1`..`prev3` read it, or crosses into the next. Elsewhere every byte is
/// classified lane by lane with the 3 bytes before it inside the same register, so what the
/// offset changes is only which registers and blocks the string touches: these offsets are
/// all of them, in the contexts whose work does not depend on the input's length (see
/// [`contexts`]). For 16-byte registers (the widest set): 0, 1, 13-16, 29-32, 45-48, 61-63.
fn at_boundary(o: usize, len: usize, width: usize) -> bool {
    let reach = if len == 4 { 4 } else { 3 };
    o <= 1 || o.is_multiple_of(width) || o % width >= width - reach
}

/// The contexts each string is checked in:
///
/// 1. at the very end of the input (the end-of-input check, the short-input path);
/// 2. followed by [`SUFFIX`] (the short-input path's overlapping last register);
/// 3. followed by [`long_tail`]: an input of the medium path, in whose first block the
///    string lies; that block has no bytes before it and is checked on its own, shifting
///    registers, before the groups of blocks run over the text after it;
/// 4. the same after a lead of one block of 2-byte characters: the string lies in the
///    first block of the first group, where the 3 bytes before each register are loaded
///    from memory.
///
/// Only the first context places strings at every offset `0..64` in the full tier: there
/// the offset is the input's length, and the short-input path's work depends on the length
/// (how many registers, where the last overlapping one starts). In the others, every byte
/// is classified lane by lane with the 3 bytes before it, so what depends on the offset is
/// only which registers and blocks the string touches: they take the offsets
/// [`at_boundary`] of each backend's registers.
fn contexts() -> Vec<Context> {
    let ctx = |lead: &str, tail: String, with_scalar, boundaries_only| Context {
        lead: lead.as_bytes().to_vec(),
        head: tail.chars().take(1).collect::<String>().into_bytes(),
        tail: tail.into_bytes(),
        with_scalar,
        boundaries_only,
    };
    let lead = "é".repeat(BLOCK / 2);
    vec![
        ctx("", String::new(), true, false),
        ctx("", SUFFIX.to_string(), true, true),
        ctx("", long_tail(0), false, true),
        ctx(&lead, long_tail(lead.len()), false, true),
    ]
}

/// The text after a string in the long contexts, after a lead of `lead` bytes: [`SUFFIX`]
/// twice (multi-byte text through the end of the block after the string's), then ASCII, so
/// that the input is long enough for the medium path with a group after the string's
/// block. Only the text next to the string can change its answer (see [`expect`]); the
/// ASCII after it is for the length, and costs each check an ASCII test per group instead
/// of the whole lookup, which on the 128-bit backends was most of this test's time.
fn long_tail(lead: usize) -> String {
    let mut tail = SUFFIX.repeat(2);
    assert!(
        tail.len() >= 2 * BLOCK,
        "the multi-byte text reaches past the next block"
    );
    let len = (SHORT_BELOW + BLOCK).saturating_sub(lead);
    while tail.len() < len {
        tail.push('.');
    }
    tail
}

/// The sample tier ("reduced" below; the default, see `common::full_tier`).
fn reduced() -> bool {
    !common::full_tier()
}

/// Offsets for the vector backends (1- to 3-byte strings): in the sample tier, those at a
/// boundary of the narrowest registers (which include every wider register's).
fn vector_offsets() -> Vec<usize> {
    if reduced() {
        (0..BLOCK)
            .filter(|&o| at_boundary(o, 3, REGISTER_128))
            .collect()
    } else {
        (0..BLOCK).collect()
    }
}

/// Offsets for the scalar backend: every alignment of an 8-byte word.
fn scalar_offsets() -> Vec<usize> {
    if reduced() {
        vec![0, 3, 7]
    } else {
        (0..=8).collect()
    }
}

/// Offsets for 4-byte strings, in both modes (the vector backends see all of them).
fn four_byte_offsets() -> Vec<usize> {
    vec![0, 1, 15, 31, 32, 60, 61, 62, 63]
}

/// The first and last byte of each class of the UTF-8 grammar, and one byte inside each
/// class of more than two bytes; see the module documentation.
const CLASS_EDGES: [u8; 32] = [
    0x00, 0x41, 0x7F, // ASCII
    0x80, 0x88, 0x8F, // continuations that follow E1..EF, F1..F4 (not F0)
    0x90, 0x95, 0x9F, // continuations that follow E1..EC, EE..EF, F0..F3 (not E0, F4)
    0xA0, 0xB0, 0xBF, // continuations that follow all but ED, F4
    0xC0, 0xC1, // never valid (overlong 2-byte leads)
    0xC2, 0xD0, 0xDF, // 2-byte leads
    0xE0, // 3-byte lead, A0..BF next
    0xE1, 0xE5, 0xEC, // 3-byte leads
    0xED, // 3-byte lead, 80..9F next (no surrogates)
    0xEE, 0xEF, // 3-byte leads
    0xF0, // 4-byte lead, 90..BF next
    0xF1, 0xF2, 0xF3, // 4-byte leads
    0xF4, // 4-byte lead, 80..8F next (up to U+10FFFF)
    0xF5, 0xF8, 0xFF, // never valid
];

/// The values every byte after the first of a `len`-byte string takes: all of them, or in
/// reduced mode, for 3- and 4-byte strings, [`CLASS_EDGES`].
fn later_bytes(len: usize) -> Vec<u8> {
    if reduced() && len >= 3 {
        CLASS_EDGES.to_vec()
    } else {
        (0..=255).collect()
    }
}

/// Calls `f` with every string of `head` followed by `len - head.len()` bytes from `later`.
fn each_string(head: &[u8], len: usize, later: &[u8], mut f: impl FnMut(usize, &[u8])) {
    let n = later.len();
    let count = n.pow((len - head.len()) as u32);
    let mut s = [0; 4];
    s[..head.len()].copy_from_slice(head);
    for r in 0..count {
        let mut rest = r;
        for b in &mut s[head.len()..len] {
            *b = later[rest % n];
            rest /= n;
        }
        f(r, &s[..len]);
    }
}

/// `len` bytes of valid text: ASCII, 2-byte or 3-byte characters (by `len % 3`), padded
/// with ASCII to the exact length.
fn prefix(len: usize) -> Vec<u8> {
    let unit = match len % 3 {
        0 => "a",
        1 => "é",
        _ => "€",
    };
    let mut p = unit.repeat(len / unit.len()).into_bytes();
    p.resize(len, b'.');
    p
}

/// What a check must say: `None` for valid, else position, length, reason, code point.
type Expect = Option<(usize, Option<usize>, vutf8::ErrorKind, Option<u32>)>;

/// The expected result for `s` followed by `tail`, relative to the start of `s`, from std
/// (position and length) and the scalar reference (reason), which must agree.
///
/// Every tail is valid text (a `String` in [`contexts`]), so it starts with a character:
/// the first error of `s + tail` is an error inside `s`, or a sequence that `s` leaves
/// open cut short by the tail's first byte, or there is none. So the answer for the
/// context's `head` (the tail's first character) is the answer for the whole tail, and
/// that is what the oracles run on: on a long tail they would cost more than all the
/// checks. [`check_heads`] confirms it on a sample of strings.
fn expect(s: &[u8], tail: &[u8], scratch: &mut Vec<u8>) -> Expect {
    scratch.clear();
    scratch.extend_from_slice(s);
    scratch.extend_from_slice(tail);
    let std_says = common::std_verdict(scratch);
    let reference = vutf8::scalar::validate(scratch).err();
    let ours = reference.map(|e| (e.valid_up_to(), e.error_len()));
    assert_eq!(ours, std_says, "scalar reference vs std on {scratch:02X?}");
    reference.map(|e| (e.valid_up_to(), e.error_len(), e.kind(), e.code_point()))
}

/// Confirms, for every 4096th string `r`, that the answer for the head of each context
/// is the answer for its whole tail (see [`expect`]).
fn check_heads(r: usize, s: &[u8], contexts: &[Context], want: &[Expect], scratch: &mut Vec<u8>) {
    if r.is_multiple_of(4096) {
        for (c, w) in contexts.iter().zip(want) {
            assert_eq!(expect(s, &c.tail, scratch), *w, "head vs tail on {s:02X?}");
        }
    }
}

fn check(backend: Backend, buf: &[u8], offset: usize, want: Expect) {
    let got = backend.validate(buf).err().map(|e| {
        (
            e.valid_up_to() - offset,
            e.error_len(),
            e.kind(),
            e.code_point(),
        )
    });
    if got != want {
        panic!(
            "backend {} at offset {offset}: got {got:?}, want {want:?}\ninput {buf:02X?}",
            backend.name()
        );
    }
}

/// One placement of the string: an input with the lead and the prefix, room for the
/// string, and the tail, starting at a `BLOCK`-aligned address of `storage`, and the
/// backends that check it.
struct Slot {
    storage: Vec<u8>,
    /// Where the input starts in `storage` (the first aligned address) and how long it is.
    start: usize,
    len: usize,
    /// Where the string starts in the input.
    offset: usize,
    backends: Vec<Backend>,
}

impl Slot {
    fn new(o: usize, len: usize, context: &Context, backends: Vec<Backend>) -> Slot {
        let mut input = context.lead.clone();
        input.extend_from_slice(&prefix(o));
        let offset = input.len();
        input.resize(offset + len, 0);
        input.extend_from_slice(&context.tail);
        let mut storage = vec![0; input.len() + BLOCK];
        let start = common::index_at_address(&storage, 0);
        storage[start..start + input.len()].copy_from_slice(&input);
        Slot {
            storage,
            start,
            len: input.len(),
            offset,
            backends,
        }
    }
    fn run(&mut self, s: &[u8], want: Expect) {
        let input = &mut self.storage[self.start..self.start + self.len];
        input[self.offset..self.offset + s.len()].copy_from_slice(s);
        for &b in &self.backends {
            check(b, input, self.offset, want);
        }
    }
}

/// Which vector backends check the strings in the two long contexts (the medium path).
#[derive(Clone, Copy)]
enum Long {
    /// Every one.
    All,
    /// Every one but this one.
    AllBut(Backend),
    /// Only this one.
    Only(Backend),
    /// None: only the short contexts.
    None,
}

impl Long {
    fn includes(self, backend: Backend) -> bool {
        match self {
            Long::All => true,
            Long::AllBut(b) => b != backend,
            Long::Only(b) => b == backend,
            Long::None => false,
        }
    }
}

/// Builds the slots for strings of length `len`: every offset in `vector_offsets` for the
/// vector backends, every offset in `scalar_offsets` for the scalar one, every context,
/// the two long ones for the vector backends that `long` includes.
fn slots(
    len: usize,
    vector_offsets: &[usize],
    scalar_offsets: &[usize],
    long: Long,
) -> Vec<(usize, Slot)> {
    let all = common::backends();
    let vector: Vec<Backend> = all
        .iter()
        .copied()
        .filter(|&b| b != Backend::Scalar)
        .collect();
    let mut out = Vec::new();
    for (index, context) in contexts().iter().enumerate() {
        for o in 0..64 {
            let mut backends = Vec::new();
            if context.with_scalar && scalar_offsets.contains(&o) {
                backends.push(Backend::Scalar);
            }
            if vector_offsets.contains(&o) {
                let keep = |b: &&Backend| {
                    (context.with_scalar || long.includes(**b))
                        && (!context.boundaries_only
                            || at_boundary(o, len, common::register_bytes(**b)))
                };
                backends.extend(vector.iter().filter(keep));
            }
            if !backends.is_empty() {
                out.push((index, Slot::new(o, len, context, backends)));
            }
        }
    }
    out
}

/// Runs `body` for every item of `items` (the first bytes of the strings), on all cores
/// (single-threaded where threads are unavailable, as on wasm32); returns the sum of what
/// it returns.
fn parallel_over<T: Send>(items: Vec<T>, body: impl Fn(T) -> u64 + Sync) -> u64 {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let total = AtomicU64::new(0);
    if threads <= 1 || cfg!(target_family = "wasm") {
        for item in items {
            total.fetch_add(body(item), Ordering::Relaxed);
        }
    } else {
        let next = std::sync::Mutex::new(items.into_iter());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| loop {
                    let Some(item) = next.lock().unwrap().next() else {
                        break;
                    };
                    total.fetch_add(body(item), Ordering::Relaxed);
                });
            }
        });
    }
    total.into_inner()
}

/// Checks every string of `len` bytes (1..=3) whose later bytes are in `later`, in the
/// long contexts on the vector backends of `long`; returns the number of checks (backend
/// runs).
fn strings_of_len(len: usize, later: &[u8], long: Long) -> u64 {
    let vo = vector_offsets();
    let so = scalar_offsets();
    parallel_over((0..=255u8).collect(), |first| {
        let mut slots = slots(len, &vo, &so, long);
        let contexts = contexts();
        let mut scratch = Vec::new();
        let mut checks = 0u64;
        each_string(&[first], len, later, |r, s| {
            let want: Vec<Expect> = contexts
                .iter()
                .map(|c| expect(s, &c.head, &mut scratch))
                .collect();
            check_heads(r, s, &contexts, &want, &mut scratch);
            for (context, slot) in &mut slots {
                slot.run(s, want[*context]);
                checks += slot.backends.len() as u64;
            }
        });
        checks
    })
}

/// The number of strings [`strings_of_len`] checks (at least one check each).
fn string_count(firsts: usize, len: usize) -> u64 {
    firsts as u64 * (later_bytes(len).len() as u64).pow(len as u32 - 1)
}

#[test]
fn every_1_byte_string_at_every_offset() {
    let checks = strings_of_len(1, &later_bytes(1), Long::All);
    eprintln!("1-byte strings: {checks} checks");
    assert!(checks >= string_count(256, 1));
}

#[test]
fn every_2_byte_string_at_every_offset() {
    let checks = strings_of_len(2, &later_bytes(2), Long::All);
    eprintln!("2-byte strings: {checks} checks");
    assert!(checks >= string_count(256, 2));
}

/// In the full tier, every 3-byte string in the short contexts on every backend and in
/// the long contexts (the medium path) on the selected backend; the strings whose later
/// bytes are [`CLASS_EDGES`] in the long contexts on the other vector backends, which run
/// the same lookup on the same registers in the short contexts, where they see every
/// string, and share the medium path around it with the selected backend (as for the
/// 4-byte strings, [`every_4_byte_string_from_f0_to_f4`]; the other backends' long
/// contexts were a quarter of this test's time: `docs/RELIABILITY.md#ci-cuts`). In the sample tier, the class-edge strings everywhere.
#[test]
fn every_3_byte_string_at_every_offset() {
    let later = later_bytes(3);
    let checks = if common::full_tier() {
        let selected = Backend::selected();
        strings_of_len(3, &later, Long::Only(selected))
            + strings_of_len(3, &CLASS_EDGES, Long::AllBut(selected))
    } else {
        strings_of_len(3, &later, Long::All)
    };
    let strings = string_count(256, 3);
    eprintln!("3-byte strings: {strings} strings, {checks} checks");
    assert!(checks >= strings);
}

/// Checks every 4-byte string whose first byte is in `firsts` and whose later bytes are in
/// `later`, at every offset of [`four_byte_offsets`], in the long contexts on the vector
/// backends of `long`; returns the number of checks.
fn four_byte_strings(firsts: std::ops::RangeInclusive<u8>, later: &[u8], long: Long) -> u64 {
    let offsets = four_byte_offsets();
    // The scalar backend at two offsets (no blocks, two word alignments), vector backends
    // at all of `offsets`.
    let scalar = vec![offsets[0], offsets[1]];
    // By the first two bytes: a handful of first bytes alone would leave a core idle for
    // the last of them.
    let heads: Vec<[u8; 2]> = firsts
        .flat_map(|first| later.iter().map(move |&second| [first, second]))
        .collect();
    parallel_over(heads, |head| {
        let mut slots = slots(4, &offsets, &scalar, long);
        let contexts = contexts();
        let mut scratch = Vec::new();
        let mut checks = 0u64;
        each_string(&head, 4, later, |r, s| {
            let want: Vec<Expect> = contexts
                .iter()
                .map(|c| expect(s, &c.head, &mut scratch))
                .collect();
            check_heads(r, s, &contexts, &want, &mut scratch);
            for (context, slot) in &mut slots {
                slot.run(s, want[*context]);
                checks += slot.backends.len() as u64;
            }
        });
        checks
    })
}

/// In the full tier, the selected backend sees every 4-byte string inside long inputs in
/// tests/exhaustive_u32.rs (run beside it, scripts/test-exhaustive.sh): here it is left
/// out of the long contexts.
fn long_but_the_selected() -> Long {
    if common::full_tier() {
        Long::AllBut(Backend::selected())
    } else {
        Long::All
    }
}

/// In the full tier, every string `F0..F4 xx xx xx` in the two short contexts on every
/// backend, and in the long contexts (the medium path) the strings whose later bytes are
/// [`CLASS_EDGES`] on the vector backends other than the selected one, which sees them all
/// in long inputs in tests/exhaustive_u32.rs. The other vector backends run the same lookup
/// on the same registers in the short contexts, where they see every string; the medium
/// path around it is code they share with the selected backend. (Every string in the long
/// contexts on them was 18 checks of an input of some 600 bytes for each of 84 million
/// strings: half of this test's time, `docs/RELIABILITY.md#ci-cuts`.) In
/// the sample tier, the class-edge strings everywhere.
#[test]
fn every_4_byte_string_from_f0_to_f4() {
    let later = later_bytes(4);
    let checks = if common::full_tier() {
        four_byte_strings(0xF0..=0xF4, &later, Long::None)
            + four_byte_strings(0xF0..=0xF4, &CLASS_EDGES, Long::AllBut(Backend::selected()))
    } else {
        four_byte_strings(0xF0..=0xF4, &later, Long::All)
    };
    let strings = string_count(5, 4);
    eprintln!("4-byte strings F0..F4: {strings} strings, {checks} checks");
    assert!(checks >= strings);
}

/// A byte that never starts a sequence (`F5..FF`) followed by three continuation bytes:
/// the one shape in which only the lookup's pair of tables sees the error. Shorter, or
/// followed by anything but a continuation, the same lead is also caught by the check of
/// the bytes 3 back or of a sequence left open at the end, which hid a table entry that
/// had lost its bits from every other test here (`docs/RELIABILITY.md`, "Mutation
/// testing"). The lookup indexes its tables by nibble, so every one of these leads is
/// checked, not one per class; the later bytes are the continuations of [`later_bytes`].
#[test]
fn every_never_valid_lead_before_three_continuations() {
    let continuations: Vec<u8> = later_bytes(4)
        .into_iter()
        .filter(|b| (0x80..0xC0).contains(b))
        .collect();
    let leads = 0xF5..=0xFF;
    let strings = leads.len() as u64 * (continuations.len() as u64).pow(3);
    let checks = four_byte_strings(leads, &continuations, long_but_the_selected());
    eprintln!("F5..FF before three continuations: {strings} strings, {checks} checks");
    assert!(checks >= strings);
}
