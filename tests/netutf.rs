//! NET-UTF (`vutf8::netutf`): every code point / encoding pair of section 5 of the 1992
//! draft and the range table of its section 4, in both directions; the errors; and the
//! definition "valid exactly when it decodes and re-encodes to itself" checked on every
//! short byte string.
#![cfg(feature = "alloc")]

use vutf8::netutf::{self, ErrorKind, TranscodeError};
use vutf8_corpus::Rng;

fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|t| u8::from_str_radix(t, 16).unwrap())
        .collect()
}

/// NET-UTF draft, section 5: (block, first code point, its octets, last code point, its octets).
const SECTION_5: &[(&str, u32, &str, u32, &str)] = &[
    ("ISO-646 IRV", 32, "20", 126, "7E"),
    ("Latin-1 Supplement", 160, "A0 A0", 255, "A0 FF"),
    ("Extended Latin-A", 256, "A1 21", 383, "A1 C1"),
    ("Extended Latin-B", 384, "A1 C2", 591, "A2 D3"),
    ("IPA Extensions", 592, "A2 D4", 687, "A3 54"),
    ("Spacing modifier letters", 688, "A3 55", 767, "A3 C5"),
    ("Combining diacritical marks", 768, "A3 C6", 879, "A4 56"),
    ("Greek", 880, "A4 57", 1023, "A5 28"),
    ("Cyrillic", 1024, "A5 29", 1279, "A6 6A"),
    ("Armenian", 1328, "A6 BC", 1423, "A7 3C"),
    ("Hebrew", 1424, "A7 3D", 1535, "A7 CD"),
    ("Arabic", 1536, "A7 CE", 1791, "A9 30"),
    ("Devanagari", 2304, "AB D6", 2431, "AC 76"),
    ("Bengali", 2432, "AC 77", 2559, "AD 38"),
    ("Gurmukhi", 2560, "AD 39", 2687, "AD D9"),
    ("Gujarati", 2688, "AD DA", 2815, "AE 7A"),
    ("Oriya", 2816, "AE 7B", 2943, "AF 3C"),
    ("Tamil", 2944, "AF 3D", 3071, "AF DD"),
    ("Telugu", 3072, "AF DE", 3199, "B0 7E"),
    ("Kannada", 3200, "B0 A0", 3327, "B1 40"),
    ("Malayalam", 3328, "B1 41", 3455, "B1 E1"),
    ("Thai", 3584, "B2 A4", 3711, "B3 44"),
    ("Lao", 3712, "B3 45", 3839, "B3 E5"),
    ("Tibetan", 4096, "B5 49", 4191, "B5 C9"),
    ("Georgian", 4256, "B6 2B", 4351, "B6 AB"),
    ("Additional Extended Latin", 7680, "C8 2F", 7935, "C9 70"),
    ("Greek Extensions", 7936, "C9 71", 8191, "CA D3"),
    ("General Punctuation", 8192, "CA D4", 8303, "CB 64"),
    ("Superscripts and Subscripts", 8304, "CB 65", 8351, "CB B5"),
    ("Currency Symbols", 8352, "CB B6", 8399, "CB E5"),
    (
        "Combining Diacritical Marks For Symbols",
        8400,
        "CB E6",
        8447,
        "CC 36",
    ),
    ("Letterlike Symbols", 8448, "CC 37", 8527, "CC A7"),
    ("Number Forms", 8528, "CC A8", 8591, "CC E7"),
    ("Arrows", 8592, "CC E8", 8703, "CD 78"),
    ("Mathematical Operators", 8704, "CD 79", 8959, "CE DB"),
    ("Miscellaneous Technical", 8960, "CE DC", 9215, "D0 3E"),
    ("Control Pictures", 9216, "D0 3F", 9279, "D0 7E"),
    (
        "Optical Character Recognition",
        9280,
        "D0 A0",
        9311,
        "D0 BF",
    ),
    ("Enclosed Alphanumerics", 9312, "D0 C0", 9471, "D1 A1"),
    ("Box Drawing", 9472, "D1 A2", 9599, "D2 42"),
    ("Block Elements", 9600, "D2 43", 9631, "D2 62"),
    ("Geometric Shapes", 9632, "D2 63", 9727, "D2 E3"),
    ("Miscellaneous Dingbats", 9728, "D2 E4", 9983, "D4 46"),
    ("Dingbats", 9984, "D4 47", 10175, "D5 48"),
    (
        "CJK Symbols and Punctuation",
        12288,
        "E0 5F",
        12351,
        "E0 BF",
    ),
    ("Hiragana", 12352, "E0 C0", 12447, "E1 40"),
    ("Katakana", 12448, "E1 41", 12543, "E1 C1"),
    ("Bopomofo", 12544, "E1 C2", 12591, "E1 F1"),
    ("Hangul Jamo", 12592, "E1 F2", 12687, "E2 72"),
    ("CJK Miscellaneous", 12688, "E2 73", 12703, "E2 A3"),
    ("Combining Hangul Jamo", 12704, "E2 A4", 12799, "E3 24"),
    (
        "Enclosed CJK Letters and Months",
        12800,
        "E3 25",
        13055,
        "E4 66",
    ),
    (
        "CJK Compatibility Words and Hours",
        13056,
        "E4 67",
        13183,
        "E5 28",
    ),
    ("Hangul", 13312, "E5 CA", 15663, "F2 32"),
    ("Supplementary Hangul", 15872, "F3 45", 17807, "F6 28 68"),
    ("Old Hangul", 17920, "F6 28 FA", 19599, "F6 31 DB"),
    (
        "CJK Unified Ideograms",
        19968,
        "F6 33 D0",
        40959,
        "F6 C3 4C",
    ),
    ("Private Use Area", 57344, "F7 3A 79", 63487, "F7 5A D9"),
    (
        "CJK Compatibility Ideographs",
        63744,
        "F7 5C 3D",
        64255,
        "F7 5E E1",
    ),
    (
        "Alphabetic Presentation Forms",
        64256,
        "F7 5E E2",
        64335,
        "F7 5F 52",
    ),
    (
        "Arabic Presentation Forms",
        64592,
        "F7 60 B6",
        65023,
        "F7 62 E9",
    ),
    (
        "CJK Compatibility Forms",
        65072,
        "F7 63 3B",
        65103,
        "F7 63 5A",
    ),
    ("Small Form Variants", 65104, "F7 63 5B", 65135, "F7 63 7A"),
    (
        "Arabic Presentation Forms-B",
        65136,
        "F7 63 7B",
        65278,
        "F7 64 4B",
    ),
    (
        "Halfwidth and Fullwidth Forms",
        65280,
        "F7 64 4D",
        65519,
        "F7 65 7E",
    ),
    ("Specials", 65520, "F7 65 A0", 65533, "F7 65 AD"),
    (
        "Private Use Planes",
        14680064,
        "FC 23 35 46 3D",
        16777215,
        "FC 23 6F 57 D7",
    ),
    (
        "Private Use Groups",
        1610612736,
        "FD 4D D6 E4 D8",
        2147483647,
        "FD BD 2B B9 40",
    ),
];

/// Section 4: the ranges of the code space and their first and last encodings, and the
/// worked example in the text (o-diaeresis, 246, is "160. 246.").
const SECTION_4: &[(u32, &str)] = &[
    (0, "00"),
    (159, "9F"),
    (160, "A0 A0"),
    (255, "A0 FF"),
    (256, "A1 21"),
    (16405, "F5 FF"),
    (16406, "F6 21 21"),
    (233005, "FB FF FF"),
    (233006, "FC 21 21 21 21"),
    (4294967295, "FF 59 3C C8 C3"),
    (246, "A0 F6"),
];

fn check_pair(value: u32, octets: &[u8]) {
    assert_eq!(netutf::encode(&[value]), octets, "encode {value}");
    assert_eq!(
        netutf::decode(octets).unwrap(),
        [value],
        "decode {octets:02X?}"
    );
    assert_eq!(netutf::validate(octets), Ok(()));
    let mut buf = [0; 5];
    let n = netutf::encode_char(value, &mut buf);
    assert_eq!(&buf[..n], octets);
}

#[test]
fn section_5_every_block_both_directions() {
    let mut pairs = 0;
    let mut values = Vec::new();
    for &(block, first, first_hex, last, last_hex) in SECTION_5 {
        assert!(first <= last, "{block}");
        check_pair(first, &hex(first_hex));
        check_pair(last, &hex(last_hex));
        values.extend([first, last]);
        pairs += 2;
    }
    assert_eq!(pairs, 136);
    eprintln!("netutf: {pairs} section 5 pairs");
    // All of them as one string, both ways.
    let joined: Vec<u8> = SECTION_5
        .iter()
        .flat_map(|&(_, _, a, _, b)| [hex(a), hex(b)].concat())
        .collect();
    assert_eq!(netutf::encode(&values), joined);
    assert_eq!(netutf::decode(&joined).unwrap(), values);
}

#[test]
fn section_4_ranges() {
    for &(value, octets) in SECTION_4 {
        check_pair(value, &hex(octets));
    }
    // Just past each range, the next form starts.
    assert_eq!(netutf::encode(&[159, 160]), hex("9F A0 A0"));
    // Trail octets: only 21..7E and A0..FF, over a sweep of the multi-octet ranges.
    let mut rng = Rng::new(1992);
    for _ in 0..100_000 {
        let v = rng.next_u64() as u32 >> rng.below(32);
        let e = netutf::encode(&[v]);
        let trail_ok = |b: &u8| matches!(b, 0x21..=0x7E | 0xA0..=0xFF);
        assert!(e.len() == 1 || e[1..].iter().all(trail_ok), "{v}: {e:02X?}");
        assert_eq!(netutf::decode(&e).unwrap(), [v]);
    }
}

#[test]
fn errors() {
    use ErrorKind::*;
    let cases: &[(&str, usize, Option<usize>, ErrorKind)] = &[
        ("A0", 0, None, Incomplete),
        ("41 F6 21", 1, None, Incomplete),
        ("FC 21 21 21", 0, None, Incomplete),
        ("A0 41", 0, Some(1), InvalidTrail),
        ("A0 9F", 0, Some(1), InvalidTrail),
        ("A1 20", 0, Some(1), InvalidTrail),
        ("41 F5 7F", 1, Some(1), InvalidTrail),
        ("F6 21 0A", 0, Some(2), InvalidTrail),
        ("FC 21 21 21 9F", 0, Some(4), InvalidTrail),
        ("FF 59 3C C8 C4", 0, Some(5), TooLarge),
        ("FF FF FF FF FF", 0, Some(5), TooLarge),
    ];
    for &(input, at, len, kind) in cases {
        let bytes = hex(input);
        let e = netutf::validate(&bytes).unwrap_err();
        assert_eq!(
            (e.valid_up_to(), e.error_len(), e.kind()),
            (at, len, kind),
            "{input}"
        );
        assert_eq!(netutf::decode(&bytes).unwrap_err(), e);
        assert_eq!(netutf::to_utf8(&bytes), Err(TranscodeError::Invalid(e)));
    }
}

/// The definition: valid exactly when it decodes and re-encodes to itself. The oracle
/// tries, at each position, every value that could have produced the next octets.
fn oracle_valid_up_to(s: &[u8]) -> usize {
    let mut pos = 0;
    'outer: while pos < s.len() {
        for len in [1usize, 2, 3, 5] {
            let Some(seq) = s.get(pos..pos + len) else {
                continue;
            };
            // Decode by brute force over the range this lead octet belongs to.
            if let Ok(v) = netutf::decode(seq) {
                if v.len() == 1 && netutf::encode(&v) == seq {
                    pos += len;
                    continue 'outer;
                }
            }
        }
        return pos;
    }
    pos
}

#[test]
fn exhaustive_short_strings() {
    let mut count = 0;
    let check = |s: &[u8]| {
        let r = netutf::validate(s);
        match netutf::decode(s) {
            Ok(v) => {
                assert_eq!(r, Ok(()));
                assert_eq!(netutf::encode(&v), s, "re-encode {s:02X?}");
            }
            Err(e) => {
                assert_eq!(r, Err(e));
                assert_eq!(e.valid_up_to(), oracle_valid_up_to(s), "{s:02X?}");
                // The valid prefix re-encodes to itself.
                let prefix = &s[..e.valid_up_to()];
                assert_eq!(netutf::encode(&netutf::decode(prefix).unwrap()), prefix);
            }
        }
    };
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            check(&[a, b]);
            count += 1;
        }
    }
    let alphabet = [
        0x00, 0x20, 0x21, 0x59, 0x5A, 0x7E, 0x7F, 0x9F, 0xA0, 0xA1, 0xC8, 0xC9, 0xF5, 0xF6, 0xFB,
        0xFC, 0xFF,
    ];
    for &a in &alphabet {
        for &b in &alphabet {
            for &c in &alphabet {
                for &d in &alphabet {
                    for &e in &[0x21u8, 0x7E, 0xA0, 0xC3, 0xC4, 0xFF] {
                        check(&[a, b, c, d, e]);
                        count += 1;
                    }
                }
            }
        }
    }
    eprintln!("netutf: {count} exhaustive short strings");
}

#[test]
fn transcoding() {
    // Strict UTF-8 where the value fits.
    let text = "NET-UTF: ö, Ā, ‰, 中文, 🌍, U+10FFFF \u{10FFFF}";
    let values: Vec<u32> = text.chars().map(u32::from).collect();
    let net = netutf::encode(&values);
    assert_eq!(netutf::to_utf8(&net).unwrap(), text.as_bytes());
    assert_eq!(netutf::from_utf8(text.as_bytes()).unwrap(), net);
    // Original UTF-8 beyond U+10FFFF.
    for (v, utf8) in [
        (0x11_0000u32, "F4 90 80 80"),
        (14680064, "F8 B8 80 80 80"),
        (0x7FFF_FFFF, "FD BF BF BF BF BF"),
    ] {
        let net = netutf::encode(&[v]);
        assert_eq!(netutf::to_utf8(&net).unwrap(), hex(utf8));
        assert_eq!(netutf::from_utf8(&hex(utf8)).unwrap(), net);
    }
    // No UTF-8 form: surrogates and values above 7FFF FFFF.
    for v in [0xD800u32, 0xDFFF, 0x8000_0000, u32::MAX] {
        let net = netutf::encode(&[0x41, v]);
        assert_eq!(
            netutf::to_utf8(&net),
            Err(TranscodeError::Unrepresentable {
                offset: 1,
                value: v
            })
        );
    }
    // Ill-formed UTF-8 is reported as the legacy validator reports it.
    let e = netutf::from_utf8(b"ab\xC0\xAF").unwrap_err();
    assert_eq!((e.valid_up_to(), e.kind()), (2, vutf8::ErrorKind::Overlong));
    // Random round trips through both formats.
    let mut rng = Rng::new(10646);
    for _ in 0..2000 {
        let values: Vec<u32> = (0..rng.below(40))
            .map(|_| (rng.next_u64() as u32 & 0x7FFF_FFFF) >> rng.below(31))
            .filter(|v| !(0xD800..=0xDFFF).contains(v))
            .collect();
        let net = netutf::encode(&values);
        let utf8 = netutf::to_utf8(&net).unwrap();
        assert_eq!(utf8, vutf8::legacy::encode(&values).unwrap());
        assert_eq!(netutf::from_utf8(&utf8).unwrap(), net);
    }
}
