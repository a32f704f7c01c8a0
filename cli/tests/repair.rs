//! End-to-end tests of `vutf8 repair`: the output is exactly `String::from_utf8_lossy` of
//! the input, whatever way the input arrives.
#![cfg(unix)]

mod common;

use common::{run, run_cmd, run_on, text, vutf8};

/// Inputs with ill-formed parts of every kind, at the start, inside and at the end.
fn inputs() -> Vec<Vec<u8>> {
    let bad: &[&[u8]] = &[
        b"\xC0\xAF",
        b"\xE0\x80\xAF",
        b"\xED\xA0\x80",
        b"\xF4\x90\x80\x80",
        b"\xF0\x9F\x98",
        b"\xE2\x82",
        b"\x80\xBF",
        b"\xFF",
        b"\xF8\x88\x80\x80\x80",
        b"\xC3",
    ];
    let mut out = vec![Vec::new(), text(3000, 7)];
    for (i, b) in bad.iter().enumerate() {
        out.push(b.to_vec());
        let mut v = b.to_vec();
        v.extend_from_slice(&text(100 + i, i as u64));
        v.extend_from_slice(b);
        v.extend_from_slice(&text(50, 1));
        v.extend_from_slice(&b[..b.len() - 1]);
        out.push(v);
    }
    // Long enough for several buffers of the stream.
    let mut long = Vec::new();
    for i in 0..4000 {
        long.extend_from_slice(&text(600, i));
        long.extend_from_slice(bad[i as usize % bad.len()]);
    }
    out.push(long);
    out
}

#[test]
fn repair_is_from_utf8_lossy_from_stdin_files_and_to_files() {
    let dir = tempfile::tempdir().unwrap();
    for (i, input) in inputs().iter().enumerate() {
        let want = String::from_utf8_lossy(input).into_owned();
        let status = if want.as_bytes() == &input[..] { 0 } else { 1 };
        let r = run(&["repair"], input);
        assert_eq!(r.status, status, "case {i}");
        assert!(r.stdout == want, "case {i} from stdin");
        let path = dir.path().join(format!("in{i}"));
        std::fs::write(&path, input).unwrap();
        let out = dir.path().join(format!("out{i}"));
        let mut cmd = vutf8();
        cmd.arg("repair").arg(&path).arg("-o").arg(&out);
        let r = run_cmd(cmd, b"");
        assert_eq!((r.status, r.stdout.as_str()), (status, ""), "case {i}");
        assert!(
            std::fs::read(&out).unwrap() == want.as_bytes(),
            "case {i} to a file"
        );
    }
}

#[test]
fn summary_counts_replacements() {
    let r = run(&["repair", "--summary"], b"a\xC0\xAFb\xE2\x82");
    assert_eq!(r.status, 1);
    assert_eq!(r.stdout, "a\u{FFFD}\u{FFFD}b\u{FFFD}");
    assert_eq!(
        r.stderr,
        "vutf8: <stdin>: 6 bytes read (6 B), 11 bytes written, 3 replaced with U+FFFD\n"
    );
}

#[test]
fn signature_kept_stripped_or_reported() {
    let input = b"\xEF\xBB\xBFhi \xFF";
    let r = run(&["repair"], input);
    assert_eq!(r.stdout, "\u{FEFF}hi \u{FFFD}");
    let r = run(&["repair", "--bom", "strip"], input);
    assert_eq!(r.stdout, "hi \u{FFFD}");
    // Only a signature at the very start is one.
    let r = run(&["repair", "--bom", "strip"], b"x\xEF\xBB\xBF");
    assert_eq!((r.status, r.stdout.as_str()), (0, "x\u{FEFF}"));
    let r = run(&["repair", "--bom", "report"], input);
    assert_eq!(r.stdout, "\u{FEFF}hi \u{FFFD}");
    assert_eq!(
        r.stderr,
        "vutf8: <stdin>: starts with a UTF-8 signature (BOM)\n"
    );
    // A signature arriving one byte at a time is still stripped.
    let r = run(&["repair", "--bom", "strip"], b"\xEF\xBB\xBF");
    assert_eq!((r.status, r.stdout.as_str()), (0, ""));
}

#[test]
fn refuses_to_overwrite_its_input_and_reports_missing_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.txt");
    std::fs::write(&path, b"keep \xFF me").unwrap();
    let mut cmd = vutf8();
    cmd.arg("repair").arg(&path).arg("-o").arg(&path);
    let r = run_cmd(cmd, b"");
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("is the input"), "{}", r.stderr);
    assert_eq!(std::fs::read(&path).unwrap(), b"keep \xFF me");
    let r = run_on(&["repair"], &dir.path().join("missing"));
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.contains("No such file or directory"),
        "{}",
        r.stderr
    );
}

/// A log of multilingual lines, some damaged, with LF or CRLF line ends, ending with or
/// without a line end.
fn damaged_log(crlf: bool, final_end: bool) -> Vec<u8> {
    let bad: &[&[u8]] = &[
        b"\xE9",
        b"\xE2\x82",
        b"\xFF\xFE",
        b"\xC0\xAF",
        b"\xED\xA0\x80",
    ];
    let mut log = Vec::new();
    for i in 0..300usize {
        let mut line: Vec<u8> = text(40 + i % 90, i as u64)
            .into_iter()
            .filter(|&b| b != b'\n')
            .collect();
        if i % 9 == 4 {
            line.splice(i % 30..i % 30, bad[i % bad.len()].iter().copied());
        }
        log.extend(line);
        if i < 299 || final_end {
            log.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        }
    }
    log
}

/// The reference for a policy: each line (and its own line end) through the library's
/// policy, lines the policy refuses left out; the library's policies are tested against
/// their own references (String::from_utf8_lossy, Python, the WHATWG table) in
/// tests/policy.rs.
fn by_lines(input: &[u8], policy: vutf8::records::Policy) -> (Vec<u8>, usize, usize) {
    let (mut out, mut repaired, mut dropped) = (Vec::new(), 0, 0);
    let records: Vec<_> = vutf8::records::lines(input).collect();
    for (i, r) in records.iter().enumerate() {
        let next = records.get(i + 1).map_or(input.len(), |n| n.offset());
        let end = &input[r.offset() + r.bytes().len()..next];
        match policy.text(r.bytes()) {
            Some(text) => {
                repaired += usize::from(!r.is_valid());
                out.extend_from_slice(text.as_bytes());
                out.extend_from_slice(end);
            }
            None => dropped += 1,
        }
    }
    (out, repaired, dropped)
}

#[test]
fn every_policy_line_by_line_with_lf_and_crlf() {
    use vutf8::records::Policy;
    for crlf in [false, true] {
        for final_end in [false, true] {
            let input = damaged_log(crlf, final_end);
            for policy in [Policy::Escape, Policy::Windows1252, Policy::Drop] {
                let (want, repaired, dropped) = by_lines(&input, policy);
                assert!(repaired + dropped > 20);
                let r = run(&["repair", "--policy", policy.name(), "--summary"], &input);
                let what = format!("{policy}, CRLF {crlf}, final line end {final_end}");
                assert_eq!(r.status, 1, "{what}: {}", r.stderr);
                assert!(r.stdout.as_bytes() == &want[..], "{what}");
                assert!(
                    r.stderr.contains(&format!(
                        "300 lines, {repaired} repaired ({policy}), {dropped} dropped"
                    )),
                    "{what}: {}",
                    r.stderr
                );
            }
            // Replace stays the whole-input repair, which equals it line by line.
            let r = run(&["repair"], &input);
            assert_eq!(r.status, 1);
            assert!(r.stdout.as_bytes() == &by_lines(&input, Policy::Replace).0[..]);
        }
    }
}

#[test]
fn strict_reports_the_first_invalid_line_as_the_check_mode_does() {
    let input = damaged_log(true, true);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.txt");
    std::fs::write(&path, &input).unwrap();
    let check = run_on(&[], &path);
    let first = check.lines()[0].to_owned();
    let mut cmd = vutf8();
    cmd.args(["repair", "--policy", "strict"]).arg(&path);
    let r = run_cmd(cmd, b"");
    assert_eq!(r.status, 1);
    assert_eq!(
        r.stderr.lines().next(),
        Some(first.as_str()),
        "{}",
        r.stderr
    );
    // The lines before it were copied.
    let line = first.split(':').nth(1).unwrap().parse::<usize>().unwrap();
    let before: Vec<u8> = input
        .split_inclusive(|&b| b == b'\n')
        .take(line - 1)
        .flatten()
        .copied()
        .collect();
    assert!(r.stdout.as_bytes() == &before[..]);
    // A valid input: nothing changed, status 0.
    let valid = text(5000, 3);
    let r = run(&["repair", "--policy", "strict"], &valid);
    assert_eq!((r.status, r.stdout.as_bytes()), (0, &valid[..]));
}

#[test]
fn lines_over_the_cap_are_left_out_with_a_warning() {
    let mut input = b"short\n".to_vec();
    input.extend(vec![b'x'; 5000]);
    input.extend_from_slice(b"\nafter\n");
    let r = run(
        &["repair", "--policy", "escape", "--max-line", "4096"],
        &input,
    );
    assert_eq!(r.status, 1);
    assert_eq!(r.stdout, "short\nafter\n");
    assert!(
        r.stderr
            .contains(":2: line of 5000 bytes over --max-line 4096: left out"),
        "{}",
        r.stderr
    );
}
