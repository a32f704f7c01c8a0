//! Validates generated text with `vutf8::is_valid` in a loop and prints GB/s, so that text
//! the branch predictor has learnt can be told from text it has not: one piece validated
//! again and again (`learnt`), or different pieces of 16 MiB in turn (`unseen`: too many
//! for the predictor to learn, few enough to stay in the cache), or a piece whose 64-byte
//! blocks follow a pattern (`pattern`: every guess right). Used in
//! docs/PERFORMANCE.md#avx2-main-loop-mask; to compare two versions of the code, build it
//! from each and run the two in turn.
//!
//! Usage: `learnt SCRIPT SIZE CALLS learnt|unseen` (SCRIPT: ascii, latin, cyrillic, cjk,
//! emoji or mixed), or `learnt pattern BLOCKS SIZE CALLS`, where BLOCKS is a string of `A`
//! (a block of ASCII) and `B` (a block of two-byte characters), repeated over SIZE bytes
//! from a 64-byte boundary.
use std::hint::black_box;
use std::time::Instant;
use vutf8::grammar::floor_boundary;
use vutf8_corpus::{generate, Script};

/// The bytes of text the `unseen` pieces are taken from.
const UNSEEN_TEXT: usize = 16 << 20;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, what: &str| -> usize {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("{what}: a number"))
    };
    let mode = args.first().map(String::as_str).unwrap_or("");
    if mode == "pattern" {
        let blocks = args.get(1).expect("BLOCKS: a string of A and B").as_bytes();
        assert!(
            !blocks.is_empty() && blocks.iter().all(|b| matches!(b, b'A' | b'B')),
            "BLOCKS: a string of A and B"
        );
        let (size, calls) = (number(2, "SIZE"), number(3, "CALLS"));
        let mut storage = vec![0u8; size + 64];
        let start = storage.as_ptr().align_offset(64);
        let piece = &mut storage[start..start + size];
        for (i, block) in piece.chunks_mut(64).enumerate() {
            if blocks[i % blocks.len()] == b'B' {
                // "é", C3 A9, again and again (a block's length is even).
                for (j, byte) in block.iter_mut().enumerate() {
                    *byte = if j % 2 == 0 { 0xC3 } else { 0xA9 };
                }
            } else {
                block.fill(b'a');
            }
        }
        let piece = &storage[start..start + size];
        assert!(std::str::from_utf8(piece).is_ok(), "SIZE: a multiple of 64");
        report(calls, size, || vutf8::is_valid(black_box(piece)));
        return;
    }
    let script = Script::ALL
        .into_iter()
        .find(|s| s.name() == mode)
        .expect("SCRIPT: ascii, latin, cyrillic, cjk, emoji, mixed, or pattern");
    let (size, calls) = (number(1, "SIZE"), number(2, "CALLS"));
    let unseen = match args.get(3).map(String::as_str) {
        Some("unseen") => true,
        Some("learnt") => false,
        _ => panic!("the last argument: learnt or unseen"),
    };
    let text = generate(script, if unseen { UNSEEN_TEXT } else { size + 64 }, 42);
    // The pieces: SIZE bytes each (less where a character would be cut), one after another
    // with a block between them.
    let mut pieces = Vec::new();
    let mut at = 0;
    while at + size <= text.len() {
        let start = floor_boundary(&text, at);
        pieces.push(&text[start..floor_boundary(&text, start + size)]);
        if !unseen {
            break;
        }
        at += size + 64;
    }
    assert!(!pieces.is_empty(), "SIZE: at most the text's length");
    let bytes: usize = (0..calls).map(|i| pieces[i % pieces.len()].len()).sum();
    let mut i = 0;
    report(calls, bytes / calls.max(1), || {
        let valid = vutf8::is_valid(black_box(pieces[i % pieces.len()]));
        i += 1;
        valid
    });
    println!("({} pieces)", pieces.len());
}

/// Runs `call` `calls` times (each must say valid) and prints GB/s for `size` bytes a call.
fn report(calls: usize, size: usize, mut call: impl FnMut() -> bool) {
    let t = Instant::now();
    for _ in 0..calls {
        assert!(call(), "the text is valid");
    }
    let ns = t.elapsed().as_nanos() as f64;
    println!(
        "{:.2} GB/s, {:.1} ns a call",
        (size * calls) as f64 / ns,
        ns / calls as f64
    );
}
