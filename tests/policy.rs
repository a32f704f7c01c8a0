//! The repair policies of `vutf8::records` (feature `alloc`) against their references:
//! `replace` against `String::from_utf8_lossy` per record, `escape` against Python's
//! `bytes.decode('utf-8', 'backslashreplace')` (a table of its outputs, and std's
//! `utf8_chunks` on everything else), `windows-1252` against the WHATWG table written out
//! here, `drop` and `strict` against the records' verdicts; with LF and CRLF line ends, on
//! damaged multilingual text. The counts of `repair` and of `RecordReader` against counts
//! made by std, on the same logs and on the damaged real logs.
#![cfg(feature = "alloc")]

mod common;

use common::std_error_kind;
use std::borrow::Cow;
use vutf8::records::{lines, offsets, repair, Counts, Policy, Record};
use vutf8_corpus::{generate, with_error, Corruption, Rng, Script};

/// What Python 3.11 printed for `b.decode('utf-8', 'backslashreplace')`.
const PYTHON_BACKSLASHREPLACE: &[(&[u8], &str)] = &[
    (b"", ""),
    (b"plain", "plain"),
    (b"caf\xE9", "caf\\xe9"),
    (b"\xFF", "\\xff"),
    (
        b"a\xF1\x80\x80\xE1\x80\xC2b\x80c\x80\xBFd",
        "a\\xf1\\x80\\x80\\xe1\\x80\\xc2b\\x80c\\x80\\xbfd",
    ),
    (b"\xE2\x82", "\\xe2\\x82"),
    (b"\xE2\x82\xAC\xE2\x82", "€\\xe2\\x82"),
    (b"\xED\xA0\x80x", "\\xed\\xa0\\x80x"),
    (b"\xC0\xAF/etc", "\\xc0\\xaf/etc"),
    (b"\xF4\x90\x80\x80!", "\\xf4\\x90\\x80\\x80!"),
    (b"na\xC3\xAFve \xE9t\xE9", "naïve \\xe9t\\xe9"),
    (b"\xF0\x9F\x98\x80\xF0\x9F\x98", "😀\\xf0\\x9f\\x98"),
    (b"\\x41 literal", "\\x41 literal"),
    (b"\x00\x7F\x80", "\x00\x7f\\x80"),
];

/// Python's backslashreplace from its definition: the valid parts as they are, each byte of
/// each invalid part (std's `utf8_chunks`, the same maximal subparts) as `\xNN`.
fn escape_reference(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The WHATWG windows-1252 table: bytes 80..9F (five of them unassigned, mapped to the C1
/// control of the same number), every other byte to the code point of the same number.
#[cfg(feature = "windows-1252")]
fn windows_1252_reference(bytes: &[u8]) -> String {
    const HIGH: [u32; 32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
        0x2039, 0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013,
        0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ];
    bytes
        .iter()
        .map(|&b| match b {
            0x80..=0x9F => char::from_u32(HIGH[usize::from(b - 0x80)]).unwrap(),
            _ => char::from(b),
        })
        .collect()
}

/// CPython's `bytes.decode('utf-8', errors=h)` with a handler `h` that decodes each failing
/// part as windows-1252, from its definition: the valid parts as they are, each invalid
/// part (std's `utf8_chunks`, the same maximal subparts) through the windows-1252 table.
#[cfg(feature = "windows-1252")]
fn utf8_or_windows_1252_reference(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        out.push_str(&windows_1252_reference(chunk.invalid()));
    }
    out
}

/// The reference text of one record under `policy` (None: left out or refused).
fn reference(policy: Policy, bytes: &[u8]) -> Option<String> {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Some(s.to_owned());
    }
    match policy {
        Policy::Replace => Some(String::from_utf8_lossy(bytes).into_owned()),
        Policy::Escape => Some(escape_reference(bytes)),
        #[cfg(feature = "windows-1252")]
        Policy::Windows1252 => Some(windows_1252_reference(bytes)),
        #[cfg(feature = "windows-1252")]
        Policy::Utf8OrWindows1252 => Some(utf8_or_windows_1252_reference(bytes)),
        _ => None,
    }
}

#[test]
fn escape_equals_python() {
    for &(bytes, python) in PYTHON_BACKSLASHREPLACE {
        assert_eq!(
            escape_reference(bytes),
            python,
            "the reference, {bytes:02X?}"
        );
        let text = Policy::Escape
            .text(bytes)
            .expect("escape keeps every record");
        assert_eq!(text, python, "{bytes:02X?}");
        assert_eq!(
            matches!(text, Cow::Borrowed(_)),
            std::str::from_utf8(bytes).is_ok(),
            "valid text is borrowed, {bytes:02X?}"
        );
    }
}

#[cfg(feature = "windows-1252")]
#[test]
fn windows_1252_equals_the_whatwg_table() {
    let every_byte: Vec<u8> = (0..=255).collect();
    assert_eq!(
        Policy::Windows1252.text(&every_byte).unwrap(),
        windows_1252_reference(&every_byte)
    );
    assert_eq!(Policy::Windows1252.text(b"caf\xE9 \x80").unwrap(), "café €");
    // A valid record is left as it is (not read as windows-1252).
    assert_eq!(Policy::Windows1252.text("café".as_bytes()).unwrap(), "café");
}

/// `utf8-or-windows-1252` decodes each byte 80..FF, alone in an ill-formed part, as the
/// WHATWG table and encoding_rs do, and keeps the UTF-8 around it.
#[cfg(feature = "windows-1252")]
#[test]
fn utf8_or_windows_1252_decodes_each_bad_part_only() {
    for b in 0x80..=0xFFu8 {
        let bytes = [b'a', b, b' ', 0xE2, 0x9C, 0x93];
        let one = [b];
        let whatwg = encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(&one)
            .0;
        assert_eq!(
            Policy::Utf8OrWindows1252.text(&bytes).unwrap(),
            format!("a{whatwg} ✓"),
            "{b:02X}"
        );
    }
    // UTF-8 with one bad part, where windows-1252 of the whole record is mojibake.
    let mixed = "[ยา"
        .as_bytes()
        .iter()
        .chain(b"\xE0")
        .copied()
        .collect::<Vec<u8>>();
    assert_eq!(Policy::Utf8OrWindows1252.text(&mixed).unwrap(), "[ยาà");
    assert_ne!(Policy::Windows1252.text(&mixed).unwrap(), "[ยาà");
    // A part of several bytes: each byte decoded (E2 82 then `x`: two characters).
    assert_eq!(Policy::Utf8OrWindows1252.text(b"\xE2\x82x").unwrap(), "â‚x");
}

/// A log of multilingual lines, 1 in 7 damaged in one of the corpus's ways, with LF or
/// CRLF line ends.
fn damaged_log(seed: u64, crlf: bool) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut log = Vec::new();
    for i in 0..400 {
        let script = Script::ALL[rng.below(Script::ALL.len())];
        let mut line = generate(script, 1 + rng.below(200), seed + i);
        line.retain(|&b| b != b'\n' && b != b'\r');
        if i % 7 == 3 && line.len() >= 16 {
            let corruption = Corruption::ALL[rng.below(Corruption::ALL.len())];
            line = with_error(&line, rng.below(line.len()), corruption).0;
            line.retain(|&b| b != b'\n' && b != b'\r');
        }
        log.extend(line);
        log.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
    }
    log
}

#[test]
fn every_policy_equals_its_reference_on_damaged_logs() {
    for seed in 0..6 {
        for crlf in [false, true] {
            let log = damaged_log(seed, crlf);
            let records: Vec<Record<'_>> = lines(&log).collect();
            let invalid = records.iter().filter(|r| !r.is_valid()).count();
            assert!(invalid > 20, "the log has damaged lines: {invalid}");
            for &policy in Policy::ALL {
                let mut it = repair(lines(&log), policy);
                let got: Vec<_> = it.by_ref().collect();
                let mut want = Vec::new();
                for (i, r) in records.iter().enumerate() {
                    match reference(policy, r.bytes()) {
                        Some(text) => want.push(Ok((i + 1, text, !r.is_valid()))),
                        None if policy == Policy::Strict => {
                            let e = std::str::from_utf8(r.bytes()).unwrap_err();
                            want.push(Err((i + 1, r.offset() + e.valid_up_to())));
                        }
                        None => {}
                    }
                }
                let got: Vec<_> = got
                    .into_iter()
                    .map(|r| match r {
                        Ok(r) => Ok((r.number(), r.text().to_owned(), r.changed())),
                        Err(e) => Err((e.number(), e.offset())),
                    })
                    .collect();
                assert_eq!(got, want, "{policy} on log {seed}, CRLF {crlf}");
                let (repaired, dropped) = match policy {
                    Policy::Drop | Policy::Strict => (0, invalid),
                    _ => (invalid, 0),
                };
                assert_eq!(
                    (it.repaired(), it.dropped()),
                    (repaired, dropped),
                    "{policy}"
                );
            }
        }
    }
}

/// Records many blocks long, damaged densely (every byte junk, every byte `FF`, text with a
/// bad byte every few bytes, parts of 1 to 3 bytes side by side), every length around the
/// block boundaries: the parts of a block in the middle of a record are written a block at
/// a time, those near its end one by one.
#[test]
fn policies_by_parts_equal_their_references_on_long_dense_records() {
    use vutf8::tiers::BLOCK;
    let mut rng = Rng::new(17);
    // Bytes that start parts of each length: 1 (FF, 80, C0), 2 (E2 82, F0 9F), 3 (F0 9F 98).
    let parts: [&[u8]; 7] = [
        b"\xFF",
        b"\x80",
        b"\xC0",
        b"\xE2\x82",
        b"\xF0\x9F",
        b"\xF0\x9F\x98",
        b"\xED\xA0",
    ];
    let mut cases = 0;
    for blocks in 1..=6 {
        for len in [
            blocks * BLOCK - 1,
            blocks * BLOCK,
            blocks * BLOCK + 1,
            blocks * BLOCK + 3,
        ] {
            let junk: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            let ff = vec![0xFF; len];
            let mut text = generate(Script::ALL[blocks % Script::ALL.len()], len, blocks as u64);
            let mut i = 0;
            while i < text.len() {
                text[i] = 0xE9;
                i += 1 + rng.below(12);
            }
            let mut mixed = Vec::with_capacity(len + 3);
            while mixed.len() < len {
                match rng.below(3) {
                    0 => mixed.extend_from_slice(parts[rng.below(parts.len())]),
                    1 => mixed.extend_from_slice("é€😀".as_bytes()),
                    _ => mixed.push(b'a'),
                }
            }
            mixed.truncate(len);
            for input in [&junk, &ff, &text, &mixed] {
                let by_parts = ["replace", "escape", "utf8-or-windows-1252"];
                for &policy in Policy::ALL.iter().filter(|p| by_parts.contains(&p.name())) {
                    let mut out = String::from("> ");
                    policy.append_text(input, &mut out);
                    let want = reference(policy, input).expect("these policies keep every record");
                    assert!(
                        out.strip_prefix("> ") == Some(&want[..]),
                        "{policy}, {len} bytes: {input:02X?}"
                    );
                    cases += 1;
                }
            }
        }
    }
    assert!(cases >= 6 * 4 * 4 * 2, "{cases}");
}

/// What `Policy::append_records` must write: each record's text under the policy, by
/// the reference, followed by `delimiter`, the records the policy leaves out left out; for
/// `strict`, up to the first invalid record, then its number and the offset of its error.
fn records_reference<'a>(
    records: impl Iterator<Item = Record<'a>>,
    policy: Policy,
    delimiter: char,
) -> (String, Result<usize, (usize, usize)>) {
    let mut out = String::new();
    let mut written = 0;
    for (k, r) in records.enumerate() {
        match reference(policy, r.bytes()) {
            Some(text) => {
                out.push_str(&text);
                out.push(delimiter);
                written += 1;
            }
            None if policy == Policy::Strict => {
                let e = std::str::from_utf8(r.bytes()).unwrap_err();
                return (out, Err((k + 1, r.offset() + e.valid_up_to())));
            }
            None => {}
        }
    }
    (out, Ok(written))
}

/// `append_records` (one pass over the bytes for the policies that write each part on its
/// own) against the records' texts one by one: the damaged logs with LF and CRLF, lone
/// `\r`s and `\r`s before a bad byte, other delimiters, a buffer that ends without its
/// delimiter or with a `\r`, records already taken from the iterator, empty input.
#[test]
fn append_records_equals_the_records_one_by_one() {
    let mut rng = Rng::new(29);
    let mut buffers: Vec<(Vec<u8>, u8)> = Vec::new();
    for seed in 0..4 {
        for crlf in [false, true] {
            let mut log = damaged_log(seed, crlf);
            buffers.push((log.clone(), b'\n'));
            // Lone `\r`s, `\r` after bad bytes and before the line end, no end at the end.
            for _ in 0..40 {
                let at = rng.below(log.len());
                let piece: &[u8] =
                    [&b"\r"[..], b"\xE9\r", b"\r\xFF", b"\xE2\x82\r\n"][rng.below(4)];
                log.splice(at..at, piece.iter().copied());
            }
            buffers.push((log.clone(), b'\n'));
            log.truncate(log.len() - 1 - rng.below(3));
            buffers.push((log.clone(), b'\n'));
            buffers.push((
                log.iter()
                    .map(|&b| if b == b'\n' { 0 } else { b })
                    .collect(),
                0,
            ));
            buffers.push((log.clone(), b'\t'));
        }
    }
    buffers.push((Vec::new(), b'\n'));
    buffers.push((b"\r".to_vec(), b'\n'));
    buffers.push((b"\n\r\n\xFF\r".to_vec(), b'\n'));
    let mut cases = 0;
    for (buffer, delimiter) in &buffers {
        let records = || vutf8::records::split(buffer, *delimiter).unwrap();
        let cut = || {
            if *delimiter == b'\n' {
                lines(buffer)
            } else {
                records()
            }
        };
        for &policy in Policy::ALL {
            for skip in [0, 3] {
                let mut given = cut();
                given.by_ref().take(skip).for_each(drop);
                let mut want_records = cut();
                want_records.by_ref().take(skip).for_each(drop);
                let (want, want_result) =
                    records_reference(want_records, policy, char::from(*delimiter));
                let mut out = String::from("> ");
                let got = policy
                    .append_records(given, &mut out)
                    .map_err(|e| (e.number(), e.offset()));
                assert_eq!(
                    (out.strip_prefix("> "), got),
                    (Some(&want[..]), want_result),
                    "{policy}, delimiter {delimiter:#04x}, {} bytes, {skip} records taken",
                    buffer.len()
                );
                cases += 1;
            }
        }
    }
    assert!(cases >= 40 * Policy::ALL.len(), "{cases}");
}

#[test]
fn strict_names_the_record_and_the_byte() {
    let log = b"fine\r\nstill fine\nbad \xC0\xAF here\nand \xED\xA0\x80\n";
    let errors: Vec<String> = repair(lines(log), Policy::Strict)
        .filter_map(Result::err)
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errors,
        [
            "record 3: byte 21: overlong encoding",
            "record 4: byte 33: encoded surrogate"
        ]
    );
}

#[test]
fn policies_by_name_and_over_offsets() {
    for &policy in Policy::ALL {
        assert_eq!(Policy::from_name(policy.name()), Some(policy));
    }
    assert_eq!(Policy::from_name("latin-1"), None);
    let values = b"okcaf\xE9";
    let texts: Vec<String> = repair(offsets(values, &[0u32, 2, 6]).unwrap(), Policy::Replace)
        .map(|r| r.unwrap().text().to_owned())
        .collect();
    assert_eq!(texts, ["ok", "caf\u{FFFD}"]);
}

/// The lines of `log` as std cuts them (`BufRead::lines`: at `\n`, a `\r` before it left
/// out, none after a final `\n`).
fn std_lines(log: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = log;
    while !rest.is_empty() {
        let (line, next) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (
                rest[..i].strip_suffix(b"\r").unwrap_or(&rest[..i]),
                &rest[i + 1..],
            ),
            None => (rest, &rest[rest.len()..]),
        };
        out.push(line);
        rest = next;
    }
    out
}

/// The counts of `log`'s lines made by std: each line's verdict (`std::str::from_utf8`) and
/// the kind of its first error, the cap `max` (longer lines too long, or cut to it), and
/// what `policy` does with an invalid line (`None`: no policy, as a reader).
fn std_counts(log: &[u8], max: usize, cut: bool, policy: Option<Policy>) -> Counts {
    let mut counts = Counts::new();
    for line in std_lines(log) {
        let mut line = line;
        if line.len() > max {
            if !cut {
                counts.add_too_long();
                continue;
            }
            counts.add_cut();
            line = &line[..vutf8::grammar::floor_boundary(line, max)];
        }
        let Some(kind) = std_error_kind(line) else {
            counts.add_valid();
            continue;
        };
        counts.add_invalid(kind);
        match policy {
            None => {}
            Some(Policy::Drop) => counts.add_dropped(),
            Some(Policy::Strict) => counts.add_refused(),
            Some(_) => counts.add_repaired(),
        }
    }
    counts
}

/// Checks the counts of `repair` under every policy, and of `RecordReader` under a few
/// caps, cut or not, against [`std_counts`] on `log`; returns the counts of its lines.
fn check_counts(log: &[u8], what: &str) -> Counts {
    for &policy in Policy::ALL {
        let mut it = repair(lines(log), policy);
        it.by_ref().for_each(drop);
        let want = std_counts(log, usize::MAX, false, Some(policy));
        assert_eq!(it.counts(), want, "{what}: {policy}");
        assert_eq!(
            (it.repaired() as u64, it.dropped() as u64),
            (want.repaired(), want.dropped() + want.refused()),
            "{what}: {policy}"
        );
    }
    #[cfg(feature = "std")]
    for max in [16, 100, usize::MAX] {
        for cut in [false, true] {
            let framing = vutf8::records::Framing::lines()
                .max_record(max)
                .cut_long_records(cut);
            let mut reader = framing.reader(log);
            while reader.next_frame().expect("no read error").is_some() {}
            assert_eq!(
                reader.counts(),
                std_counts(log, max, cut, None),
                "{what}: reader, max {max}, cut {cut}"
            );
        }
    }
    std_counts(log, usize::MAX, false, None)
}

/// The reference of the counts by kind agrees with vutf8's kinds on every string of up to
/// 3 bytes from the edges of each class of byte, and on 4-byte sequences after each lead
/// F0..FF.
#[test]
fn the_reference_kinds_are_vutf8s() {
    const EDGES: [u8; 24] = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
        0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
    ];
    let kind = |bytes: &[u8]| vutf8::from_utf8(bytes).err().map(|e| e.kind());
    let mut strings: Vec<Vec<u8>> = vec![vec![]];
    for len in 1..=3 {
        let mut longer = Vec::new();
        for s in strings.iter().filter(|s| s.len() == len - 1) {
            for &b in &EDGES {
                longer.push([&s[..], &[b]].concat());
            }
        }
        strings.extend(longer);
    }
    for lead in 0xF0..=0xFF {
        for &b in &EDGES {
            strings.push(vec![lead, b, 0x80, 0x80]);
            strings.push(vec![lead, 0x90, b, 0x80]);
        }
    }
    for s in &strings {
        assert_eq!(std_error_kind(s), kind(s), "{s:02X?}");
    }
}

#[test]
fn counts_equal_std_on_damaged_logs() {
    let mut all = Counts::new();
    for seed in 0..6 {
        for crlf in [false, true] {
            all += check_counts(
                &damaged_log(seed, crlf),
                &format!("log {seed}, CRLF {crlf}"),
            );
        }
    }
    // The logs have errors of several kinds, each counted.
    let kinds = all.by_kind().filter(|&(_, n)| n > 0).count();
    assert!(all.invalid() > 200 && kinds >= 5, "{all:?}");
}

/// The damaged real logs (`scripts/real-logs.sh`): the counts of every policy and of the
/// reader against std's. Ignored: the logs are downloaded, not committed; CI builds them
/// and runs this (`--ignored`, in release).
#[test]
#[ignore = "needs target/real-logs (scripts/real-logs.sh)"]
fn counts_equal_std_on_the_damaged_real_logs() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/real-logs/damaged.log");
    let log = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run scripts/real-logs.sh)", path.display()));
    let counts = check_counts(&log, "damaged.log");
    let mut crlf = Vec::with_capacity(log.len() + log.len() / 32);
    for line in log.split_inclusive(|&b| b == b'\n') {
        match line.strip_suffix(b"\n") {
            Some(body) => {
                crlf.extend_from_slice(body.strip_suffix(b"\r").unwrap_or(body));
                crlf.extend_from_slice(b"\r\n");
            }
            None => crlf.extend_from_slice(line),
        }
    }
    assert_eq!(check_counts(&crlf, "damaged.log with CRLF"), counts);
    eprintln!("damaged.log: {counts:?}");
    assert!(
        counts.records() > 30_000 && counts.invalid() > 500,
        "{counts:?}"
    );
}
