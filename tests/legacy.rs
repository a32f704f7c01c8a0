//! Original UTF-8 (`vutf8::legacy`): Annex R tables 2 and 3, the Table 4/5 formulas at
//! every range boundary, R.7 malformed sequences, and differential tests of the vector
//! path against the scalar reference and against an oracle built from the encoder.
#![cfg(feature = "alloc")]

use vutf8::legacy;
use vutf8::ErrorKind;
use vutf8_corpus::{generate, Rng, Script};

fn hex(s: &str) -> Vec<u8> {
    s.split(|c: char| c == ';' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| u8::from_str_radix(t, 16).unwrap())
        .collect()
}

/// Annex R, Table 3, transcribed row by row: "UCS-4 form; UTF-8 form".
const TABLE_3: &[(&str, &str)] = &[
    ("0000 0001", "01;"),
    ("0000 007F", "7F;"),
    ("0000 0080", "C2; 80;"),
    ("0000 07FF", "DF; BF;"),
    ("0000 0800", "E0; A0; 80;"),
    ("0000 FFFF", "EF; BF; BF;"),
    ("0001 0000", "F0; 90; 80; 80;"),
    ("0010 FFFF", "F4; 8F; BF; BF;"),
    ("001F FFFF", "F7; BF; BF; BF;"),
    ("0020 0000", "F8; 88; 80; 80; 80;"),
    ("03FF FFFF", "FB; BF; BF; BF; BF;"),
    ("0400 0000", "FC; 84; 80; 80; 80;80;"),
    ("7FFF FFFF", "FD; BF; BF; BF; BF; BF;"),
];

/// Annex R, Table 2, transcribed row by row (binary).
const TABLE_2: &[(&str, &str)] = &[
    ("00000000 00000000 00000000 00000001", "00000001;"),
    ("00000000 00000000 00000000 01111111", "01111111;"),
    ("00000000 00000000 00000000 10000000", "11000010; 10000000;"),
    ("00000000 00000000 00000111 11111111", "11011111; 10111111;"),
    (
        "00000000 00000000 00001000 00000000",
        "11100000; 10100000; 10000000;",
    ),
    (
        "00000000 00000000 11111111 11111111",
        "11101111; 10111111; 10111111;",
    ),
    (
        "00000000 00000001 00000000 00000000",
        "11110000; 10010000; 10000000;10000000;",
    ),
    (
        "00000000 00011111 11111111 11111111",
        "11110111; 10111111; 10111111;10111111;",
    ),
    (
        "00000000 00100000 00000000 00000000",
        "11111000; 10001000; 10000000;10000000; 10000000;",
    ),
    (
        "00000011 11111111 11111111 11111111",
        "11111011; 10111111; 10111111;10111111; 10111111;",
    ),
    (
        "00000100 00000000 00000000 00000000",
        "11111100; 10000100; 10000000;10000000; 10000000; 10000000;",
    ),
    (
        "01111111 11111111 11111111 11111111",
        "11111101; 10111111; 10111111;10111111; 10111111; 10111111;",
    ),
];

fn check_pair(value: u32, utf8: &[u8]) {
    assert_eq!(
        legacy::encode(&[value]).unwrap(),
        utf8,
        "encode {value:08X}"
    );
    assert_eq!(legacy::decode(utf8).unwrap(), [value], "decode {utf8:02X?}");
    assert!(legacy::validate(utf8).is_ok());
    // The same inside text long enough for the vector path.
    let mut text = b"annex R ".repeat(10);
    text.extend_from_slice(utf8);
    text.extend_from_slice("ü".repeat(40).as_bytes());
    assert_eq!(legacy::validate(&text), Ok(()), "{utf8:02X?} in text");
    let values = legacy::decode(&text).unwrap();
    assert_eq!(values[80], value);
    assert_eq!(legacy::encode(&values).unwrap(), text);
}

#[test]
fn annex_r_table_3_both_directions() {
    for (ucs4, utf8) in TABLE_3 {
        let value = u32::from_str_radix(&ucs4.replace(' ', ""), 16).unwrap();
        check_pair(value, &hex(utf8));
    }
    assert_eq!(TABLE_3.len(), 13);
}

#[test]
fn annex_r_table_2_both_directions() {
    for (ucs4, utf8) in TABLE_2 {
        let value = u32::from_str_radix(&ucs4.replace(' ', ""), 2).unwrap();
        let bytes: Vec<u8> = utf8
            .split(|c: char| c == ';' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(|t| u8::from_str_radix(t, 2).unwrap())
            .collect();
        check_pair(value, &bytes);
    }
    assert_eq!(TABLE_2.len(), 12);
}

/// Table 4, written with the operators of R.3 (`/`, `%`, `**`), one line per row.
fn table_4(x: u64) -> Vec<u8> {
    let p = |e: u32| 2u64.pow(e);
    let b = |v: u64| v as u8;
    match x {
        0x0..=0x7F => vec![b(x)],
        0x80..=0x7FF => vec![b(0xC0 + x / p(6)), b(0x80 + x % p(6))],
        0x800..=0xFFFF => vec![
            b(0xE0 + x / p(12)),
            b(0x80 + x / p(6) % p(6)),
            b(0x80 + x % p(6)),
        ],
        0x1_0000..=0x1F_FFFF => vec![
            b(0xF0 + x / p(18)),
            b(0x80 + x / p(12) % p(6)),
            b(0x80 + x / p(6) % p(6)),
            b(0x80 + x % p(6)),
        ],
        0x20_0000..=0x3FF_FFFF => vec![
            b(0xF8 + x / p(24)),
            b(0x80 + x / p(18) % p(6)),
            b(0x80 + x / p(12) % p(6)),
            b(0x80 + x / p(6) % p(6)),
            b(0x80 + x % p(6)),
        ],
        _ => vec![
            b(0xFC + x / p(30)),
            b(0x80 + x / p(24) % p(6)),
            b(0x80 + x / p(18) % p(6)),
            b(0x80 + x / p(12) % p(6)),
            b(0x80 + x / p(6) % p(6)),
            b(0x80 + x % p(6)),
        ],
    }
}

/// Table 5, with z, y, x, w, v, u the 1st to 6th octets.
fn table_5(s: &[u8]) -> u64 {
    let p = |e: u32| 2u64.pow(e);
    let o = |i: usize| u64::from(s[i]);
    match s[0] {
        0x00..=0x7F => o(0),
        0xC0..=0xDF => (o(0) - 0xC0) * p(6) + (o(1) - 0x80),
        0xE0..=0xEF => (o(0) - 0xE0) * p(12) + (o(1) - 0x80) * p(6) + (o(2) - 0x80),
        0xF0..=0xF7 => {
            (o(0) - 0xF0) * p(18) + (o(1) - 0x80) * p(12) + (o(2) - 0x80) * p(6) + (o(3) - 0x80)
        }
        0xF8..=0xFB => {
            (o(0) - 0xF8) * p(24)
                + (o(1) - 0x80) * p(18)
                + (o(2) - 0x80) * p(12)
                + (o(3) - 0x80) * p(6)
                + (o(4) - 0x80)
        }
        _ => {
            (o(0) - 0xFC) * p(30)
                + (o(1) - 0x80) * p(24)
                + (o(2) - 0x80) * p(18)
                + (o(3) - 0x80) * p(12)
                + (o(4) - 0x80) * p(6)
                + (o(5) - 0x80)
        }
    }
}

/// The first and last value of each length (Table 1), each ±1, and the edges of the hole
/// D800..DFFF and of strict UTF-8.
fn boundary_values() -> Vec<u32> {
    let edges: [u32; 16] = [
        0,
        0x7F,
        0x80,
        0x7FF,
        0x800,
        0xFFFF,
        0x1_0000,
        0x1F_FFFF,
        0x20_0000,
        0x3FF_FFFF,
        0x400_0000,
        0x7FFF_FFFF,
        0xD7FF,
        0xE000,
        0x10_FFFF,
        0x11_0000,
    ];
    let mut v: Vec<u32> = edges
        .iter()
        .flat_map(|&e| [e.wrapping_sub(1), e, e + 1])
        .filter(|&x| x <= 0x7FFF_FFFF && !(0xD800..=0xDFFF).contains(&x))
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn table_4_and_5_at_every_boundary() {
    let values = boundary_values();
    assert!(values.len() >= 30, "{}", values.len());
    eprintln!(
        "legacy: {} boundary values through Tables 4 and 5",
        values.len()
    );
    for &x in &values {
        let by_formula = table_4(u64::from(x));
        let encoded = legacy::encode(&[x]).unwrap();
        assert_eq!(encoded, by_formula, "Table 4 for {x:08X}");
        assert_eq!(table_5(&encoded), u64::from(x), "Table 5 for {x:08X}");
        assert_eq!(legacy::decode(&encoded).unwrap(), [x], "decode {x:08X}");
        let mut buf = [0; 6];
        let n = legacy::encode_char(x, &mut buf).unwrap();
        assert_eq!(&buf[..n], &encoded[..]);
    }
    // The whole list as one text, through the vector path.
    let text = legacy::encode(&values.repeat(4)).unwrap();
    assert_eq!(legacy::decode(&text).unwrap(), values.repeat(4));
}

#[test]
fn encode_rejects_values_without_mapping() {
    for v in [0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x8000_0000, u32::MAX] {
        let e = legacy::encode(&[0x41, 0x42, v]).unwrap_err();
        assert_eq!((e.index(), e.value()), (2, v));
    }
    for v in [0xD7FF, 0xE000, 0xFFFE, 0xFFFF, 0x7FFF_FFFF] {
        assert!(legacy::encode(&[v]).is_ok(), "{v:X}");
    }
}

/// R.7 malformed sequences, the non-shortest forms and D800..DFFF:
/// (input, valid_up_to, error_len, kind).
#[test]
fn malformed_sequences() {
    use ErrorKind::*;
    let cases: &[(&[u8], usize, Option<usize>, ErrorKind)] = &[
        // An invalid octet.
        (b"a\xFE", 1, Some(1), InvalidByte),
        (b"a\xFFb", 1, Some(1), InvalidByte),
        (b"\xFE\xBF", 0, Some(1), InvalidByte),
        // Continuing octets not required to complete a sequence.
        (b"\x80", 0, Some(1), UnexpectedContinuation),
        (b"\xC2\x80\xBF", 2, Some(1), UnexpectedContinuation),
        (
            b"\xFD\xBF\xBF\xBF\xBF\xBF\xBF",
            6,
            Some(1),
            UnexpectedContinuation,
        ),
        // A first octet without the right number of continuing octets.
        (b"\xF8\x88\x80\x80a", 0, Some(4), TooShort),
        (b"\xFC\x84\x80\x80\x80a", 0, Some(5), TooShort),
        (b"\xFDa", 0, Some(1), TooShort),
        (b"\xFC\x84\x80\x80\x80", 0, None, Incomplete),
        (b"x\xF8", 1, None, Incomplete),
        (b"\xF7\xBF\xBF", 0, None, Incomplete),
        // Not the R.4 image of its value.
        (b"\xC0\x80", 0, Some(1), Overlong),
        (b"\xC1\xBF", 0, Some(1), Overlong),
        (b"\xC0", 0, Some(1), InvalidByte),
        (b"\xE0\x9F\xBF", 0, Some(1), Overlong),
        (b"\xF0\x8F\xBF\xBF", 0, Some(1), Overlong),
        (b"\xF8\x87\xBF\xBF\xBF", 0, Some(1), Overlong),
        (b"\xFC\x83\xBF\xBF\xBF\xBF", 0, Some(1), Overlong),
        (b"\xFC\x80\x80\x80\x80\xAF", 0, Some(1), Overlong),
        // D800..DFFF.
        (b"\xED\xA0\x80", 0, Some(1), Surrogate),
        (b"\xED\xBF\xBF", 0, Some(1), Surrogate),
    ];
    for &(input, at, len, kind) in cases {
        for pad in [0usize, 70, 200] {
            let mut text = "é".repeat(pad / 2).into_bytes();
            text.extend_from_slice(input);
            let e = legacy::validate(&text).unwrap_err();
            let got = (e.valid_up_to(), e.error_len(), e.kind());
            assert_eq!(
                got,
                (at + text.len() - input.len(), len, kind),
                "{input:02X?}"
            );
            assert_eq!(legacy::validate_scalar(&text).unwrap_err(), e);
            assert_eq!(legacy::decode(&text).unwrap_err(), e);
        }
    }
    let e = legacy::validate(b"\xF8\x80\x80\x80\xAF").unwrap_err();
    assert_eq!(e.code_point(), Some(0x2F));
    assert_eq!(e.to_string(), "overlong encoding of U+002F at byte 0");
}

#[test]
fn legacy_forms_are_accepted_where_strict_rejects() {
    for s in [
        &b"\xF4\x90\x80\x80"[..],
        b"\xF7\xBF\xBF\xBF",
        b"\xF8\x88\x80\x80\x80",
        b"\xFD\xBF\xBF\xBF\xBF\xBF",
        b"\xEF\xBF\xBE\xEF\xBF\xBF", // FFFE, FFFF
    ] {
        assert!(legacy::is_valid(s));
    }
}

/// An oracle built from the encoder: at each position, read the length from the lead
/// octet's bits (R.2), the value by Table 5, and accept only if Table 4 gives back the
/// same octets. Returns (valid_up_to, error_len), error_len from the same oracle: the
/// longest prefix that some continuation octets complete to a valid sequence.
fn oracle(s: &[u8]) -> Option<(usize, Option<usize>)> {
    fn len_of(lead: u8) -> Option<usize> {
        Some(match lead.leading_ones() {
            0 => 1,
            n @ 2..=6 => n as usize,
            _ => return None,
        })
    }
    fn valid_seq(seq: &[u8]) -> bool {
        match len_of(seq[0]) {
            Some(n) if n == seq.len() => {
                seq[1..].iter().all(|b| b & 0xC0 == 0x80) && {
                    let v = table_5(seq);
                    v <= 0x7FFF_FFFF && legacy::encode(&[v as u32]).ok().as_deref() == Some(seq)
                }
            }
            _ => false,
        }
    }
    fn is_prefix(p: &[u8]) -> bool {
        let Some(n) = len_of(p[0]) else { return false };
        if p.len() > n {
            return false;
        }
        [0x80u8, 0xBF].iter().any(|&fill| {
            let mut q = p.to_vec();
            q.resize(n, fill);
            valid_seq(&q)
        })
    }
    let mut pos = 0;
    while pos < s.len() {
        let n = len_of(s[pos]).unwrap_or(1);
        if pos + n <= s.len() && valid_seq(&s[pos..pos + n]) {
            pos += n;
            continue;
        }
        let rest = &s[pos..];
        if rest.len() < n && is_prefix(rest) {
            return Some((pos, None));
        }
        let k = (1..n.min(rest.len()))
            .rev()
            .find(|&k| is_prefix(&rest[..k]))
            .unwrap_or(1);
        return Some((pos, Some(k)));
    }
    None
}

fn verdict(r: Result<(), vutf8::Utf8Error>) -> Option<(usize, Option<usize>)> {
    r.err().map(|e| (e.valid_up_to(), e.error_len()))
}

fn check(s: &[u8]) {
    let fast = legacy::validate(s);
    let scalar = legacy::validate_scalar(s);
    assert_eq!(fast, scalar, "fast vs scalar on {s:02X?}");
    assert_eq!(verdict(fast), oracle(s), "vs oracle on {s:02X?}");
    match legacy::decode(s) {
        Ok(values) => {
            assert!(fast.is_ok());
            assert_eq!(legacy::encode(&values).unwrap(), s);
        }
        Err(e) => assert_eq!(Err(e), fast),
    }
}

/// Octets where the rules change.
const INTERESTING: [u8; 28] = [
    0x00, 0x41, 0x7F, 0x80, 0x83, 0x84, 0x87, 0x88, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
    0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF7, 0xF8, 0xFC, 0xFD, 0xFE, 0xFF,
];

#[test]
fn exhaustive_two_octets_and_padded() {
    let mut count = 0;
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            check(&[a, b]);
            count += 1;
        }
    }
    // Behind 62 and 126 bytes of text, so the vector path meets them at a block edge.
    for pad in [62usize, 126] {
        for a in 0x80..=0xFFu8 {
            for b in 0..=255u8 {
                let mut s = vec![b'.'; pad];
                s.extend_from_slice(&[a, b, 0x80, 0xBF, 0x80, b' ']);
                check(&s);
                count += 1;
            }
        }
    }
    eprintln!("legacy: {count} exhaustive two-octet cases");
}

#[test]
fn exhaustive_short_strings_over_interesting_octets() {
    let mut count = 0;
    for &a in &INTERESTING {
        for &b in &INTERESTING {
            for &c in &INTERESTING {
                check(&[a, b, c]);
                let mut s = b"0123456789".repeat(6);
                s.extend_from_slice(&[a, b, c, 0xBF, 0x80, 0xBF, 0xBF]);
                check(&s);
                count += 2;
            }
        }
    }
    eprintln!("legacy: {count} exhaustive three-octet cases");
}

/// Random legacy text (valid characters of every length), with random damage.
#[test]
fn random_differential() {
    let mut rng = Rng::new(2044);
    let mut count = 0;
    for round in 0..3000 {
        let mut values = Vec::new();
        for _ in 0..rng.below(120) {
            let v = match rng.below(8) {
                0..=2 => rng.below(0x80) as u32,
                3 => rng.below(0x800) as u32,
                4 => rng.below(0x1_0000) as u32,
                5 => rng.below(0x20_0000) as u32,
                6 => rng.below(0x400_0000) as u32,
                _ => (rng.next_u64() as u32) & 0x7FFF_FFFF,
            };
            if !(0xD800..=0xDFFF).contains(&v) {
                values.push(v);
            }
        }
        let mut s = legacy::encode(&values).unwrap();
        assert_eq!(legacy::decode(&s).unwrap(), values);
        check(&s);
        count += 1;
        if !s.is_empty() {
            for _ in 0..(round % 4) {
                let i = rng.below(s.len());
                s[i] = INTERESTING[rng.below(INTERESTING.len())];
            }
            check(&s);
            count += 1;
        }
    }
    // Strict text from the corpus, with legacy forms dropped in.
    for (i, script) in [Script::Latin, Script::Cjk, Script::Emoji, Script::Mixed]
        .into_iter()
        .enumerate()
    {
        let mut text = generate(script, 4096, i as u64);
        check(&text);
        for k in 0..20 {
            let at = rng.below(text.len());
            let at = (at..text.len())
                .find(|&j| text[j] & 0xC0 != 0x80)
                .unwrap_or(0);
            let form = legacy::encode(&[0x11_0000 + (k * 0x0765_4321) % 0x7FEF_0000]).unwrap();
            text.splice(at..at, form);
            check(&text);
            count += 1;
        }
    }
    eprintln!("legacy: {count} random differential cases");
}
