//! `kernels::repair_utf8` with `Policy::Utf8OrWindows1252` against its reference: CPython's
//! `bytes.decode('utf-8', errors=h)` with a handler `h` that decodes each failing part as
//! windows-1252, written from its definition (std's `utf8_chunks`: the valid parts kept,
//! each invalid part, a maximal subpart, decoded by `encoding_rs`'s WHATWG windows-1252)
//! and checked against a table of CPython's outputs; on rows of damaged logs, each line a
//! row with its LF or CRLF end and without, in every binary layout, null rows kept null.

mod common;

use common::{arrays, string, Row};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use vutf8::records::Policy;
use vutf8_arrow::kernels;

/// What CPython 3.11 printed for `b.decode('utf-8', 'whatwg1252')`, the handler decoding
/// each byte of the failing part by the WHATWG table (`cp1252`, and the five bytes it
/// leaves undefined as the C1 control of the same value).
const CPYTHON: &[(&[u8], &str)] = &[
    (b"caf\xe9 \xe2\x9c\x93", "caf\u{e9} \u{2713}"),
    (b"[\xe0\xb8\xa2\xe0\xb8\xb2\xe0", "[\u{e22}\u{e32}\u{e0}"),
    (
        b"\x80\x81\x8d\x8f\x90\x9d\x9f",
        "\u{20ac}\u{81}\u{8d}\u{8f}\u{90}\u{9d}\u{178}",
    ),
    (b"\xe2\x82x\r", "\u{e2}\u{201a}x\r"),
    (
        b"ok\xed\xa0\x80\xc0\xaf\xf4\x90\x80\x80!",
        "ok\u{ed}\u{a0}\u{20ac}\u{c0}\u{af}\u{f4}\u{90}\u{20ac}\u{20ac}!",
    ),
    (b"\xff\xfe", "\u{ff}\u{fe}"),
    (
        b"na\xc3\xafve \x93quoted\x94",
        "na\u{ef}ve \u{201c}quoted\u{201d}",
    ),
];

/// The reference: the valid parts as they are, each invalid part decoded as windows-1252.
fn reference(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        let (part, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(chunk.invalid());
        out.push_str(&part);
    }
    out
}

/// Checks the kernel on `rows` in every binary layout against the reference.
fn check(rows: &[Row], what: &str) {
    for array in arrays(rows) {
        let out = kernels::repair_utf8(array.as_ref(), Policy::Utf8OrWindows1252).unwrap();
        assert_eq!(out.len(), rows.len());
        for (i, row) in rows.iter().enumerate() {
            let want = row.value().map(reference);
            assert_eq!(
                string(out.as_ref(), i),
                want,
                "{what}, {}: row {i} {:02X?}",
                array.data_type(),
                row.bytes
            );
        }
    }
}

#[test]
fn the_reference_is_cpythons() {
    for &(bytes, python) in CPYTHON {
        assert_eq!(reference(bytes), python, "{bytes:02X?}");
    }
    let rows: Vec<Row> = CPYTHON
        .iter()
        .map(|&(bytes, _)| Row {
            bytes: bytes.to_vec(),
            null: false,
        })
        .collect();
    check(&rows, "CPython's table");
}

/// A log cut from the real texts into lines, one in 5 damaged as the real damaged logs are
/// (`scripts/real-logs.sh`): a word in windows-1252, a character cut short, a stray 0xFF,
/// or a line cut inside a character; each line with its end (`\n` or `\r\n`) or without, a
/// tenth of the rows null.
fn damaged_log_rows(seed: u64, crlf: bool, with_end: bool) -> Vec<Row> {
    let texts = common::texts();
    let lines: Vec<&[u8]> = texts
        .iter()
        .flat_map(|t| t.split(|&b| b == b'\n'))
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect();
    let words: Vec<&str> = [
        "café",
        "Müller",
        "naïve",
        "€100",
        "œuvre",
        "“quoted”",
        "Žižek",
    ]
    .into();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut rows = Vec::new();
    for i in 0..4000 {
        let mut line = lines[rng.random_range(0..lines.len())].to_vec();
        if i % 5 == 4 {
            let at = vutf8::grammar::floor_boundary(&line, rng.random_range(0..=line.len()));
            match i / 5 % 4 {
                0 => {
                    let word = words[rng.random_range(0..words.len())];
                    let (cp1252, _, unmappable) = encoding_rs::WINDOWS_1252.encode(word);
                    assert!(!unmappable, "{word}");
                    line.splice(at..at, cp1252.iter().copied());
                }
                1 => {
                    // The first character of 2 bytes or more loses its last byte.
                    let lead = line.iter().position(|&b| b >= 0xC2);
                    let last = lead.map(|l| l + vutf8::grammar::sequence_len(line[l]) - 1);
                    match last.filter(|&last| last < line.len()) {
                        Some(last) => drop(line.remove(last)),
                        None => line.splice(at..at, [0xE0, 0xB8]).for_each(drop),
                    }
                }
                2 => line.insert(at, 0xFF),
                _ => {
                    line.truncate(rng.random_range(0..=line.len()));
                }
            }
        }
        if with_end {
            line.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        }
        rows.push(Row {
            bytes: line,
            null: rng.random_bool(0.1),
        });
    }
    rows
}

#[test]
fn rows_of_damaged_logs_with_lf_and_crlf() {
    for seed in 0..3 {
        for (crlf, with_end) in [(false, false), (false, true), (true, true)] {
            let rows = damaged_log_rows(seed, crlf, with_end);
            let invalid = rows
                .iter()
                .filter(|r| std::str::from_utf8(&r.bytes).is_err())
                .count();
            assert!(invalid > 400, "the rows are damaged: {invalid}");
            check(
                &rows,
                &format!("log {seed}, CRLF {crlf}, with end {with_end}"),
            );
        }
    }
}

/// The damaged real logs (`scripts/real-logs.sh`), each line a row, with and without its
/// end, LF and CRLF. Ignored: the logs are downloaded, not committed.
#[test]
#[ignore = "needs target/real-logs (scripts/real-logs.sh)"]
fn rows_of_the_damaged_real_logs() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/real-logs/damaged.log"
    );
    let log =
        std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e} (run scripts/real-logs.sh)"));
    for (end, what) in [(&b""[..], "without end"), (b"\n", "LF"), (b"\r\n", "CRLF")] {
        let rows: Vec<Row> = log
            .split(|&b| b == b'\n')
            .map(|l| Row {
                bytes: [l.strip_suffix(b"\r").unwrap_or(l), end].concat(),
                null: false,
            })
            .collect();
        let invalid = rows
            .iter()
            .filter(|r| std::str::from_utf8(&r.bytes).is_err())
            .count();
        assert!(invalid > 500, "{invalid}");
        check(&rows, what);
    }
}
