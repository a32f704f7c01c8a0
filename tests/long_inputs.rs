//! Inputs long enough that their text comes from memory
//! (`vutf8::tiers::MEDIUM_PREFETCH_FROM`, 2 MiB, and more): there AVX-512's medium path
//! asks for the bytes `PREFETCH_AHEAD` ahead (and further, up to `MEMORY_PREFETCH_FAR`) in
//! every group, and the main loop of the other backends, far into the input, in its groups
//! without ASCII tests too. A prefetch changes no answer, but the compiler may give the
//! path that asks a loop of its own, and the requests run past the end of the input: so
//! every backend this CPU has, the public API and a `Validator` fed chunks (on AVX-512 a
//! chunk that ends 2 MiB or more into the text asks ahead too) must report what
//! `core::str::from_utf8` does, on valid text and with errors near the start, across the
//! input and in the last groups, whose requests lie past the end.
//!
//! The text starts with a few groups of ASCII (AVX-512 skips leading ASCII first there,
//! asking further ahead), then alternates runs of ASCII and runs of blocks that each hold
//! a 2-, 3- or 4-byte character, of lengths that change from run to run, so that groups of
//! every kind (ASCII, busy, mixed) occur, and so do the main loop's dense runs; and a text
//! all ASCII, whose leading skip reaches the end. `VUTF8_EXHAUSTIVE=full` takes
//! every 7th offset of the windows; the default a stride of 97 bytes (37 in the last
//! groups); `reduced` (emulation) the first length, three error classes, a stride of
//! 1,021 bytes (211 in the last groups) and a place every 256 KiB.

mod common;

use common::{Tier, ERRORS_OVER_TEXT};
use vutf8::tiers::{
    BLOCK, MEDIUM_GROUP, MEDIUM_PREFETCH_FROM, MEMORY_PREFETCH_FAR, PREFETCH_AHEAD,
};
use vutf8::Backend;

/// The lengths: the first that asks ahead, and one longer by more than the farthest
/// distance asked ahead, not a whole number of groups or blocks.
const LENGTHS: [usize; 2] = [
    MEDIUM_PREFETCH_FROM,
    MEDIUM_PREFETCH_FROM + 2 * MEMORY_PREFETCH_FAR + 3 * BLOCK + 5,
];

/// The chunks of the stream (not a whole number of blocks).
const CHUNK: usize = 256 * 1024 + BLOCK + 3;

/// The error classes of the reduced tier: the stray continuation byte, the surrogate and
/// the 4-byte sequence cut short.
const REDUCED_ERRORS: &[&[u8]] = &[
    ERRORS_OVER_TEXT[0],
    ERRORS_OVER_TEXT[3],
    ERRORS_OVER_TEXT[5],
];

/// The ASCII that [`text`] starts with: more than a few groups, not a whole number of
/// blocks, and ending inside the first 4 KiB, where errors go at every stride.
const LEADING: usize = 3 * 1024 + 37;

/// Valid text of `len` bytes: [`LEADING`] bytes of ASCII (AVX-512 skips them first), then
/// runs of ASCII blocks and of blocks with one non-ASCII character each, the runs' lengths
/// changing (0 to 22 ASCII blocks, 1 to 19 busy ones).
fn text(len: usize) -> Vec<u8> {
    const CHARS: [&str; 3] = ["é", "€", "😀"];
    let mut text = Vec::with_capacity(len + 64 * BLOCK);
    text.resize(LEADING, b' ');
    let mut run = 0;
    let mut k = 0;
    while text.len() < len {
        for _ in 0..(run * 7) % 23 {
            text.extend(std::iter::repeat_n(b'a' + (k % 26) as u8, BLOCK));
            k += 1;
        }
        for _ in 0..(run * 5) % 19 + 1 {
            let mut block = vec![b'a' + (k % 26) as u8; BLOCK];
            let c = CHARS[k % 3].as_bytes();
            let at = (k * 11) % (BLOCK - c.len() + 1);
            block[at..at + c.len()].copy_from_slice(c);
            text.extend_from_slice(&block);
            k += 1;
        }
        run += 1;
    }
    // Cut at a character boundary, then pad with ASCII to the length.
    text.truncate(len);
    while text.last().is_some_and(|&b| b >= 0x80) {
        text.pop();
    }
    text.resize(len, b'z');
    text
}

/// How much a run covers: the lengths, the error classes, the stride in the first groups
/// and in the last ones, the distance between the places in between.
struct Plan {
    lengths: &'static [usize],
    errors: &'static [&'static [u8]],
    step: usize,
    tail_step: usize,
    every: usize,
}

fn plan() -> Plan {
    match common::tier() {
        Tier::Full => Plan {
            lengths: &LENGTHS,
            errors: ERRORS_OVER_TEXT,
            step: 7,
            tail_step: 7,
            every: 65536,
        },
        Tier::Sample => Plan {
            lengths: &LENGTHS,
            errors: ERRORS_OVER_TEXT,
            step: 97,
            tail_step: 37,
            every: 65536,
        },
        Tier::Reduced => Plan {
            lengths: &LENGTHS[..1],
            errors: REDUCED_ERRORS,
            step: 1021,
            tail_step: 211,
            every: 262144,
        },
    }
}

/// Where the errors go: the first groups, one place every `plan.every` bytes (at a place in
/// its block that moves), and the last groups, whose requests ask for bytes past the end.
fn offsets(len: usize, plan: &Plan) -> Vec<usize> {
    let mut at: Vec<usize> = (0..4096).step_by(plan.step).collect();
    at.extend((1..len / plan.every).map(|i| i * plan.every + (i * 13) % BLOCK));
    let tail = PREFETCH_AHEAD + 2 * MEDIUM_GROUP * BLOCK;
    at.extend((len - tail..len).step_by(plan.tail_step));
    at.extend(len - 4..len);
    at
}

/// Every check of `input` against `want`, on each of `backends` and through the API.
fn check(
    backends: &[Backend],
    input: &[u8],
    want: Option<(usize, Option<usize>)>,
    what: &dyn Fn() -> String,
) {
    for &b in backends {
        assert_eq!(common::verdict(b.validate(input)), want, "{b}: {}", what());
        assert_eq!(
            b.is_valid(input),
            want.is_none(),
            "{b} is_valid: {}",
            what()
        );
    }
    let api = vutf8::from_utf8(input).map(|_| ());
    assert_eq!(common::verdict(api), want, "from_utf8: {}", what());
    assert_eq!(
        vutf8::is_valid(input),
        want.is_none(),
        "is_valid: {}",
        what()
    );
    assert_eq!(
        common::verdict(common::stream_in_chunks(input, CHUNK)),
        want,
        "Validator in chunks: {}",
        what()
    );
}

#[test]
fn errors_in_inputs_that_ask_for_the_bytes_ahead() {
    let plan = plan();
    let backends = common::backends();
    let (mut inputs, mut invalid) = (0u64, 0u64);
    // The texts: mixed at every length, and ASCII all through (the leading skip reaches
    // the end) at the first.
    let mut texts = Vec::new();
    for &len in plan.lengths {
        let text = text(len);
        assert_eq!(text.len(), len);
        // The text has both kinds of group: ASCII ones and ones that are not.
        let group = MEDIUM_GROUP * BLOCK;
        let ascii_groups = text.chunks(group).filter(|g| g.is_ascii()).count();
        assert!(
            ascii_groups > LEADING / group && ascii_groups < len / group / 2,
            "{ascii_groups} ASCII groups"
        );
        texts.push(("mixed", text));
    }
    texts.push(("ASCII", vec![b'x'; plan.lengths[0]]));
    for (kind, text) in &texts {
        let len = text.len();
        check(&backends, text, None, &|| {
            format!("valid {kind} text of {len} bytes")
        });
        let mut input = text.clone();
        for error in plan.errors {
            for at in offsets(len, &plan) {
                let n = error.len().min(len - at);
                input[at..at + n].copy_from_slice(&error[..n]);
                let from = common::char_start(&input, at.saturating_sub(BLOCK));
                let want = common::std_verdict_from(&input, from);
                invalid += u64::from(want.is_some());
                check(&backends, &input, want, &|| {
                    format!("{:02X?} at {at} of {len} ({kind})", &error[..n])
                });
                input[at..at + n].copy_from_slice(&text[at..at + n]);
                inputs += 1;
            }
        }
    }
    // Nearly all of them are errors (only 0x80 over a continuation byte is not).
    assert!(invalid * 20 >= inputs * 19, "{invalid} of {inputs} invalid");
    eprintln!(
        "long inputs: {inputs} inputs ({invalid} invalid) of {:?} bytes",
        plan.lengths
    );
}
