//! `vutf8::errors` and `vutf8::ErrorScanner`: every error, against std's `utf8_chunks`
//! (positions and lengths) and the scalar reference (every field), on corrupted corpus
//! text and random bytes, and in every chunking of a stream.

use proptest::prelude::*;
use vutf8::{errors, ErrorScanner, Utf8Error};
use vutf8_corpus::{generate, Rng, Script};

/// What std says: one `(start, error_len)` per invalid part of `utf8_chunks`, `None` for
/// a sequence that the end of the input cuts short.
fn std_errors(input: &[u8]) -> Vec<(usize, Option<usize>)> {
    let mut out = Vec::new();
    let mut pos = 0;
    for chunk in input.utf8_chunks() {
        pos += chunk.valid().len();
        let bad = chunk.invalid();
        if !bad.is_empty() {
            // std's first error from here is this part: Some(len), or None if truncated.
            let e = std::str::from_utf8(&input[pos..]).unwrap_err();
            assert_eq!(e.valid_up_to(), 0);
            let len = e.error_len();
            if let Some(n) = len {
                assert_eq!(n, bad.len());
            } else {
                assert_eq!(pos + bad.len(), input.len());
            }
            out.push((pos, len));
        }
        pos += bad.len();
    }
    out
}

/// The scalar reference: every error of `vutf8::scalar::decode`.
fn scalar_errors(input: &[u8]) -> Vec<Utf8Error> {
    vutf8::scalar::decode(input)
        .filter_map(Result::err)
        .collect()
}

/// Streams `input` through an `ErrorScanner` in chunks of the given lengths (cycled; the
/// rest in one chunk if they are all 0 or run out).
fn scanned(input: &[u8], lens: &[usize]) -> Vec<Utf8Error> {
    let mut s = ErrorScanner::new();
    let mut found = Vec::new();
    let mut rest = input;
    let mut lens = lens.iter().copied().cycle().take(input.len() * 2 + 4);
    while !rest.is_empty() {
        let n = lens.next().unwrap_or(rest.len()).min(rest.len());
        let (chunk, tail) = rest.split_at(n);
        let seen = s.offset();
        s.update(chunk, |e| found.push(e));
        assert_eq!(s.offset(), seen + n as u64);
        assert!(s.pending().len() <= 3);
        assert_eq!(
            &input[(s.offset() as usize - s.pending().len())..s.offset() as usize],
            s.pending()
        );
        rest = tail;
    }
    s.finish(|e| found.push(e));
    found
}

/// Checks `errors` on `input` against std and the scalar reference, and the scanner on a
/// few chunkings.
fn check(input: &[u8]) {
    let got: Vec<Utf8Error> = errors(input).collect();
    let shape: Vec<_> = got
        .iter()
        .map(|e| (e.valid_up_to(), e.error_len()))
        .collect();
    assert_eq!(shape, std_errors(input), "{input:02X?}");
    assert_eq!(got, scalar_errors(input), "{input:02X?}");
    // The first error is that of from_utf8.
    assert_eq!(got.first().copied(), vutf8::from_utf8(input).err());
    for lens in [&[1usize][..], &[2], &[3], &[1, 0, 2, 5], &[7, 64, 1000]] {
        assert_eq!(scanned(input, lens), got, "chunks {lens:?} of {input:02X?}");
    }
}

#[test]
fn unicode_3_9_worked_example() {
    let input = b"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
    let got: Vec<_> = errors(input)
        .map(|e| (e.valid_up_to(), e.error_len()))
        .collect();
    assert_eq!(
        got,
        [
            (1, Some(3)),
            (4, Some(2)),
            (6, Some(1)),
            (8, Some(1)),
            (10, Some(1)),
            (11, Some(1))
        ]
    );
    check(input);
}

#[test]
fn valid_input_has_no_errors_and_the_iterator_is_fused() {
    for script in Script::ALL {
        let text = generate(script, 5000, 7);
        let mut it = errors(&text);
        assert_eq!(it.next(), None);
        assert_eq!(it.next(), None);
        assert!(it.remaining().is_empty());
    }
    let mut it = errors(b"ab\xFF");
    assert_eq!(it.next().map(|e| e.valid_up_to()), Some(2));
    assert_eq!(it.next(), None);
    assert_eq!(it.next(), None);
}

#[test]
fn truncated_at_the_end_has_no_length() {
    let mut input = generate(Script::Cjk, 300, 1);
    input.extend_from_slice(b"\xFF\xF0\x9F\x98");
    let got: Vec<_> = errors(&input).collect();
    assert_eq!(got.len(), 2);
    assert_eq!(got[1].error_len(), None);
    assert_eq!(got[1].valid_up_to(), input.len() - 3);
    assert_eq!(got[1].kind(), vutf8::ErrorKind::Incomplete);
    check(&input);
}

#[test]
fn errors_at_every_spacing() {
    // Errors spaced across the scalar stretch and the 64-byte block, so the search goes
    // back and forth between the scalar decoder and the fast validator at every offset.
    let bads: [&[u8]; 6] = [
        b"\x80",
        b"\xC0\xAF",
        b"\xED\xA0\x80",
        b"\xF4\x90\x80\x80",
        b"\xE2a",
        b"\xFF",
    ];
    for gap in (0..140).chain([190, 255, 256, 257, 600]) {
        for (k, bad) in bads.iter().enumerate() {
            let mut input = Vec::new();
            for i in 0..6 {
                input.extend(std::iter::repeat_n(b'a' + (i as u8), gap));
                input.extend_from_slice(bads[(k + i) % bads.len()]);
            }
            input.extend_from_slice(bad);
            check(&input);
        }
    }
}

#[test]
fn random_corrupted_text() {
    let mut rng = Rng::new(2024);
    let nasty = [
        0x80u8, 0xBF, 0xC0, 0xC1, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xF8, 0xFF, 0x41,
    ];
    let mut count = 0;
    for script in Script::ALL {
        for round in 0..40 {
            let mut text = generate(script, 1 + rng.below(3000), round);
            let n = [0usize, 1, 3, 30, 500][round as usize % 5].min(text.len());
            for _ in 0..n {
                let i = rng.below(text.len());
                text[i] = nasty[rng.below(nasty.len())];
            }
            check(&text);
            count += 1;
        }
    }
    for len in [0usize, 1, 2, 3, 4, 63, 64, 65, 200, 4096] {
        let noise: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        check(&noise);
        check(&vec![0xFF; len]);
        count += 2;
    }
    eprintln!("errors: {count} corrupted inputs against std and the scalar reference");
}

#[test]
fn every_split_of_short_inputs() {
    // All inputs of up to 3 bytes from a set that covers every class of byte, split into
    // up to three chunks at every pair of places.
    let bytes = [
        0x41u8, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF,
        0xF0, 0xF1, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF,
    ];
    let mut inputs: Vec<Vec<u8>> = vec![vec![]];
    for _ in 0..4 {
        let longer: Vec<Vec<u8>> = inputs
            .iter()
            .filter(|v| v.len() < 4)
            .flat_map(|v| {
                bytes.iter().map(move |&b| {
                    let mut w = v.clone();
                    w.push(b);
                    w
                })
            })
            .collect();
        inputs.extend(longer);
        inputs.sort();
        inputs.dedup();
    }
    for input in &inputs {
        let want: Vec<Utf8Error> = errors(input).collect();
        assert_eq!(want, scalar_errors(input), "{input:02X?}");
        for a in 0..=input.len() {
            for b in a..=input.len() {
                let mut s = ErrorScanner::new();
                let mut got = Vec::new();
                s.update(&input[..a], |e| got.push(e));
                s.update(&input[a..b], |e| got.push(e));
                s.update(&input[b..], |e| got.push(e));
                s.finish(|e| got.push(e));
                assert_eq!(got, want, "{input:02X?} split at {a}, {b}");
            }
        }
    }
}

#[test]
fn debug_looks_like_std() {
    let e = vutf8::from_utf8(b"path/\xC0\xAF/etc").unwrap_err();
    assert_eq!(
        format!("{e:?}"),
        "Utf8Error { valid_up_to: 5, error_len: Some(1), kind: Overlong, .. }"
    );
    let e = vutf8::from_utf8(b"ab\xE2\x82").unwrap_err();
    assert_eq!(
        format!("{e:?}"),
        "Utf8Error { valid_up_to: 2, error_len: None, kind: Incomplete, .. }"
    );
    // The same fields as std's Debug, in the same order.
    let bytes = b"ab\xE2\x82".to_vec();
    let std_e = std::str::from_utf8(&bytes).unwrap_err();
    assert_eq!(
        format!("{std_e:?}"),
        "Utf8Error { valid_up_to: 2, error_len: None }"
    );
}

/// Fragments that make chunk boundaries fall inside characters and ill-formed parts.
fn fragment() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"a".to_vec()),
        Just("é".as_bytes().to_vec()),
        Just("€".as_bytes().to_vec()),
        Just("🌍".as_bytes().to_vec()),
        Just(b"\xC0\xAF".to_vec()),
        Just(b"\xED\xA0\x80".to_vec()),
        Just(b"\xF4\x90\x80\x80".to_vec()),
        Just(b"\xF0\x9F\x98".to_vec()),
        Just(b"\xE2\x82".to_vec()),
        any::<u8>().prop_map(|b| vec![b]),
        prop::collection::vec(b'a'..=b'z', 60..140),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn any_input_any_chunking(
        frags in prop::collection::vec(fragment(), 0..40),
        lens in prop::collection::vec(0usize..20, 1..30),
    ) {
        let input = frags.concat();
        let want: Vec<Utf8Error> = errors(&input).collect();
        let shape: Vec<_> = want.iter().map(|e| (e.valid_up_to(), e.error_len())).collect();
        prop_assert_eq!(shape, std_errors(&input));
        prop_assert_eq!(&want, &scalar_errors(&input));
        prop_assert_eq!(scanned(&input, &lens), want);
    }

    #[test]
    fn corpus_with_random_corruption(
        script in 0usize..6,
        len in 1usize..4000,
        seed in any::<u64>(),
        hits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..50),
        lens in prop::collection::vec(1usize..300, 1..10),
    ) {
        let mut text = generate(Script::ALL[script], len, seed);
        for (i, b) in hits {
            let i = i.index(text.len());
            text[i] = b;
        }
        let want: Vec<Utf8Error> = errors(&text).collect();
        let shape: Vec<_> = want.iter().map(|e| (e.valid_up_to(), e.error_len())).collect();
        prop_assert_eq!(shape, std_errors(&text));
        prop_assert_eq!(&want, &scalar_errors(&text));
        prop_assert_eq!(scanned(&text, &lens), want);
    }
}

/// Junk where every byte is an ill-formed part of its own, in runs of every length at
/// every offset around the 64-byte block (the iterator yields such a run from its bytes),
/// with lead bytes that a continuation byte follows inside the runs (`C0 80`, `E0 80`,
/// `ED A0`, `F5 BF`: decoded) and runs that reach the end of the input: every error against
/// std and the scalar reference; and, stopped after each error, `remaining` and the rest
/// walked by `fold` (which takes over a run half yielded).
#[test]
fn runs_of_one_byte_parts() {
    let alphabets: [&[u8]; 4] = [
        b"\xFF",
        b"\x80\xBF\xF8\xFE",
        b"\xC0\x80\xE0\x80\xF5\xBF\xFF\xED\xA0",
        b"\xC2\xFE\xC1\xF7\x9F",
    ];
    let mut rng = Rng::new(77);
    let mut checked = 0;
    for alphabet in alphabets {
        for before in [0usize, 1, 7, 56, 63, 64, 65, 120] {
            for len in (1..=80).chain([127, 128, 129, 200, 511, 512, 513]) {
                for after in [&b""[..], b"z"] {
                    let mut input = vec![b'a'; before];
                    input.extend((0..len).map(|_| alphabet[rng.below(alphabet.len())]));
                    input.extend_from_slice(after);
                    check(&input);
                    let all: Vec<Utf8Error> = errors(&input).collect();
                    if len % 16 == 1 {
                        for k in 0..=all.len() {
                            let mut it = errors(&input);
                            for want in &all[..k] {
                                assert_eq!(it.next().as_ref(), Some(want));
                            }
                            let end = match k.checked_sub(1).map(|j| all[j]) {
                                Some(e) => e.valid_up_to() + e.error_len().unwrap_or(input.len()),
                                None => 0,
                            };
                            assert_eq!(it.remaining(), &input[end.min(input.len())..]);
                            let rest = it.fold(Vec::new(), |mut v, e| {
                                v.push(e);
                                v
                            });
                            assert_eq!(rest, all[k..], "{input:02X?} after {k}");
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 2_000, "{checked}");
}
