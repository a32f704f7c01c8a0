//! `vutf8::records` against the reference: the records of `std::io::BufRead` (`split`, and
//! the `\r` rule of `lines`), each record's verdict and first error from
//! `core::str::from_utf8` on the record alone, and its reason from `vutf8::from_utf8`.
//! On hostile framing, at every alignment and length around the window and block sizes
//! (derived from `vutf8::tiers`), on multilingual text, and on random buffers (proptest).
//! Records by offsets and ranges (feature `alloc`): `tests/ranges.rs`.

mod common;

use proptest::prelude::*;
use std::io::BufRead;
use vutf8::records::{lines, split, Record};
use vutf8::tiers::{BLOCK, RECORD_WINDOW};
use vutf8_corpus::{generate, Rng, Script};

/// The reference records of `bytes`: offset and bytes, by `BufRead::split`, with the `\r`
/// rule of `BufRead::lines` when `crlf`.
fn reference(bytes: &[u8], delimiter: u8, crlf: bool) -> Vec<(usize, Vec<u8>)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for piece in BufRead::split(bytes, delimiter) {
        let mut piece = piece.expect("reading a slice cannot fail");
        let next = offset + piece.len() + 1;
        let delimited = offset + piece.len() < bytes.len();
        if crlf && delimited && piece.last() == Some(&b'\r') {
            piece.pop();
        }
        out.push((offset, piece));
        offset = next;
    }
    out
}

/// Checks one record against the reference record `(offset, bytes)`.
fn check_record(got: &Record<'_>, want: &(usize, Vec<u8>), what: &str) {
    assert_eq!(got.offset(), want.0, "{what}: offset");
    assert_eq!(got.bytes(), &want.1[..], "{what}: bytes at {}", want.0);
    let std = std::str::from_utf8(&want.1);
    assert_eq!(
        got.is_valid(),
        std.is_ok(),
        "{what}: verdict of {:02X?} at {}",
        want.1,
        want.0
    );
    match (got.to_str(), std) {
        (Ok(g), Ok(s)) => assert_eq!(g, s, "{what}: text"),
        (Err(g), Err(s)) => {
            assert_eq!(
                (g.valid_up_to(), g.error_len()),
                (s.valid_up_to(), s.error_len()),
                "{what}: error of {:02X?} at {}",
                want.1,
                want.0
            );
            let ours = vutf8::from_utf8(&want.1).unwrap_err();
            assert_eq!(g.kind(), ours.kind(), "{what}: reason");
        }
        (g, s) => panic!("{what}: to_str {g:?}, std {s:?} on {:02X?}", want.1),
    }
}

/// Checks `lines` (when `delimiter` is `\n`) or `split` against the reference.
fn check_with(bytes: &[u8], delimiter: u8, what: &str) {
    let want = reference(bytes, delimiter, delimiter == b'\n');
    let got: Vec<Record<'_>> = if delimiter == b'\n' {
        lines(bytes).collect()
    } else {
        split(bytes, delimiter)
            .expect("an ASCII delimiter")
            .collect()
    };
    assert_eq!(
        got.len(),
        want.len(),
        "{what}: number of records of {} bytes",
        bytes.len()
    );
    for (g, w) in got.iter().zip(&want) {
        check_record(g, w, what);
    }
}

/// `lines`, and `split` at `\n` (no `\r` rule) and at NUL.
fn check(bytes: &[u8], what: &str) {
    check_with(bytes, b'\n', what);
    let mut nul = bytes.to_vec();
    for b in &mut nul {
        if *b == b'\n' {
            *b = 0;
        } else if *b == 0 {
            *b = b'\n';
        }
    }
    check_with(&nul, 0, what);
    let want = reference(bytes, b'\n', false);
    let got: Vec<_> = split(bytes, b'\n').unwrap().collect();
    assert_eq!(got.len(), want.len(), "{what}: split at LF");
    for (g, w) in got.iter().zip(&want) {
        check_record(g, w, what);
    }
}

#[test]
fn hostile_framing() {
    let cases: &[&[u8]] = &[
        b"",
        b"\n",
        b"\n\n",
        b"\r\n",
        b"\r",
        b"\r\r\n",
        b"a",
        b"a\n",
        b"a\r\n",
        b"a\r",
        b"a\rb\n",
        b"a\n\nb",
        b"\n\r\n\r\n\n",
        b"a\x00b\n\x00\n",
        // Sequences cut short by the delimiter, by the CR before it, by the end.
        b"\xC3\n\xA9\n",
        b"\xE2\x82\n\xAC",
        b"\xE2\x82\r\n\xAC\r\n",
        b"\xF0\x9F\x98\n",
        b"ok\n\xF0\x9F\x98",
        b"\xF0\x9F\x98\r",
        // Stray continuation bytes at the start of a record; invalid bytes of every kind.
        b"\x80abc\n\xBF\n",
        b"\xFF\n\xFE\r\n\xC0\xAF\n\xED\xA0\x80\n\xF4\x90\x80\x80\n",
        b"caf\xE9\r\nna\xEFve\n",
        "grüße\r\n世界\n🌍".as_bytes(),
        b"\xE2\x82\xAC\xE2\x82",
    ];
    for (i, case) in cases.iter().enumerate() {
        check(case, &format!("case {i}"));
    }
}

#[test]
fn a_non_ascii_delimiter_is_refused() {
    for delimiter in 0x80..=0xFFu8 {
        let err = split(b"a\xC3\xA9b", delimiter).unwrap_err();
        assert_eq!(err.delimiter(), delimiter);
        assert!(err.to_string().contains(&format!("{delimiter:#04X}")));
    }
    for delimiter in 0..0x80u8 {
        assert!(split(b"x", delimiter).is_ok(), "{delimiter:#04X}");
    }
}

/// A record of `len` bytes of multilingual filler with, when `error` is given, one invalid
/// byte sequence at that position (an unfinished `€`, then a stray continuation byte).
fn record(len: usize, phase: usize, error: Option<usize>) -> Vec<u8> {
    let mut r = common::filler(len, phase);
    if let Some(at) = error {
        let bad: &[u8] = if phase.is_multiple_of(2) {
            b"\xE2\x82"
        } else {
            b"\x80"
        };
        let at = at.min(len.saturating_sub(bad.len()));
        if at + bad.len() <= len {
            r[at..at + bad.len()].copy_from_slice(bad);
        }
    }
    r
}

/// The lengths that matter to the search and the windows: around a block, two, a window.
fn lengths() -> Vec<usize> {
    let mut out: Vec<usize> = (0..=2 * BLOCK + 1).collect();
    for edge in [RECORD_WINDOW / 2, RECORD_WINDOW, 2 * RECORD_WINDOW] {
        out.extend(edge - 2..=edge + 2);
    }
    out
}

/// Records of every length of `lengths()`, after a prefix of every length up to a block
/// (every alignment of the records to the blocks and windows), valid and with an error at
/// the start, in the middle and at the end; LF and CRLF.
#[test]
fn records_of_every_length_at_every_alignment() {
    let mut buffers = 0;
    for &len in &lengths() {
        for prefix in 0..BLOCK {
            for (k, error) in [None, Some(0), Some(len / 2), Some(len)]
                .into_iter()
                .enumerate()
            {
                if prefix % 8 != k && len > BLOCK {
                    continue; // Long records: a sample of alignments per error place.
                }
                let mut buffer = vec![b'p'; prefix];
                buffer.push(b'\n');
                for (i, eol) in [&b"\n"[..], b"\r\n", b"\n"].iter().enumerate() {
                    buffer.extend(record(len, i + prefix, error));
                    buffer.extend_from_slice(eol);
                }
                buffer.extend(record(len, prefix, error));
                check(
                    &buffer,
                    &format!("len {len}, prefix {prefix}, error {error:?}"),
                );
                buffers += 1;
            }
        }
    }
    assert!(buffers > 2000);
}

/// Records of every length from 0 to one window (4 KiB), valid and with an error at the
/// start, in the middle and at the end, LF and CRLF: the sample tier puts each length at
/// one alignment (the lengths go through all of them), the full tier at every alignment
/// to a block.
#[test]
fn records_of_every_length_up_to_a_window() {
    let full = common::full_tier();
    let mut buffers = 0;
    for len in 0..=RECORD_WINDOW {
        let prefixes: Vec<usize> = if full {
            (0..BLOCK).collect()
        } else {
            vec![(len * 7) % BLOCK]
        };
        for prefix in prefixes {
            for error in [None, Some(0), Some(len / 2), Some(len)] {
                let mut buffer = vec![b'p'; prefix];
                buffer.push(b'\n');
                buffer.extend(record(len, prefix, error));
                buffer.extend_from_slice(b"\r\n");
                buffer.extend(record(len, prefix + 1, error));
                check(
                    &buffer,
                    &format!("len {len}, prefix {prefix}, error {error:?}"),
                );
                buffers += 1;
            }
        }
    }
    assert!(buffers >= 4 * (RECORD_WINDOW + 1));
}

/// Buffers of many short records across several windows, with errors placed just before
/// and after each window's end, so that the stretches validated at once end on either side
/// of an error.
#[test]
fn errors_around_every_window_end() {
    let mut rng = Rng::new(29);
    for trial in 0..200 {
        let mut buffer = Vec::new();
        while buffer.len() < 3 * RECORD_WINDOW + BLOCK {
            let len = rng.below(3 * BLOCK);
            buffer.extend(record(len, trial, None));
            buffer.extend_from_slice(if rng.below(3) == 0 { b"\r\n" } else { b"\n" });
        }
        for w in 1..=3 {
            let at = w * RECORD_WINDOW + rng.below(2 * BLOCK) - BLOCK;
            let bad: &[&[u8]] = &[b"\xFF", b"\xE2\x82", b"\x80", b"\xC3"];
            let bad = bad[rng.below(bad.len())];
            buffer[at..at + bad.len()].copy_from_slice(bad);
        }
        check(&buffer, &format!("trial {trial}"));
    }
}

/// ASCII logs (windows the delimiter search finds ASCII, whose validation is skipped) with
/// one record that starts at every distance before a window's start and has an invalid or
/// non-ASCII byte before that start (at the record's first byte, or its last before the
/// window): the record's verdict must come from its bytes in both windows.
#[test]
fn ascii_windows_after_a_record_with_an_error() {
    for w in 1..=2 {
        let boundary = w * RECORD_WINDOW;
        for dist in 1..=2 * BLOCK + 3 {
            for bad in [&b"\xFF"[..], b"\xC3\xA9", b"\xE2\x82"] {
                for at_start in [true, false] {
                    if bad.len() > dist {
                        continue;
                    }
                    let start = boundary - dist;
                    let mut buffer = Vec::new();
                    while buffer.len() + 61 + 61 < start {
                        buffer.extend_from_slice(&[b'x'; 60]);
                        buffer.push(b'\n');
                    }
                    buffer.resize(start - 1, b'v'); // a line that ends just before it
                    buffer.push(b'\n');
                    buffer.resize(boundary, b'y');
                    let bad_at = if at_start {
                        start
                    } else {
                        boundary - bad.len()
                    };
                    buffer[bad_at..bad_at + bad.len()].copy_from_slice(bad);
                    buffer.resize(boundary + 2 * BLOCK, b'z');
                    buffer.push(b'\n');
                    for _ in 0..80 {
                        buffer.extend_from_slice(&[b'w'; 50]);
                        buffer.push(b'\n');
                    }
                    let what = format!(
                        "window {w}, record {dist} bytes before it, {bad:02X?} at {bad_at}"
                    );
                    check(&buffer, &what);
                }
            }
        }
    }
}

/// Multilingual text of every script, cut into lines at some of its spaces, with and
/// without damage.
#[test]
fn multilingual_text_cut_into_lines() {
    let mut rng = Rng::new(7);
    for script in Script::ALL {
        for seed in 0..4 {
            let mut text = generate(script, 3 * RECORD_WINDOW + 100, seed);
            for b in text.iter_mut() {
                if *b == b' ' && rng.below(4) == 0 {
                    *b = b'\n';
                }
            }
            check(&text, &format!("{script:?} {seed}"));
            for _ in 0..8 {
                let at = rng.below(text.len());
                text[at] = [0xFF, 0x80, 0xC3, 0xE2][rng.below(4)];
            }
            check(&text, &format!("{script:?} {seed} damaged"));
        }
    }
}

/// Pieces that random buffers are made of: delimiters, CR, characters of every length,
/// sequences cut short, bytes that are never UTF-8, stray continuation bytes, NUL.
const PIECES: [&[u8]; 14] = [
    b"\n",
    b"\n",
    b"\r",
    b"\r\n",
    b"a",
    b"text ",
    "é".as_bytes(),
    "€".as_bytes(),
    "😀".as_bytes(),
    b"\xE2\x82",
    b"\xC3",
    b"\xFF",
    b"\x80",
    b"\x00",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn random_buffers_equal_the_reference(
        pieces in prop::collection::vec(0..PIECES.len(), 0..3000),
        filler in 0..3usize,
    ) {
        let mut buffer = Vec::new();
        for p in pieces {
            buffer.extend_from_slice(PIECES[p]);
            // Now and then a long valid stretch, so records reach across windows.
            if p == 5 && filler == 1 {
                buffer.extend(common::filler(BLOCK + 7, p));
            }
        }
        check(&buffer, "random");
    }
}

#[test]
fn remaining_is_what_is_not_yet_yielded() {
    let bytes = b"one\ntwo\r\nthree";
    let mut records = lines(bytes);
    assert_eq!(records.remaining(), bytes);
    records.next();
    assert_eq!(records.remaining(), b"two\r\nthree");
    records.next();
    records.next();
    assert_eq!(records.remaining(), b"");
    assert!(records.next().is_none());
}

/// Every file of the real-text corpus (`scripts/real-corpus.sh`: man pages, HTML, text,
/// JSON in 15 scripts, and the damaged copies) and of the real logs
/// (`scripts/real-logs.sh`), cut into lines, against the reference. Ignored: the corpora are
/// downloaded, not committed; CI builds them and runs this (`--ignored`, in release).
#[test]
#[ignore = "needs target/real-corpus and target/real-logs (scripts/real-corpus.sh, scripts/real-logs.sh)"]
fn the_real_corpus_and_logs_cut_into_lines() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let entries = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e} (run the script that builds it)", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    let mut files = Vec::new();
    walk(&root.join("real-corpus"), &mut files);
    walk(&root.join("real-logs"), &mut files);
    files.sort();
    let (mut invalid_files, mut bytes) = (0, 0);
    for path in &files {
        let data = std::fs::read(path).expect("read a corpus file");
        check(&data, &path.display().to_string());
        invalid_files += usize::from(std::str::from_utf8(&data).is_err());
        bytes += data.len();
    }
    eprintln!(
        "{} files, {bytes} bytes, {invalid_files} not valid UTF-8",
        files.len()
    );
    // The damaged copies of each corpus: 4 files, and damaged.log.
    assert!(
        files.len() >= 50 && invalid_files >= 5,
        "{} files",
        files.len()
    );
}
