//! Lossy decoding (`vutf8::from_utf8_lossy`, `vutf8::Repairer`): byte-for-byte equal to
//! `String::from_utf8_lossy`, on the worked examples of Unicode chapter 3 section 3.9, on
//! random corrupted text, and in every chunking of a stream; `to_wtf8_surrogateescape`
//! against std's `Utf8Chunks` with each invalid byte's surrogate written out.
#![cfg(feature = "alloc")]

use vutf8::{from_utf8_lossy, Repairer};
use vutf8_corpus::{generate, Rng, Script};

fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|t| u8::from_str_radix(t, 16).unwrap())
        .collect()
}

/// Repairs `input` split at the given chunk lengths (cycled); checks that the repairer's
/// count of U+FFFD is the number of errors of the whole input.
fn streamed(input: &[u8], chunk_lens: &[usize]) -> String {
    let mut r = Repairer::new();
    let mut out = String::new();
    let mut rest = input;
    for &n in chunk_lens.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (chunk, tail) = rest.split_at(n.min(rest.len()));
        r.push(chunk, &mut out);
        rest = tail;
    }
    let pushed = r.replacements();
    let all = r.finish(&mut out);
    assert!(pushed <= all);
    assert_eq!(
        all,
        vutf8::errors(input).count() as u64,
        "chunks {chunk_lens:?} of {input:02X?}"
    );
    out
}

fn check(input: &[u8]) {
    let want = String::from_utf8_lossy(input);
    let got = from_utf8_lossy(input);
    assert_eq!(got, want, "{input:02X?}");
    assert_eq!(
        matches!(got, std::borrow::Cow::Borrowed(_)),
        matches!(want, std::borrow::Cow::Borrowed(_))
    );
    for lens in [&[1usize][..], &[2], &[3], &[1, 2, 5], &[7, 64, 1000]] {
        assert_eq!(
            streamed(input, lens),
            want,
            "chunks {lens:?} of {input:02X?}"
        );
    }
}

/// Unicode 15, chapter 3, section 3.9, "U+FFFD Substitution of Maximal Subparts": the
/// worked examples (table 3-8 and the text around it), as (octets, expected output).
const WORKED: &[(&str, &str)] = &[
    // The example in the text: maximal subparts F1 80 80, E1 80, C2, 80, 80, BF.
    (
        "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64",
        "a\u{FFFD}\u{FFFD}\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}d",
    ),
    // Table 3-8, non-shortest forms: each byte of C0 AF E0 80 BF F0 81 82 41 is replaced.
    (
        "C0 AF E0 80 BF F0 81 82 41",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}A",
    ),
    // Table 3-9, ill-formed sequences for surrogates.
    (
        "ED A0 80 ED BF BF ED AF 41",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}A",
    ),
    // Table 3-10, other ill-formed sequences.
    (
        "F4 91 92 93 FF 41 80 BF 42",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}A\u{FFFD}\u{FFFD}B",
    ),
    // Table 3-11, truncated sequences.
    (
        "E1 80 E2 F0 91 92 F1 BF 41",
        "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}A",
    ),
];

#[test]
fn unicode_3_9_worked_examples() {
    for &(input, want) in WORKED {
        let bytes = hex(input);
        assert_eq!(from_utf8_lossy(&bytes), want, "{input}");
        check(&bytes);
        // The same behind and before enough text for the vector path.
        let mut long = "Übung ".repeat(20).into_bytes();
        long.extend_from_slice(&bytes);
        long.extend_from_slice("中文".repeat(30).as_bytes());
        check(&long);
    }
    eprintln!("lossy: {} worked examples", WORKED.len());
}

#[test]
fn incomplete_at_the_end() {
    for s in ["E2 82", "F0 9F 98", "C3", "41 F4 8F BF"] {
        let bytes = hex(s);
        check(&bytes);
        assert!(from_utf8_lossy(&bytes).ends_with('\u{FFFD}'));
    }
}

#[test]
fn random_corrupted_text_matches_std() {
    let mut rng = Rng::new(39);
    let nasty = [
        0x80u8, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x41,
    ];
    let mut count = 0;
    for script in Script::ALL {
        for round in 0..40 {
            let mut text = generate(script, 64 + rng.below(3000), round);
            check(&text);
            let errors = [0usize, 1, 3, 30, 500][round as usize % 5].min(text.len());
            for _ in 0..errors {
                let i = rng.below(text.len());
                text[i] = nasty[rng.below(nasty.len())];
            }
            check(&text);
            count += 2;
        }
    }
    // Pure noise.
    for len in [0usize, 1, 2, 3, 4, 63, 64, 65, 200, 4096] {
        let noise: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        check(&noise);
        check(&vec![0xFF; len]);
        count += 2;
    }
    eprintln!("lossy: {count} random differential cases against std");
}

#[test]
fn exhaustive_short_inputs() {
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            let s = [a, b];
            let want = String::from_utf8_lossy(&s);
            assert_eq!(from_utf8_lossy(&s), want);
            assert_eq!(streamed(&s, &[1]), want);
        }
    }
}

#[test]
fn random_chunk_boundaries() {
    let mut rng = Rng::new(3629);
    let nasty = [0x80u8, 0xC2, 0xE2, 0xED, 0xF0, 0xF4, 0xFF];
    for round in 0..200 {
        let mut text = generate(Script::ALL[round % 6], 200 + rng.below(5000), round as u64);
        for _ in 0..rng.below(40) {
            let i = rng.below(text.len());
            text[i] = nasty[rng.below(nasty.len())];
        }
        // Empty chunks too; the first length is never 0, so the stream always advances.
        let lens: Vec<usize> = (0..8)
            .map(|i| rng.below(200) + usize::from(i == 0))
            .collect();
        let want = String::from_utf8_lossy(&text);
        assert_eq!(streamed(&text, &lens), want, "chunks {lens:?}");
    }
}

/// `to_wtf8_surrogateescape` by std's `Utf8Chunks` (the same maximal subparts): each valid
/// run kept, each byte of each invalid part as the WTF-8 bytes of U+DC00 + the byte.
fn surrogateescape_reference(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in input.utf8_chunks() {
        out.extend_from_slice(chunk.valid().as_bytes());
        for &b in chunk.invalid() {
            let c = 0xDC00 | u32::from(b);
            out.extend_from_slice(&[
                0xE0 | (c >> 12) as u8,
                0x80 | (c >> 6 & 0x3F) as u8,
                0x80 | (c & 0x3F) as u8,
            ]);
        }
    }
    out
}

/// Byte for byte its reference, borrowed exactly when the input is valid, and the input
/// back from the text (each surrogate its byte).
fn check_surrogateescape(input: &[u8]) {
    let got = vutf8::to_wtf8_surrogateescape(input);
    assert_eq!(
        &got[..],
        &surrogateescape_reference(input)[..],
        "{input:02X?}"
    );
    assert_eq!(
        matches!(got, std::borrow::Cow::Borrowed(_)),
        std::str::from_utf8(input).is_ok()
    );
    let mut back = Vec::new();
    let mut i = 0;
    while i < got.len() {
        if got[i] == 0xED && got[i + 1] >= 0xB2 {
            back.push(0x80 | (got[i + 1] & 1) << 6 | (got[i + 2] & 0x3F));
            i += 3;
        } else {
            back.push(got[i]);
            i += 1;
        }
    }
    assert_eq!(back, input);
}

#[test]
fn surrogateescape_equals_its_reference() {
    let mut rng = Rng::new(383);
    let nasty = [
        0x80u8, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
    ];
    let mut count = 0;
    for &(input, _) in WORKED {
        check_surrogateescape(&hex(input));
        count += 1;
    }
    for script in Script::ALL {
        for round in 0..30 {
            let mut text = generate(script, 64 + rng.below(3000), round);
            check_surrogateescape(&text);
            for _ in 0..[1usize, 3, 30, 500][round as usize % 4].min(text.len()) {
                let i = rng.below(text.len());
                text[i] = nasty[rng.below(nasty.len())];
            }
            check_surrogateescape(&text);
            count += 2;
        }
    }
    // Noise, `FF`s and Latin-1 at every length around the block and the short path's limit.
    let block = vutf8::tiers::BLOCK;
    for len in (0..=6 * block + 3).filter(|n| n % block < 4 || n % block > block - 4 || *n < 8) {
        let noise: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let latin1: Vec<u8> = (0..len)
            .map(|k| if k % 7 == 3 { 0xE9 } else { b'a' })
            .collect();
        for input in [noise, vec![0xFF; len], latin1] {
            check_surrogateescape(&input);
            count += 1;
        }
    }
    eprintln!("surrogateescape: {count} cases against the reference");
}
