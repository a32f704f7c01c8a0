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
