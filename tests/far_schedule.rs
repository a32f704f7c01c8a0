//! The main loop far into a long input (`vutf8::tiers::DENSE_AFTER` and after): there, a
//! run of busy groups (`BUSY_GROUPS` groups in a row whose ASCII tests found `BUSY_BLOCKS`
//! or more non-ASCII blocks) sends the next `DENSE_GROUPS` groups through the tables
//! without ASCII tests, and the group after them is tested again. No other test reaches it:
//! their inputs are far shorter than a mebibyte.
//!
//! The text is built from the constants so that it takes that path: ASCII up to shortly
//! before the window of errors, then 64-byte blocks of which two in three hold a 2-, 3- or
//! 4-byte character, so every group has at least `BUSY_BLOCKS` non-ASCII blocks and some
//! ASCII ones (so that groups are tested, and tested again after a dense run). Errors of
//! several classes are written at offsets across `DENSE_AFTER`, the busy tested groups
//! after it, the dense groups and the tested groups after those, and every backend this
//! CPU has, the public API and a `Validator` fed chunks must report what
//! `core::str::from_utf8` does.
//! `VUTF8_EXHAUSTIVE=full` takes every offset; the default a stride of 13 bytes (every
//! offset modulo 64 over the window).

mod common;

use vutf8::tiers::{BLOCK, BUSY_BLOCKS, BUSY_GROUPS, DENSE_AFTER, DENSE_GROUPS, LOOP_GROUP};

/// The bytes of one group of the main loop.
const GROUP: usize = LOOP_GROUP * BLOCK;

/// Where the errors go: from one group before `DENSE_AFTER` to past the first dense run
/// and the tested groups after it.
const WINDOW: (usize, usize) = (
    DENSE_AFTER - GROUP,
    DENSE_AFTER + (BUSY_GROUPS + DENSE_GROUPS + 3) * GROUP,
);

/// The whole input: the window, then two more groups of the same text, and 5 bytes more so
/// the length is not a whole number of blocks.
const LEN: usize = WINDOW.1 + 2 * GROUP + 5;

/// The chunks of the stream: 64 KiB, and not a whole number of groups from the window's
/// start, so that chunks start at different places of the groups.
const CHUNK: usize = 64 * 1024 + 3 * BLOCK + 1;

/// Whether block `k` of the busy text holds a non-ASCII character: two blocks of three,
/// so every group holds both kinds and, wherever the main loop's groups start, some of
/// them start with an ASCII block (and get their ASCII tests).
fn non_ascii_block(k: usize) -> bool {
    !k.is_multiple_of(3)
}

/// Valid text of `len` bytes: ASCII up to two groups before the window (the leading ASCII
/// skip crosses it quickly, so each input costs little), then 64-byte blocks of which two
/// in three are non-ASCII ([`non_ascii_block`]); each non-ASCII block holds one character
/// of 2, 3 or 4 bytes, at a place that moves.
fn busy_text(len: usize) -> Vec<u8> {
    const CHARS: [&str; 3] = ["é", "€", "😀"];
    let mut text = Vec::with_capacity(len + BLOCK);
    text.resize(WINDOW.0 - 2 * GROUP, b' ');
    let mut k = 0;
    while text.len() < len {
        let mut block = vec![b'a' + (k % 26) as u8; BLOCK];
        if non_ascii_block(k) {
            let c = CHARS[(k / 2) % 3].as_bytes();
            let at = (k * 7) % (BLOCK - c.len() + 1);
            block[at..at + c.len()].copy_from_slice(c);
        }
        text.extend_from_slice(&block);
        k += 1;
    }
    text.truncate(len);
    text
}

#[test]
fn errors_far_into_a_long_busy_input() {
    // The text must take the path: wherever a group starts, at least `BUSY_BLOCKS` of its
    // blocks are not ASCII, and at least one is.
    for start in 0..LOOP_GROUP {
        let busy = (start..start + LOOP_GROUP)
            .filter(|&k| non_ascii_block(k))
            .count();
        assert!(
            (BUSY_BLOCKS..LOOP_GROUP).contains(&busy),
            "{busy} non-ASCII blocks"
        );
    }
    let backends = common::backends();
    let text = busy_text(LEN);
    assert!(std::str::from_utf8(&text).is_ok());
    for &b in &backends {
        assert!(b.validate(&text).is_ok(), "{b} rejects the valid text");
    }
    assert!(vutf8::from_utf8(&text).is_ok() && vutf8::is_valid(&text));

    // Errors start in the window; the character boundary before it is where std starts.
    let from = common::char_start(&text, WINDOW.0 - BLOCK);
    let step = if common::full_tier() { 1 } else { 13 };
    let mut input = text.clone();
    let (mut checks, mut invalid, mut inputs) = (0u64, 0u64, 0u64);
    for error in common::ERRORS_OVER_TEXT {
        for at in (WINDOW.0..WINDOW.1).step_by(step) {
            input[at..at + error.len()].copy_from_slice(error);
            // (A continuation byte written over one can leave the text valid.)
            let want = common::std_verdict_from(&input, from);
            invalid += u64::from(want.is_some());
            for &b in &backends {
                let got = b.validate(&input).err();
                assert_eq!(
                    got.map(|e| (e.valid_up_to(), e.error_len())),
                    want,
                    "{b}: {error:02X?} at {at}"
                );
                assert_eq!(
                    b.is_valid(&input),
                    want.is_none(),
                    "{b} is_valid: {error:02X?} at {at}"
                );
            }
            let got = vutf8::from_utf8(&input).err();
            assert_eq!(
                got.map(|e| (e.valid_up_to(), e.error_len())),
                want,
                "from_utf8: {error:02X?} at {at}"
            );
            assert_eq!(
                vutf8::is_valid(&input),
                want.is_none(),
                "is_valid: {error:02X?} at {at}"
            );
            // A stream in chunks of `CHUNK` bytes: the chunks after `DENSE_AFTER` take the
            // rule from their start.
            assert_eq!(
                common::verdict(common::stream_in_chunks(&input, CHUNK)),
                want,
                "Validator in {CHUNK}-byte chunks: {error:02X?} at {at}"
            );
            input[at..at + error.len()].copy_from_slice(&text[at..at + error.len()]);
            checks += 2 * backends.len() as u64 + 3;
            inputs += 1;
        }
    }
    // Nearly all of them are errors (only 0x80 over a continuation byte is not).
    assert!(
        invalid * 20 >= inputs * 19,
        "{invalid} of {inputs} inputs invalid"
    );
    eprintln!(
        "far schedule: {} error classes at every {step}th offset of {}..{}: {inputs} inputs \
         ({invalid} invalid), {checks} checks",
        common::ERRORS_OVER_TEXT.len(),
        WINDOW.0,
        WINDOW.1
    );
}
