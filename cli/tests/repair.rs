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

fn damaged_log(crlf: bool, final_end: bool) -> Vec<u8> {
    common::generated_damaged_log(crlf, final_end)
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
            for policy in [
                Policy::Escape,
                Policy::Windows1252,
                Policy::Utf8OrWindows1252,
                Policy::Drop,
            ] {
                let (want, repaired, dropped) = by_lines(&input, policy);
                assert!(repaired + dropped > 20);
                let r = run(&["repair", "--policy", policy.name(), "--summary"], &input);
                let what = format!("{policy}, CRLF {crlf}, final line end {final_end}");
                assert_eq!(r.status, 1, "{what}: {}", r.stderr);
                assert!(r.stdout.as_bytes() == &want[..], "{what}");
                let valid = 300 - repaired - dropped;
                assert!(
                    r.stderr.contains(&format!(
                        "300 lines: {valid} valid, {repaired} repaired, {dropped} dropped, \
                         0 too long, 0 refused (policy {policy})"
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

/// Every way `vutf8 repair` copies: replace on the whole stream (the default), each
/// policy by records, and replace by records (`--json`).
fn every_mode() -> Vec<Vec<&'static str>> {
    let mut modes = vec![vec![]];
    for policy in vutf8::records::Policy::ALL {
        modes.push(vec!["--policy", policy.name()]);
    }
    modes.push(vec!["--json"]);
    modes
}

/// The `text` of each JSON object in `out`.
fn json_texts(out: &str) -> Vec<String> {
    out.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object");
            v["text"].as_str().expect("a text").to_string()
        })
        .collect()
}

#[test]
fn each_line_is_out_before_the_input_sends_the_next() {
    for mode in every_mode() {
        let mut cmd = vutf8();
        cmd.arg("repair").args(&mode);
        let mut live = common::Live::start(cmd);
        live.send(b"a\n");
        // The input now waits for more: the line must be out, whatever the mode.
        live.wait_for(&format!("`a` from `repair {mode:?}`"), |got| {
            got.ends_with(b"\n")
        });
        live.send(b"b\xFF\n");
        let r = live.finish();
        let want = match mode.as_slice() {
            [] | ["--policy", "replace"] => "a\nb\u{FFFD}\n",
            ["--policy", "escape"] => "a\nb\\xff\n",
            ["--policy", "windows-1252" | "utf8-or-windows-1252"] => "a\nbÿ\n",
            ["--policy", "drop" | "strict"] => "a\n",
            ["--json"] => {
                assert_eq!(json_texts(&r.stdout), ["a", "b\u{FFFD}"]);
                continue;
            }
            _ => unreachable!("{mode:?}"),
        };
        assert_eq!(r.stdout, want, "{mode:?}");
    }
}

#[test]
fn a_cap_of_usize_max_keeps_lines_that_arrive_in_pieces() {
    let max = usize::MAX.to_string();
    for mode in every_mode() {
        let mut cmd = vutf8();
        cmd.arg("repair").args(&mode).args(["--max-line", &max]);
        let mut live = common::Live::start(cmd);
        // Two reads, the first line split between them.
        live.send(b"hello ");
        live.send(b"world\nnext\n");
        let r = live.finish();
        assert_eq!((r.status, r.stderr.as_str()), (0, ""), "{mode:?}");
        if mode == ["--json"] {
            assert_eq!(json_texts(&r.stdout), ["hello world", "next"]);
        } else {
            assert_eq!(r.stdout, "hello world\nnext\n", "{mode:?}");
        }
    }
}

#[test]
fn the_cap_named_in_warnings_is_the_cap_used() {
    let r = run(
        &["repair", "--policy", "escape", "--max-line", "2"],
        b"abc\nabcdef\nok\n",
    );
    assert_eq!((r.status, r.stdout.as_str()), (1, "ok\n"));
    assert_eq!(
        r.stderr,
        "vutf8: <stdin>:1: line of 3 bytes over --max-line 2: left out\n\
         vutf8: <stdin>:2: line of 6 bytes over --max-line 2: left out\n"
    );
}

#[test]
fn warnings_about_long_lines_are_summed_up() {
    let mut input = Vec::new();
    for i in 0..25 {
        input.extend_from_slice(format!("short {i}\n").as_bytes());
        input.extend(vec![b'x'; 300]);
        input.push(b'\n');
    }
    let r = run(
        &["repair", "--policy", "escape", "--max-line", "200"],
        &input,
    );
    assert_eq!(r.status, 1);
    assert_eq!(r.stdout.lines().count(), 25);
    let warnings: Vec<&str> = r.stderr.lines().collect();
    // Ten named (repair_lines::NAMED_TOO_LONG), then one line for them all.
    assert_eq!(warnings.len(), 11, "{}", r.stderr);
    assert_eq!(
        warnings[0],
        "vutf8: <stdin>:2: line of 300 bytes over --max-line 200: left out"
    );
    assert!(warnings[9].ends_with("(further lines over the cap are only counted)"));
    assert_eq!(
        warnings[10],
        "vutf8: <stdin>: 25 lines over --max-line 200 left out in all"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn read_and_write_errors_are_named_after_what_failed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.txt");
    std::fs::write(&path, b"abc\n\xFF\n").unwrap();
    let name = path.display().to_string();
    for mode in every_mode() {
        // A write error is the output's, to a file or to stdout.
        let mut cmd = vutf8();
        cmd.arg("repair")
            .args(&mode)
            .arg(&path)
            .args(["-o", "/dev/full"]);
        let r = run_cmd(cmd, b"");
        assert_eq!(r.status, 2, "{mode:?}");
        assert!(
            r.stderr
                .starts_with("vutf8: /dev/full: cannot write: No space left on device"),
            "{mode:?}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains(&name), "{mode:?}: {}", r.stderr);
        let mut cmd = vutf8();
        cmd.arg("repair").args(&mode).arg(&path);
        cmd.stdout(std::fs::File::create("/dev/full").unwrap());
        let out = cmd.stderr(std::process::Stdio::piped()).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{mode:?}");
        assert!(
            stderr.starts_with("vutf8: <stdout>: cannot write: No space left on device"),
            "{mode:?}: {stderr}"
        );
        // A read error is the input's: a directory opens, and cannot be read.
        let mut cmd = vutf8();
        cmd.arg("repair").args(&mode).arg(dir.path());
        let r = run_cmd(cmd, b"");
        assert_eq!(r.status, 2, "{mode:?}");
        assert!(
            r.stderr
                .starts_with(&format!("vutf8: {}: cannot read: ", dir.path().display())),
            "{mode:?}: {}",
            r.stderr
        );
    }
}

#[test]
fn strict_and_json_give_the_check_modes_reason_for_the_same_byte() {
    let inputs: &[&[u8]] = &[
        b"ok\ncaf\xE9\nmore\n",
        b"ok\r\ncaf\xE9\r\nmore\r\n",
        b"ok\nx\xE2\x82\n",
        b"\xF0\x9F\x98\n",
        b"ok\n\xED\xA0\n",
        b"ok\nat the end \xE9",
        b"\xEF\xBB\xBFcaf\xE9\n",
        b"fine\n\xC0\xAF\n",
    ];
    for &input in inputs {
        let check = run(&[], input);
        assert_eq!(check.status, 1);
        let first = check.lines()[0].to_owned();
        let strict = run(&["repair", "--policy", "strict"], input);
        assert_eq!(strict.status, 1);
        assert_eq!(
            strict.stderr.lines().next(),
            Some(first.as_str()),
            "{input:02X?}"
        );
        // The JSON record's error: the same offset, reason and bytes.
        let json = run(&["repair", "--json", "--policy", "escape"], input);
        let invalid: serde_json::Value = json
            .lines()
            .iter()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|v| v["valid"] == false)
            .unwrap();
        let e = &invalid["error"];
        let at = invalid["offset"].as_u64().unwrap() + e["offset"].as_u64().unwrap();
        let reason = e["reason"].as_str().unwrap();
        let bytes = e["bytes"].as_str().unwrap();
        assert!(
            first.ends_with(&format!("byte {at}: {reason} (bytes: {bytes})")),
            "{first} / {invalid}"
        );
    }
}

#[test]
fn each_summary_counter_has_one_meaning() {
    let mut input = Vec::new();
    for i in 0..52 {
        input.extend_from_slice(format!("line {i}\n").as_bytes());
    }
    let written = input.len();
    input.extend_from_slice(b"bad \xFF\nafter\n");
    let r = run(&["repair", "--policy", "strict", "--summary"], &input);
    assert_eq!(r.status, 1);
    assert_eq!(r.stdout.len(), written);
    assert!(
        r.stderr.ends_with(&format!(
            "vutf8: <stdin>: 53 lines: 52 valid, 0 repaired, 0 dropped, 0 too long, 1 refused \
             (policy strict); first errors: 1 invalid_byte; {} bytes read, {written} bytes \
             written\n",
            input.len()
        )),
        "{}",
        r.stderr
    );
    // On the whole stream replace counts what it replaced; by records, lines.
    let input = b"a\xC0\xAFb\n\xFF\nok\n";
    let r = run(&["repair", "--summary"], input);
    assert!(
        r.stderr.ends_with(", 3 replaced with U+FFFD\n"),
        "{}",
        r.stderr
    );
    let r = run(&["repair", "--summary", "--json"], input);
    let summary: serde_json::Value =
        serde_json::from_str(r.stderr.lines().last().unwrap()).unwrap();
    assert_eq!(
        summary,
        serde_json::json!({
            "lines": 3, "valid": 1, "repaired": 2, "dropped": 0, "too_long": 0, "refused": 0,
            "first_errors": {"overlong": 1, "invalid_byte": 1}, "policy": "replace",
            "bytes_read": input.len(), "bytes_written": r.stdout.len(), "output_closed": false,
        })
    );
}

#[test]
fn a_closed_output_ends_the_copy_quietly_with_the_status_of_what_was_done() {
    use std::io::{BufRead, Write};
    for mode in every_mode() {
        for first_valid in [true, false] {
            let mut child = vutf8()
                .arg("repair")
                .args(&mode)
                .arg("--summary")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            let mut input = if first_valid {
                &b"first\n"[..]
            } else {
                &b"f\xFFirst\n"[..]
            }
            .to_vec();
            // Far more than pipes hold: a write after the reader went away fails.
            input.extend(text(4 << 20, 1));
            let total = input.len();
            let feeder = std::thread::spawn(move || {
                let _ = stdin.write_all(&input); // it stops reading: that is fine
            });
            // The reader reads one line, then goes away (`| head -1`).
            let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
            let mut line = Vec::new();
            stdout.read_until(b'\n', &mut line).unwrap();
            drop(stdout);
            let out = child.wait_with_output().unwrap();
            feeder.join().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            let what = format!("{mode:?}, first line valid: {first_valid}: {stderr}");
            let strict_stop = !first_valid && mode.contains(&"strict");
            if !strict_stop {
                assert_eq!(out.status.code(), Some(i32::from(!first_valid)), "{what}");
                // One line, the summary, which says what happened.
                assert_eq!(stderr.lines().count(), 1, "{what}");
                let closed = if mode.contains(&"--json") {
                    "\"output_closed\":true"
                } else {
                    " before the output was closed"
                };
                assert!(stderr.contains(closed), "{what}");
            }
            let summary = stderr.lines().last().unwrap_or("");
            let written = if mode.contains(&"--json") {
                let v: serde_json::Value = serde_json::from_str(summary).expect(&what);
                v["bytes_written"].as_u64()
            } else {
                summary
                    .split(" bytes written")
                    .next()
                    .and_then(|s| s.rsplit(' ').next())
                    .and_then(|n| n.parse().ok())
            };
            let written = written.unwrap_or_else(|| panic!("bytes written: {what}"));
            assert!(written < total as u64, "{what}");
        }
    }
}

#[test]
fn help_describes_every_policy() {
    let r = run(&["repair", "--help"], b"");
    for policy in vutf8::records::Policy::ALL {
        assert!(
            r.stdout.contains(&format!("- {}:", policy.name())),
            "{policy}: {}",
            r.stdout
        );
    }
}

/// The kind name of `--json` and the summary for an error kind (the check mode's).
fn kind_name(kind: vutf8::ErrorKind) -> &'static str {
    use vutf8::ErrorKind::*;
    match kind {
        UnexpectedContinuation => "unexpected_continuation",
        InvalidByte => "invalid_byte",
        Overlong => "overlong",
        Surrogate => "surrogate",
        TooLarge => "too_large",
        TooShort => "too_short",
        Incomplete => "incomplete",
        _ => "other",
    }
}

/// The first error of a record as std finds it in the record and the first byte of what
/// ended it (the check mode sees that byte too); its kind named by the library, whose
/// position must be std's.
fn reference_error(bytes: &[u8], end: &[u8]) -> (usize, &'static str) {
    let mut seen = bytes.to_vec();
    seen.extend_from_slice(&end[..end.len().min(1)]);
    let std_error = std::str::from_utf8(&seen).unwrap_err();
    let ours = vutf8::from_utf8(&seen).unwrap_err();
    assert_eq!(
        (ours.valid_up_to(), ours.error_len()),
        (std_error.valid_up_to(), std_error.error_len())
    );
    (std_error.valid_up_to(), kind_name(ours.kind()))
}

#[test]
fn json_records_and_counters_against_std_per_line_on_damaged_logs() {
    use base64::Engine as _;
    use vutf8::records::Policy;
    for (name, log) in common::damaged_logs() {
        let records = common::reference_records(&log, b'\n');
        for &policy in Policy::ALL {
            let what = format!("{name}, {policy}");
            let r = run(
                &["repair", "--json", "--summary", "--policy", policy.name()],
                &log,
            );
            let objects: Vec<serde_json::Value> = r
                .stdout
                .lines()
                .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
                .collect();
            let mut want = serde_json::json!({
                "lines": 0, "valid": 0, "repaired": 0, "dropped": 0, "too_long": 0,
                "refused": 0, "first_errors": {}, "policy": policy.name(),
                "bytes_read": log.len(), "bytes_written": r.stdout.len(),
                "output_closed": false,
            });
            let bump = |n: &mut serde_json::Value| *n = (n.as_u64().unwrap_or(0) + 1).into();
            let mut invalid = 0;
            for (i, &(offset, bytes, end)) in records.iter().enumerate() {
                let Some(v) = objects.get(i) else {
                    // Only strict stops early, at its first invalid record.
                    assert_eq!(policy, Policy::Strict, "{what}");
                    break;
                };
                let at = format!("{what}, line {}", i + 1);
                assert_eq!(v["line"], i + 1, "{at}");
                assert_eq!(v["offset"], offset, "{at}");
                assert_eq!(v["len"], bytes.len(), "{at}");
                assert_eq!(v["end"], std::str::from_utf8(end).unwrap(), "{at}");
                bump(&mut want["lines"]);
                let text = policy.text(bytes).map(|t| t.into_owned());
                if let Ok(s) = std::str::from_utf8(bytes) {
                    assert_eq!(v["valid"], true, "{at}");
                    assert_eq!(v["outcome"], "valid", "{at}");
                    assert_eq!(v["text"], s, "{at}");
                    assert!(v.get("raw_base64").is_none() && v.get("error").is_none());
                    bump(&mut want["valid"]);
                    continue;
                }
                invalid += 1;
                assert_eq!(v["valid"], false, "{at}");
                let raw = base64::engine::general_purpose::STANDARD
                    .decode(v["raw_base64"].as_str().expect("raw_base64"))
                    .unwrap();
                assert!(raw == bytes, "{at}: the original bytes come back");
                let (error_at, kind) = reference_error(bytes, end);
                assert_eq!(v["error"]["offset"], error_at, "{at}");
                assert_eq!(v["error"]["kind"], kind, "{at}");
                bump(&mut want["first_errors"][kind]);
                let outcome = match (&text, policy) {
                    (Some(text), _) => {
                        assert_eq!(v["text"], text.as_str(), "{at}");
                        "repaired"
                    }
                    (None, Policy::Strict) => "refused",
                    (None, _) => "dropped",
                };
                assert_eq!(v["outcome"], outcome, "{at}");
                if outcome != "repaired" {
                    assert!(v["text"].is_null(), "{at}");
                }
                bump(&mut want[outcome]);
                if outcome == "refused" {
                    // Read ahead of the refused record: what the reader took at once.
                    want["bytes_read"] = serde_json::json!(null);
                    break;
                }
            }
            assert!(
                invalid >= 30 || (policy == Policy::Strict && invalid == 1),
                "{what}: {invalid} invalid lines"
            );
            let mut summary: serde_json::Value =
                serde_json::from_str(r.stderr.lines().last().expect("the summary")).unwrap();
            if want["bytes_read"].is_null() {
                want["bytes_read"] = summary["bytes_read"].clone();
            }
            assert_eq!(
                objects.len() as u64,
                want["lines"].as_u64().unwrap(),
                "{what}"
            );
            summary["first_errors"]
                .as_object_mut()
                .unwrap()
                .retain(|_, n| n != 0);
            assert_eq!(summary, want, "{what}");
            assert_eq!(r.status, 1, "{what}");
        }
    }
}

#[test]
fn records_at_any_ascii_delimiter() {
    use vutf8::records::Policy;
    let log = common::generated_damaged_log(false, true);
    for (arg, delimiter) in [
        ("\\0", 0u8),
        ("\\x1e", 0x1E),
        ("\\x1E", 0x1E),
        ("\\r", b'\r'),
        ("\\t", b'\t'),
        ("|", b'|'),
    ] {
        assert!(!log.contains(&delimiter), "{arg} is not in the log");
        let input: Vec<u8> = log
            .iter()
            .map(|&b| if b == b'\n' { delimiter } else { b })
            .collect();
        let records = common::reference_records(&input, delimiter);
        assert_eq!(records.len(), 300);
        for &policy in Policy::ALL {
            if policy == Policy::Strict {
                continue;
            }
            let mut want = Vec::new();
            for &(_, bytes, end) in &records {
                if let Some(text) = policy.text(bytes) {
                    want.extend_from_slice(text.as_bytes());
                    want.extend_from_slice(end);
                }
            }
            let r = run(
                &["repair", "--delimiter", arg, "--policy", policy.name()],
                &input,
            );
            assert_eq!(r.status, 1, "{arg} {policy}: {}", r.stderr);
            assert!(r.stdout.as_bytes() == &want[..], "{arg} {policy}");
        }
        // With --json each record ends with the delimiter.
        let r = run(&["repair", "--delimiter", arg, "--json"], &input);
        let ends: Vec<serde_json::Value> = r
            .lines()
            .iter()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["end"].clone())
            .collect();
        assert_eq!(ends.len(), 300);
        assert!(ends.iter().all(|e| e == &char::from(delimiter).to_string()));
    }
    // \n is the default: a \r before it is part of the line end.
    let crlf = b"a\r\nb\xFF\r\n";
    for args in [
        &["repair", "--json"][..],
        &["repair", "--json", "--delimiter", "\\n"],
    ] {
        let r = run(args, crlf);
        let v: serde_json::Value = serde_json::from_str(r.lines()[1]).unwrap();
        assert_eq!(
            (v["len"].as_u64(), v["end"].as_str()),
            (Some(2), Some("\r\n"))
        );
    }
    // Not ASCII, or not one byte: refused, with why.
    for bad in ["é", "\\x80", "\\xff", "ab", "\\q"] {
        let r = run(&["repair", "--delimiter", bad], b"x");
        assert_eq!(r.status, 2, "{bad}");
        let why = if bad.chars().count() == 1 || bad.starts_with("\\x") {
            "is not ASCII"
        } else {
            "expected one ASCII character or an escape"
        };
        assert!(r.stderr.contains(why), "{bad}: {}", r.stderr);
    }
}

#[test]
fn repair_of_input_arriving_one_to_three_bytes_at_a_time() {
    // Every ill-formed part and character cut at every place by the reads.
    let mut input = Vec::new();
    for part in [
        &b"\xC0\xAF"[..],
        b"\xE0\x80\xAF",
        b"\xED\xA0\x80",
        b"\xF4\x90\x80\x80",
        b"\xF0\x9F\x98",
        b"\xE2\x82",
        b"\x80\xBF",
        b"\xFF",
        b"\xC3",
        "é€😀".as_bytes(),
        b"\xEF\xBF\xBD",
    ] {
        input.extend_from_slice(b"ab");
        input.extend_from_slice(part);
    }
    input.extend_from_slice(b"\xF0\x9F");
    for (sizes, summary) in [([1, 2, 3], false), ([3, 1, 2], true)] {
        let mut cmd = vutf8();
        cmd.arg("repair");
        if summary {
            cmd.arg("--summary");
        }
        let mut live = common::Live::start(cmd);
        let mut rest = &input[..];
        for &n in sizes.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (piece, tail) = rest.split_at(n.min(rest.len()));
            live.send(piece);
            rest = tail;
        }
        let r = live.finish();
        assert_eq!(r.status, 1);
        assert_eq!(r.stdout, String::from_utf8_lossy(&input), "{sizes:?}");
        if summary {
            let parts = input
                .utf8_chunks()
                .filter(|c| !c.invalid().is_empty())
                .count();
            assert!(
                r.stderr
                    .ends_with(&format!(", {parts} replaced with U+FFFD\n")),
                "{}",
                r.stderr
            );
        }
    }
}
