//! Counting (`vutf8::count_chars`, `vutf8::validate_and_count`) against `chars().count()`
//! and `from_utf8`, at every length and alignment the vector loop has.

use vutf8::{count_chars, validate_and_count};
use vutf8_corpus::{generate, with_error, Corruption, Script};

#[test]
fn count_chars_matches_std() {
    let mut cases = 0;
    for script in Script::ALL {
        let text = generate(script, 40_000, 7);
        let text = std::str::from_utf8(&text).unwrap();
        // Every start alignment and many lengths around the 128-byte step and 63-step group.
        for start in (0..40).filter(|&i| text.is_char_boundary(i)) {
            for len in [
                0usize, 1, 63, 64, 127, 128, 129, 1000, 8064, 8065, 16_200, 39_000,
            ] {
                let end = (start + len).min(text.len());
                let Some(s) = text.get(start..end) else {
                    continue;
                };
                assert_eq!(
                    count_chars(s),
                    s.chars().count(),
                    "{script:?} {start}..{end}"
                );
                assert_eq!(validate_and_count(s.as_bytes()), Ok(s.chars().count()));
                cases += 1;
            }
        }
    }
    eprintln!("count: {cases} cases");
}

#[test]
fn validate_and_count_errors_match_from_utf8() {
    let corruptions = [
        Corruption::StrayContinuation,
        Corruption::Overlong,
        Corruption::Surrogate,
        Corruption::TooShort,
        Corruption::InvalidByte,
    ];
    for script in Script::ALL {
        let text = generate(script, 70_000, 3);
        // Errors on both sides of the 16 KiB piece boundaries.
        for at in [0usize, 100, 16_381, 16_383, 16_384, 16_385, 32_767, 69_990] {
            for c in corruptions {
                let (bad, _) = with_error(&text, at, c);
                let want = vutf8::from_utf8(&bad).unwrap_err();
                assert_eq!(validate_and_count(&bad), Err(want), "{script:?} {at} {c:?}");
                assert_eq!(
                    std::str::from_utf8(&bad).unwrap_err().valid_up_to(),
                    want.valid_up_to()
                );
            }
        }
        // A character split by a piece boundary, at each offset.
        let mut t = "a".repeat(16_384 - 3);
        t.push_str(&"🌍".repeat(3));
        for cut in 0..4 {
            let s = &t[cut..];
            assert_eq!(validate_and_count(s.as_bytes()), Ok(s.chars().count()));
        }
        let truncated = &t.as_bytes()[..t.len() - 1];
        assert_eq!(
            validate_and_count(truncated).unwrap_err(),
            vutf8::from_utf8(truncated).unwrap_err()
        );
    }
}
