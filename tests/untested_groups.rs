//! The main loop's groups that go without ASCII tests (their first block not ASCII, and no
//! block of the group before found ASCII), and the two blocks each of them tests to decide
//! whether the next group is tested (`arch::generic::main_loop`, `State::group`): text whose
//! non-ASCII blocks repeat every 512 bytes or a divisor of it, at every phase, so that at
//! some phases every group starts on a non-ASCII block and the main loop turns between
//! groups without tests and tested ones. Errors of every class at offsets across those
//! groups; every backend this CPU has, the public API and the scalar reference must say what
//! `core::str::from_utf8` says.

mod common;

use vutf8::tiers::{BLOCK, LOOP_GROUP, MEDIUM_BELOW};

/// The bytes of one group of the main loop.
const GROUP: usize = LOOP_GROUP * BLOCK;

/// The kinds of consecutive blocks, repeated: `B` a block of `é`, `A` one of ASCII letters.
/// Periods of 8, 4 and 2 blocks, with the non-ASCII blocks first, last and alternating, whose
/// groups all start alike; and of 3 and 10 blocks, whose groups start at every place of the
/// pattern in turn (a non-ASCII block last in one group, an ASCII one first in the next).
const PATTERNS: &[&str] = &[
    "AAAAAAAB",
    "BBAAAAAA",
    "BBBBAAAA",
    "BAAB",
    "BA",
    "BBA",
    "AABABBBAAB",
];

/// Sequences cut short by the end of a block of `é` (written over its last 2 bytes, where
/// the pairs `C3 A9` leave them whole before), which only the check of the block's end or
/// of the next group's entry finds where the next block is ASCII; beside
/// `common::ERRORS_OVER_TEXT`.
const CUT_AT_BLOCK_END: &[&[u8]] = &[&[b'A', 0xC3], &[0xE2, 0x82], &[0xF0, 0x9F]];

/// Long enough for the main loop (`MEDIUM_BELOW` and more), not a whole number of blocks.
const LEN: usize = MEDIUM_BELOW + 4 * GROUP + 5;

/// The errors' window: four groups from the middle of the input.
const WINDOW: (usize, usize) = (MEDIUM_BELOW / 2, MEDIUM_BELOW / 2 + 4 * GROUP);

/// The offsets of the errors: every one from 3 bytes before each block of the window to
/// its first byte (a sequence cut short by the next block, where the main loop's checks
/// meet), and every 53rd between them.
fn offsets() -> Vec<usize> {
    let mut at: Vec<usize> = (WINDOW.0..WINDOW.1)
        .step_by(BLOCK)
        .flat_map(|block| block - 3..=block)
        .chain((WINDOW.0..WINDOW.1).step_by(53))
        .collect();
    at.sort_unstable();
    at.dedup();
    at
}

/// Valid text of `LEN` bytes whose block `k` has the kind `pattern[(k + phase) % len]`.
fn text(pattern: &str, phase: usize) -> Vec<u8> {
    let kinds = pattern.as_bytes();
    let mut text = Vec::with_capacity(LEN + BLOCK);
    let mut k = 0;
    while text.len() < LEN {
        if kinds[(k + phase) % kinds.len()] == b'B' {
            for _ in 0..BLOCK / 2 {
                text.extend_from_slice("é".as_bytes());
            }
        } else {
            text.extend((0..BLOCK).map(|i| b'a' + ((k + i) % 26) as u8));
        }
        k += 1;
    }
    text.truncate(LEN);
    text
}

#[test]
fn errors_where_groups_go_untested_and_tested() {
    let backends = common::backends();
    let offsets = offsets();
    let mut inputs = 0usize;
    for pattern in PATTERNS {
        for phase in 0..pattern.len() {
            let text = text(pattern, phase);
            // On a 64-byte boundary of memory, where the main loop's blocks start: its
            // groups then start on the pattern's blocks.
            let mut buf = vec![0; LEN + BLOCK];
            let start = common::index_at_address(&buf, 0);
            let input = &mut buf[start..start + LEN];
            input.copy_from_slice(&text);
            common::check_all(input, &backends);
            for error in common::ERRORS_OVER_TEXT.iter().chain(CUT_AT_BLOCK_END) {
                for &at in &offsets {
                    input[at..at + error.len()].copy_from_slice(error);
                    common::check_all(input, &backends);
                    input[at..at + error.len()].copy_from_slice(&text[at..at + error.len()]);
                    inputs += 1;
                }
            }
        }
    }
    // Every phase of every pattern, every error at every offset of the window.
    let phases: usize = PATTERNS.iter().map(|p| p.len()).sum();
    assert_eq!(
        inputs,
        phases * (common::ERRORS_OVER_TEXT.len() + CUT_AT_BLOCK_END.len()) * offsets.len()
    );
}
