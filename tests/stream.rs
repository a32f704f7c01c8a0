//! `Validator`: every way of cutting an input into chunks gives the verdict and the
//! absolute error position of one-shot `from_utf8` (and of `core::str::from_utf8`).

use proptest::prelude::*;
use vutf8::{Utf8Error, Validator};
use vutf8_corpus::{generate, with_error, Corruption, Rng, Script};

/// Feeds `input` to a fresh validator in chunks of the given sizes (cycled; the rest of
/// the input goes in the last chunk when they run out), then finishes. Checks the
/// validator's invariants on the way and returns the stream's result.
fn stream(input: &[u8], sizes: &mut dyn Iterator<Item = usize>) -> Result<(), Utf8Error> {
    let mut v = Validator::new();
    let mut pos = 0;
    let mut first: Option<Utf8Error> = None;
    while pos < input.len() {
        let n = sizes
            .next()
            .unwrap_or(input.len() - pos)
            .min(input.len() - pos);
        let chunk = &input[pos..pos + n];
        pos += n;
        match (v.update(chunk), first) {
            (Ok(()), None) => {
                assert_eq!(v.bytes_seen(), pos as u64);
                assert!(v.pending().len() <= 3);
                assert_eq!(v.valid_up_to() + v.pending().len() as u64, pos as u64);
                assert_eq!(v.error(), None);
                assert!(std::str::from_utf8(&input[..v.valid_up_to() as usize]).is_ok());
            }
            (Err(e), None) => {
                assert!(e.valid_up_to() <= pos, "an error after the bytes seen");
                assert_eq!(v.error(), Some(e));
                assert_eq!(v.valid_up_to(), e.valid_up_to() as u64);
                assert!(v.pending().is_empty());
                first = Some(e);
            }
            (Err(e), Some(f)) => assert_eq!(e, f, "errors are sticky"),
            (Ok(()), Some(_)) => panic!("an update after an error succeeded"),
        }
    }
    // Empty chunks change nothing.
    let before = v.clone();
    let r = v.update(&[]);
    assert_eq!(r, first.map_or(Ok(()), Err));
    assert_eq!(v.bytes_seen(), before.bytes_seen());
    assert_eq!(v.check_end(), v.clone().finish().err());
    let end = v.finish();
    if let Some(f) = first {
        assert_eq!(end, Err(f), "finish returns the error of update");
    }
    if let Err(e) = end {
        // An error with a length is certain before the end, so `update` must have found
        // it (unless its details depend on the bytes after the end: `C0` at the end); an
        // input that ends inside a character is found only by `finish`.
        if first.is_none() {
            let held = input.len() - e.valid_up_to();
            assert!(e.error_len().is_none() || held < e.sequence_len(), "{e:?}");
        } else {
            assert!(e.error_len().is_some());
        }
    }
    end
}

/// Checks `input` under the given chunking against the one-shot API and std.
fn check(input: &[u8], sizes: &mut dyn Iterator<Item = usize>, what: &dyn std::fmt::Debug) {
    let want = vutf8::from_utf8(input).map(|_| ());
    let got = stream(input, sizes);
    assert_eq!(got, want, "{what:?} on {} bytes", input.len());
    let std = std::str::from_utf8(input).map_err(|e| (e.valid_up_to(), e.error_len()));
    assert_eq!(
        got.map_err(|e| (e.valid_up_to(), e.error_len())),
        std.map(|_| ())
    );
}

/// Valid texts in every script, the same with each kind of error at a few places, and the
/// same cut off inside a character.
fn inputs() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (k, script) in Script::ALL.into_iter().enumerate() {
        let text = generate(script, 700 + 37 * k, k as u64);
        for at in [0, 1, 63, 64, 65, 300, 690] {
            for c in Corruption::ALL {
                out.push(with_error(&text, at, c).0);
            }
        }
        // Cut inside (or just after) the last character.
        for cut in 1..=4 {
            out.push(text[..text.len() - cut].to_vec());
        }
        // Two errors: the first one wins.
        let (once, _) = with_error(&text, 500, Corruption::Surrogate);
        out.push(with_error(&once, 100, Corruption::TooShort).0);
        out.push(text);
    }
    out
}

#[test]
fn every_fixed_chunk_size_from_1_to_130() {
    for input in inputs() {
        for size in 1..=130 {
            check(&input, &mut std::iter::repeat(size), &size);
        }
    }
}

#[test]
fn larger_fixed_chunk_sizes() {
    for input in inputs() {
        for size in [255, 256, 257, 511, 1000, 4097, 1 << 16] {
            check(&input, &mut std::iter::repeat(size), &size);
        }
    }
}

#[test]
fn random_chunkings_with_empty_chunks() {
    let mut rng = Rng::new(42);
    for input in inputs() {
        for round in 0..20 {
            let max = [2, 5, 70, 300, 2000][round % 5];
            let sizes: Vec<usize> = (0..input.len() + 1).map(|_| rng.below(max)).collect();
            check(&input, &mut sizes.iter().copied(), &(round, &sizes[..8]));
        }
    }
}

/// Short inputs around each kind of error, cut into two and three chunks at every place.
#[test]
fn every_two_and_three_way_split_of_short_inputs() {
    let cores: &[&[u8]] = &[
        b"",
        b"\xC2\x80",
        b"\xE2\x82\xAC",
        b"\xF0\x9F\x98\x80",
        b"\xF4\x8F\xBF\xBF",
        b"\x80",
        b"\xBF\x80",
        b"\xC0\xAF",
        b"\xC1\xBF",
        b"\xE0\x80\xAF",
        b"\xE0\x9F\xBF",
        b"\xED\xA0\x80",
        b"\xED\x9F\xBF",
        b"\xF0\x8F\xBF\xBF",
        b"\xF4\x90\x80\x80",
        b"\xF5\x80\x80\x80",
        b"\xF8\x88\x80\x80\x80",
        b"\xFF",
        b"\xC2",
        b"\xE2\x82",
        b"\xF0\x9F\x98",
        b"\xE2\x82a",
        b"\xF0\x9F\x98\xF0\x9F\x98\x80",
        b"\xC2\xE2\x82\xAC",
        b"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64",
    ];
    for core in cores {
        for prefix in [&b""[..], b"a", b"\xC3\xA9", b"\xE4\xB8\x96"] {
            for suffix in [&b""[..], b"z", b"\xC3\xA9", b"\xF0\x9F\x8C\x8D"] {
                let input = [prefix, core, suffix].concat();
                let n = input.len();
                for i in 0..=n {
                    check(&input, &mut [i].into_iter(), &i);
                    for j in i..=n {
                        check(&input, &mut [i, j - i].into_iter(), &(i, j));
                    }
                }
            }
        }
    }
}

#[test]
fn offsets_are_absolute_over_many_chunks() {
    let text = generate(Script::Mixed, 3 << 20, 9);
    let (bad, at) = with_error(&text, (3 << 20) - 1000, Corruption::Overlong);
    let mut v = Validator::new();
    let mut got = None;
    for chunk in bad.chunks(4097) {
        if let Err(e) = v.update(chunk) {
            got = Some(e);
            break;
        }
    }
    let e = got.expect("the error is found by update");
    assert_eq!(e.valid_up_to(), at);
    assert_eq!(e.error_len(), Some(1));
    assert_eq!(e.kind(), vutf8::ErrorKind::Overlong);
    assert_eq!(e.code_point(), Some(0x2F));
    assert_eq!(
        e.to_string(),
        format!("overlong encoding of U+002F at byte {at}")
    );
}

#[test]
fn accessors_follow_an_open_character() {
    let mut v = Validator::default();
    assert_eq!(
        (v.bytes_seen(), v.valid_up_to(), v.pending()),
        (0, 0, &b""[..])
    );
    v.update(b"ab\xF0").unwrap();
    assert_eq!(
        (v.bytes_seen(), v.valid_up_to(), v.pending()),
        (3, 2, &b"\xF0"[..])
    );
    v.update(b"\x9F").unwrap();
    v.update(b"").unwrap();
    v.update(b"\x8C").unwrap();
    assert_eq!(
        (v.bytes_seen(), v.valid_up_to(), v.pending()),
        (5, 2, &b"\xF0\x9F\x8C"[..])
    );
    let e = v.check_end().unwrap();
    assert_eq!((e.valid_up_to(), e.error_len()), (2, None));
    assert_eq!(e.kind(), vutf8::ErrorKind::Incomplete);
    assert_eq!(e.sequence_len(), 4);
    v.update(b"\x8D").unwrap();
    assert_eq!(
        (v.bytes_seen(), v.valid_up_to(), v.pending()),
        (6, 6, &b""[..])
    );
    assert_eq!(v.check_end(), None);
    assert!(format!("{v:?}").contains("Validator"));
    v.finish().unwrap();
}

#[test]
fn an_error_in_the_carried_character_is_reported_where_it_starts() {
    let mut v = Validator::new();
    v.update(b"0123456789\xED").unwrap();
    let e = v.update(b"\xA0\x80 and more").unwrap_err();
    assert_eq!((e.valid_up_to(), e.error_len()), (10, Some(1)));
    assert_eq!(e.kind(), vutf8::ErrorKind::Surrogate);
    assert_eq!(e.code_point(), Some(0xD800));
    assert_eq!(v.update(b"x"), Err(e));
    assert_eq!(v.bytes_seen(), 10);
    assert_eq!(v.finish(), Err(e));
}

/// Bytes that make interesting UTF-8 and non-UTF-8 when concatenated.
fn fragment() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"a".to_vec()),
        Just("é".as_bytes().to_vec()),
        Just("€".as_bytes().to_vec()),
        Just("🌍".as_bytes().to_vec()),
        Just(vec![0x80]),
        Just(vec![0xC2]),
        Just(vec![0xE0]),
        Just(vec![0xED]),
        Just(vec![0xF0]),
        Just(vec![0xF4]),
        Just(vec![0xA0]),
        Just(vec![0x90]),
        any::<u8>().prop_map(|b| vec![b]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn matches_one_shot_on_any_input_and_chunking(
        frags in prop::collection::vec(fragment(), 0..60),
        sizes in prop::collection::vec(0usize..12, 0..40),
    ) {
        let input = frags.concat();
        check(&input, &mut sizes.iter().copied(), &sizes);
    }
}
