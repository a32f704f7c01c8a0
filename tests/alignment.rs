//! Inputs at every address modulo a block. The medium path's groups and the main loop's
//! blocks start on 64-byte boundaries of memory, wherever the input starts
//! (`src/arch/generic/groups.rs`, `src/arch/generic/main_loop.rs`, "Aligned blocks"):
//! the first block is tested or checked where it lies, and the rest from the first
//! boundary inside it, overlapping it. So which bytes are checked together, and which
//! block finds an error, depends on the input's address, which the other tests leave to
//! the allocator. Here each case is placed at each of the `BLOCK` offsets past a
//! `BLOCK`-aligned address and compared with `core::str::from_utf8` on every backend.
//!
//! The cases: inputs of the medium path's lengths (its shortest, one that ends in a
//! partial block, and one with more groups and a partial block) and of the main loop's (its
//! shortest, and one with a partial last block; on AVX-512 the medium path again), with
//! leading ASCII of every length up to past the second block (so the first non-ASCII byte
//! falls before, at and after every boundary), and with an error of each kind at every
//! offset up to past the second block (every fifth in the main loop's lengths) and in the
//! last bytes, in text that is not ASCII from its first bytes and in text after such a run
//! of ASCII.

mod common;

use vutf8::tiers::{BLOCK, LOOP_GROUP, MEDIUM_BELOW, SHORT_BELOW};

/// The lengths, each with whether it is long (the main loop's): the medium path's
/// shortest input, one with a partial last block, and one with more groups and a partial
/// last block; the main loop's shortest, and one with a partial last block.
fn lengths() -> [(usize, bool); 5] {
    [
        (SHORT_BELOW, false),
        (SHORT_BELOW + BLOCK + 1, false),
        (SHORT_BELOW + 2 * LOOP_GROUP * BLOCK + 5, false),
        (MEDIUM_BELOW, true),
        (MEDIUM_BELOW + BLOCK + 1, true),
    ]
}

/// Offsets near the start: up to 3 bytes past the second block, which covers the first
/// block, every boundary a block can start on, and the block from that boundary.
fn near_start() -> std::ops::RangeInclusive<usize> {
    0..=2 * BLOCK + 3
}

/// `ascii` bytes of ASCII, then valid text that is not ASCII from its first byte
/// ([`common::filler`] from `é`), `len` bytes in all.
fn with_ascii(len: usize, ascii: usize) -> Vec<u8> {
    let mut input = vec![b'x'; ascii];
    input.extend_from_slice(&common::filler(len - ascii, 1));
    input
}

/// Checks `input` at every offset `0..BLOCK` past a `BLOCK`-aligned address.
fn check_everywhere(input: &[u8], backends: &[vutf8::Backend], buf: &mut Vec<u8>) -> usize {
    buf.clear();
    buf.resize(input.len() + 2 * BLOCK, 0);
    let base = common::index_at_address(buf, 0);
    for shift in 0..BLOCK {
        let at = base + shift;
        buf[at..at + input.len()].copy_from_slice(input);
        let placed = &buf[at..at + input.len()];
        assert_eq!(placed.as_ptr() as usize % BLOCK, shift);
        common::check_all(placed, backends);
    }
    BLOCK
}

#[test]
fn leading_ascii_of_every_length_at_every_address() {
    let backends = common::backends();
    let mut buf = Vec::new();
    let mut cases = 0;
    for (len, _) in lengths() {
        for ascii in near_start().filter(|&a| a <= len) {
            let input = with_ascii(len, ascii);
            assert!(std::str::from_utf8(&input).is_ok());
            cases += check_everywhere(&input, &backends, &mut buf);
        }
    }
    eprintln!("leading ASCII cases: {cases}");
}

#[test]
fn errors_near_the_start_and_end_at_every_address() {
    // A stray continuation, a lead cut short by ASCII, a byte that is never valid, an
    // overlong 2-byte sequence and a surrogate.
    const ERRORS: [&[u8]; 5] = [
        &[0x80],
        &[0xE2, b'a'],
        &[0xF5],
        &[0xC0, 0x80],
        &[0xED, 0xA0, 0x80],
    ];
    let backends = common::backends();
    let mut buf = Vec::new();
    let (mut cases, mut invalid) = (0, 0);
    // Text from the first byte, and text after ASCII up to past the second block: there
    // the first block is ASCII when the error is not in it.
    let bases = |len| [with_ascii(len, 0), with_ascii(len, *near_start().end())];
    for (len, long) in lengths() {
        let step = if long { 5 } else { 1 };
        for (valid, at) in bases(len).iter().flat_map(|v| {
            near_start()
                .step_by(step)
                .chain(len - 4..len)
                .map(move |at| (v, at))
        }) {
            for error in ERRORS.iter().filter(|e| at + e.len() <= len) {
                let mut input = valid.clone();
                input[at..at + error.len()].copy_from_slice(error);
                // (Written over a continuation byte, a stray continuation can make valid
                // text: std decides, as everywhere.)
                invalid += usize::from(std::str::from_utf8(&input).is_err());
                cases += check_everywhere(&input, &backends, &mut buf);
            }
        }
    }
    eprintln!("error cases: {cases}, of them invalid: {}", invalid * BLOCK);
    assert!(
        invalid * BLOCK * 10 >= cases * 9,
        "most cases must be errors"
    );
}
