//! Records as ranges of one buffer (`vutf8::records::RangeMap`, `offsets`; feature
//! `alloc`): the rule that decides a range from one search of the buffer, against
//! `core::str::from_utf8` on every range of many buffers, and records by offsets (Arrow's
//! layout) against each range validated alone.
#![cfg(feature = "alloc")]

use vutf8::records::{offsets, OffsetsError, RangeMap, Record};
use vutf8_corpus::{generate, Rng, Script};

/// Every range of a few buffers, any order and in order, against std: the rule of
/// `RangeMap` (ranges may split characters, start with continuation bytes, end inside a
/// sequence).
#[test]
fn the_range_rule_agrees_with_std_on_every_range() {
    let buffers: [&[u8]; 8] = [
        "añ€😀b".as_bytes(),
        b"a\xE2\x82\xACb\xE2\x82c\xF0\x9F\x98",
        b"\x80\xBF\xC2\xC2\xA9\xED\xA0\x80\xF4\x90\x80\x80x",
        b"\xE0\x80\xAF\xC0\xAF\xF8\x88\x80\x80\x80zz",
        b"",
        "ab€\u{10FFFF}\u{7FF}".as_bytes(),
        // Valid characters followed by stray continuation bytes, and sequences a
        // continuation byte cannot continue (E0 80, ED A0, F4 90).
        b"a\x80\xC2\xA9\xBF\xE2\x82\xAC\x80\x80d\xF0\x9F\x98\x80\xBFz\x80",
        b"\xE0\x80\xE0\xA0\x80\x80\xED\xA0\x80\xF4\x90\xF4\x8F\xBF\xBF\x8F\xE2\x82",
    ];
    let mut ranges = 0;
    for bytes in buffers {
        let map = RangeMap::new(bytes);
        assert_eq!(map.all_valid(), std::str::from_utf8(bytes).is_ok());
        let mut in_order = map.in_order();
        for start in 0..=bytes.len() {
            for end in start..=bytes.len() {
                let std = std::str::from_utf8(&bytes[start..end]).is_ok();
                let what = format!("{bytes:02X?}[{start}..{end}]");
                assert_eq!(map.is_valid(start..end), std, "{what}");
                assert_eq!(in_order.is_valid(start..end), std, "{what}");
                ranges += 1;
            }
        }
    }
    assert!(ranges > 300);
}

/// Every range of every buffer of up to 5 bytes drawn from bytes of each class (ASCII, the
/// continuation ranges that E0, ED, F0 and F4 treat apart, leads, bytes never in UTF-8),
/// against std; and the same buffers as records by offsets, cut at every place.
#[test]
fn the_range_rule_agrees_with_std_on_every_short_buffer() {
    const BYTES: [u8; 14] = [
        0x00, 0x41, 0x80, 0x8F, 0x90, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xFF,
    ];
    let mut checked = 0u64;
    let mut buffer = Vec::new();
    for len in 0..=5u32 {
        for n in 0..BYTES.len().pow(len) {
            buffer.clear();
            let mut digits = n;
            for _ in 0..len {
                buffer.push(BYTES[digits % BYTES.len()]);
                digits /= BYTES.len();
            }
            let map = RangeMap::new(&buffer);
            let mut in_order = map.in_order();
            for start in 0..=buffer.len() {
                for end in start..=buffer.len() {
                    let std = std::str::from_utf8(&buffer[start..end]).is_ok();
                    assert_eq!(
                        map.is_valid(start..end),
                        std,
                        "{buffer:02X?}[{start}..{end}]"
                    );
                    assert_eq!(
                        in_order.is_valid(start..end),
                        std,
                        "{buffer:02X?}[{start}..{end}] in order"
                    );
                    checked += 1;
                }
            }
            // As records: cut after every byte whose bit is set in `cuts` (up to 4 bytes: the
            // 5-byte buffers would take a minute).
            for cuts in 0..(1u32 << buffer.len()) * u32::from(len <= 4) {
                let mut offs = vec![0i64];
                offs.extend(
                    (1..buffer.len())
                        .filter(|i| cuts >> i & 1 == 1)
                        .map(|i| i as i64),
                );
                offs.push(buffer.len() as i64);
                check_offsets(&buffer, &offs);
            }
        }
    }
    assert_eq!(
        checked,
        (0..=5u64)
            .map(|l| 14u64.pow(l as u32) * (l + 1) * (l + 2) / 2)
            .sum::<u64>()
    );
}

/// The records of `offsets` against each range validated alone.
fn check_offsets(values: &[u8], offs: &[i64]) {
    let got: Vec<Record<'_>> = offsets(values, offs).expect("valid offsets").collect();
    assert_eq!(got.len(), offs.len().saturating_sub(1));
    for (i, r) in got.iter().enumerate() {
        let (s, e) = (offs[i] as usize, offs[i + 1] as usize);
        let std = std::str::from_utf8(&values[s..e]).map_err(|e| (e.valid_up_to(), e.error_len()));
        let ours = r.to_str().map_err(|e| (e.valid_up_to(), e.error_len()));
        assert_eq!(
            (r.offset(), r.bytes(), r.is_valid(), ours),
            (s, &values[s..e], std.is_ok(), std),
            "record {i} of {values:02X?} at offsets {offs:?}"
        );
    }
    // The verdicts as bits: the same.
    let mut words = vec![0x5555_5555_5555_5555u64; got.len().div_ceil(64) + 1];
    let valid = vutf8::records::verdict_bits(values, offs, &mut words).expect("valid offsets");
    let want: Vec<bool> = got.iter().map(|r| r.is_valid()).collect();
    let bits: Vec<bool> = (0..want.len())
        .map(|i| words[i / 64] >> (i % 64) & 1 == 1)
        .collect();
    assert_eq!(bits, want, "bits of offsets {offs:?}");
    assert_eq!(valid, want.iter().filter(|&&v| v).count());
    if !want.len().is_multiple_of(64) {
        assert_eq!(
            words[want.len() / 64] >> (want.len() % 64),
            0,
            "bits past the last record are clear"
        );
    }
    assert_eq!(
        words[want.len().div_ceil(64)],
        0x5555_5555_5555_5555,
        "a word past the records was written"
    );
}

#[test]
fn records_by_offsets() {
    let mut rng = Rng::new(31);
    for script in Script::ALL {
        // Some 2,600 rows: many of the groups `verdict_bits` takes at a time, with and
        // without errors.
        let clean = generate(script, 400_000, 3);
        let mut values = clean.clone();
        for _ in 0..20 {
            let at = rng.below(values.len());
            values[at] = [0xFF, 0x80, 0xC3][rng.below(3)];
        }
        // Rows of 0 to 300 bytes cut anywhere (characters split too), starting past 0.
        let mut offs = vec![rng.below(100) as i64];
        while let Some(&last) = offs.last() {
            let next = last as usize + rng.below(300);
            if next > values.len() {
                break;
            }
            offs.push(next as i64);
        }
        check_offsets(&values, &offs);
        // Without errors in the values, where the bits take the two-ends rule.
        check_offsets(&clean, &offs);
        // Rows cut between characters only (as rows of text are), where every row of a
        // group without errors is valid.
        let text = std::str::from_utf8(&clean).expect("generated text is valid");
        let mut between: Vec<i64> = offs
            .iter()
            .map(|&o| {
                (0..=o as usize)
                    .rev()
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap() as i64
            })
            .collect();
        check_offsets(&clean, &between);
        check_offsets(&values, &between);
        // And one row cut inside a character among them (where the text has any).
        if let Some(inside) = (1..between.len() - 1).find(|&i| {
            between[i] < between[i + 1] && !text.is_char_boundary(between[i] as usize + 1)
        }) {
            between[inside] += 1;
            check_offsets(&clean, &between);
        }
        let o32: Vec<i32> = offs.iter().map(|&o| o as i32).collect();
        let a: Vec<_> = offsets(&values, &offs).unwrap().collect();
        let b: Vec<_> = offsets(&values, &o32).unwrap().collect();
        assert_eq!(a, b);
    }
    assert_eq!(offsets(b"abc", &[] as &[i32]).unwrap().count(), 0);
    assert_eq!(
        vutf8::records::verdict_bits(b"abc", &[] as &[i32], &mut []),
        Ok(0)
    );
    assert_eq!(
        vutf8::records::verdict_bits(b"abc", &[2i32], &mut []),
        Ok(0)
    );
    assert_eq!(offsets(b"abc", &[2i32]).unwrap().count(), 0);
}

#[test]
fn offsets_that_are_not_records_are_refused() {
    let values = b"abcdef";
    let cases: [(&[i64], usize); 4] = [
        (&[0, 3, 2], 2),
        (&[-1, 2], 0),
        (&[0, 7], 1),
        (&[3, 3, 9], 2),
    ];
    for (offs, index) in cases {
        let err: OffsetsError = offsets(values, offs).unwrap_err();
        assert_eq!(err.index(), index, "{offs:?}");
        assert!(err.to_string().contains(&format!("offset {index} ")));
    }
    assert!(offsets(values, &[u64::MAX]).is_err());
}
