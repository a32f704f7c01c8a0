//! Differential tests: every backend, the dispatching API and the scalar reference must
//! agree with `core::str::from_utf8` on the verdict, `valid_up_to` and `error_len`.
//!
//! - Seed cases (valid characters of every length and every class of error), each padded
//!   with valid filler of every length 0..=150 on the left (so the case meets every block
//!   offset after every kind of character) and a set of lengths up to 515 on the right (so
//!   every loop and tail path runs).
//! - A table of classic attacks with the exact [`ErrorKind`] expected.
//! - Property tests: valid text of random scripts with random corruption (bit flips,
//!   insertions, deletions, truncation) at random places, and random bytes.

mod common;

use proptest::prelude::*;
use vutf8::{Backend, ErrorKind};
use vutf8_corpus::{generate, Script};

const SEEDS: &[&[u8]] = &[
    b"",
    b"a",
    "é".as_bytes(),
    "€".as_bytes(),
    "😀".as_bytes(),
    "\u{10FFFF}".as_bytes(),
    "\u{FFFF}\u{FFFE}\u{FDD0}\u{0}".as_bytes(),
    b"\x80",
    b"\xBF",
    b"\xC0\x80",
    b"\xC1\xBF",
    b"\xC2",
    b"\xC2a",
    b"\xE0\x80\x80",
    b"\xE0\x9F\xBF",
    b"\xE0\xA0",
    b"\xED\xA0\x80",
    b"\xED\xBF\xBF",
    b"\xEF\xBF",
    b"\xF0\x8F\xBF\xBF",
    b"\xF0\x90\x80",
    b"\xF4\x90\x80\x80",
    b"\xF5\x80\x80\x80",
    b"\xF8\x88\x80\x80\x80",
    b"\xFC\x84\x80\x80\x80\x80",
    b"\xFE",
    b"\xFF",
    b"\xE2\x82\xE2\x82\xAC",
    b"\xF0\x9F\x98",
    b"\xF0\x9F\x98a",
    b"\xED\xA0\xBD\xED\xB8\x80",
];

const RIGHT_LENGTHS: &[usize] = &[
    0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 66, 67, 95, 127, 128, 129,
    191, 255, 256, 257, 511, 515,
];

#[test]
fn seeds_padded_on_both_sides_agree_with_std() {
    let backends = common::backends();
    let mut cases = 0usize;
    for seed in SEEDS {
        for left in 0..=150 {
            for &right in RIGHT_LENGTHS {
                let mut input = common::filler(left, left);
                input.extend_from_slice(seed);
                input.extend_from_slice(&common::filler(right, right + 1));
                common::check_all(&input, &backends);
                cases += 1;
            }
        }
    }
    eprintln!(
        "padded seed cases: {cases}, each on {} backends",
        backends.len()
    );
}

/// Runs of one byte value after ASCII, at every alignment of a machine word and long enough
/// to fill words: a word whose bytes are all the same non-ASCII value must not pass for
/// ASCII (the scalar validator skips ASCII a word at a time; a test of that word against the
/// high bits by anything but `&` is a bug, which the mutation run found untested). The run
/// alone too: with AVX2 an input of 8-15 bytes is tested for ASCII by two 8-byte words
/// (`words_ascii`), where a word of `0x80` bytes compared with the high bits by `^` passed.
#[test]
fn runs_of_one_byte_value_after_ascii() {
    let backends = common::backends();
    let word = std::mem::size_of::<usize>();
    for value in 0x80..=0xFFu8 {
        for run in 1..=4 * word {
            common::check_all(&vec![value; run], &backends);
        }
        for lead in 0..2 * word {
            for run in 1..=3 * word {
                let mut input = vec![b'a'; lead];
                input.extend(std::iter::repeat_n(value, run));
                input.push(b'z');
                common::check_all(&input, &backends);
            }
        }
    }
}

#[test]
fn classic_attacks_have_the_expected_kind() {
    use ErrorKind::*;
    /// Input, valid_up_to, error_len, kind, code point.
    type Attack = (&'static [u8], usize, Option<usize>, ErrorKind, Option<u32>);
    let table: &[Attack] = &[
        (b"/etc/..\xC0\xAF..", 7, Some(1), Overlong, Some(0x2F)),
        (b"..\xE0\x80\xAF", 2, Some(1), Overlong, Some(0x2F)),
        (b"..\xF0\x80\x80\xAF", 2, Some(1), Overlong, Some(0x2F)),
        (b"\xC0\x80", 0, Some(1), Overlong, Some(0)),
        (b"\xE0\x80\x80", 0, Some(1), Overlong, Some(0)),
        // CESU-8: U+1F600 as a surrogate pair.
        (
            b"x\xED\xA0\xBD\xED\xB8\x80",
            1,
            Some(1),
            Surrogate,
            Some(0xD83D),
        ),
        (b"\xED\xB8\x80", 0, Some(1), Surrogate, Some(0xDE00)),
        (b"\xF4\x90\x80\x80", 0, Some(1), TooLarge, Some(0x110000)),
        (b"\xF7\xBF\xBF\xBF", 0, Some(1), TooLarge, Some(0x1FFFFF)),
        (b"ab\xFE", 2, Some(1), InvalidByte, None),
        (b"ab\xFF", 2, Some(1), InvalidByte, None),
        (b"\xF8\x88\x80\x80\x80", 0, Some(1), InvalidByte, None),
        (b"\xFC\x84\x80\x80\x80\x80", 0, Some(1), InvalidByte, None),
        (b"a\x80b", 1, Some(1), UnexpectedContinuation, None),
        (b"\xE2\x82a", 0, Some(2), TooShort, None),
        (b"\xF0\x9F\x98a", 0, Some(3), TooShort, None),
        (b"ok\xF0\x9F\x98", 2, None, Incomplete, None),
    ];
    let backends = common::backends();
    for &(input, up_to, len, kind, cp) in table {
        // Alone, and after 100 bytes so that the vector path runs.
        for pad in [0usize, 100] {
            let mut buf = vec![b'.'; pad];
            buf.extend_from_slice(input);
            for &b in &backends {
                let e = b.validate(&buf).expect_err("attack must be rejected");
                assert_eq!(
                    (e.valid_up_to(), e.error_len(), e.kind(), e.code_point()),
                    (up_to + pad, len, kind, cp),
                    "backend {} on {input:02X?} after {pad} bytes",
                    b.name()
                );
            }
            let e = vutf8::from_utf8(&buf).unwrap_err();
            assert_eq!((e.valid_up_to(), e.kind()), (up_to + pad, kind));
        }
    }
}

#[test]
fn api_details() {
    let mut bytes = "héllo wörld".to_string().into_bytes();
    let s = vutf8::from_utf8_mut(&mut bytes).unwrap();
    s.make_ascii_uppercase();
    assert_eq!(s, "HéLLO WöRLD");
    let mut bad = b"ab\xFFcd".to_vec();
    assert_eq!(vutf8::from_utf8_mut(&mut bad).unwrap_err().valid_up_to(), 2);

    let e = vutf8::from_utf8(b"abc\xED\xA0\x80").unwrap_err();
    assert_eq!(e.to_string(), "surrogate U+D800 at byte 3");
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert!(boxed.to_string().contains("surrogate"));
    assert_eq!(
        vutf8::from_utf8(b"\xE2\x82").unwrap_err().to_string(),
        "input ends inside a sequence (3-byte sequence) at byte 0"
    );

    assert_eq!(Backend::from_name("AVX2"), Some(Backend::Avx2));
    assert_eq!(Backend::from_name("sse42"), Some(Backend::Sse42));
    assert_eq!(Backend::from_name("nope"), None);
    for b in Backend::ALL {
        assert_eq!(Backend::from_name(b.name()), Some(b));
        assert_eq!(b.is_available(), Backend::available().any(|a| a == b));
    }
    assert!(Backend::Scalar.is_available());
}

#[test]
fn unavailable_backend_panics_with_a_clear_message() {
    let Some(missing) = Backend::ALL.into_iter().find(|b| !b.is_available()) else {
        return; // every backend is available: nothing to check on this target
    };
    let err = std::panic::catch_unwind(|| missing.validate(b"abc")).unwrap_err();
    let msg = err.downcast_ref::<String>().expect("panic message");
    assert!(
        msg.contains(missing.name()) && msg.contains("cannot run"),
        "{msg}"
    );
}

#[test]
fn corpus_texts_agree_at_every_size_up_to_300() {
    let backends = common::backends();
    for script in Script::ALL {
        let text = generate(script, 4096, 11);
        for len in 0..=300 {
            // Cut anywhere, so many inputs end inside a character.
            common::check_all(&text[..len], &backends);
        }
        common::check_all(&text, &backends);
    }
}

/// A corruption of valid text.
#[derive(Debug, Clone)]
enum Edit {
    FlipBit { at: usize, bit: u8 },
    Insert { at: usize, byte: u8 },
    Delete { at: usize },
    Truncate { at: usize },
    Overwrite { at: usize, bytes: Vec<u8> },
}

fn apply(text: &mut Vec<u8>, edit: &Edit) {
    if text.is_empty() {
        return;
    }
    let pos = |at: usize| at % text.len();
    match edit {
        Edit::FlipBit { at, bit } => {
            let p = pos(*at);
            text[p] ^= 1 << (bit % 8);
        }
        Edit::Insert { at, byte } => {
            let p = pos(*at);
            text.insert(p, *byte);
        }
        Edit::Delete { at } => {
            let p = pos(*at);
            text.remove(p);
        }
        Edit::Truncate { at } => {
            let p = pos(*at);
            text.truncate(p);
        }
        Edit::Overwrite { at, bytes } => {
            let p = pos(*at);
            for (i, b) in bytes.iter().enumerate() {
                if let Some(slot) = text.get_mut(p + i) {
                    *slot = *b;
                }
            }
        }
    }
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, bit)| Edit::FlipBit { at, bit }),
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Edit::Insert { at, byte }),
        any::<usize>().prop_map(|at| Edit::Delete { at }),
        any::<usize>().prop_map(|at| Edit::Truncate { at }),
        (
            any::<usize>(),
            proptest::collection::vec(0x80u8..=0xFF, 1..5)
        )
            .prop_map(|(at, bytes)| Edit::Overwrite { at, bytes }),
    ]
}

fn script() -> impl Strategy<Value = Script> {
    prop::sample::select(Script::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn corrupted_text_agrees_with_std(
        script in script(),
        len in 0usize..2000,
        seed in any::<u64>(),
        edits in proptest::collection::vec(edit(), 0..4),
    ) {
        let backends = common::backends();
        let mut text = generate(script, len, seed);
        for e in &edits {
            apply(&mut text, e);
        }
        common::check_all(&text, &backends);
    }

    #[test]
    fn random_strings_agree_with_std(s in any::<String>(), cut in any::<usize>()) {
        let backends = common::backends();
        let bytes = s.as_bytes();
        common::check_all(bytes, &backends);
        let cut = if bytes.is_empty() { 0 } else { cut % bytes.len() };
        common::check_all(&bytes[..cut], &backends);
    }

    #[test]
    fn random_bytes_agree_with_std(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        common::check_all(&bytes, &common::backends());
    }

    #[test]
    fn scalar_decode_yields_the_chars(s in any::<String>()) {
        let ours: Vec<(usize, char)> = vutf8::scalar::decode(s.as_bytes()).map(|r| r.unwrap()).collect();
        let std: Vec<(usize, char)> = s.char_indices().collect();
        prop_assert_eq!(ours, std);
    }
}
